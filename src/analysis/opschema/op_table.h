// The operator schema table: what each registered operator reads, writes and aliases.
//
// The records are generated at build time from src/analysis/opschema/aten_schemas.txt by
// generator/gen_op_table.cc, which uses LibTorch's own schema parser. The checker links only
// the generated, immutable arrays (library pt2lint_op_table), never LibTorch.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace pt2lint::opschema {

// What an argument or return holds, as far as dataflow cares.
enum class ValueType : std::uint8_t {
  kOther = 0,           // int, float, ScalarType, ...: never aliases a tensor
  kTensor = 1,          // Tensor
  kOptionalTensor = 2,  // Tensor?
  kTensorList = 3,      // Tensor[]
  kOptionalTensorList = 4,  // Tensor?[]
};

// Alias sets are numbered per schema, in order of first appearance: `Tensor(a!)` and
// `Tensor(a)` in one schema share a number. kNoAliasSet: no annotation.
inline constexpr std::int8_t kNoAliasSet = -1;
inline constexpr std::int8_t kWildcardAliasSet = 127;  // `(*)`: may alias anything

struct ArgumentRecord {
  std::string_view name;
  ValueType type;
  std::int8_t alias_set;
  bool writes;      // `(a!)`: the op writes this argument in place
  bool kwarg_only;  // after `*` (out= arguments are kwarg-only and written)
};

struct ReturnRecord {
  std::string_view name;        // "" when the schema does not name it (`running_mean_out`)
  ValueType type;
  std::int8_t alias_set;
  bool writes;
  std::int16_t aliases_argument;  // index of the argument with the same alias set, or -1
};

inline constexpr std::int32_t kNoTwin = -1;

struct SchemaRecord {
  std::string_view name;      // qualified: "aten::index_copy_"
  std::string_view overload;  // "" for the default overload
  std::uint32_t first_argument;
  std::uint16_t argument_count;
  std::uint32_t first_return;
  std::uint16_t return_count;
  bool is_mutable;  // some argument is written (`(a!)`)
  // Index into schemas() of the functional twin of an in-place (`index_copy_`) or out=
  // (`add.out`) variant, and of the in-place twin of a functional op; kNoTwin when none.
  std::int32_t functional_twin;
  std::int32_t inplace_twin;
};

struct OpTable {
  std::span<const SchemaRecord> schemas;  // sorted by (name, overload)
  std::span<const ArgumentRecord> arguments;
  std::span<const ReturnRecord> returns;
  // Schema lines the LibTorch parser of the generating build rejected, verbatim, in file order.
  std::span<const std::string_view> rejected_lines;
  std::uint32_t source_schema_count;  // schema lines in aten_schemas.txt
};

// The generated table (defined in the generated op_table_data.cc).
const OpTable& op_table();

}  // namespace pt2lint::opschema
