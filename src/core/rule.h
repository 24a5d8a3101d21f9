// The interface every program-level rule implements.
#pragma once

#include "core/diagnostic_sink.h"
#include "core/rule_info.h"

namespace pt2lint {

class ProgramIndex;

class Rule {
 public:
  virtual ~Rule() = default;
  virtual const RuleInfo& info() const = 0;
  // Reads the indexed program and reports its findings to `sink`, each naming the program
  // by `index.name()`.
  virtual void check(const ProgramIndex& index, DiagnosticSink& sink) const = 0;
};

}  // namespace pt2lint
