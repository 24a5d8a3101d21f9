// The registry of every rule, built once for the unit tests that run the engine.
#pragma once

#include "core/rule_registry.h"
#include "rules/register_all_rules.h"

namespace pt2lint::testing_support {

inline const RuleRegistry& all_rules() {
  static const RuleRegistry* registry = [] {
    auto* r = new RuleRegistry;
    register_all_rules(*r);
    return r;
  }();
  return *registry;
}

}  // namespace pt2lint::testing_support
