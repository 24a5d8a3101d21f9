// PT216 triton-launch-loadable: a user Triton kernel launch PyTorch cannot load back outside the
// exporting process. TRAINING records the kernel only as `kernel_idx`, an index into the exporting
// process's kernel side table; ATEN records triton_kernel_wrapper_functional, which
// torch.export.load refuses ("deserialize nyi", measured on 2.11: tests/data/device/soundness/).
// The program is correct; the file is not portable, which is worth knowing before shipping it.
// docs/rules/triton-launch-loadable.md
#include <fmt/format.h>

#include <memory>

#include "analysis/dataflow/triton_kernels.h"
#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

class TritonLaunchLoadable final : public Rule {
 public:
  const RuleInfo& info() const override { return kTritonLaunchLoadable; }

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {
    const ir::Graph& graph = index.graph();
    int first = -1;
    int count = 0;
    for (int n = 0; n < graph.nodes_size(); ++n) {
      const std::string_view target = graph.nodes(n).target();
      if (!dataflow::is_triton_mutation(target) && !dataflow::is_triton_functional(target)) continue;
      if (first < 0) first = n;
      ++count;
    }
    if (first < 0) return;  // one finding per program: the cause is the launch style, not the node
    const ir::Node& node = graph.nodes(first);
    const dataflow::TritonLaunch launch = dataflow::decode_triton_launch(node);
    const bool functional = dataflow::is_triton_functional(node.target());
    const std::string where =
        functional ? fmt::format("node `{}` runs Triton kernel `{}` as triton_kernel_wrapper_functional, which "
                                 "torch.export.load cannot deserialize",
                                 index.node_name(first), launch.kernel_name)
                   : fmt::format("node `{}` launches a user Triton kernel by `kernel_idx={}`, an index into the "
                                 "exporting process's kernel table",
                                 index.node_name(first), launch.kernel_idx);
    auto finding = emit(sink, kTritonLaunchLoadable, index.name(),
                        fmt::format("{}: this file cannot be run outside the process that exported it", where));
    finding.at_node(std::string(index.node_name(first))).op(node.target());
    if (count > 1) finding.note(fmt::format("{} Triton launches in this program", count));
    finding.note("torch.export.load in another process has no kernel for the index (TRAINING) or refuses the "
                 "functional form (ATEN, PyTorch 2.11: \"deserialize nyi\")");
    finding.fix("register the kernel as an op with `torch.library.triton_op` (launching it with "
                "`torch.library.wrap_triton`): the program then records a named custom op, which loads wherever the "
                "op is defined");
  }
};

}  // namespace

std::unique_ptr<Rule> make_TritonLaunchLoadable() { return std::make_unique<TritonLaunchLoadable>(); }

}  // namespace pt2lint
