#include "verifier/contract/contract_rules.h"

namespace pt2lint {

void register_contract_rules(RuleRegistry& registry) {
  for (const RuleInfo* info :
       {&kWriteBackLost, &kWriteBackAdded, &kWriteBackTargetRenamed, &kWriteBackDuplicated,
        &kWriteBackFromOtherState, &kWriteBackShapeChanged, &kUserOutputGained, &kUserOutputLost,
        &kUserOutputReordered, &kUserOutputChanged, &kUserOutputTreeChanged, &kUserInputChanged,
        &kProgramMissing, &kWriteBackUndecidable}) {
    registry.add_reported_elsewhere(*info);
  }
}

}  // namespace pt2lint
