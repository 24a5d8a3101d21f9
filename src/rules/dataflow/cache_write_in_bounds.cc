// PT325 cache-write-in-bounds: a buffer written at a symbolic position (a KV cache at
// `input_pos.item()`, a dynamic sequence length) whose range, from range_constraints and the
// program's runtime assertions, lets a write end past the buffer's extent: an out-of-bounds write
// (narrow raises, slice_scatter silently clamps) for inputs the program itself accepts.
// docs/rules/cache-write-in-bounds.md
#include <fmt/format.h>

#include <memory>

#include "analysis/program_index.h"
#include "analysis/state/cache_ranges.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class CacheWriteInBounds final : public Rule {
 public:
  const RuleInfo& info() const override { return kCacheWriteInBounds; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    for (const CacheWrite& write : cache_writes(index)) {
      if (write.verdict != CacheRange::kCanExceed) continue;
      emit(sink, kCacheWriteInBounds, index.name(),
           fmt::format("node `{}` writes buffer `{}` along dimension {} up to position {}, past its extent {}: "
                       "the range the program accepts for the write position allows it{}",
                       index.node_name(write.node), write.target, write.dim, write.max_end, write.extent,
                       write.why.empty() ? "" : fmt::format(" ({})", write.why)))
          .at_node(std::string(index.node_name(write.node)))
          .state(std::string(write.target))
          .note("a call whose position is in range_constraints but past the cache's end writes out of "
                "bounds: narrow raises at run time, slice_scatter silently writes fewer positions than "
                "it was given")
          .fix(fmt::format("bound the position at export so that it ends within the cache (torch._check("
                           "start + length <= {}), or a Dim max), or allocate `{}` with room for the largest "
                           "position",
                           write.extent, write.target));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_CacheWriteInBounds() { return std::make_unique<CacheWriteInBounds>(); }

}  // namespace pt2lint
