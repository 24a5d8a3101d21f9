#include "io/readers/zip/pt2_archive_requirements.h"

#include <fmt/format.h>
#include <simdjson.h>

#include "io/readers/zip/archive_integrity.h"
#include "core/rule_catalogue.h"
#include "io/readers/zip/pickle_imports.h"
#include "support/printable.h"
#include "io/readers/zip/utf8_stream.h"

namespace pt2lint {
namespace {

constexpr std::uint64_t kMaxVersionBytes = 4096;
// Sample inputs beyond this are checked for presence only: reading them whole would spend
// the file's memory budget on a check of their structure.
constexpr std::uint64_t kMaxSampleInputBytes = std::uint64_t{64} << 20;
constexpr std::uint64_t kMaxExtraFileBytes = std::uint64_t{64} << 20;
constexpr std::uint64_t kMaxPickleMemberBytes = std::uint64_t{256} << 20;
// Of a larger stored bare pickle, the bytes read: the legacy format's pickles come first.
constexpr std::size_t kPicklePrefixBytes = std::size_t{16} << 20;
constexpr std::uint64_t kMaxNestedMembers = 100'000;
constexpr std::uint64_t kMinStreamVersion = 1;   // kMinSupportedFileFormatVersion
constexpr std::uint64_t kMaxStreamVersion = 10;  // kMaxSupportedFileFormatVersion

bool read_member(const ZipArchive& zip, const ZipArchive::Member& member, std::uint64_t cap,
                 PaddedBytes& out, LoadContext& context) {
  const Status read = zip.read(member, cap, out);
  if (read.ok()) return true;
  context.reporter.report(kMalformedProgram, "",
                          fmt::format("cannot read archive member '{}': {}", member.name, read.message()),
                          member.name);
  return false;
}

// Says that `member`, which torch.export.load reads (`how`), was not read: it is larger than
// `bound`, the most pt2lint reads of such a member without --verify-data. Never silence: a
// report must not read as "clean" about bytes nobody looked at.
void report_not_checked(const ZipArchive::Member& member, std::string_view program, std::string_view what,
                        std::string_view how, std::uint64_t bound, LoadContext& context) {
  context.reporter.report(
      kMemberNotChecked, program,
      fmt::format("archive member '{}' ({}, {} bytes) was not checked: it is larger than the {} MiB pt2lint "
                  "reads of such a member, and torch.export.load {}",
                  member.name, what, member.size, bound >> 20, how),
      member.name, {}, "pass --verify-data to read it whole (it costs reading its bytes)");
}

// The most of a member `bound` allows, or no limit with --verify-data.
std::uint64_t cap(std::uint64_t bound, const LoadContext& context) {
  return context.options.verify_data ? UINT64_MAX : bound;
}

// Fails, saying why, when PyTorchStreamReader cannot open `zip` as a torch.save zip.
Status check_torch_save_archive(const ZipArchive* zip) {
  const ArchiveLayoutReport layout = check_archive_layout(*zip);
  if (layout.damage.member != nullptr) {
    return Status::error(fmt::format("its member '{}' cannot be read: {}",
                                     printable_excerpt(layout.damage.member->name), layout.damage.what));
  }
  if (zip->members().empty()) return Status::error("it is an empty zip");
  const std::string& first = zip->members().front().name;
  const auto slash = first.find('/');
  if (slash == std::string::npos) {
    return Status::error(fmt::format("its first member '{}' is not in a folder (PyTorch: \"file in archive "
                                     "is not in a subdirectory\")",
                                     printable_excerpt(first)));
  }
  const std::string root = first.substr(0, slash + 1);
  const ZipArchive::Member* version = zip->find(root + ".data/version");
  if (version == nullptr) version = zip->find(root + "version");
  if (version == nullptr) {
    return Status::error(fmt::format("it has no '{}.data/version'", printable_excerpt(root)));
  }
  PaddedBytes text;
  if (Status read = zip->read(*version, kMaxVersionBytes, text, ZipArchive::Crc::kLeaveToCaller); !read.ok()) {
    return Status::error(
        fmt::format("its '{}' cannot be read: {}", printable_excerpt(version->name), read.message()));
  }
  if (Status version_ok = check_stream_version_text(text.view()); !version_ok.ok()) {
    return Status::error(fmt::format("its '{}' {}", printable_excerpt(version->name), version_ok.message()));
  }
  if (zip->find(root + "data.pkl") == nullptr) {
    return Status::error(
        fmt::format("it has no '{}data.pkl', the pickle torch.load reads", printable_excerpt(root)));
  }
  return {};
}

// The nested torch.save zip a member holds: read whole (`bytes`) when small, else opened in
// place when stored, so its size costs no memory.
Expected<std::unique_ptr<ZipArchive>> open_nested_zip(const ZipArchive& zip, const ZipArchive::Member& member,
                                                      const PaddedBytes* bytes) {
  return bytes != nullptr ? ZipArchive::open_memory(bytes->view(), kMaxNestedMembers)
                          : zip.open_stored_member(member, kMaxNestedMembers);
}

Status check_torch_save_zip(const ZipArchive& zip, const ZipArchive::Member& member, const PaddedBytes* bytes) {
  const auto opened = open_nested_zip(zip, member, bytes);
  if (!opened.ok()) return Status::error(fmt::format("it is not a torch.save zip ({})", opened.message()));
  return check_torch_save_archive(opened.value().get());
}

// Whether `bytes` (or, for a large member, its first bytes in the archive) start a zip.
bool starts_a_zip(const ZipArchive& zip, const ZipArchive::Member& member, const PaddedBytes* bytes) {
  if (bytes != nullptr) return bytes->view().substr(0, 4) == std::string_view("PK\x03\x04", 4);
  bool zip_magic = false;
  (void)zip.copy_stored_bytes(member, [&](std::string_view chunk) {
    zip_magic = chunk.substr(0, 4) == std::string_view("PK\x03\x04", 4);
    return false;  // the first chunk says it
  });
  return zip_magic;
}

// The first `limit` bytes of a stored member, read in place.
bool stored_prefix(const ZipArchive& zip, const ZipArchive::Member& member, std::size_t limit, std::string& out) {
  (void)zip.copy_stored_bytes(member, [&](std::string_view chunk) {
    out.append(chunk.substr(0, std::min(chunk.size(), limit - out.size())));
    return out.size() < limit;
  });
  return !out.empty();
}

}  // namespace

Status check_stream_version_text(std::string_view text) {
  // std::stoull: leading white space, an optional sign, then at least one digit.
  std::size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || (text[i] >= '\t' && text[i] <= '\r'))) ++i;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  std::uint64_t value = 0;
  std::size_t digits = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    if (value > (UINT64_MAX - digit) / 10) {
      return Status::error(fmt::format("reads '{}', too large for std::stoull", printable_excerpt(text)));
    }
    value = value * 10 + digit;
  }
  if (digits == 0) {
    return Status::error(fmt::format("reads '{}', not a number (PyTorch: \"Couldn't parse the version\")",
                                     printable_excerpt(text)));
  }
  if (negative) value = 0 - value;  // stoull wraps a negative number
  if (value < kMinStreamVersion || value > kMaxStreamVersion) {
    return Status::error(fmt::format("reads '{}'; PyTorchStreamReader accepts versions {} to {}",
                                     printable_excerpt(text), kMinStreamVersion, kMaxStreamVersion));
  }
  return {};
}

void check_stream_version(const ZipArchive& zip, std::string_view root, LoadContext& context) {
  const std::string root_text(root);
  const ZipArchive::Member* member = zip.find(root_text + ".data/version");
  if (member == nullptr) member = zip.find(root_text + "version");
  if (member == nullptr) {
    context.reporter.report(
        kMalformedProgram, "",
        fmt::format("the archive has no '{}.data/version' (nor '{}version'); PyTorchStreamReader "
                    "refuses it before reading anything else",
                    root, root),
        {}, {}, "torch.export.save writes '.data/version' = '6'; write the file again with it");
    return;
  }
  PaddedBytes text;
  if (!read_member(zip, *member, kMaxVersionBytes, text, context)) return;
  const Status version_ok = check_stream_version_text(text.view());
  if (version_ok.ok()) return;
  context.reporter.report(
      kMalformedProgram, "",
      fmt::format("archive member '{}' {}; PyTorchStreamReader refuses the archive", member->name,
                  version_ok.message()),
      member->name);
}

void check_model_entries(const ZipArchive& zip, std::string_view root, LoadContext& context) {
  const std::string models = std::string(root) + "models/";
  std::size_t count = 0;
  const ZipArchive::Member* first = nullptr;
  for (const auto& m : zip.members()) {
    if (!m.unsafe.empty() || m.is_directory || !m.name.starts_with(models)) continue;
    const std::string_view file = std::string_view(m.name).substr(models.size());
    const bool program = file.size() > 5 && file.substr(file.size() - 5) == ".json" &&
                         file.find('/') == std::string_view::npos;
    if (program || file == ".json") continue;  // an empty name is reported with the program
    if (count++ == 0) first = &m;
  }
  if (first == nullptr) return;
  context.reporter.report(
      kMalformedProgram, "",
      fmt::format("archive member '{}'{} lies under models/ but is not 'models/<name>.json'; "
                  "torch.export.load takes every record under models/ for a program and fails "
                  "to find its weights config and sample inputs",
                  first->name,
                  count == 1 ? std::string() : fmt::format(" ({} more such members)", count - 1)),
      first->name, {}, "keep only programs under models/; put other files under extra/");
}

void check_sample_inputs(const ZipArchive& zip, std::string_view root, const std::string& name,
                         LoadContext& context) {
  const std::string path = fmt::format("{}data/sample_inputs/{}.pt", root, name);
  const ZipArchive::Member* member = zip.find(path);
  if (member == nullptr) {
    context.reporter.report(
        kMalformedProgram, name,
        fmt::format("the archive has no '{}'; torch.export.load reads every program's sample "
                    "inputs and refuses the archive without them",
                    path),
        {}, {},
        "torch.export.save writes them (torch.save((args, kwargs))); write the file again with it");
    return;
  }
  // Large stored sample inputs (torch.export.save stores every member) are opened in place;
  // only a large deflated one is beyond reach without --verify-data.
  const bool in_place = member->size > cap(kMaxSampleInputBytes, context) && member->method == 0;
  if (member->size > cap(kMaxSampleInputBytes, context) && !in_place) {
    report_not_checked(*member, name, "the sample inputs, deflated",
                       "torch.load-s it (with weights_only=False when weights_only=True refuses it), "
                       "refusing the archive when it is not a torch.save zip; neither its torch.save structure "
                       "nor its pickle was checked",
                       kMaxSampleInputBytes, context);
    return;
  }
  PaddedBytes bytes;
  if (!in_place && !read_member(zip, *member, cap(kMaxSampleInputBytes, context), bytes, context)) return;
  Status loadable;
  if (starts_a_zip(zip, *member, in_place ? nullptr : &bytes)) {
    loadable = check_torch_save_zip(zip, *member, in_place ? nullptr : &bytes);
  } else {
    // Not a zip: torch.load reads torch.save's legacy format (PyTorch 2.11 loads sample inputs
    // saved with _use_new_zipfile_serialization=False: device run 3).
    std::string first_bytes;
    if (in_place) (void)stored_prefix(zip, *member, kPicklePrefixBytes, first_bytes);
    const LegacyPickles legacy =
        legacy_save_pickles(in_place ? std::string_view(first_bytes) : bytes.view(), /*whole=*/!in_place);
    if (!legacy.unknown.empty() && legacy.refused.empty()) {
      context.reporter.report(
          kMemberNotChecked, name,
          fmt::format("the sample inputs '{}' are not a torch.save zip, and pt2lint cannot tell whether torch.load "
                      "reads them as torch.save's legacy format: {}; torch.export.load torch.load-s them and "
                      "refuses the archive when it cannot",
                      member->name, legacy.unknown),
          member->name, {}, "torch.export.save writes them as a torch.save zip; write the file again with it");
      return;
    }
    if (!legacy.refused.empty()) loadable = Status::error(legacy.refused);
  }
  if (loadable.ok()) return;
  context.reporter.report(
      kMalformedProgram, name,
      fmt::format("the sample inputs '{}' cannot be loaded: {}; torch.export.load torch.load-s "
                  "them and refuses the archive",
                  member->name, loadable.message()),
      member->name);
}

void check_extra_files(const ZipArchive& zip, std::string_view root, LoadContext& context) {
  const std::string extra = std::string(root) + "extra/";
  for (const auto& m : zip.members()) {
    if (!m.unsafe.empty() || m.is_directory || !m.name.starts_with(extra)) continue;
    bool utf8 = true;
    if (m.size > cap(kMaxExtraFileBytes, context) && m.method == 0) {
      // Large and stored: decoded in chunks, never held whole.
      Utf8Stream stream;
      const Status streamed = zip.copy_stored_bytes(m, [&](std::string_view chunk) { return stream.add(chunk); });
      if (!streamed.ok() && stream.valid()) {
        report_not_checked(m, "", "an extra file", fmt::format("decodes it as UTF-8; it could not be read: {}",
                                                               streamed.message()),
                           kMaxExtraFileBytes, context);
        continue;
      }
      utf8 = stream.valid() && stream.finish();
    } else if (m.size > cap(kMaxExtraFileBytes, context)) {
      report_not_checked(m, "", "an extra file, deflated",
                         "decodes it as UTF-8 and refuses the archive when it is not; it was not decoded",
                         kMaxExtraFileBytes, context);
      continue;
    } else {
      PaddedBytes bytes;
      if (!read_member(zip, m, cap(kMaxExtraFileBytes, context), bytes, context)) continue;
      utf8 = simdjson::validate_utf8(bytes.data(), bytes.size());
    }
    if (utf8) continue;
    context.reporter.report(
        kMalformedProgram, "",
        fmt::format("archive member '{}' is not UTF-8 text; torch.export.load decodes every "
                    "extra file as UTF-8 and refuses the archive",
                    m.name),
        m.name, {}, "extra files hold text: encode binary data (base64) or keep it elsewhere");
  }
}

void check_json_bom(const PaddedBytes& json, std::string_view program, std::string_view member,
                       LoadContext& context) {
  if (!json.view().starts_with("\xEF\xBB\xBF")) return;
  context.reporter.report(
      kMalformedProgram, program,
      fmt::format("archive member '{}' starts with a UTF-8 byte-order mark; torch.export.load "
                  "decodes it as UTF-8 and json.loads refuses the mark "
                  "(\"Unexpected UTF-8 BOM\")",
                  member),
      member, {}, "write the JSON without a byte-order mark");
}

namespace {

// The pickle torch.load reads from a torch.save zip (`bytes`, or in place when null): its data.pkl.
bool data_pkl_of(const ZipArchive& outer, const ZipArchive::Member& member, const PaddedBytes* bytes,
                 PaddedBytes& nested) {
  const auto opened = open_nested_zip(outer, member, bytes);
  if (!opened.ok() || opened.value()->members().empty()) return false;
  const ZipArchive* zip = opened.value().get();
  const std::string& first = zip->members().front().name;
  const auto slash = first.find('/');
  const ZipArchive::Member* data =
      zip->find((slash == std::string::npos ? "" : first.substr(0, slash + 1)) + "data.pkl");
  return data != nullptr && zip->read(*data, kMaxPickleMemberBytes, nested).ok();
}

// `sample_inputs`: check_sample_inputs reads the same member, and reports it too large or
// unreadable; other pickles are reported here.
// A weight pickled with use_pickle whose config entry says is_param must unpickle to an
// nn.Parameter: torch.export.load's verifier refuses a plain tensor ("State dict entry for
// parameter ... is not an instance of torch.nn.Parameter", measured with PyTorch 2.11). Judged
// only on a pickle read to its end that imports nothing beyond torch.load(weights_only=True)'s
// set: a tensor subclass may rebuild a parameter through globals of its own.
void check_pickled_parameter(const PickleImports& imports, const ZipArchive::Member& member,
                             std::string_view program, std::string_view parameter, LoadContext& context) {
  if (!imports.unreadable.empty()) return;
  for (const std::string& global : imports.globals) {
    if (global.starts_with("torch._utils._rebuild_parameter") || global == "torch.nn.parameter.Parameter") return;
  }
  context.reporter.report(
      kMalformedProgram, program,
      fmt::format("archive member '{}' (the weight of parameter '{}', stored with use_pickle) unpickles to a "
                  "plain tensor, not an nn.Parameter; torch.export.load's verifier refuses the archive (\"State "
                  "dict entry for parameter {} is not an instance of torch.nn.Parameter\")",
                  member.name, printable_excerpt(parameter, 120), printable_excerpt(parameter, 120)),
      member.name, {}, "torch.export.save pickles the parameter itself: save the program again with it");
}

// `parameter`: the config entry (its FQN) says is_param, or empty.
void check_pickle_member(const ZipArchive& zip, const ZipArchive::Member& member, std::string_view program,
                         std::string_view role, bool sample_inputs, LoadContext& context,
                         std::string_view parameter = {}) {
  const std::uint64_t limit = cap(kMaxPickleMemberBytes, context);
  // A large stored torch.save zip is opened in place: its data.pkl is small, its storages are
  // what is large. A large stored bare pickle (torch.save's legacy format: its pickles first,
  // then the storages' raw bytes) is walked over its first kPicklePrefixBytes. A deflated one
  // that large is beyond reach.
  const bool large_stored = member.size > limit && member.method == 0;
  const bool in_place = large_stored && starts_a_zip(zip, member, nullptr);
  const bool prefix = large_stored && !in_place;
  if (member.size > limit && !large_stored) {
    if (!sample_inputs) {
      report_not_checked(member, program, role,
                         "unpickles it with weights_only=False: whatever it imports runs at load, and its "
                         "imports were not read",
                         kMaxPickleMemberBytes, context);
    }
    return;
  }
  PaddedBytes bytes;
  std::string first_bytes;
  // PyTorch unpickles the bytes whatever their CRC-32 (member-crc-mismatch reports that), so
  // the pickle is walked as it is.
  Status read;
  if (prefix) {
    if (!stored_prefix(zip, member, kPicklePrefixBytes, first_bytes)) read = Status::error("it could not be read");
  } else if (!in_place) {
    read = zip.read(member, limit, bytes, ZipArchive::Crc::kLeaveToCaller);
  }
  if (!read.ok()) {
    if (!sample_inputs) {
      context.reporter.report(
          kMemberNotChecked, program,
          fmt::format("archive member '{}' ({}) could not be read, so its pickle was not checked: {}; "
                      "torch.export.load unpickles it with weights_only=False",
                      member.name, role, read.message()),
          member.name);
    }
    return;
  }
  PickleImports imports;
  std::string refused_why;  // torch.load refuses the member once it has unpickled `imports`
  std::string unknown_why;  // pt2lint cannot tell what torch.load does past `imports`
  const bool is_zip = in_place || (!prefix && starts_a_zip(zip, member, &bytes));
  if (!is_zip) {
    const LegacyPickles legacy =
        legacy_save_pickles(prefix ? std::string_view(first_bytes) : bytes.view(), /*whole=*/!prefix);
    imports = legacy.imports;
    refused_why = legacy.refused;
    unknown_why = legacy.unknown;
  } else {
    PaddedBytes nested;
    if (!data_pkl_of(zip, member, in_place ? nullptr : &bytes, nested)) return;  // a damaged nested zip is reported
    imports = pickle_imports(nested.view());
    if (!imports.unreadable.empty()) {
      refused_why = fmt::format("its data.pkl cannot be unpickled ({})", imports.unreadable);
    }
  }
  std::vector<std::string> refused;
  for (const std::string& global : imports.globals) {
    if (!weights_only_allows(global)) refused.push_back(printable_excerpt(global, 120));
  }
  // Sample inputs that cannot be loaded are check_sample_inputs' to report.
  if (!refused_why.empty() && !(sample_inputs && !is_zip)) {
    context.reporter.report(
        kMalformedProgram, program,
        fmt::format("archive member '{}' ({}) cannot be loaded: {}; torch.export.load torch.load-s it "
                    "(weights_only=False) and refuses the archive",
                    member.name, role, refused_why),
        member.name, {}, "write it with torch.save, as torch.export.save does");
  } else if (!unknown_why.empty() && refused.empty() && !sample_inputs) {
    context.reporter.report(
        kMemberNotChecked, program,
        fmt::format("archive member '{}' ({}, {} bytes) was not fully checked: {}; torch.export.load unpickles "
                    "it with weights_only=False, and what its later pickles import was not read",
                    member.name, role, member.size, unknown_why),
        member.name, {}, "pass --verify-data to read it whole (it costs reading its bytes)");
  }
  if (refused.empty() && refused_why.empty() && unknown_why.empty() && !parameter.empty()) {
    check_pickled_parameter(imports, member, program, parameter, context);
  }
  // A pickle that stops early (an unknown opcode, cut short) fails to load at that point, as
  // Python's unpickler raises there: only what it imports before runs.
  if (refused.empty()) return;
  std::string what;
  for (std::size_t i = 0; i < refused.size() && i < 5; ++i) what += (i ? ", '" : "'") + refused[i] + "'";
  if (refused.size() > 5) what += fmt::format(" and {} more", refused.size() - 5);
  const std::string imports_text =
      fmt::format("imports {}, which torch.load(weights_only=True) refuses", what);
  context.reporter.report(
      kPickleRunsCodeAtLoad, program,
      fmt::format("archive member '{}' ({}) is unpickled by torch.export.load with "
                  "weights_only=False and {}: code of that module runs when the file is loaded",
                  member.name, role, imports_text),
      member.name, {},
      "load only files from a source you trust; torch.export.save writes such a global only for "
      "opaque Python objects or custom pickled constants. pt2lint runs nothing: it reads the "
      "pickle's opcodes");
}

}  // namespace

void check_pickles(const ZipArchive& zip, std::string_view root, const ir::Program& program,
                   LoadContext& context) {
  const std::string root_text(root);
  const std::string& name = program.name();
  if (const auto* m = zip.find(fmt::format("{}data/sample_inputs/{}.pt", root, name))) {
    check_pickle_member(zip, *m, name, "the sample inputs", /*sample_inputs=*/true, context);
  }
  // Pickled records: load_pt2 reads only what a config names (an opaque_obj_* member nothing
  // names is never unpickled, measured with PyTorch 2.11).
  const auto pickled_records = [&](const ir::StateSource& state, std::string_view folder,
                                   std::string_view role) {
    const bool constants = folder == "data/constants/";
    for (const auto& entry : state.config().config()) {
      const std::string& path_name = entry.value().path_name();
      // _load_constants reads a constant only as tensor_* (torch.load when use_pickle) or
      // custom_obj_* (TorchScript's unpickler), and raises on any other name before it reads
      // it: measured with PyTorch 2.11, an opaque_obj_0 the config names is refused and its
      // pickle never runs.
      if (constants && !path_name.starts_with("tensor_") && !path_name.starts_with("custom_obj_")) {
        context.reporter.report(
            kMalformedProgram, name,
            fmt::format("constant '{}' is stored as '{}'; torch.export.load reads constants only as "
                        "'tensor_*' and 'custom_obj_*' records and refuses the archive (\"Unsupported constant "
                        "type: {}\")",
                        printable_excerpt(entry.key(), 120), printable_excerpt(path_name, 120),
                        printable_excerpt(path_name, 120)),
            root_text + std::string(folder) + path_name, {},
            "torch.export.save names constant records tensor_<n> and custom_obj_<n>: save the program again");
        continue;
      }
      if (!entry.value().use_pickle()) continue;
      if (const auto* m = zip.find(root_text + std::string(folder) + entry.value().path_name())) {
        const bool parameter = entry.value().use_pickle() && entry.value().is_param();
        check_pickle_member(zip, *m, name, role, /*sample_inputs=*/false, context,
                            parameter ? std::string_view(entry.key()) : std::string_view());
      }
    }
  };
  pickled_records(program.weights(), "data/weights/", "a weight stored with use_pickle");
  pickled_records(program.constants(), "data/constants/", "a constant stored with use_pickle");
  for (const char* legacy : {"data/weights/", "data/constants/"}) {
    if (const auto* m = zip.find(fmt::format("{}{}{}.pt", root, legacy, name))) {
      check_pickle_member(zip, *m, name, "a legacy whole-state file", /*sample_inputs=*/false, context);
    }
  }
}

}  // namespace pt2lint
