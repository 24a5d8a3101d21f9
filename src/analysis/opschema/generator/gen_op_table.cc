// Host tool: turns aten_schemas.txt into the compact C++ table declared in op_table.h.
//
//   gen_op_table SCHEMAS.txt OUT.cc OUT_REJECTS.txt
//
// Every line is parsed with LibTorch's own parser (torch::jit::parseSchema), so the table
// agrees with PyTorch on what `Tensor(a!)` and friends mean. A line this LibTorch cannot
// parse (it may be older than the schemas) is kept out of the table and listed, verbatim,
// both in the generated source and in OUT_REJECTS.txt. Kept to one translation unit because
// the LibTorch headers are slow to compile.
#include <torch/csrc/jit/frontend/function_schema_parser.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Argument {
  std::string name;
  std::string type_text;  // "Tensor", "Dimname", ...: pairs out= variants with their twin
  int type = 0;
  int alias_set = -1;
  bool writes = false;
  bool kwarg_only = false;
};

struct Return {
  std::string name;
  int type = 0;
  int alias_set = -1;
  bool writes = false;
  int aliases_argument = -1;
};

struct Schema {
  std::string name;
  std::string overload;
  std::vector<Argument> arguments;
  std::vector<Return> returns;
  bool is_mutable = false;
  int functional_twin = -1;
  int inplace_twin = -1;
};

constexpr int kWildcard = 127;

// Mirrors opschema::ValueType.
int value_type(const c10::TypePtr& type) {
  using c10::TypeKind;
  if (type->kind() == TypeKind::TensorType) return 1;
  if (type->kind() == TypeKind::OptionalType) {
    auto inner = type->castRaw<c10::OptionalType>()->getElementType();
    if (inner->kind() == TypeKind::TensorType) return 2;
  }
  if (type->kind() == TypeKind::ListType) {
    auto element = type->castRaw<c10::ListType>()->getElementType();
    if (element->kind() == TypeKind::TensorType) return 3;
    if (element->kind() == TypeKind::OptionalType &&
        element->castRaw<c10::OptionalType>()->getElementType()->kind() == TypeKind::TensorType)
      return 4;
  }
  return 0;
}

// Numbers the alias sets of one schema in order of first appearance. A list argument
// annotates its elements (`Tensor(a!)[]`), which the parser keeps as a contained type.
class AliasNumbering {
 public:
  void read(const c10::AliasInfo* info, int& set, bool& writes) {
    set = -1;
    writes = false;
    if (info == nullptr) return;
    const c10::AliasInfo* effective = info;
    if (info->beforeSets().empty() && !info->containedTypes().empty())
      effective = &info->containedTypes().front();
    writes = info->isWrite() || effective->isWrite();
    if (effective->isWildcardBefore()) {
      set = kWildcard;
      return;
    }
    for (const c10::Symbol& symbol : effective->beforeSets()) {
      auto [it, inserted] = numbers_.try_emplace(symbol.toUnqualString(), next_);
      if (inserted) ++next_;
      // `Tensor(b|a)` names several sets; the lowest number is enough to pair it up.
      set = set < 0 ? it->second : std::min(set, it->second);
    }
  }

 private:
  std::map<std::string, int> numbers_;
  int next_ = 0;
};

Schema convert(const c10::FunctionSchema& parsed) {
  Schema schema;
  schema.name = parsed.name();
  schema.overload = parsed.overload_name();
  AliasNumbering numbering;
  for (const c10::Argument& argument : parsed.arguments()) {
    Argument out;
    out.name = argument.name();
    out.type_text = argument.type()->str();
    out.type = value_type(argument.type());
    out.kwarg_only = argument.kwarg_only();
    numbering.read(argument.alias_info(), out.alias_set, out.writes);
    schema.is_mutable = schema.is_mutable || out.writes;
    schema.arguments.push_back(std::move(out));
  }
  for (const c10::Argument& ret : parsed.returns()) {
    Return out;
    out.name = ret.name();
    out.type = value_type(ret.type());
    numbering.read(ret.alias_info(), out.alias_set, out.writes);
    if (out.alias_set >= 0 && out.alias_set != kWildcard) {
      for (std::size_t i = 0; i < schema.arguments.size(); ++i) {
        if (schema.arguments[i].alias_set == out.alias_set) {
          out.aliases_argument = static_cast<int>(i);
          break;
        }
      }
    }
    schema.returns.push_back(std::move(out));
  }
  return schema;
}

// `index_copy_` is the in-place twin of `index_copy`; dunders (`__iand__`) are not.
bool is_inplace_name(const std::string& name) {
  return name.size() > 1 && name.back() == '_' && name[name.size() - 2] != '_';
}

// The arguments an out= variant shares with its functional form: all but the written
// keyword-only `out` arguments.
std::vector<std::string> non_out_arguments(const Schema& schema) {
  std::vector<std::string> names;
  for (const Argument& a : schema.arguments)
    if (!(a.kwarg_only && a.writes)) names.push_back(a.type_text + " " + a.name);
  return names;
}

std::vector<std::string> all_arguments(const Schema& schema) {
  std::vector<std::string> names;
  for (const Argument& a : schema.arguments) names.push_back(a.type_text + " " + a.name);
  return names;
}

// In-place twins share the overload (`add_.Tensor` <-> `add.Tensor`). An out= variant
// (`add.out`, `max.dim_max`) is paired with the functional overload of the same op whose
// arguments are its own minus the `out` ones.
void link_twins(std::vector<Schema>& schemas) {
  std::map<std::pair<std::string, std::string>, int> by_key;
  std::map<std::string, std::vector<int>> by_name;
  for (std::size_t i = 0; i < schemas.size(); ++i) {
    by_key.emplace(std::make_pair(schemas[i].name, schemas[i].overload), static_cast<int>(i));
    by_name[schemas[i].name].push_back(static_cast<int>(i));
  }
  for (std::size_t i = 0; i < schemas.size(); ++i) {
    Schema& schema = schemas[i];
    if (!schema.is_mutable) continue;
    int twin = -1;
    if (is_inplace_name(schema.name)) {
      auto it = by_key.find({schema.name.substr(0, schema.name.size() - 1), schema.overload});
      if (it != by_key.end() && !schemas[it->second].is_mutable) {
        twin = it->second;
        if (schemas[twin].inplace_twin < 0) schemas[twin].inplace_twin = static_cast<int>(i);
      }
    } else {
      std::vector<std::string> wanted = non_out_arguments(schema);
      if (wanted.size() == schema.arguments.size()) continue;  // writes, but has no out args
      for (int candidate : by_name[schema.name]) {
        if (!schemas[candidate].is_mutable && all_arguments(schemas[candidate]) == wanted) {
          twin = candidate;
          break;
        }
      }
    }
    schema.functional_twin = twin;
  }
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

void write_table(const std::vector<Schema>& schemas, const std::vector<std::string>& rejects,
                 std::size_t source_count, std::ostream& out) {
  out << "// Generated by src/analysis/opschema/generator/gen_op_table.cc from aten_schemas.txt.\n"
         "// Do not edit: rebuild instead.\n"
         "#include \"analysis/opschema/op_table.h\"\n\n"
         "namespace pt2lint::opschema {\nnamespace {\n\n"
         "using VT = ValueType;\n\n"
         "constexpr ArgumentRecord kArguments[] = {\n";
  std::size_t argument_count = 0;
  for (const Schema& schema : schemas) {
    for (const Argument& a : schema.arguments) {
      out << "  {" << quoted(a.name) << ", VT(" << a.type << "), " << a.alias_set << ", "
          << (a.writes ? "true" : "false") << ", " << (a.kwarg_only ? "true" : "false") << "},\n";
      ++argument_count;
    }
  }
  if (argument_count == 0) out << "  {\"\", VT(0), -1, false, false},\n";
  out << "};\n\nconstexpr ReturnRecord kReturns[] = {\n";
  std::size_t return_count = 0;
  for (const Schema& schema : schemas) {
    for (const Return& r : schema.returns) {
      out << "  {" << quoted(r.name) << ", VT(" << r.type << "), " << r.alias_set << ", "
          << (r.writes ? "true" : "false") << ", " << r.aliases_argument << "},\n";
      ++return_count;
    }
  }
  if (return_count == 0) out << "  {\"\", VT(0), -1, false, -1},\n";
  out << "};\n\nconstexpr SchemaRecord kSchemas[] = {\n";
  std::size_t first_argument = 0, first_return = 0;
  for (const Schema& schema : schemas) {
    out << "  {" << quoted(schema.name) << ", " << quoted(schema.overload) << ", "
        << first_argument << ", " << schema.arguments.size() << ", " << first_return << ", "
        << schema.returns.size() << ", " << (schema.is_mutable ? "true" : "false") << ", "
        << schema.functional_twin << ", " << schema.inplace_twin << "},\n";
    first_argument += schema.arguments.size();
    first_return += schema.returns.size();
  }
  out << "};\n\n// Lines the generating LibTorch could not parse.\n"
         "constexpr std::string_view kRejected[] = {\n";
  for (const std::string& line : rejects) out << "  " << quoted(line) << ",\n";
  if (rejects.empty()) out << "  \"\",\n";
  out << "};\n\n}  // namespace\n\n"
         "const OpTable& op_table() {\n"
         "  static constexpr OpTable kTable{\n"
         "      std::span<const SchemaRecord>(kSchemas),\n"
         "      std::span<const ArgumentRecord>(kArguments, "
      << argument_count << "),\n"
         "      std::span<const ReturnRecord>(kReturns, "
      << return_count << "),\n"
         "      std::span<const std::string_view>(kRejected, "
      << rejects.size() << "),\n"
         "      "
      << source_count << "};\n  return kTable;\n}\n\n}  // namespace pt2lint::opschema\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: gen_op_table SCHEMAS.txt OUT.cc OUT_REJECTS.txt\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << "gen_op_table: cannot read " << argv[1] << "\n";
    return 2;
  }
  std::vector<Schema> schemas;
  std::vector<std::string> rejects;
  std::size_t source_count = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    ++source_count;
    try {
      schemas.push_back(convert(torch::jit::parseSchema(line)));
    } catch (const std::exception&) {
      rejects.push_back(line);
    }
  }
  std::sort(schemas.begin(), schemas.end(), [](const Schema& a, const Schema& b) {
    return a.name != b.name ? a.name < b.name : a.overload < b.overload;
  });
  for (std::size_t i = 1; i < schemas.size(); ++i) {
    if (schemas[i].name == schemas[i - 1].name && schemas[i].overload == schemas[i - 1].overload) {
      std::cerr << "gen_op_table: duplicate schema " << schemas[i].name << "."
                << schemas[i].overload << "\n";
      return 1;
    }
  }
  link_twins(schemas);

  std::ostringstream table;
  write_table(schemas, rejects, source_count, table);
  std::ofstream out(argv[2]);
  out << table.str();
  std::ofstream reject_file(argv[3]);
  for (const std::string& reject : rejects) reject_file << reject << '\n';
  if (!out || !reject_file) {
    std::cerr << "gen_op_table: cannot write the outputs\n";
    return 1;
  }
  std::cout << "gen_op_table: " << schemas.size() << " schemas, " << rejects.size()
            << " rejected\n";
  return 0;
}
