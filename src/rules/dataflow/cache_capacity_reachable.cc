// PT326 cache-capacity-reachable: a buffer written at a symbolic position whose every write a guard
// keeps below the buffer's extent: the positions past the cap are allocated, saved and never used
// (optimum-executorch#218: a sliding-window guard capped the cache at the window and ignored
// --max_seq_len). A deliberate cap is legal, but then the cache is oversized.
// docs/rules/cache-capacity-reachable.md
#include <fmt/format.h>

#include <memory>

#include "analysis/program_index.h"
#include "analysis/state/cache_ranges.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class CacheCapacityReachable final : public Rule {
 public:
  const RuleInfo& info() const override { return kCacheCapacityReachable; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    for (const CacheWrite& write : cache_writes(index)) {
      if (write.verdict != CacheRange::kCapped) continue;
      emit(sink, kCacheCapacityReachable, index.name(),
           fmt::format("node `{}` writes buffer `{}` along dimension {} at most up to position {} of its {}: "
                       "positions {} to {} can never be written{}",
                       index.node_name(write.node), write.target, write.dim, write.max_end, write.extent,
                       write.max_end, write.extent - 1, write.why.empty() ? "" : fmt::format(" ({})", write.why)))
          .at_node(std::string(index.node_name(write.node)))
          .state(std::string(write.target))
          .note("the cache is allocated and saved at its full size, but the program refuses every call "
                "that would use the rest: the usable sequence length is the cap, not the cache's length")
          .fix(fmt::format("export with the guard matching the cache (a torch._check or Dim max of {} for the "
                           "write's end), or allocate `{}` with {} positions",
                           write.extent, write.target, write.max_end));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_CacheCapacityReachable() { return std::make_unique<CacheCapacityReachable>(); }

}  // namespace pt2lint
