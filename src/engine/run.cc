#include "engine/run.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <istream>
#include <map>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

#include "engine/baseline/baseline.h"
#include "engine/config/config_discovery.h"
#include "engine/config/config_parser.h"
#include "support/atomic_file.h"
#include "support/temp_file.h"

namespace pt2lint {
namespace {

RunReport& stop(RunReport& report, std::string error) {
  report.errors.push_back(std::move(error));
  report.stopped = true;
  report.files.clear();
  return report;
}

// The config a run-wide setting (exclusions of a walk, the baseline) is read from for `at`:
// --config, else the one found from `at`; none (the defaults) with --no-config. Fails for a
// config that does not parse.
Expected<Config> run_config(const RuleRegistry& registry, const RuleSources& sources,
                            const std::filesystem::path& at) {
  if (sources.no_config) return Config{};
  std::optional<std::filesystem::path> file;
  if (!sources.config.empty()) file = sources.config;
  else file = find_config(at);
  if (!file) return Config{};
  return load_config(*file, registry);
}

// --baseline / --update-baseline, or the config's `baseline`. A baseline that does not exist
// yet reads as empty, with a note saying how to create it. False, with the reason in the
// report, on an unusable baseline.
bool apply_baseline_options(const RuleRegistry& registry, const RunOptions& options,
                            const RuleRanOn& rule_ran, RunReport& report) {
  std::string path = options.baseline;
  if (path.empty()) {
    const std::filesystem::path at = options.paths.empty() || options.paths[0] == "-"
                                         ? std::filesystem::path(".") : std::filesystem::path(options.paths[0]);
    if (Expected<Config> config = run_config(registry, options.rules, at); config.ok())
      path = config->baseline.string();
  }
  if (path.empty()) {
    if (options.update_baseline) stop(report, "--update-baseline needs --baseline FILE (or `baseline` in the config)");
    return !options.update_baseline;
  }
  report.baseline = path;
  if (options.update_baseline) {
    // Whole or not at all, never through a link planted at its path (support/atomic_file.h).
    std::ostringstream out;
    write_baseline(report.files, out);
    if (Status written = write_file_atomically(path, out.str()); !written.ok()) {
      stop(report, written.message());
      return false;
    }
  }
  std::error_code missing;
  if (!std::filesystem::exists(path, missing)) {
    report.baseline_note = "the baseline '" + path + "' does not exist yet: every finding is new "
                           "(create it with --update-baseline)";
    return true;
  }
  Expected<Baseline> baseline = read_baseline(path);
  if (!baseline.ok()) {
    stop(report, baseline.message());
    return false;
  }
  report.stale_baseline = apply_baseline(baseline.value(), report.files, &registry, rule_ran);
  return true;
}

// What a walk of `root` skips: the config's exclusions, overridden by the command line.
ExclusionsFor walk_exclusions(const RuleRegistry& registry, const RunOptions& options,
                              std::vector<std::string>& errors) {
  return [&registry, &options, &errors](const std::filesystem::path& root) {
    Expected<Config> found = run_config(registry, options.rules, root);
    if (!found.ok()) errors.push_back(found.message());
    // A config that does not parse stops the run (its error is reported); the walk goes on
    // with the defaults meanwhile.
    const Config config = found.ok() ? std::move(found).value() : Config{};
    WalkExclusions exclusions;
    const std::vector<std::string>* exclude = options.exclude ? &*options.exclude
                                              : config.exclude ? &*config.exclude : nullptr;
    std::vector<std::string> extend = config.extend_exclude;
    extend.insert(extend.end(), options.extend_exclude.begin(), options.extend_exclude.end());
    exclusions.patterns = exclusion_patterns(exclude, extend);
    exclusions.base = config.file.empty() ? root : config.base_dir;
    exclusions.respect_gitignore = config.respect_gitignore && !options.no_respect_gitignore;
    return exclusions;
  };
}

// Every mention of `from` in `text` replaced by `to`.
void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// Standard input is read from a temporary file whose name means nothing to the user: messages
// say the name it goes by (<stdin>, <bytes> or --stdin-filename) instead.
void name_standard_input(FileResult& file, const std::filesystem::path& temp, const std::string& shown) {
  file.path = shown;
  auto rename = [&](std::string& text) {
    replace_all(text, temp.string(), shown);
    replace_all(text, temp.filename().string(), shown);  // messages that name the file alone
  };
  rename(file.error);
  for (Finding& f : file.findings) {
    rename(f.message);
    for (Note& note : f.notes) rename(note.text);
    if (f.fix) rename(f.fix->description);
  }
}

// The first bytes of standard input, to tell a textproto from the rest before saving it.
std::string read_head(std::istream& in) {
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head;
}

// The loaders know a textproto by its extension, and standard input has none: without a
// --stdin-filename that gives one, text that opens like a textproto (a comment or a field name)
// is saved as `.textproto`. Archives and program JSON are known by their content.
std::string standard_input_suffix(const std::string& stdin_filename, std::string_view head) {
  const std::string given = std::filesystem::path(stdin_filename).extension().string();
  if (!given.empty()) return given;
  if (head.find('\0') != std::string_view::npos) return "";
  const std::size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || head.substr(first, 2) == "PK") return "";
  const unsigned char c = static_cast<unsigned char>(head[first]);
  return c == '#' || c == '_' || std::isalpha(c) ? ".textproto" : "";
}

}  // namespace

RunReport check_paths(const RuleRegistry& registry, const RunOptions& options) {
  RunReport report;
  // "-": standard input, saved to a temporary file that the loaders read like any other.
  std::vector<std::string> paths = options.paths;
  std::optional<TempFile> stdin_copy;
  const std::string stdin_name = options.stdin_filename.empty() ? "<stdin>" : options.stdin_filename;
  if (std::count(paths.begin(), paths.end(), "-") > 1)
    return stop(report, "'-' (standard input) can be given only once");
  if (auto dash = std::find(paths.begin(), paths.end(), "-"); dash != paths.end()) {
    if (options.standard_input == nullptr) return stop(report, "no standard input to read '-' from");
    const std::string head = read_head(*options.standard_input);
    Expected<TempFile> created = TempFile::create(standard_input_suffix(options.stdin_filename, head));
    if (!created.ok()) return stop(report, created.message());
    stdin_copy.emplace(std::move(created).value());
    if (Status copied = copy_stream_to_file(*options.standard_input, stdin_copy->path(), kMaxStandardInputBytes, head);
        !copied.ok())
      return stop(report, copied.message());
    *dash = stdin_copy->path().string();
  }
  auto is_stdin = [&stdin_copy](const std::filesystem::path& path) {
    return stdin_copy && path == stdin_copy->path();
  };

  std::vector<std::string> missing, config_errors;
  std::vector<DiscoveredFile> files =
      discover_files(paths, missing, walk_exclusions(registry, options, config_errors));
  if (!config_errors.empty()) {
    report.errors = std::move(config_errors);
    report.stopped = true;
    return report;
  }
  for (const std::string& path : missing)
    report.errors.push_back("cannot open '" + path + "': no such file or directory");
  std::vector<bool> discovered(paths.size(), false);
  for (const DiscoveredFile& file : files) {
    discovered[file.given] = true;
    for (std::size_t again : file.also_given) discovered[again] = true;
  }
  if (options.shard.count > 1)
    std::erase_if(files, [&options](const DiscoveredFile& f) { return !in_shard(f.path, options.shard); });

  // Config lookup and per-file ignores see standard input under its --stdin-filename.
  std::vector<DiscoveredFile> named = files;
  for (DiscoveredFile& file : named)
    if (is_stdin(file.path)) file.path = stdin_name;
  RuleSelection selection(registry, options.rules);
  const std::vector<std::string> selection_errors = selection.resolve(named);
  if (!selection_errors.empty()) {
    report.errors.insert(report.errors.end(), selection_errors.begin(), selection_errors.end());
    report.stopped = true;
    return report;
  }
  report.docs_url = selection.docs_url();
  std::vector<const RuleFilter*> filters = selection.filters();
  std::optional<RuleFilter> stdin_filter;  // its per-file ignores, resolved for the name
  for (std::size_t i = 0; i < files.size(); ++i)
    if (is_stdin(files[i].path)) filters[i] = &stdin_filter.emplace(filters[i]->for_file(stdin_name));

  ParallelCheckOptions parallel;
  parallel.jobs = options.jobs;
  parallel.unknown_ops_parameters = options.unknown_ops_parameters;
  parallel.disposal = options.exit_after_run && files.size() == 1 ? IrDisposal::kLeaveToExit : IrDisposal::kFree;
  parallel.observer = options.observer;
  parallel.progress = options.progress;
  parallel.verify_data = options.verify_data;
  parallel.max_file_cpu_seconds = options.max_file_cpu_seconds;
  std::vector<FileResult> results = check_in_parallel(registry, files, filters, selection.catalogs(), parallel);
  std::vector<bool> yielded(paths.size(), false);
  std::map<std::string, const RuleFilter*, std::less<>> filter_of;  // by the path reported
  for (std::size_t i = 0; i < results.size(); ++i) {
    FileResult& file = results[i];
    if (file.outcome != LoadOutcome::kSkipped) {
      yielded[files[i].given] = true;
      for (std::size_t again : files[i].also_given) yielded[again] = true;
    }
    if (is_stdin(file.path)) name_standard_input(file, stdin_copy->path(), stdin_name);
    filter_of[file.path] = filters[i];
    if (file.outcome == LoadOutcome::kUnreadable) {
      // The loader's error names the file already: "cannot open 'PATH': why".
      report.errors.push_back(file.error.empty() ? "cannot open '" + file.path + "'" : file.error);
    } else if (file.outcome == LoadOutcome::kLoaded) {
      report.files.push_back(std::move(file));
    }
  }
  for (std::size_t i = 0; i < paths.size(); ++i) {
    // A shard of a matrix may hold no file of a folder: it is judged by what the whole
    // walk found then.
    const bool found = options.shard.count > 1 ? discovered[i] : yielded[i];
    const bool is_missing = std::find(missing.begin(), missing.end(), options.paths[i]) != missing.end();
    if (!found && !is_missing) report.without_programs.push_back(options.paths[i]);
  }
  // An entry of a rule that did not run on its file (--select, --ignore, per-file-ignores)
  // is not stale: its finding was not looked for.
  const RuleRanOn rule_ran = [&filter_of](const FileResult& file, std::string_view rule_id) {
    const auto filter = filter_of.find(file.path);
    return filter == filter_of.end() || filter->second == nullptr || filter->second->enabled(rule_id);
  };
  apply_baseline_options(registry, options, rule_ran, report);
  return report;
}

}  // namespace pt2lint
