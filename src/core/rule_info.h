// Rule metadata, declared once per rule and shared by the engine, the CLI and the renderers.
#pragma once

#include <string_view>

#include "core/finding.h"

namespace pt2lint {

// Structural rules check the signature against the graph; dataflow rules assume a sound
// structure and are skipped for a program that has a structural error.
// Load rules come from the readers, contract rules from `pt2lint diff`; neither runs in the
// engine.
enum class RulePhase { kLoad = 0, kStructural = 1, kDataflow = 2, kContract = 3 };

// Whether a rule runs without being selected (core/rule_catalogue.def).
enum class RuleDefault { kOn, kOptIn };

struct RuleInfo {
  std::string_view id;        // stable short ID: PT1xx load, PT2xx structural, PT3xx dataflow,
                              // PT4xx contract
  std::string_view name;      // kebab-case, the contract the corpus labels use
  Severity default_severity;
  RulePhase phase;
  std::string_view summary;   // one line
  // docs page: docs/rules/<name>.md
  // Opt-in rules (false) are true but rarely actionable: they run only when a selection
  // names them (by ID, ID prefix or name), like ruff's non-default rules.
  bool default_enabled = true;
};

// "load", "structural", "dataflow", "contract": as SARIF's rule tags and `pt2lint rules` say it.
constexpr std::string_view phase_name(RulePhase phase) {
  switch (phase) {
    case RulePhase::kLoad: return "load";
    case RulePhase::kStructural: return "structural";
    case RulePhase::kDataflow: return "dataflow";
    case RulePhase::kContract: return "contract";
  }
  return "";
}

}  // namespace pt2lint
