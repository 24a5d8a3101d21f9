// A thread that starts on a core other than its creator's, where the process may run on
// another: the second core of one check (the program reader's side, the rules' serving
// thread, a split read) and the workers of `--jobs`.
//
// Linux queues a new thread on its creator's core. A creator that goes on working keeps that
// core, and the new thread waits for the scheduler's next load balance to be moved, up to a
// tick (4 ms): on the 2-core machine of docs/performance.md a std::thread started 1.4-3.9 ms
// late, and two 5 ms halves of work took 7.9 ms instead of 5.2 (docs/performance.md, "new
// threads on their creator's core"). This thread is created allowed only on the creator's
// other cores, so the kernel starts it on one at once, and it allows itself all of the
// creator's cores again first thing: later the kernel moves it as it would any thread.
#pragma once

#include <exception>
#include <functional>
#include <memory>

namespace pt2lint {

class OtherCoreThread {
 public:
  // Runs `body` on the new thread. Throws std::system_error when no thread can be started,
  // as std::thread does. With one core to run on, or none known, it is an ordinary thread.
  explicit OtherCoreThread(std::function<void()> body);
  // Joins, if join() was not called; what the body threw is dropped then.
  ~OtherCoreThread();
  OtherCoreThread(OtherCoreThread&&) noexcept;
  OtherCoreThread& operator=(OtherCoreThread&&) = delete;
  OtherCoreThread(const OtherCoreThread&) = delete;
  OtherCoreThread& operator=(const OtherCoreThread&) = delete;

  // Waits for the body to end and rethrows what it threw, as std::future::get does.
  void join();

 private:
  struct State;
  static void* run(void* state);
  std::unique_ptr<State> state_;
};

}  // namespace pt2lint
