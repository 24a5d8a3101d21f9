#include "io/readers/zip/pt2_archive_loader.h"

#include <algorithm>
#include <atomic>

#include <fmt/format.h>

#include "core/rule_catalogue.h"
#include "io/readers/zip/crc32_fold.h"
#include "io/readers/zip/member_crc_check.h"
#include "io/readers/schema_versions.h"
#include "io/readers/json/program_json.h"
#include "io/readers/zip/pt2_archive_requirements.h"
#include "io/readers/zip/zip_members.h"
#include "support/hand_off.h"
#include "support/huge_pages.h"
#include "support/other_core_thread.h"
#include "support/printable.h"

namespace pt2lint {
namespace {

constexpr std::string_view kModelsDir = "models/";
constexpr std::string_view kWeightsDir = "data/weights/";
constexpr std::string_view kConstantsDir = "data/constants/";
constexpr std::string_view kJsonSuffix = ".json";
constexpr std::string_view kConfigSuffix = "_config.json";
// Written by pt2lint's Python package when it serializes a live program without its weights.
constexpr std::string_view kRecordsOmittedMarker = "extra/pt2lint_records_omitted";
// A program JSON of this size gets the second thread even when its weights config is small:
// the thread reads part of it (JsonReadOptions::beside_min_bytes).
constexpr std::uint64_t kProgramWorthAThread = std::uint64_t{2} << 20;

// Every record of one state folder, whichever program it belongs to: programs of one
// archive share storage, and sizes come from the central directory, never the bytes.
void collect_records(const ZipArchive& zip, const std::string& folder, ir::StateSource& state) {
  for (const auto& m : zip.members()) {
    if (!m.unsafe.empty() || m.is_directory || !m.name.starts_with(folder)) continue;
    const std::string_view relative = std::string_view(m.name).substr(folder.size());
    if (relative.empty() || relative.ends_with(kConfigSuffix)) continue;
    auto* record = state.add_records();
    record->set_path(std::string(relative));
    record->set_size(m.size);
  }
}

// Whether `bytes` match the member's CRC-32, computed 4 MB at a time; `done` tells the JSON
// reader how far it got.
bool crc_in_steps(const ZipArchive::Member& member, std::string_view bytes,
                  std::atomic<std::size_t>& done) {
  constexpr std::size_t kStep = std::size_t{4} << 20;
  std::uint32_t crc = 0;
  for (std::size_t at = 0; at < bytes.size(); at += kStep) {
    const std::size_t n = std::min(kStep, bytes.size() - at);
    crc = crc32_of(crc, bytes.data() + at, n);  // crc32_fold.h: 37.4 M -> 4.6 M instructions
    done.store(at + n, std::memory_order_release);
  }
  return crc == member.crc;
}

// One state folder's config, read on the calling thread (the archive reader is not
// thread-safe) and converted with its own JSON reader, so that the conversion can run on a
// second thread while the caller converts the program JSON.
class StateLoad {
 public:
  StateLoad(const ZipArchive& zip, const std::string& root, std::string_view folder,
            const std::string& config_name, const ir::Program& program,
            const LoadOptions& options, ir::StateSource& state)
      : zip_(zip),
        folder_path_(root + std::string(folder)),
        program_(program.name()),
        json_(JsonReadOptions{options.max_json_depth}),
        context_{options, reporter_, json_},
        state_(state) {
    const std::string config_path = folder_path_ + config_name;
    config_ = zip.find(config_path);
    const auto spelled_exactly = [&] {
      return std::any_of(zip.members().begin(), zip.members().end(),
                         [&](const ZipArchive::Member& m) { return m.name == config_path; });
    };
    // Both spellings present is a case-folded duplicate, reported as unsafe-archive-member.
    if (config_ != nullptr && config_->name != config_path && !spelled_exactly()) {
      // load_pt2 looks its configs up by exact name in the archive's name list, unlike the
      // zip reader's case-blind lookup (measured with PyTorch 2.11: refused).
      reporter_.report(kMalformedProgram, program_,
                       fmt::format("the archive has no '{}', only '{}', which differs in letter case; "
                                   "torch.export.load looks the config up by its exact name and refuses the "
                                   "archive (\"{}{} not found in PT2 archive\")",
                                   config_path, config_->name, folder, config_name),
                       config_->name, {}, fmt::format("name the member '{}', as torch.export.save does", config_path));
      config_ = nullptr;
    }
    if (config_ == nullptr && zip.find(config_path) == nullptr) report_missing(zip, folder, config_name);
    state.set_present(config_ != nullptr);
    state.set_records_omitted(zip.find(root + std::string(kRecordsOmittedMarker)) != nullptr);
    if (config_ == nullptr) return;
    state.set_config_path(config_->name);  // as the archive spells it (lookups ignore case)
    if (!read_json_member(zip, *config_, options.max_config_json_bytes, program_, context_,
                          bytes_)) {
      config_ = nullptr;
      return;
    }
    check_json_bom(bytes_, program_, config_->name, context_);
  }

  // No config at all: load_pt2 asserts that it is in the archive's name list unless the legacy
  // whole-state file '<folder><model>.pt' is (measured with PyTorch 2.11 for the constants config).
  void report_missing(const ZipArchive& zip, std::string_view folder, const std::string& config_name) {
    const std::string legacy = folder_path_ + program_ + ".pt";
    const bool has_legacy = std::any_of(zip.members().begin(), zip.members().end(),
                                        [&](const ZipArchive::Member& m) { return m.name == legacy; });
    if (has_legacy) return;
    reporter_.report(kMalformedProgram, program_,
                     fmt::format("the archive has no '{}{}'; torch.export.load reads every program's {} config "
                                 "(even an empty one) and refuses the archive without it (\"{}{} not found in PT2 "
                                 "archive\")",
                                 folder_path_, config_name, folder.substr(5, folder.size() - 6), folder,
                                 config_name),
                     {}, {},
                     fmt::format("torch.export.save writes it ('{{\"config\": {{}}}}' when the program has no {}); "
                                 "write the file again with it",
                                 folder.substr(5, folder.size() - 6)));
  }

  // Below this a thread costs more than it saves.
  bool worth_a_thread() const { return bytes_.size() >= (std::size_t{256} << 10); }

  void convert() {
    collect_records(zip_, folder_path_, state_);
    if (config_ == nullptr) return;
    json_.read(bytes_, *state_.mutable_config(), JsonSource{program_, config_->name}, reporter_,
               InputDiscard{&bytes_});
    bytes_ = PaddedBytes();
  }

  // Hands the findings to the file's reporter, after those of the program JSON.
  void report_to(LoadReporter& reporter) { reporter.adopt(reporter_); }

 private:
  const ZipArchive& zip_;
  const std::string folder_path_;
  const std::string program_;
  LoadReporter reporter_;
  JsonToProto json_;
  LoadContext context_;
  ir::StateSource& state_;
  const ZipArchive::Member* config_ = nullptr;
  PaddedBytes bytes_;
};

// A large model's weights config is ~1 MB of JSON, and checking the CRC-32 of its 8 MB program
// JSON takes ~2 ms: both run on a second thread while this one converts the program JSON
// (docs/performance.md). Then that thread takes the part of the program JSON the reader hands
// it (json_walker_beside.cc). The program's findings wait for its CRC: a damaged member is
// reported as damaged, not as whatever odd JSON it now holds. The CRC goes first, in steps,
// and says how far it got: the reader gives back the pages of the JSON that both are done
// with (json_input_release.h).
void load_program_beside_state(const ZipArchive& zip, const ZipArchive::Member& member,
                               LoadContext& context, ir::Program& program, StateLoad& weights) {
  PaddedBytes json;
  const bool read = read_json_member(zip, member, context.options.max_program_json_bytes,
                                     program.name(), context, json, ZipArchive::Crc::kLeaveToCaller);
  bool intact = true;
  std::atomic<std::size_t> crc_done{0};
  HandOff hand_off;
  ReadBeside beside{&hand_off};
  OtherCoreThread side([&] {
    // However the two steps end: the reader may be waiting for what it handed over.
    struct ServeOnExit {
      HandOff& hand_off;
      ~ServeOnExit() { hand_off.serve(); }
    } serve{hand_off};
    use_huge_pages_for_thread_heap();
    if (read) intact = crc_in_steps(member, json.view(), crc_done);
    weights.convert();
  });
  LoadReporter held;
  {
    CloseOnExit close(hand_off);
    if (read) {
      check_json_bom(json, program.name(), member.name, context);
      LoadContext parse{context.options, held, context.json};
      read_program_json(parse, json, program, InputDiscard{&json, &crc_done}, &beside);
    }
  }
  side.join();
  if (!intact) {
    program.clear_program();
    report_unreadable_member(member, kCorruptMemberError, program.name(), context);
    return;
  }
  if (beside.read_again) {
    // A malformed document the two threads read differently (json_walker_beside.cc): read on
    // this thread alone, from the archive again, since the walk gave its input back.
    program.clear_program();
    program.clear_node_metadata_strings();
    PaddedBytes again;
    LoadContext parse{context.options, held, context.json};
    if (read_json_member(zip, member, context.options.max_program_json_bytes, program.name(),
                         parse, again)) {
      read_program_json(parse, again, program, InputDiscard{&again});
    }
  }
  context.reporter.adopt(held);
}

}  // namespace

void load_pt2_archive(const ZipArchive& zip, std::string_view root_view, LoadContext& context,
                      ProgramOutput& out) {
  const std::string root(root_view);
  const std::string models_dir = root + std::string(kModelsDir);

  std::size_t outside = 0;
  const ZipArchive::Member* first_outside = nullptr;
  for (const auto& m : zip.members()) {
    if (m.unsafe.empty() && !m.name.starts_with(root)) {
      if (outside++ == 0) first_outside = &m;
    }
  }
  if (outside > 0) {
    context.reporter.report(
        kMalformedProgram, "",
        fmt::format("{} archive member{} outside the root folder '{}', e.g. '{}'; PyTorch "
                    "refuses such archives",
                    outside, outside == 1 ? " lies" : "s lie", root, first_outside->name),
        first_outside->name);
  }

  std::string format;
  const auto* format_member = zip.find(root + "archive_format");
  if (format_member != nullptr &&
      read_text_member(zip, *format_member, "", context, format, /*exact=*/true) &&
      format != "pt2") {
    context.reporter.report(
        kMalformedProgram, "",
        fmt::format("'{}' reads '{}'; PT2ArchiveReader compares its bytes with 'pt2', exactly "
                    "(no white space), and refuses the archive (\"Invalid archive format\")",
                    format_member->name, printable_excerpt(format)),
        format_member->name);
  }

  std::string archive_version;
  const std::string version_path = root + "archive_version";
  if (const auto* version_member = zip.find(version_path)) {
    if (read_text_member(zip, *version_member, "", context, archive_version, /*exact=*/true) &&
        archive_version != kSupportedArchiveVersion) {
      context.reporter.report(
          kUnsupportedSchemaVersion, "",
          fmt::format("archive version '{}' is not supported; this build reads archive version "
                      "{}, and load_pt2 compares the bytes with '{}' exactly (no white space)",
                      printable_excerpt(archive_version), kSupportedArchiveVersion,
                      kSupportedArchiveVersion),
          version_member->name);
    }
  } else {
    context.reporter.report(
        kMalformedProgram, "",
        fmt::format("the archive has no '{}'; torch.export.load refuses it", version_path), {},
        {}, fmt::format("PT2 archives written by PyTorch 2.8 and later hold '{}' = '{}'",
                        version_path, kSupportedArchiveVersion));
  }

  check_stream_version(zip, root, context);
  check_model_entries(zip, root, context);
  check_extra_files(zip, root, context);
  check_unread_member_crcs(zip, root, context);

  std::size_t models = 0;
  for (const auto& m : zip.members()) {
    if (!m.unsafe.empty() || !m.name.starts_with(models_dir) || !m.name.ends_with(kJsonSuffix)) {
      continue;
    }
    const std::string_view file = std::string_view(m.name).substr(models_dir.size());
    if (file.find('/') != std::string_view::npos) continue;  // nested folders hold no models
    const std::string name(file.substr(0, file.size() - kJsonSuffix.size()));
    ++models;
    if (name.empty()) {
      context.reporter.report(
          kMalformedProgram, "",
          fmt::format("archive member '{}' gives its program an empty name; torch.export.load "
                      "refuses it",
                      m.name),
          m.name, {}, "name the program: torch.export.save writes 'models/model.json'");
    }
    check_sample_inputs(zip, root, name, context);

    ir::Program& program = out.add();
    program.set_name(name.empty() ? kDefaultProgramName : name);
    program.set_layout(ir::LAYOUT_PT2_ARCHIVE);
    program.set_json_path(m.name);
    program.set_archive_version(archive_version);
    StateLoad weights(zip, root, kWeightsDir, name + "_weights_config.json", program,
                      context.options, *program.mutable_weights());
    StateLoad constants(zip, root, kConstantsDir, name + "_constants_config.json", program,
                        context.options, *program.mutable_constants());
    if (weights.worth_a_thread() || m.size >= kProgramWorthAThread) {
      load_program_beside_state(zip, m, context, program, weights);
    } else {
      PaddedBytes json;
      if (read_json_member(zip, m, context.options.max_program_json_bytes, program.name(),
                           context, json)) {
        check_json_bom(json, program.name(), m.name, context);
        read_program_json(context, json, program, InputDiscard{&json});
      }
      weights.convert();
    }
    constants.convert();
    check_pickles(zip, root, program, context);
    if (program.not_checked()) continue;  // its one finding says why; the state is moot
    weights.report_to(context.reporter);
    constants.report_to(context.reporter);
  }
  if (models == 0) {
    context.reporter.report(kMalformedProgram, "",
                            fmt::format("'{}' holds no program ('<name>.json')", models_dir));
  }
}

}  // namespace pt2lint
