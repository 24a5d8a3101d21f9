// Findings of one file go through here so that a hostile file cannot flood the output:
// past a per-file cap, findings are counted per rule and summarised once at the end.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic_sink.h"
#include "core/rule_filter.h"
#include "core/rule_info.h"

namespace pt2lint {

class LoadReporter {
 public:
  static constexpr std::size_t kDefaultMaxFindings = 50;

  // Findings of rules `filter` disables pass through uncounted (the sink drops them).
  explicit LoadReporter(DiagnosticSink& sink, const RuleFilter* filter = nullptr,
                        std::size_t max_findings = kDefaultMaxFindings)
      : sink_(sink), filter_(filter), max_findings_(max_findings) {}
  // A reporter for work on another thread: it keeps its findings until a reporter of the
  // file adopts them, so their order does not depend on timing.
  LoadReporter() : sink_(held_), max_findings_(kDefaultMaxFindings) {}
  LoadReporter(const LoadReporter&) = delete;
  LoadReporter& operator=(const LoadReporter&) = delete;

  // Any of member / json_path / note may be empty.
  void report(const RuleInfo& rule, std::string_view program, std::string message,
              std::string_view member = {}, std::string_view json_path = {},
              std::string note = {});

  // Emits one summary finding per rule that had findings suppressed. Call once at the end.
  void finish();

  // Reports the findings `held` kept (see the default constructor), in their order, as if
  // they had been reported here: they count against this reporter's cap.
  void adopt(LoadReporter& held);

  std::size_t reported() const { return reported_; }

 private:
  struct Suppressed {
    const RuleInfo* rule;
    std::string program;
    std::size_t count;
  };
  // False when the finding is over the cap and was counted as suppressed instead.
  bool admit(const RuleInfo& rule, std::string_view program);
  void suppress(const RuleInfo& rule, std::string_view program, std::size_t count);

  CollectingSink held_;
  std::vector<const RuleInfo*> held_rules_;  // the rule of each finding in held_
  DiagnosticSink& sink_;
  const RuleFilter* filter_ = nullptr;
  std::size_t max_findings_;
  std::size_t reported_ = 0;
  std::vector<Suppressed> suppressed_;
};

}  // namespace pt2lint
