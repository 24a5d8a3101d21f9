// The catalogue's entries (rule_catalogue.def) as constants, `kValueNamesUnique` and so on,
// and as one list. Duplicate IDs or names fail the build here.
#pragma once

#include <array>
#include <string_view>

#include "core/rule_info.h"

namespace pt2lint {

#define PT2LINT_RULE(Class, id, name, phase, severity, enabled, summary)                  \
  inline constexpr RuleInfo k##Class{id, name, Severity::severity, RulePhase::phase, summary, \
                                     RuleDefault::enabled == RuleDefault::kOn};
#define PT2LINT_REPORTED_RULE PT2LINT_RULE
#define PT2LINT_RULE_ALIAS(former_name, Class)
#include "core/rule_catalogue.def"
#undef PT2LINT_RULE
#undef PT2LINT_REPORTED_RULE
#undef PT2LINT_RULE_ALIAS

// Every rule, in catalogue order.
inline constexpr std::array kRuleCatalogue{
#define PT2LINT_RULE(Class, ...) &k##Class,
#define PT2LINT_REPORTED_RULE PT2LINT_RULE
#define PT2LINT_RULE_ALIAS(former_name, Class)
#include "core/rule_catalogue.def"
#undef PT2LINT_RULE
#undef PT2LINT_REPORTED_RULE
#undef PT2LINT_RULE_ALIAS
};

constexpr bool catalogue_ids_and_names_unique() {
  for (std::size_t i = 0; i < kRuleCatalogue.size(); ++i)
    for (std::size_t j = i + 1; j < kRuleCatalogue.size(); ++j)
      if (kRuleCatalogue[i]->id == kRuleCatalogue[j]->id ||
          kRuleCatalogue[i]->name == kRuleCatalogue[j]->name)
        return false;
  return true;
}
static_assert(catalogue_ids_and_names_unique(),
              "two entries of core/rule_catalogue.def share an ID or a name");

}  // namespace pt2lint
