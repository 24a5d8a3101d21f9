// libFuzzer target over the whole pipeline, structure-aware: the custom mutator reads an input
// as a program (textproto, program JSON or .pt2 archive), applies the mutations a buggy pass
// makes (src/properties/ir_mutator.h) and writes it back as a ProgramSet textproto. Each
// input runs load, index, every rule, contract, lower, check of the lowered program, diff and
// every report format; a broken property (pipeline_properties.h) aborts like a crash.
// Seeds: tests/golden, tests/data/device and ../shared/corpus programs (`make fuzz`).
#include <google/protobuf/text_format.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "io/readers/load_bytes.h"
#include "properties/ir_mutator.h"
#include "properties/pipeline_properties.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

using namespace pt2lint;

// The reader is picked by content, so that .pt2 and .json seeds work as they are.
std::string_view name_for(std::string_view bytes) {
  if (bytes.starts_with("PK")) return "input.pt2";
  if (bytes.find_first_not_of(" \t\r\n") != std::string_view::npos && bytes[bytes.find_first_not_of(" \t\r\n")] == '{')
    return "input.json";
  return "input.textproto";
}

std::vector<ir::Program> load(const uint8_t* data, size_t size, bool& clean) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  LoadOptions options;
  options.max_program_json_bytes = 1 << 20;
  options.max_json_depth = 256;
  options.max_archive_members = 4096;
  LoadedFile out;
  CollectingSink sink;
  load_bytes(bytes, name_for(bytes), options, out, sink);
  clean = !sink.has_errors();
  return std::move(out.programs);
}

const RuleRegistry& registry() {
  static const RuleRegistry* instance = [] {
    auto* r = new RuleRegistry;
    register_all_rules(*r);
    return r;
  }();
  return *instance;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  bool clean = false;
  const std::vector<ir::Program> programs = load(data, size, clean);
  if (programs.empty() || !clean) return 0;  // the reader fuzzers cover broken files
  const properties::PipelineResult result = properties::run_pipeline(programs, registry());
  if (result.violations.empty()) return 0;
  for (const std::string& v : result.violations) std::fprintf(stderr, "property violated: %s\n", v.c_str());
  std::abort();
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  bool clean = false;
  std::vector<ir::Program> programs = load(data, size, clean);
  std::mt19937_64 rng(seed);
  // One time in 16, and for anything that is not a program, byte-level mutation: it reaches
  // the textproto parser's corners and values the structural mutations never write.
  if (programs.empty() || rng() % 16 == 0) return LLVMFuzzerMutate(data, size, max_size);
  ir::ProgramSet set;
  for (ir::Program& p : programs) *set.add_programs() = std::move(p);
  const int rounds = 1 + static_cast<int>(rng() % 3);
  for (int r = 0; r < rounds; ++r) properties::mutate(set, rng);
  std::string text;
  google::protobuf::TextFormat::PrintToString(set, &text);
  if (text.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, text.data(), text.size());
  return text.size();
}
