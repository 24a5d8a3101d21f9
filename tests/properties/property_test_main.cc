// The pipeline properties (src/properties/pipeline_properties.h) as a deterministic test:
// every seed program as it is, then MUTATIONS mutated copies spread over the seeds, each with
// 1-3 mutations drawn from a fixed SEED. Any broken property, or a program that takes more than
// --max-ms, fails the test and prints how to reproduce it.
//
// With --unknown-op-paths N, also every one of the first N nodes of each seed's programs handed to
// an op outside the schema table along each path of properties::UnknownOpPath (directly, in a
// list, in a kwargs dict, through a region, through a nested region): unknown is never "none".
//
// usage: pt2lint_property_test [--seed N] [--mutations N] [--max-ms N] [--max-kb N] [--save DIR]
//                              [--unknown-op-paths N] PATH...
// PATH is a file (.pt2, .json, .textproto) or a folder searched for them.
#include <fmt/format.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "io/readers/load_file.h"
#include "properties/ir_mutator.h"
#include "properties/pipeline_properties.h"
#include "rules/register_all_rules.h"

namespace fs = std::filesystem;
using namespace pt2lint;

namespace {

struct Args {
  std::uint64_t seed = 1;
  int mutations = 2000;
  double max_ms = 2000;
  std::uintmax_t max_kb = 256;  // larger seeds cost more time than they add paths
  std::string save;
  int unknown_op_paths = 0;
  std::vector<fs::path> paths;
};

std::vector<fs::path> program_files(const std::vector<fs::path>& paths, std::uintmax_t max_bytes) {
  std::vector<fs::path> out;
  auto wanted = [](const fs::path& p) {
    const std::string ext = p.extension().string();
    return ext == ".pt2" || ext == ".textproto" || (ext == ".json" && p.filename() != "labels.json");
  };
  for (const fs::path& path : paths) {
    if (!fs::is_directory(path)) { out.push_back(path); continue; }
    for (const auto& entry : fs::recursive_directory_iterator(path))
      if (entry.is_regular_file() && wanted(entry.path()) && entry.file_size() <= max_bytes) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Seed {
  fs::path path;
  ir::ProgramSet set;
  bool clean = false;  // check finds no error in it (set by its own run)
};

}  // namespace

int main(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--seed") args.seed = std::stoull(next());
    else if (a == "--mutations") args.mutations = std::stoi(next());
    else if (a == "--max-ms") args.max_ms = std::stod(next());
    else if (a == "--save") args.save = next();
    else if (a == "--max-kb") args.max_kb = std::stoull(next());
    else if (a == "--unknown-op-paths") args.unknown_op_paths = std::stoi(next());
    else args.paths.emplace_back(a);
  }
  RuleRegistry registry;
  register_all_rules(registry);

  std::vector<Seed> seeds;
  for (const fs::path& path : program_files(args.paths, args.max_kb * 1024)) {
    LoadedFile loaded;
    CollectingSink sink;
    if (load_file(path, LoadOptions{}, loaded, sink) != LoadOutcome::kLoaded || loaded.programs.empty()) continue;
    Seed seed{path, {}};
    for (ir::Program& p : loaded.programs) *seed.set.add_programs() = std::move(p);
    seeds.push_back(std::move(seed));
  }
  if (seeds.empty()) {
    std::cerr << "no seed program found\n";
    return 2;
  }

  std::mt19937_64 rng(args.seed);
  std::map<std::string, int> applied, broken;
  int executions = 0, failures = 0, repairs_checked = 0, seed_repairs = 0;
  double slowest_ms = 0;
  std::string slowest;
  // Counts a violation, prints the first 20, and saves their programs under --save.
  auto report = [&](const ir::ProgramSet& set, const std::string& what, const std::string& v) {
    ++broken[properties::violation_property(v)];
    if (++failures > 20) return;
    std::cout << "FAIL " << what << "\n  " << v << std::endl;
    if (args.save.empty()) return;
    const fs::path out = fs::path(args.save) / fmt::format("failure_{}.textproto", failures);
    std::string text;
    google::protobuf::TextFormat::PrintToString(set, &text);
    std::ofstream(out) << "# " << what << "\n# " << v << '\n' << text;
    std::cout << "  saved as " << out.string() << '\n';
  };
  auto run = [&](const ir::ProgramSet& set, const std::string& what) {
    const std::vector<ir::Program> programs(set.programs().begin(), set.programs().end());
    const auto start = std::chrono::steady_clock::now();
    const properties::PipelineResult result = properties::run_pipeline(programs, registry);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    ++executions;
    repairs_checked += result.repairs_checked;
    if (ms > slowest_ms) slowest_ms = ms, slowest = what;
    std::vector<std::string> problems = result.violations;
    if (ms > args.max_ms) problems.push_back(fmt::format("bounded-time: {:.0f} ms (limit {:.0f} ms)", ms, args.max_ms));
    for (const std::string& v : problems) report(set, what, v);
    return std::none_of(result.findings.begin(), result.findings.end(),
                        [](const Finding& f) { return f.severity == Severity::kError; });
  };

  for (Seed& seed : seeds) seed.clean = run(seed.set, seed.path.string());
  for (int i = 0; i < args.mutations; ++i) {
    const Seed& seed = seeds[static_cast<std::size_t>(i) % seeds.size()];
    ir::ProgramSet set = seed.set;
    std::string what = seed.path.string() + " after";
    const int rounds = 1 + static_cast<int>(rng() % 3);
    bool signature_only = true;  // only write-back targets and output specs were mutated
    for (int r = 0; r < rounds; ++r) {
      if (auto kind = properties::mutate(set, rng)) {
        ++applied[std::string(properties::mutation_name(*kind))];
        what += " " + std::string(properties::mutation_name(*kind));
        signature_only = signature_only && (*kind == properties::Mutation::kRetargetMutationOutput ||
                                            *kind == properties::Mutation::kSwapMutationTargets ||
                                            *kind == properties::Mutation::kMoveOutputSpec);
      }
    }
    const std::string label = fmt::format("{} (mutant {} of --seed {})", what, i, args.seed);
    run(set, label);
    // A repair of a clean seed's signature mutant must be the seed (fix-restores-the-seed).
    if (signature_only && seed.clean && set.programs_size() == seed.set.programs_size()) {
      for (int p = 0; p < set.programs_size(); ++p) {
        for (const std::string& v : properties::check_repair_restores_seed(seed.set.programs(p), set.programs(p),
                                                                           registry, seed_repairs))
          report(set, label, v);
      }
    }
  }

  for (const Seed& seed : seeds) {
    for (int p = 0; p < seed.set.programs_size(); ++p) {
      const int nodes = seed.set.programs(p).program().graph_module().graph().nodes_size();
      for (int n = 0; n < std::min(nodes, args.unknown_op_paths); ++n) {
        for (int k = 0; k < static_cast<int>(properties::UnknownOpPath::kCount); ++k) {
          const auto path = static_cast<properties::UnknownOpPath>(k);
          ir::ProgramSet set = seed.set;
          if (!properties::hide_behind_unknown_op(*set.mutable_programs(p), n, path)) continue;
          ++applied[fmt::format("unknown-op-path {}", properties::unknown_op_path_name(path))];
          run(set, fmt::format("{} with node {} of program {} behind an unknown op ({})", seed.path.string(), n, p,
                               properties::unknown_op_path_name(path)));
        }
      }
    }
  }

  std::cout << fmt::format("{} seeds, {} executions, {} property violations; slowest {:.1f} ms ({})\n", seeds.size(),
                           executions, failures, slowest_ms, slowest);
  std::cout << fmt::format("  {} repairs that fix would write, checked by fix-keeps-right-writes\n", repairs_checked);
  std::cout << fmt::format("  {} repairs of clean seeds' signature mutants, checked by fix-restores-the-seed\n",
                           seed_repairs);
  for (const auto& [kind, n] : applied) std::cout << fmt::format("  mutation {:<28} {:>6}\n", kind, n);
  for (const auto& [property, n] : broken) std::cout << fmt::format("  BROKEN {:<30} {:>6}\n", property, n);
  return failures == 0 ? 0 : 1;
}
