// Builds the registry from the rule catalogue (core/rule_catalogue.def): every rule the
// engine runs, in catalogue order, and the metadata of those reported elsewhere.
#include <memory>

#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "core/rule_registry.h"

namespace pt2lint {

// Each defined in src/rules/<phase>/<name>.cc.
#define PT2LINT_RULE(Class, ...) std::unique_ptr<Rule> make_##Class();
#define PT2LINT_REPORTED_RULE(...)
#include "core/rule_catalogue.def"
#undef PT2LINT_RULE
#undef PT2LINT_REPORTED_RULE

void register_all_rules(RuleRegistry& registry) {
#define PT2LINT_RULE(Class, ...) registry.add_rule(make_##Class());
#define PT2LINT_REPORTED_RULE(Class, ...) registry.add_reported_elsewhere(k##Class);
#include "core/rule_catalogue.def"
#undef PT2LINT_RULE
#undef PT2LINT_REPORTED_RULE
}

}  // namespace pt2lint
