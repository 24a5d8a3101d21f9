// How one file is read: the bounds that keep hostile inputs cheap, and the rules left on. Its own
// header, so that what every loader shares (load_context.h) does not include the readers' entry
// point (load_file.h), which includes every loader.
#pragma once

#include <cstdint>

namespace pt2lint {

class RuleFilter;

struct LoadOptions {
  // True when the file was found by walking a folder: a .json file that is not an exported
  // program is then skipped silently instead of reported.
  bool found_by_folder_walk = false;
  // Bounds that keep hostile inputs cheap. A member or file beyond them is reported.
  std::uint64_t max_program_json_bytes = std::uint64_t{1} << 30;
  std::uint64_t max_config_json_bytes = std::uint64_t{64} << 20;
  std::uint32_t max_json_depth = 1024;
  std::uint64_t max_archive_members = 1'000'000;
  // --verify-data: read whole every member torch.export.load reads, whatever its size (sample
  // inputs, extra files and pickles beyond their bounds, reported as member-not-checked
  // otherwise), and check the CRC-32 of every member pt2lint does not read, weights and
  // constants records included. Off by default: on a 2 GB model it reads the 2 GB
  // (docs/performance.md, "--verify-data").
  bool verify_data = false;
  // The file's time budget, in CPU seconds of the thread that checks it (neighbours on a
  // shared CI machine do not spend it); past it, check-time-budget-spent ends the check.
  // 0: no budget.
  double max_file_cpu_seconds = 60.0;
  // The rules --select/--ignore leave on for this file. Findings of other rules still reach
  // the sink (a broken program stays broken) but do not count against the per-file cap, so
  // `--select PT103` is never crowded out by hundreds of hidden malformed-program findings.
  const RuleFilter* rule_filter = nullptr;
  // Node metadata interned (src/core/ir/node_metadata.h) instead of read as key/value
  // messages: 57 MB less at the peak at 4,096 layers (docs/performance.md, "At scale"). Only
  // for an IR that is read and never changed or written (`check`'s): the passes that copy
  // nodes, and the writers, read Node.metadata. Repeated TensorMetas then share one message
  // too (src/io/readers/json/tensor_meta_repeats.h).
  bool intern_node_metadata = false;
};

}  // namespace pt2lint
