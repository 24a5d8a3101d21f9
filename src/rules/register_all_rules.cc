// register_all_rules() as the rule catalogue (core/rule_catalogue.def) expanded: one
// registration per entry, so a rule in the catalogue cannot be left out of the registry.
#include "rules/register_all_rules.h"

#include <memory>

#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {

// Each defined in src/rules/<phase>/<name>.cc.
#define PT2LINT_RULE(Class, ...) std::unique_ptr<Rule> make_##Class();
#define PT2LINT_REPORTED_RULE(...)
#define PT2LINT_RULE_ALIAS(...)
#include "core/rule_catalogue.def"
#undef PT2LINT_RULE
#undef PT2LINT_REPORTED_RULE
#undef PT2LINT_RULE_ALIAS

void register_all_rules(RuleRegistry& registry) {
#define PT2LINT_RULE(Class, ...) registry.add_rule(make_##Class());
#define PT2LINT_REPORTED_RULE(Class, ...) registry.add_reported_elsewhere(k##Class);
#define PT2LINT_RULE_ALIAS(former_name, Class) registry.add_alias(#former_name, k##Class);
#include "core/rule_catalogue.def"
#undef PT2LINT_RULE
#undef PT2LINT_REPORTED_RULE
#undef PT2LINT_RULE_ALIAS
}

}  // namespace pt2lint
