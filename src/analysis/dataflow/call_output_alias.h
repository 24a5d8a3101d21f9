// What an output of a higher-order op's call is when its subgraph returns one of its own
// inputs (subgraph_calls.h computes it; the value tracer follows it). Its own header because
// the tracer, which subgraph_calls.h depends on, holds these.
#pragma once

#include <string_view>

namespace pt2lint::dataflow {

// What output k of a call is, when its subgraph returns one of its own inputs: the caller
// value bound to that input. `same_tensor`: returned as it is, or after in-place writes (the
// call returns the operand's storage); else a view of it. `written`: the subgraph wrote it.
// Only for grad-mode and autocast regions and invoke_subgraph, which run their one subgraph
// exactly once; an empty `value` means a fresh tensor.
struct CallOutputAlias {
  std::string_view value;
  bool same_tensor = false;
  bool written = false;
};

}  // namespace pt2lint::dataflow
