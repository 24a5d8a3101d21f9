#include "support/cpu_budget.h"

#include <time.h>

namespace pt2lint {
double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

CpuBudget::CpuBudget(double seconds) : seconds_(seconds), start_(thread_cpu_seconds()) {}

double CpuBudget::used() const { return thread_cpu_seconds() - start_ + charged_; }

bool CpuBudget::spent(std::string_view where) {
  if (spent_) return true;
  if (seconds_ <= 0 || used() <= seconds_) return false;
  spent_ = true;
  stopped_before_ = std::string(where);
  return true;
}

}  // namespace pt2lint
