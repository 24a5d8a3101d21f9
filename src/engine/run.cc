#include "engine/run.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

#include "engine/baseline/baseline.h"
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

// --baseline / --update-baseline. False, with the reason in the report, on an unusable baseline.
bool apply_baseline_options(const RuleRegistry& registry, const RunOptions& options,
                            RunReport& report) {
  if (options.baseline.empty()) return true;
  if (options.update_baseline) {
    // Whole or not at all, never through a link planted at its path (support/atomic_file.h).
    std::ostringstream out;
    write_baseline(report.files, out);
    if (std::string error = write_file_atomically(options.baseline, out.str()); !error.empty()) {
      stop(report, error);
      return false;
    }
  }
  Baseline baseline;
  std::string error;
  if (!read_baseline(options.baseline, baseline, error)) {
    stop(report, error);
    return false;
  }
  report.stale_baseline = apply_baseline(baseline, report.files, &registry);
  return true;
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
    stdin_copy.emplace(std::filesystem::path(options.stdin_filename).extension().string());
    std::string error = stdin_copy->error();
    if (error.empty()) error = copy_stream_to_file(*options.standard_input, stdin_copy->path());
    if (!error.empty()) return stop(report, error);
    *dash = stdin_copy->path().string();
  }
  auto is_stdin = [&stdin_copy](const std::filesystem::path& path) {
    return stdin_copy && path == stdin_copy->path();
  };

  std::vector<std::string> missing;
  std::vector<DiscoveredFile> files = discover_files(paths, missing);
  for (const std::string& path : missing)
    report.errors.push_back("cannot open '" + path + "': no such file or directory");
  if (options.shard.count > 1)
    std::erase_if(files, [&options](const DiscoveredFile& f) { return !in_shard(f.path, options.shard); });

  // Config lookup and per-file ignores see standard input under its --stdin-filename.
  std::vector<DiscoveredFile> named = files;
  for (DiscoveredFile& file : named)
    if (is_stdin(file.path)) file.path = stdin_name;
  RuleSelection selection(registry, options.rules);
  std::vector<std::string> selection_errors;
  if (!selection.resolve(named, selection_errors)) {
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
  for (FileResult& file : check_in_parallel(registry, files, filters, selection.catalogs(), parallel)) {
    if (file.outcome == LoadOutcome::kUnreadable) {
      report.errors.push_back("cannot open '" + file.path + "': " + file.error);
    } else if (file.outcome == LoadOutcome::kLoaded) {
      if (is_stdin(file.path)) file.path = stdin_name;
      report.files.push_back(std::move(file));
    }
  }
  apply_baseline_options(registry, options, report);
  return report;
}

}  // namespace pt2lint
