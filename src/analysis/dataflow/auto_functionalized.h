// Decoding of `torch.ops.higher_order.auto_functionalized` and `auto_functionalized_v2`,
// the nodes functionalization (run_decompositions) makes of a custom op that writes its
// arguments. PyTorch's encoding (torch/_higher_order_ops/auto_functionalize.py):
//
//   inputs:  positional `_mutable_op` (as_operator: "torch.ops.mylib.update_cache.default"),
//            then every argument of the op by name.
//     v1:    the written arguments are passed as themselves; outputs are the op's returns
//            (one `None` slot when it returns nothing), then the new value of each written
//            argument, in schema order (a `Tensor(a!)[]` argument gives a tensor list).
//     v2:    the written arguments are replaced by `_all_bases` (the distinct storages they
//            view) and, per written argument `x` (per element `x_<i>` of a list), by
//            `_x_base_index` (which base) plus how to replay the view on that base:
//            nothing (the base itself), `_x_alias`, `_x_slice_dim/_start/_end`, or
//            `_x_size/_stride/_storage_offset` (as_strided); a list has `_x_length`.
//            Outputs are the op's returns, then the new value of each base, in
//            `_all_bases` order.
//
// So output `prefix + i` is the update of base i (v2) or of written argument i (v1). The
// v2 layout needs no schema (prefix = outputs - bases); v1 needs the op's schema.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "program.pb.h"
#include "support/status.h"

namespace pt2lint {

namespace opschema {
class SchemaCatalog;
}

namespace dataflow {

// kTriton: a triton_kernel_wrapper_functional call decoded the same way (triton_kernels.h).
enum class AutoFunctionalizedVersion { kNone, kV1, kV2, kTriton };

AutoFunctionalizedVersion auto_functionalized_version(std::string_view target);
// The `_mutable_op` an auto_functionalized node calls ("torch.ops.mylib.f.default"), or "".
std::string_view auto_functionalized_op(const ir::Node& node);

// How a written argument reaches its base in v2.
struct WrittenArgument {
  std::string name;          // the recorded prefix without `_`: "cache", "xs_1" (list element)
  std::string argument;      // the schema argument: "cache", "xs"
  int element = -1;          // index into a `Tensor(a!)[]` argument, else -1
  int base_index = -1;       // into bases; -1 for a None argument
  std::string_view view;     // "base", "alias", "slice", "as_strided"
};

struct AutoFunctionalizedCall {
  AutoFunctionalizedVersion version = AutoFunctionalizedVersion::kNone;
  std::string_view op_target;  // the `_mutable_op`, as serialized
  int prefix = 0;              // node outputs before the updates: the op's own returns
  // One per updated tensor, in output order: `updated` is the new value of `base`.
  struct Update {
    std::string_view updated;
    std::string_view base;
    std::string argument;  // v1: the written argument; v2: the arguments viewing this base
  };
  std::vector<Update> updates;
  std::vector<WrittenArgument> written;  // v2 only
};

// Decodes a node; fails, saying why, when it is not an auto_functionalized node or its
// encoding cannot be read (v1 without a known schema for its op, mismatched counts).
Expected<AutoFunctionalizedCall> decode_auto_functionalized(const ir::Node& node,
                                                            const opschema::SchemaCatalog* schemas);

// The argument names an auto_functionalized node says its op writes ("cache", "xs" for a
// list), in order of appearance; v2 needs no schema for this.
std::vector<std::string> written_argument_names(const AutoFunctionalizedCall& call);

}  // namespace dataflow
}  // namespace pt2lint
