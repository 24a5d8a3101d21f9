// `pt2lint check`: verify files and folders, render the findings.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

#include "analysis/opschema/schema_catalog.h"
#include "cli/op_schema_files.h"
#include "cli/rule_docs.h"
#include "cli/subcommand.h"
#include "cli/temp_file.h"
#include "engine/baseline/baseline.h"
#include "engine/config/config_discovery.h"
#include "engine/config/config_filter.h"
#include "engine/config/config_parser.h"
#include "engine/engine.h"
#include "engine/file_discovery.h"
#include "reports/graph/finding_pictures.h"
#include "reports/renderer.h"

namespace pt2lint {
namespace {

struct CheckOptions {
  std::vector<std::string> paths;
  std::string stdin_filename;  // the name `-` (standard input) goes by in findings and config
  std::string format = "text";
  std::vector<std::string> select;
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
  std::string output;
  unsigned jobs = 0;
  bool show_mutations = false;
  bool verbose = false;
  bool statistics = false;
  bool quiet = false;
  std::string config;
  bool no_config = false;
  std::string baseline;
  bool update_baseline = false;
  std::string shard;
  std::string source_root;
  std::vector<std::string> op_schemas;
  bool unknown_ops_parameters = false;
};

// Above this many files a run on a terminal shows how far it has got.
constexpr std::size_t kProgressThreshold = 20;

bool want_color(int fd) {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  return isatty(fd) != 0;
}

void usage_error(const std::string& message) { std::cerr << "pt2lint: error: " << message << '\n'; }

// The rule filter of every checked file, from the config that applies to it (one per
// distinct config, shared by the files it governs) and the command line.
class FilterResolver {
 public:
  FilterResolver(const RuleRegistry& registry, const CheckOptions& options)
      : registry_(registry), options_(options) {}

  // False (after printing why) when a config or a selector is invalid.
  bool resolve(const std::vector<DiscoveredFile>& files, std::vector<const RuleFilter*>& out) {
    out.clear();
    catalog_of_.clear();
    if (options_.no_config) return filter_for_config({}, out, files.size());
    if (!options_.config.empty()) return filter_for_config(options_.config, out, files.size());
    if (files.empty()) return filter_for_config({}, out, 0);  // still validate --select/--ignore
    for (const DiscoveredFile& file : files) {
      std::filesystem::path folder = file.path.parent_path();
      auto found = found_in_.find(folder);
      if (found == found_in_.end())
        found = found_in_.emplace(folder, find_config(file.path)).first;
      if (!filter_for_config(found->second.value_or(std::filesystem::path()), out, 1)) return false;
    }
    return true;
  }
  const std::string& docs_url() const { return docs_url_; }

  // The custom op schemas of each file resolve() saw, in the same order.
  const std::vector<const opschema::SchemaCatalog*>& catalogs() const { return catalog_of_; }

 private:
  bool filter_for_config(const std::filesystem::path& config_file,
                         std::vector<const RuleFilter*>& out, std::size_t times) {
    auto it = filters_.find(config_file);
    if (it == filters_.end()) {
      Config config;
      std::string error;
      if (!config_file.empty() && !load_config(config_file, registry_, config, error)) {
        usage_error(error);
        return false;
      }
      if (docs_url_.empty()) docs_url_ = config.docs_url;  // the first config that sets it
      RuleFilter filter;
      const CommandLineSelection cli{options_.select, options_.ignore, options_.extend_select};
      if (!build_rule_filter(config, cli, registry_, filter, error)) {
        usage_error(error);
        return false;
      }
      it = filters_.emplace(config_file, std::move(filter)).first;
      if (!load_op_schemas(config_file, config)) return false;
    }
    out.insert(out.end(), times, &it->second);
    catalog_of_.insert(catalog_of_.end(), times, &catalogs_.at(config_file));
    return true;
  }

  // --op-schemas files, then the config's `op-schemas`; a bad line is a usage error.
  bool load_op_schemas(const std::filesystem::path& config_file, const Config& config) {
    std::vector<std::string> files = options_.op_schemas;
    for (const std::filesystem::path& path : config.op_schemas) files.push_back(path.string());
    return load_op_schema_files(files, catalogs_[config_file]);
  }

  const RuleRegistry& registry_;
  const CheckOptions& options_;
  std::map<std::filesystem::path, std::optional<std::filesystem::path>> found_in_;
  std::map<std::filesystem::path, RuleFilter> filters_;
  std::map<std::filesystem::path, opschema::SchemaCatalog> catalogs_;  // node-based: stable
  std::vector<const opschema::SchemaCatalog*> catalog_of_;
  std::string docs_url_;
};

// "checked 12/140 files" on stderr, rewritten in place; only for long runs on a terminal.
class ProgressLine {
 public:
  ProgressLine(std::size_t total, bool enabled) : total_(total), enabled_(enabled) {}
  ~ProgressLine() {
    if (enabled_ && shown_) std::cerr << "\r\x1b[K" << std::flush;
  }
  void file_done() {
    if (!enabled_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    ++done_;
    shown_ = true;
    std::cerr << fmt::format("\rpt2lint: checked {}/{} files", done_, total_) << std::flush;
  }

 private:
  std::size_t total_;
  bool enabled_;
  std::mutex mutex_;
  std::size_t done_ = 0;
  bool shown_ = false;
};

// Checks every file; report order is the discovery order whatever the number of jobs.
std::vector<FileResult> check_files(const RuleRegistry& registry,
                                    const std::vector<DiscoveredFile>& files,
                                    const std::vector<const RuleFilter*>& filters,
                                    const std::vector<const opschema::SchemaCatalog*>& catalogs,
                                    const CheckOptions& options) {
  std::vector<FileResult> results(files.size());
  unsigned jobs = options.jobs != 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min<unsigned>(jobs, std::max<std::size_t>(1, files.size()));
  ProgressLine progress(files.size(), !options.quiet && files.size() > kProgressThreshold &&
                                          isatty(STDERR_FILENO) != 0);
  // Largest files first: a big archive picked up last would leave the other threads idle
  // while it finishes. Results still land at their discovery index.
  std::vector<std::size_t> order(files.size());
  std::vector<std::uintmax_t> sizes(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    order[i] = i;
    std::error_code error;
    sizes[i] = std::filesystem::file_size(files[i].path, error);
    if (error) sizes[i] = 0;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&sizes](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
  const IrDisposal disposal = files.size() == 1 ? IrDisposal::kLeaveToExit : IrDisposal::kFree;
  const CheckedFileObserver draw_pictures = graph::finding_picture_observer(options.format);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t n = next++; n < files.size(); n = next++) {
      const std::size_t i = order[n];
      LoadOptions load;
      load.found_by_folder_walk = files[i].found_by_folder_walk;
      Engine engine(registry, filters[i]->for_file(files[i].path),
                    OpKnowledge{catalogs[i], options.unknown_ops_parameters});
      results[i] = engine.check_file(files[i].path, load, disposal, draw_pictures);
      progress.file_done();
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& thread : threads) thread.join();
  return results;
}

// --baseline / --update-baseline. False (after printing why) on an unusable baseline.
bool apply_baseline_options(const CheckOptions& options, std::vector<FileResult>& files) {
  if (options.baseline.empty()) return true;
  if (options.update_baseline) {
    std::ofstream out(options.baseline);
    if (!out) {
      usage_error("cannot write '" + options.baseline + "'");
      return false;
    }
    write_baseline(files, out);
  }
  Baseline baseline;
  std::string error;
  if (!read_baseline(options.baseline, baseline, error)) {
    usage_error(error);
    return false;
  }
  std::vector<BaselineEntry> stale = apply_baseline(baseline, files);
  if (!stale.empty() && !options.quiet) {
    std::cerr << fmt::format("pt2lint: {} baseline {} no longer match a finding (run with "
                             "--update-baseline to drop {}):\n",
                             stale.size(), stale.size() == 1 ? "entry" : "entries",
                             stale.size() == 1 ? "it" : "them");
    for (const BaselineEntry& entry : stale) {
      std::cerr << "  " << entry.file << (entry.program.empty() ? "" : ":" + entry.program)
                << ": " << entry.message << " [" << entry.rule << ' ' << entry.name << "]\n";
    }
  }
  return true;
}

void print_statistics(const RunReport& report, std::ostream& out) {
  std::map<std::pair<std::string, std::string>, std::size_t> per_rule;
  for (const FileResult& file : report.files)
    for (const Finding& f : file.findings) ++per_rule[{f.rule_id, f.rule_name}];
  for (const auto& [rule, count] : per_rule)
    out << count << '\t' << rule.first << '\t' << rule.second << '\n';
}

int run_check(const RuleRegistry& registry, const CheckOptions& options) {
  auto renderer = make_renderer(options.format);
  if (!renderer) {
    usage_error("unknown format '" + options.format + "'");
    return kExitUsage;
  }
  if (options.update_baseline && options.baseline.empty()) {
    usage_error("--update-baseline needs --baseline FILE");
    return kExitUsage;
  }
  std::optional<Shard> shard = Shard{};
  if (!options.shard.empty() && !(shard = parse_shard(options.shard))) {
    usage_error("--shard takes I/N with 1 <= I <= N, e.g. 2/4; got '" + options.shard + "'");
    return kExitUsage;
  }
  // `-`: standard input, saved to a temporary file that the loaders read like any other.
  std::vector<std::string> paths = options.paths;
  std::optional<TempFile> stdin_copy;
  const std::string stdin_name = options.stdin_filename.empty() ? "<stdin>" : options.stdin_filename;
  if (std::count(paths.begin(), paths.end(), "-") > 1) {
    usage_error("'-' (standard input) can be given only once");
    return kExitUsage;
  }
  if (auto dash = std::find(paths.begin(), paths.end(), "-"); dash != paths.end()) {
    stdin_copy.emplace(std::filesystem::path(options.stdin_filename).extension().string());
    std::string error = stdin_copy->error();
    if (error.empty()) error = copy_stream_to_file(std::cin, stdin_copy->path());
    if (!error.empty()) {
      usage_error(error);
      return kExitUsage;
    }
    *dash = stdin_copy->path().string();
  }
  std::vector<std::string> missing;
  std::vector<DiscoveredFile> files = discover_files(paths, missing);
  for (const std::string& path : missing)
    usage_error("cannot open '" + path + "': no such file or directory");
  if (shard->count > 1)
    std::erase_if(files, [&shard](const DiscoveredFile& f) { return !in_shard(f.path, *shard); });

  // Config lookup and per-file ignores see standard input under its --stdin-filename.
  std::vector<DiscoveredFile> named = files;
  for (DiscoveredFile& file : named)
    if (stdin_copy && file.path == stdin_copy->path()) file.path = stdin_name;

  std::vector<const RuleFilter*> filters;
  FilterResolver resolver(registry, options);
  if (!resolver.resolve(named, filters)) return kExitUsage;
  std::optional<RuleFilter> stdin_filter;  // its per-file ignores, resolved for the name
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (stdin_copy && files[i].path == stdin_copy->path())
      filters[i] = &stdin_filter.emplace(filters[i]->for_file(stdin_name));
  }

  RunReport report;
  bool unreadable = !missing.empty();
  for (FileResult& file : check_files(registry, files, filters, resolver.catalogs(), options)) {
    if (file.outcome == LoadOutcome::kUnreadable) {
      usage_error("cannot open '" + file.path + "': " + file.error);
      unreadable = true;
    } else if (file.outcome == LoadOutcome::kLoaded) {
      report.files.push_back(std::move(file));
    }
  }
  for (FileResult& file : report.files)
    if (stdin_copy && file.path == stdin_copy->path().string()) file.path = stdin_name;
  if (!apply_baseline_options(options, report.files)) return kExitUsage;

  RenderOptions render;
  render.registry = &registry;
  render.show_mutations = options.show_mutations;
  render.verbose = options.verbose;
  render.statistics = options.statistics && options.format == "text";
  render.source_root = options.source_root;
  render.baseline_active = !options.baseline.empty();
  render.rule_doc = rule_doc_page;
  render.docs_url = resolver.docs_url();
  if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY"); summary != nullptr && options.format == "github")
    render.step_summary_path = summary;
  if (options.output.empty()) {
    render.color = options.format == "text" && want_color(STDOUT_FILENO);
    if (!options.quiet || options.format != "text") renderer->render(report, render, std::cout);
  } else {
    std::ofstream out(options.output);
    if (!out) {
      usage_error("cannot write '" + options.output + "'");
      return kExitUsage;
    }
    renderer->render(report, render, out);
  }
  // Machine-readable formats keep stdout to themselves; their statistics go to stderr.
  if (options.statistics && options.format != "text") print_statistics(report, std::cerr);
  if (unreadable) return kExitUsage;
  return count_findings(report).failing > 0 ? kExitFindings : kExitClean;
}

}  // namespace

Subcommand add_check_command(CLI::App& app, const RuleRegistry& registry) {
  auto options = std::make_shared<CheckOptions>();
  CheckOptions& check = *options;
  CLI::App* cmd = app.add_subcommand("check", "check .pt2, program .json and .textproto files");
  cmd->add_option("paths", check.paths, "files or folders to check; - reads standard input")
      ->required();
  cmd->add_option("--stdin-filename", check.stdin_filename,
                  "the name standard input (-) goes by in findings and config lookup");
  cmd->add_option("--format", check.format, "output format")
      ->check(CLI::IsMember(renderer_names()));
  cmd->add_option("--select", check.select, "only these rules (ID, ID prefix or name)")
      ->delimiter(',');
  cmd->add_option("--extend-select", check.extend_select,
                  "also run these rules, e.g. opt-in ones (ID, ID prefix or name)")
      ->delimiter(',');
  cmd->add_option("--ignore", check.ignore, "skip these rules (ID, ID prefix or name)")
      ->delimiter(',');
  cmd->add_option("-o,--output", check.output, "write the report to FILE");
  cmd->add_option("-j,--jobs", check.jobs, "files checked in parallel (default: cores)");
  cmd->add_option("--shard", check.shard,
                  "check only shard I of N (I/N, from 1), split by a stable hash of each path");
  auto* config = cmd->add_option("--config", check.config,
                                 "use this config file instead of searching for one");
  cmd->add_flag("--no-config", check.no_config, "ignore pyproject.toml and .pt2lint.toml")
      ->excludes(config);
  cmd->add_option("--baseline", check.baseline,
                  "findings in this baseline file are reported as baselined and do not fail");
  cmd->add_flag("--update-baseline", check.update_baseline,
                "write every current finding to the --baseline file");
  cmd->add_option("--source-root", check.source_root,
                  "folder that stack-trace paths are made relative to (sarif, github, ...)");
  cmd->add_flag("--show-mutations", check.show_mutations,
                "print each program's effective mutation set");
  cmd->add_flag("-v,--verbose", check.verbose,
                "also list the ops pt2lint has no schema for (treated conservatively), and show "
                "the findings folded under a root cause");
  cmd->add_flag("--statistics", check.statistics, "print finding counts per rule");
  add_op_schemas_option(*cmd, check.op_schemas);
  cmd->add_flag("--unknown-ops-parameters", check.unknown_ops_parameters,
                "also report parameters passed to ops of unknown schema (PT310)");
  cmd->add_flag("-q,--quiet", check.quiet,
                "print nothing in text format, no progress line; use the exit code");
  return {cmd, [&registry, options] { return run_check(registry, *options); }};
}

}  // namespace pt2lint
