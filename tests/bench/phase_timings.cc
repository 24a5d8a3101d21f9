// Phase breakdown of checking one PT2 archive, in one cold process: the steps of
// `pt2lint check` (load_file + Engine::check_program) called one by one through the public
// APIs, each timed (wall and process CPU, ms). Not built by CMake; check_big_programs.sh
// compiles it against a build tree's static libraries. Prints "phase wall_ms cpu_ms rss_mb
// peak_mb" lines: the resident set after the phase and the peak so far (/proc/self/status).
//   PER_RULE=1  also times each structural rule
//   NO_ARENA=1  builds the IR on the heap, as the value-semantics load_file does (pt2lint
//               check builds it on an arena, as here by default)
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <google/protobuf/arena.h>

#include "analysis/dataflow/dataflow_summary.h"
#include "analysis/program_index.h"
#include "cli/huge_page_heap.h"
#include "core/diagnostic_sink.h"
#include "core/rule_registry.h"
#include "engine/engine.h"
#include "io/readers/json/json_to_proto.h"
#include "io/readers/load_reporter.h"
#include "io/readers/zip/zip_archive.h"
#include "rules/register_all_rules.h"
#include "support/huge_pages.h"

using namespace pt2lint;

namespace {

double now(clockid_t clock) {
  timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// VmRSS or VmHWM of this process, in MB.
double status_mb(const char* key) {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  double kb = 0;
  const std::size_t n = std::strlen(key);
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::strncmp(line, key, n) == 0) kb = std::atof(line + n + 1);
  }
  std::fclose(f);
  return kb / 1e3;
}

struct Timer {
  double wall = now(CLOCK_MONOTONIC);
  double cpu = now(CLOCK_PROCESS_CPUTIME_ID);
  void lap(const std::string& name) {
    const double w = now(CLOCK_MONOTONIC), c = now(CLOCK_PROCESS_CPUTIME_ID);
    std::printf("%-14s %8.2f %8.2f %8.1f %8.1f\n", name.substr(0, 14).c_str(), w - wall, c - cpu,
                status_mb("VmRSS:"), status_mb("VmHWM:"));
    wall = w;
    cpu = c;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: phase_timings FILE.pt2\n");
    return 2;
  }
  const bool per_rule = std::getenv("PER_RULE") != nullptr;
  use_huge_pages_for_heap();  // as src/cli/main.cc does
  Timer t;
  RuleRegistry registry;
  register_all_rules(registry);
  t.lap("registry");

  auto opened = ZipArchive::open_file(argv[1], 1'000'000);
  if (!opened.ok()) {
    std::fprintf(stderr, "%s\n", opened.message().c_str());
    return 2;
  }
  std::unique_ptr<ZipArchive> zip = std::move(opened).value();
  t.lap("zip_open");
  const ZipArchive::Member* model = nullptr;
  const ZipArchive::Member* weights = nullptr;
  for (const auto& m : zip->members()) {
    if (model == nullptr && m.name.find("/models/") != std::string::npos &&
        m.name.ends_with(".json")) {
      model = &m;
    }
    if (m.name.ends_with("_weights_config.json")) weights = &m;
  }
  if (model == nullptr || weights == nullptr) {
    std::fprintf(stderr, "not a PT2 archive with a model and a weights config\n");
    return 2;
  }
  PaddedBytes json;
  (void)zip->read(*model, std::uint64_t{1} << 30, json);  // a bench of a known-good file
  t.lap("member_read");

  CollectingSink load_findings;
  LoadReporter reporter(load_findings);
  JsonToProto reader;
  // The same blocks as load_file's arena variant.
  google::protobuf::ArenaOptions arena_options;
  arena_options.start_block_size = std::size_t{1} << 20;
  arena_options.max_block_size = std::size_t{8} << 20;
  arena_options.block_alloc = allocate_arena_block;
  arena_options.block_dealloc = free_large_block;
  google::protobuf::Arena* arena =
      std::getenv("NO_ARENA") ? nullptr : new google::protobuf::Arena(arena_options);
  ir::Program& program = arena ? *google::protobuf::Arena::CreateMessage<ir::Program>(arena)
                               : *new ir::Program;
  program.set_name("model");
  // As pt2lint check does: the walk gives back the pages of the JSON it has passed, and the
  // read-only IR interns node metadata and shares repeated TensorMetas (engine.cc).
  reader.read(json, *program.mutable_program(), {"model", model->name}, reporter,
              InputDiscard{&json}, program.mutable_node_metadata_strings());
  t.lap("json_to_ir");
  json = PaddedBytes();
  t.lap("free_json");

  PaddedBytes config;
  (void)zip->read(*weights, std::uint64_t{1} << 30, config);  // as above
  reader.read(config, *program.mutable_weights()->mutable_config(), {"model", weights->name},
              reporter);
  for (const auto& m : zip->members()) {
    if (m.name.find("/data/weights/") != std::string::npos && !m.name.ends_with(".json")) {
      auto* record = program.mutable_weights()->add_records();
      record->set_path(m.name);
      record->set_size(m.size);
    }
  }
  t.lap("weights_config");
  zip.reset();
  t.lap("zip_close");

  std::size_t findings = 0;
  {
    ProgramIndex index(program);
    t.lap("index");
    CollectingSink out;
    for (const auto& rule : registry.rules()) {
      if (rule->info().phase != RulePhase::kStructural) continue;
      rule->check(index, out);
      if (per_rule) t.lap("  " + std::string(rule->info().name));
    }
    t.lap("structural");
    ProgramSummary summary;
    dataflow::summarize_dataflow(index, summary);
    t.lap("df_summary");
    for (const auto& rule : registry.rules()) {
      if (rule->info().phase != RulePhase::kDataflow) continue;
      rule->check(index, out);
      if (per_rule) t.lap("  " + std::string(rule->info().name));
    }
    t.lap("df_rules");
    findings = out.findings().size();
  }
  t.lap("index_free");
  if (arena != nullptr) {
    delete arena;
  } else {
    delete &program;
  }
  t.lap("ir_free");
  std::fprintf(stderr, "%zu load findings, %zu rule findings\n", load_findings.findings().size(),
               findings);
  return 0;
}
