#include "support/hand_off.h"

#include <utility>

#include "support/huge_pages.h"

namespace pt2lint {

void HandOff::post(std::function<void()> task) {
  if (serving_ == Serving::kInline) {
    task();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(task));
  }
  changed_.notify_one();
}

void HandOff::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  changed_.notify_one();
}

void HandOff::serve() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return closed_ || !tasks_.empty(); });
      if (tasks_.empty()) return;
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    task();
  }
}

ServingThread::ServingThread()
    : thread_([this] {
        use_huge_pages_for_thread_heap();
        hand_off_.serve();
      }) {}

ServingThread::~ServingThread() {
  hand_off_.close();
  thread_.join();
}

}  // namespace pt2lint
