// The one channel findings travel through, from rules and readers to the renderers.
#pragma once

#include <vector>

#include "core/finding.h"
#include "core/rule_info.h"

namespace pt2lint {

class DiagnosticSink {
 public:
  virtual ~DiagnosticSink() = default;
  virtual void report(Finding finding) = 0;
};

// Keeps every finding in arrival order.
class CollectingSink final : public DiagnosticSink {
 public:
  void report(Finding finding) override { findings_.push_back(std::move(finding)); }
  const std::vector<Finding>& findings() const { return findings_; }
  std::vector<Finding> take() { return std::move(findings_); }
  bool has_errors() const;

 private:
  std::vector<Finding> findings_;
};

// Builds one finding and hands it to the sink when it goes out of scope, so a rule can
// attach notes and a fix fluently:  emit(sink, info, program, msg).at_node(n).note(...);
class InFlightFinding {
 public:
  InFlightFinding(DiagnosticSink& sink, const RuleInfo& rule, std::string program,
                  std::string message);
  InFlightFinding(const InFlightFinding&) = delete;
  InFlightFinding& operator=(const InFlightFinding&) = delete;
  ~InFlightFinding();

  InFlightFinding& severity(Severity severity);
  InFlightFinding& at_input_spec(int index);
  InFlightFinding& at_output_spec(int index);
  InFlightFinding& at_node(std::string node);
  InFlightFinding& at_value(std::string value);
  InFlightFinding& at_json_path(std::string path);
  InFlightFinding& at_member(std::string member);
  InFlightFinding& op(std::string target);
  InFlightFinding& state(std::string fqn);
  InFlightFinding& stack_trace(std::string trace);
  InFlightFinding& note(std::string text);
  // A note about a related place (Note::location), e.g. the first definition of a name.
  InFlightFinding& note(std::string text, Location at);
  InFlightFinding& fix(std::string description, std::string replacement = {});

 private:
  DiagnosticSink& sink_;
  Finding finding_;
};

inline InFlightFinding emit(DiagnosticSink& sink, const RuleInfo& rule, std::string program,
                            std::string message) {
  return InFlightFinding(sink, rule, std::move(program), std::move(message));
}

}  // namespace pt2lint
