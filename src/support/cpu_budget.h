// A time budget in CPU seconds of the calling thread: what one file's check may spend. CPU
// time, not wall time, so that the neighbours of a shared CI machine do not spend it, and a
// thread's clock, so that files checked in parallel each get their own.
#pragma once

#include <string>
#include <string_view>

namespace pt2lint {

// CPU seconds the calling thread has used (a vDSO clock read, ~50 ns).
double thread_cpu_seconds();

class CpuBudget {
 public:
  // `seconds` <= 0: no budget.
  explicit CpuBudget(double seconds);

  // Whether the budget is spent; the first call that finds it spent records `where` (what
  // was about to run). Sticky: once spent, always spent. A clock read costs ~50 ns (vDSO).
  bool spent(std::string_view where);

  bool was_spent() const { return spent_; }
  const std::string& stopped_before() const { return stopped_before_; }
  double seconds() const { return seconds_; }
  // CPU seconds the thread has used since the budget started, and what was charged.
  double used() const;
  // Counts `seconds` another thread spent on the file's work (engine/rule_phase.h).
  void charge(double seconds) { charged_ += seconds; }

 private:
  double seconds_;
  double start_;
  double charged_ = 0;
  bool spent_ = false;
  std::string stopped_before_;
};

}  // namespace pt2lint
