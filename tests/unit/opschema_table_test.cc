// The generated operator table: its size, the lines LibTorch rejected, and the facts the
// dataflow rules read from it (writes, aliases, return names, twins).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/opschema/op_schema.h"
#include "analysis/opschema/undeclared_writes.h"

namespace pt2lint::opschema {
namespace {

// Debian's LibTorch 1.13 lacks SymBool, Await and a few custom classes of PyTorch 2.11.
const std::vector<std::string_view> kExpectedRejects = {
    "aten::owner(RRef(t) self) -> __torch__.torch.classes.dist_rpc.WorkerInfo",
    "aten::sym_is_contiguous(Tensor self, MemoryFormat memory_format=0) -> SymBool",
    "cuda::current_stream.device(Device? device) -> __torch__.torch.classes.cuda.Stream",
    "cuda::current_stream.int(int? val) -> __torch__.torch.classes.cuda.Stream",
    "cuda::default_stream.device(Device? device) -> __torch__.torch.classes.cuda.Stream",
    "cuda::default_stream.int(int? val) -> __torch__.torch.classes.cuda.Stream",
    "cuda::set_stream(__torch__.torch.classes.cuda.Stream stream) -> ()",
    "prim::awaitable_nowait(t self) -> Await(t)",
    "prim::awaitable_wait(Await(t) self) -> t",
    "symm_mem::_barrier(__torch__.torch.classes.c10d.SymmetricMemory symm) -> ()",
    "symm_mem::_rendezvous(Tensor tensor, str? group_name=None) -> "
    "__torch__.torch.classes.c10d.SymmetricMemory",
    "symm_mem::nccl_put_signal(Tensor src, __torch__.torch.classes.c10d.SymmetricMemory hdl, int "
    "peer) -> ()",
    "symm_mem::nccl_wait_signal(__torch__.torch.classes.c10d.SymmetricMemory hdl, int peer) -> ()",
};

OpSchema require(std::string_view name, std::string_view overload) {
  std::optional<OpSchema> schema = find_schema(name, overload);
  if (!schema) throw std::runtime_error("missing schema " + std::string(name));
  return *schema;
}

TEST(OpTable, HoldsEveryParsedSchemaAndListsTheRejects) {
  const OpTable& table = op_table();
  EXPECT_EQ(table.source_schema_count, 4558u);
  std::vector<std::string_view> rejects(table.rejected_lines.begin(), table.rejected_lines.end());
  EXPECT_EQ(rejects, kExpectedRejects);
  EXPECT_EQ(table.schemas.size(), 4558u - kExpectedRejects.size());
}

TEST(OpTable, IsSortedByNameThenOverload) {
  const auto& schemas = op_table().schemas;
  EXPECT_TRUE(std::is_sorted(schemas.begin(), schemas.end(), [](const auto& a, const auto& b) {
    return a.name != b.name ? a.name < b.name : a.overload < b.overload;
  }));
}

TEST(OpTable, RecordsWritesAndTheAliasOfTheReturn) {
  OpSchema index_copy_ = require("aten::index_copy_", "");
  EXPECT_TRUE(index_copy_.is_mutable());
  EXPECT_EQ(index_copy_.arguments()[0].name, "self");
  EXPECT_TRUE(index_copy_.arguments()[0].writes);
  EXPECT_EQ(index_copy_.arguments()[0].type, ValueType::kTensor);
  EXPECT_FALSE(index_copy_.arguments()[3].writes);
  EXPECT_EQ(index_copy_.returns()[0].aliases_argument, 0);
  EXPECT_TRUE(index_copy_.returns()[0].writes);

  OpSchema view = require("aten::view", "");
  EXPECT_FALSE(view.is_mutable());
  EXPECT_EQ(view.returns()[0].aliases_argument, 0);
  EXPECT_FALSE(view.returns()[0].writes);

  OpSchema out = require("aten::add", "out");
  int out_arg = out.argument_index("out");
  ASSERT_GE(out_arg, 0);
  EXPECT_TRUE(out.arguments()[out_arg].writes);
  EXPECT_TRUE(out.arguments()[out_arg].kwarg_only);
  EXPECT_EQ(out.returns()[0].aliases_argument, out_arg);

  EXPECT_EQ(require("aten::index_put", "").arguments()[1].type, ValueType::kOptionalTensorList);
}

TEST(OpTable, KeepsReturnNames) {
  OpSchema bn = require("aten::_native_batch_norm_legit_functional", "");
  std::vector<std::string_view> names;
  for (const auto& ret : bn.returns()) names.push_back(ret.name);
  EXPECT_EQ(names, (std::vector<std::string_view>{"", "", "", "running_mean_out", "running_var_out"}));
}

TEST(OpTable, PairsInPlaceAndOutVariantsWithTheirFunctionalTwin) {
  EXPECT_EQ(require("aten::index_copy_", "").functional_twin()->name(), "aten::index_copy");
  EXPECT_EQ(require("aten::index_copy", "").inplace_twin()->name(), "aten::index_copy_");
  EXPECT_EQ(require("aten::add_", "Tensor").functional_twin()->overload(), "Tensor");
  // add.out pairs with add.Tensor (same arguments), not the scalar aten::add.
  EXPECT_EQ(require("aten::add", "out").functional_twin()->overload(), "Tensor");
  EXPECT_EQ(require("aten::max", "names_dim_max").functional_twin()->overload(), "names_dim");
  EXPECT_FALSE(require("aten::mm", "").inplace_twin().has_value());
  EXPECT_EQ(require("aten::add_", "Tensor").provenance_target(), "aten.add_.Tensor");
  EXPECT_EQ(require("aten::copy_", "").provenance_target(), "aten.copy_.default");
}

TEST(SerializedTarget, MapsTorchOpsOntoSchemaNames) {
  auto index_put = parse_serialized_target("torch.ops.aten.index_put.default");
  ASSERT_TRUE(index_put);
  EXPECT_EQ(index_put->name, "aten::index_put");
  EXPECT_EQ(index_put->overload, "");
  auto add = parse_serialized_target("torch.ops.aten.add.Tensor");
  ASSERT_TRUE(add);
  EXPECT_EQ(add->overload, "Tensor");
  EXPECT_TRUE(find_schema(*add));
}

TEST(SerializedTarget, LeavesOpsWithoutASchemaUnknown) {
  EXPECT_FALSE(parse_serialized_target("_operator.getitem"));
  EXPECT_FALSE(parse_serialized_target("torch.ops.higher_order.cond"));
  EXPECT_FALSE(parse_serialized_target("torch.ops.aten"));
  auto custom = parse_serialized_target("torch.ops.my_ns.my_op.default");
  ASSERT_TRUE(custom);
  EXPECT_FALSE(find_schema(*custom));
}

TEST(UndeclaredWrites, CoverBatchNormInTrainingModeWithEvidence) {
  bool running_mean = false, running_var = false;
  for (const UndeclaredWrite& entry : undeclared_writes()) {
    EXPECT_FALSE(entry.evidence.empty()) << entry.op;
    EXPECT_TRUE(find_schema(entry.op, "")) << entry.op << " is not in the table";
    if (entry.op == "aten::batch_norm") {
      running_mean |= entry.argument == "running_mean";
      running_var |= entry.argument == "running_var";
      EXPECT_EQ(entry.when_true, "training");
    }
  }
  EXPECT_TRUE(running_mean && running_var);
}

}  // namespace
}  // namespace pt2lint::opschema
