#include "diagnosis/edit_labels.h"

#include <fmt/format.h>

namespace pt2lint::diagnosis {
namespace {

struct KindProof {
  std::string_view kind;
  EditEvidence evidence;
  std::string_view reason;
};

// One row per kind of cause that proposes edits (docs/fix.md, "Root causes").
constexpr KindProof kKindProofs[] = {
    {"pairing", EditEvidence::kDataflow, "dataflow: the update origin of each value, and the out_spec's leaf count"},
    {"swap", EditEvidence::kDataflow, "dataflow: each value is the update of the other state"},
    {"rename", EditEvidence::kDataflow,
     "dataflow: the update origin of each value; the input specs and the saved state agree on the name"},
    {"state-renamed", EditEvidence::kDataflow,
     "dataflow: the update origin of each value; the input specs and the saved state agree on the new name"},
    {"wrong-target", EditEvidence::kDataflow, "dataflow: the update origin of the value"},
    {"duplicated-target", EditEvidence::kDataflow, "dataflow: the update origin of the orphaned value"},
    {"duplicated-write-back", EditEvidence::kExactNames, "the same value is written back twice"},
    {"dropped-write-back", EditEvidence::kDataflow, "dataflow: the last update of the state, which no output returns"},
    {"user-output-as-write-back", EditEvidence::kDataflow,
     "dataflow: a fresh value, and the state's own update elsewhere"},
    {"write-back-as-user-output", EditEvidence::kDataflow,
     "dataflow: the update origin of the value; the out_spec's leaf count"},
    {"undefined-write-back-value", EditEvidence::kDataflow,
     "dataflow: the last update of the target, which no output returns"},
    {"misaligned-specs", EditEvidence::kExactNames, "the names: each spec names the value at another position"},
    {"misplaced-mutation", EditEvidence::kLayout,
     "the layout PyTorch pairs outputs by: tokens, write-backs in input order, user outputs"},
    {"misplaced-token", EditEvidence::kLayout, "the layout PyTorch pairs outputs by: tokens first"},
    {"extra-user-output", EditEvidence::kExactNames,
     "the two specs are identical, and removing either gives one order"},
    {"placeholder-renamed", EditEvidence::kLayout,
     "the positions: the spec's name is defined nowhere, the placeholder has no spec"},
    {"input-spec-dropped", EditEvidence::kSavedState,
     "torch.export's placeholder name, shape and dtype of the one undeclared saved entry"},
    {"buffer-declared-as-parameter", EditEvidence::kSavedState, "the saved weights' is_param false"},
    {"constant-was-buffer", EditEvidence::kDataflow,
     "dataflow: the graph computes the constant's update and an output writes it back"},
    {"gradient-pairing", EditEvidence::kDataflow,
     "dataflow and elimination: shapes and dtypes admit one pairing of gradients and inputs"},
    {"spec-renamed", EditEvidence::kMajority,
     "the majority of the sources: the saved state, the write-back targets and the placeholder's name"},
    {"state-entry-renamed", EditEvidence::kMajority,
     "the majority of the sources: the input spec, the write-back targets and the placeholder's name"},
};

EditProof row_proof(std::string_view kind) {
  for (const KindProof& row : kKindProofs)
    if (row.kind == kind) return {row.evidence, std::string(row.reason)};
  return {};
}

}  // namespace

EditProof proof_of(std::string_view kind, EditOp op) {
  // A move inside a pairing (the retargets' values then take their places in the layout) is
  // the layout's; misplaced-token keeps its own words.
  if (op == EditOp::kMove && kind != "misplaced-token") return row_proof("misplaced-mutation");
  return row_proof(kind);
}

EditProof by_name_similarity(std::string_view entry) {
  return {EditEvidence::kNameSimilarity,
          fmt::format("name similarity only: several saved entries have the shape and dtype, and "
                      "`{}` is the one whose name is near", entry)};
}

}  // namespace pt2lint::diagnosis
