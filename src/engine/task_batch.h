// A batch of a program's checks (its structural rules; its dataflow summaries and rules),
// run one by one, or on two threads for a large program (docs/performance.md, "the rules on
// two cores"). The tasks only read the program and its index. Each reports to its own sink,
// and its findings reach that sink in task order, as if the tasks had run one by one on the
// calling thread: reports do not depend on timing.
#pragma once

#include <functional>
#include <vector>

#include "core/diagnostic_sink.h"
#include "support/hand_off.h"

namespace pt2lint {

class TaskBatch {
 public:
  using Task = std::function<void(DiagnosticSink&)>;

  // `sink` must outlive run().
  void add(Task task, DiagnosticSink& sink) { tasks_.push_back({std::move(task), &sink}); }

  bool empty() const { return tasks_.empty(); }

  // Runs every task added and forgets them, on this thread and, with `other`, on the thread
  // that serves it too; rethrows what a task threw. Returns the CPU seconds the other thread
  // spent, for a budget kept on this one.
  double run_and_clear(HandOff* other);

 private:
  struct Entry {
    Task task;
    DiagnosticSink* sink;
  };
  std::vector<Entry> tasks_;
};

}  // namespace pt2lint
