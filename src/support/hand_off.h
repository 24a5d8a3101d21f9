// Work one thread hands to another that will be free soon: the program reader's second
// thread checks a CRC and converts the weights config, then takes the part of the program
// JSON the reader handed it (docs/performance.md, "the program JSON on two cores").
// A task runs on the serving thread, in the order posted; serve() returns once close() was
// called and every task posted before it ran.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>

#include "support/other_core_thread.h"

namespace pt2lint {

class HandOff {
 public:
  enum class Serving {
    kByServe,  // a thread that calls serve() runs the tasks
    kInline,   // post() runs each task at once, on the posting thread: the order a reader
               // sees when the other thread is always ahead (tests)
  };
  explicit HandOff(Serving serving = Serving::kByServe) : serving_(serving) {}
  HandOff(const HandOff&) = delete;
  HandOff& operator=(const HandOff&) = delete;

  // Queues `task` for the serving thread. A task must not throw: it reports its own failure.
  void post(std::function<void()> task);
  // No more tasks: serve() returns when the queue is empty.
  void close();
  // Runs the posted tasks until close(); called by one thread.
  void serve();

 private:
  const Serving serving_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> tasks_;
  bool closed_ = false;
};

// A thread that serves its HandOff until it goes out of scope: a second core for the rules of
// one program (engine/task_batch.h), started before they are needed so that its start-up
// (a new thread's heap) overlaps other work.
class ServingThread {
 public:
  // Throws std::system_error when no thread can be started.
  ServingThread();
  ~ServingThread();
  ServingThread(const ServingThread&) = delete;
  ServingThread& operator=(const ServingThread&) = delete;
  HandOff& hand_off() { return hand_off_; }

 private:
  HandOff hand_off_;
  OtherCoreThread thread_;
};

// Closes a HandOff when it goes out of scope, however the scope ends: a serving thread
// waits for close(), so a reader that throws must still release it.
class CloseOnExit {
 public:
  explicit CloseOnExit(HandOff& hand_off) : hand_off_(hand_off) {}
  ~CloseOnExit() { hand_off_.close(); }
  CloseOnExit(const CloseOnExit&) = delete;
  CloseOnExit& operator=(const CloseOnExit&) = delete;

 private:
  HandOff& hand_off_;
};

}  // namespace pt2lint
