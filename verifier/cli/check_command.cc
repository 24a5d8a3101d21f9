// `pt2lint check`: verify files and folders, render the findings.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include "reports/renderer.h"
#include "verifier/cli/subcommand.h"
#include "verifier/engine.h"
#include "verifier/file_discovery.h"

namespace pt2lint {
namespace {

struct CheckOptions {
  std::vector<std::string> paths;
  std::string format = "text";
  std::vector<std::string> select;
  std::vector<std::string> ignore;
  std::string output;
  unsigned jobs = 0;
  bool show_mutations = false;
  bool statistics = false;
  bool quiet = false;
};

// Resolves --select/--ignore entries; an unknown one is a usage error with a suggestion.
bool apply_selectors(const RuleRegistry& registry, const std::vector<std::string>& selectors,
                     bool is_select, RuleFilter& filter) {
  for (const std::string& selector : selectors) {
    auto matched = registry.match(selector);
    if (matched.empty()) {
      std::string hint = registry.suggest(selector);
      std::cerr << "pt2lint: error: unknown rule '" << selector << "'"
                << (hint.empty() ? "" : "; did you mean '" + hint + "'?") << '\n';
      return false;
    }
    for (const RuleInfo* info : matched) is_select ? filter.select(*info) : filter.ignore(*info);
  }
  return true;
}

bool want_color(int fd) {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  return isatty(fd) != 0;
}

int run_check(const RuleRegistry& registry, const CheckOptions& options) {
  auto renderer = make_renderer(options.format);
  if (!renderer) {
    std::cerr << "pt2lint: error: unknown format '" << options.format << "'\n";
    return kExitUsage;
  }
  RuleFilter filter;
  if (!apply_selectors(registry, options.select, true, filter) ||
      !apply_selectors(registry, options.ignore, false, filter)) {
    return kExitUsage;
  }
  std::vector<std::string> missing;
  std::vector<DiscoveredFile> files = discover_files(options.paths, missing);
  for (const std::string& path : missing)
    std::cerr << "pt2lint: error: cannot open '" << path << "': no such file or directory\n";

  Engine engine(registry, filter);
  RunReport report;
  report.files.resize(files.size());
  unsigned jobs = options.jobs != 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min<unsigned>(jobs, std::max<std::size_t>(1, files.size()));
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) {
      LoadOptions load;
      load.found_by_folder_walk = files[i].found_by_folder_walk;
      report.files[i] = engine.check_file(files[i].path, load);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& thread : threads) thread.join();

  bool unreadable = !missing.empty();
  std::vector<FileResult> kept;
  for (FileResult& file : report.files) {
    if (file.outcome == LoadOutcome::kUnreadable) {
      std::cerr << "pt2lint: error: cannot open '" << file.path << "': " << file.error << '\n';
      unreadable = true;
    } else if (file.outcome == LoadOutcome::kLoaded) {
      kept.push_back(std::move(file));
    }
  }
  report.files = std::move(kept);

  RenderOptions render;
  render.registry = &registry;
  render.show_mutations = options.show_mutations;
  render.statistics = options.statistics;
  if (options.output.empty()) {
    render.color = options.format == "text" && want_color(STDOUT_FILENO);
    if (!options.quiet || options.format != "text") renderer->render(report, render, std::cout);
  } else {
    std::ofstream out(options.output);
    if (!out) {
      std::cerr << "pt2lint: error: cannot write '" << options.output << "'\n";
      return kExitUsage;
    }
    renderer->render(report, render, out);
  }
  if (unreadable) return kExitUsage;
  return count_findings(report).errors > 0 ? kExitFindings : kExitClean;
}

}  // namespace

Subcommand add_check_command(CLI::App& app, const RuleRegistry& registry) {
  auto options = std::make_shared<CheckOptions>();
  CheckOptions& check = *options;
  CLI::App* cmd = app.add_subcommand("check", "check .pt2, program .json and .textproto files");
  cmd->add_option("paths", check.paths, "files or folders to check")->required();
  cmd->add_option("--format", check.format, "output format")
      ->check(CLI::IsMember(renderer_names()));
  cmd->add_option("--select", check.select, "only these rules (ID, ID prefix or name)")
      ->delimiter(',');
  cmd->add_option("--ignore", check.ignore, "skip these rules (ID, ID prefix or name)")
      ->delimiter(',');
  cmd->add_option("-o,--output", check.output, "write the report to FILE");
  cmd->add_option("-j,--jobs", check.jobs, "files checked in parallel (default: cores)");
  cmd->add_flag("--show-mutations", check.show_mutations,
                "print each program's effective mutation set");
  cmd->add_flag("--statistics", check.statistics, "print finding counts per rule");
  cmd->add_flag("-q,--quiet", check.quiet, "print nothing in text format; use the exit code");
  return {cmd, [&registry, options] { return run_check(registry, *options); }};
}

}  // namespace pt2lint
