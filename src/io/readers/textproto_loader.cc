#include "io/readers/textproto_loader.h"

#include <climits>
#include <string>

#include <fmt/format.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>
#include <simdjson.h>

#include "core/rule_catalogue.h"
#include "io/readers/json/program_json.h"

namespace pt2lint {
namespace {

namespace pb = google::protobuf;

struct ParseError {
  int line = 0;  // 1-based
  int column = 0;
  std::string message;
};

class ErrorList final : public pb::io::ErrorCollector {
 public:
  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    errors.push_back({line + 1, column + 1, message});
  }
  void AddWarning(int, pb::io::ColumnNumber, const std::string&) override {}

  // Where parsing gave up; the attempt that got further is the one the author meant.
  std::pair<int, int> position() const {
    if (errors.empty()) return {INT_MAX, INT_MAX};
    return {errors.front().line, errors.front().column};
  }

  std::vector<ParseError> errors;
};

bool parse(std::string_view text, pb::Message& message, int recursion_limit, ErrorList& errors) {
  pb::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  parser.SetRecursionLimit(recursion_limit);
  pb::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  return parser.Parse(&input, &message);
}

// A union (a message whose fields all belong to one oneof: SymInt, Argument, OutputSpec, ...)
// with no kind set. The JSON reader refuses `{}` for one, and the JSON writer has nothing to
// write for it, so a textproto holding one is no program torch.export could have written.
bool is_empty_union(const pb::Message& message) {
  const pb::Descriptor& type = *message.GetDescriptor();
  if (type.oneof_decl_count() != 1 || type.field_count() == 0) return false;
  const pb::OneofDescriptor& kind = *type.oneof_decl(0);
  return kind.field_count() == type.field_count() &&
         !message.GetReflection()->HasOneof(message, &kind);
}

// The first field that no program JSON could hold, as a field path and what is wrong with
// it; an empty path when there is none. Two things a textproto can spell and JSON cannot:
// a string that is not UTF-8 (an escape such as "\\235"; the program JSON holds only UTF-8)
// and an empty union. Both would break a JSON round trip (pipeline fuzz findings 7 and 8).
struct Unwritable {
  enum Problem { kNone, kNotUtf8, kEmptyUnion };
  std::string path;
  Problem problem = kNone;
};

Unwritable first_unwritable(const pb::Message& message) {
  if (is_empty_union(message)) return {"", Unwritable::kEmptyUnion};
  const pb::Reflection& reflection = *message.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  reflection.ListFields(message, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    const int count = field->is_repeated() ? reflection.FieldSize(message, field) : 1;
    for (int i = 0; i < count; ++i) {
      const std::string where = field->is_repeated() ? fmt::format("{}[{}]", field->name(), i)
                                                     : std::string(field->name());
      if (field->type() == pb::FieldDescriptor::TYPE_STRING) {
        std::string scratch;
        const std::string& text = field->is_repeated()
                                      ? reflection.GetRepeatedStringReference(message, field, i, &scratch)
                                      : reflection.GetStringReference(message, field, &scratch);
        if (!simdjson::validate_utf8(text.data(), text.size())) return {where, Unwritable::kNotUtf8};
      } else if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
        const pb::Message& child = field->is_repeated() ? reflection.GetRepeatedMessage(message, field, i)
                                                        : reflection.GetMessage(message, field);
        if (Unwritable inner = first_unwritable(child); inner.problem != Unwritable::kNone)
          return {inner.path.empty() ? where : where + "." + inner.path, inner.problem};
      }
    }
  }
  return {};
}

}  // namespace

void load_textproto(std::string_view text, std::string_view file_name, LoadContext& context,
                    ProgramOutput& out) {
  if (text.size() > static_cast<std::size_t>(INT_MAX)) {
    context.reporter.report(kMalformedProgram, "",
                            fmt::format("the textproto is {} bytes, more than pt2lint reads",
                                        text.size()));
    return;
  }
  const int limit = static_cast<int>(std::min<std::uint32_t>(context.options.max_json_depth,
                                                             INT_MAX));
  ir::ProgramSet set;
  ErrorList set_errors;
  if (!parse(text, set, limit, set_errors)) {
    ir::Program single;
    ErrorList single_errors;
    if (parse(text, single, limit, single_errors)) {
      set.Clear();
      *set.add_programs() = std::move(single);
    } else {
      const ErrorList& errors =
          single_errors.position() > set_errors.position() ? single_errors : set_errors;
      const char* type = &errors == &set_errors ? "pt2lint.ir.ProgramSet" : "pt2lint.ir.Program";
      for (const auto& e : errors.errors) {
        context.reporter.report(kMalformedProgram, "",
                                fmt::format("{}:{}:{}: {} (reading a {})", file_name, e.line,
                                            e.column, e.message, type));
      }
      if (errors.errors.empty()) {
        context.reporter.report(kMalformedProgram, "",
                                fmt::format("{} is not a pt2lint.ir.ProgramSet or "
                                            "pt2lint.ir.Program in text format",
                                            file_name));
      }
      return;
    }
  }
  if (Unwritable field = first_unwritable(set); field.problem != Unwritable::kNone) {
    context.reporter.report(
        kMalformedProgram, "",
        field.problem == Unwritable::kNotUtf8
            ? fmt::format("{}: the string `{}` is not valid UTF-8; an exported program's JSON "
                          "holds only UTF-8 text",
                          file_name, field.path)
            : fmt::format("{}: the union `{}` sets none of its kinds; an exported program's "
                          "JSON gives every union exactly one kind",
                          file_name, field.path));
    return;
  }
  for (auto& program : *set.mutable_programs()) {
    if (program.name().empty()) program.set_name(kDefaultProgramName);
    program.set_layout(ir::LAYOUT_TEXTPROTO);
    if (program.json_path().empty()) program.set_json_path(std::string(file_name));
    // Hand-written programs often leave the version out; only a stated one is checked.
    if (program.program().has_schema_version()) check_schema_version(context, program);
    // Moving into an arena program copies; textprotos are small hand-written files.
    out.add() = std::move(program);
  }
  if (set.programs_size() == 0) {
    context.reporter.report(kMalformedProgram, "",
                            fmt::format("{} holds no program", file_name));
  }
}

}  // namespace pt2lint
