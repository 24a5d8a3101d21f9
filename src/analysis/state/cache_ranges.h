// Which positions of a cache a program can write. A KV cache written at a symbolic position
// (ExecuTorch's `input_pos.item()`, a dynamic sequence length) has the range that the program's
// range_constraints and runtime assertions (`_assert_scalar`) give that position; this compares
// the largest end a write can reach with the buffer's extent along the written dimension.
//
// Followed: slice_scatter(buffer, src, dim, start, end) (ATEN), and copy_/fill_/zero_ into
// narrow(buffer, dim, start, length) or slice(buffer, dim, start, end) (TRAINING), with start,
// end and length integers or symbols whose sympy expressions are sums of symbols and integers.
// Writes at a tensor of positions (index_copy_, index_put_: transformers' StaticCache at
// `cache_position`) cannot be bounded from the program: torch.export records no range for a
// tensor's values. Those are "undecidable", with the reason.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pt2lint {

class ProgramIndex;
struct ProgramSummary;

enum class CacheRange {
  kInBounds,     // every write ends within the extent, and can reach its end
  kCanExceed,    // some allowed position writes past the extent
  kCapped,       // a guard keeps every write well below the extent: capacity never used
  kUndecidable,  // the position cannot be bounded; `why` says what
};

struct CacheWrite {
  std::string_view target;   // the buffer's FQN
  int input_spec = -1;
  int node = -1;             // the writing node
  int dim = -1;
  std::int64_t extent = -1;  // the buffer's size along `dim`
  std::int64_t max_end = -1; // the largest end position a write can reach
  CacheRange verdict = CacheRange::kUndecidable;
  std::string why;           // the bound's source, or why there is none
};

// Every write of a buffer at a position range, in graph order (top-level graph).
std::vector<CacheWrite> find_cache_writes(const ProgramIndex& index);
// The same, found once per index (ProgramIndex::cache_writes).
const std::vector<CacheWrite>& cache_writes(const ProgramIndex& index);

// Adds one line per undecidable cache write to `summary.undecided` (`check --verbose`).
void summarize_cache_ranges(const ProgramIndex& index, ProgramSummary& summary);

}  // namespace pt2lint
