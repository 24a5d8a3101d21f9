#include "engine/task_batch.h"

#include <atomic>
#include <exception>
#include <future>

#include "support/cpu_budget.h"

namespace pt2lint {

double TaskBatch::run_and_clear(HandOff* other) {
  std::vector<Entry> tasks = std::move(tasks_);
  tasks_.clear();
  if (other == nullptr || tasks.size() < 2) {
    for (Entry& e : tasks) e.task(*e.sink);
    return 0;
  }
  // The next task to take, in order: the threads share the work as they come free.
  std::vector<CollectingSink> held(tasks.size());
  std::vector<std::exception_ptr> failed(tasks.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < tasks.size(); i = next++) {
      try {
        tasks[i].task(held[i]);
      } catch (...) {
        failed[i] = std::current_exception();
      }
    }
  };
  double other_cpu = 0;
  std::promise<void> other_done;
  std::future<void> other_finished = other_done.get_future();
  other->post([&] {
    const double start = thread_cpu_seconds();
    work();
    other_cpu = thread_cpu_seconds() - start;
    other_done.set_value();
  });
  work();
  other_finished.wait();
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    if (failed[i]) std::rethrow_exception(failed[i]);
    for (Finding& f : held[i].take()) tasks[i].sink->report(std::move(f));
  }
  return other_cpu;
}

}  // namespace pt2lint
