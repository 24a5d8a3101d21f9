// pt2lint command line: check, rules, explain.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <thread>

#include "reports/renderer.h"
#include "verifier/cli/rule_docs.h"
#include "verifier/engine.h"
#include "verifier/file_discovery.h"
#include "verifier/rule_registry.h"

namespace pt2lint {
namespace {

constexpr int kExitClean = 0;
constexpr int kExitFindings = 1;
constexpr int kExitUsage = 2;

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

int run_rules(const RuleRegistry& registry) {
  for (const RuleInfo* info : registry.all()) {
    std::cout << fmt::format("{:<6} {:<38} {:<8} {}\n", info->id, info->name,
                             severity_name(info->default_severity), info->summary);
  }
  return kExitClean;
}

int run_explain(const RuleRegistry& registry, const std::string& name) {
  const RuleInfo* info = registry.find(name);
  if (info == nullptr) {
    std::string hint = registry.suggest(name);
    std::cerr << "pt2lint: error: unknown rule '" << name << "'"
              << (hint.empty() ? "" : "; did you mean '" + hint + "'?") << '\n';
    return kExitUsage;
  }
  std::cout << info->id << ' ' << info->name << " (default severity: "
            << severity_name(info->default_severity) << ")\n"
            << info->summary << "\n\n";
  std::string_view page = rule_doc_page(info->name);
  if (!page.empty()) std::cout << page << '\n';
  return kExitClean;
}

}  // namespace
}  // namespace pt2lint

int main(int argc, char** argv) {
  using namespace pt2lint;
  RuleRegistry registry;
  register_all_rules(registry);

  CLI::App app{"pt2lint: a static verifier and linter for torch.export programs (.pt2)"};
  app.set_version_flag("--version", std::string("pt2lint ") + PT2LINT_VERSION);
  app.require_subcommand(1);

  CheckOptions check;
  CLI::App* check_cmd = app.add_subcommand("check", "check .pt2, program .json and .textproto files");
  check_cmd->add_option("paths", check.paths, "files or folders to check")->required();
  check_cmd->add_option("--format", check.format, "output format")
      ->check(CLI::IsMember(renderer_names()));
  check_cmd->add_option("--select", check.select, "only these rules (ID, ID prefix or name)")
      ->delimiter(',');
  check_cmd->add_option("--ignore", check.ignore, "skip these rules (ID, ID prefix or name)")
      ->delimiter(',');
  check_cmd->add_option("-o,--output", check.output, "write the report to FILE");
  check_cmd->add_option("-j,--jobs", check.jobs, "files checked in parallel (default: cores)");
  check_cmd->add_flag("--show-mutations", check.show_mutations,
                      "print each program's effective mutation set");
  check_cmd->add_flag("--statistics", check.statistics, "print finding counts per rule");
  check_cmd->add_flag("-q,--quiet", check.quiet, "print nothing in text format; use the exit code");

  app.add_subcommand("rules", "list every rule");
  std::string explain_name;
  CLI::App* explain_cmd = app.add_subcommand("explain", "show a rule's documentation");
  explain_cmd->add_option("rule", explain_name, "rule ID or name")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    int code = app.exit(error);
    return code == 0 ? 0 : 2;
  }
  if (check_cmd->parsed()) return run_check(registry, check);
  if (explain_cmd->parsed()) return run_explain(registry, explain_name);
  return run_rules(registry);
}
