#include "support/other_core_thread.h"

#include <pthread.h>
#include <sched.h>

#include <system_error>
#include <utility>

namespace pt2lint {

struct OtherCoreThread::State {
  std::function<void()> body;
  cpu_set_t creators_cores{};  // given back to the thread first thing
  bool restricted = false;     // created on the creator's other cores only
  std::exception_ptr failure;
  pthread_t thread{};
  bool joined = false;
};

void* OtherCoreThread::run(void* opaque) {
  auto& state = *static_cast<State*>(opaque);
  if (state.restricted) sched_setaffinity(0, sizeof state.creators_cores, &state.creators_cores);
  try {
    state.body();
  } catch (...) {
    state.failure = std::current_exception();
  }
  return nullptr;
}

OtherCoreThread::OtherCoreThread(std::function<void()> body) : state_(std::make_unique<State>()) {
  State& state = *state_;
  state.body = std::move(body);
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  // More than CPU_SETSIZE cores, or no core known: an ordinary thread.
  const int here = sched_getcpu();
  if (here >= 0 && here < CPU_SETSIZE &&
      sched_getaffinity(0, sizeof state.creators_cores, &state.creators_cores) == 0 &&
      CPU_ISSET(here, &state.creators_cores) && CPU_COUNT(&state.creators_cores) > 1) {
    cpu_set_t others = state.creators_cores;
    CPU_CLR(here, &others);
    state.restricted = pthread_attr_setaffinity_np(&attributes, sizeof others, &others) == 0;
  }
  int error = pthread_create(&state.thread, &attributes, run, &state);
  pthread_attr_destroy(&attributes);
  if (error != 0 && state.restricted) {
    // Cores the kernel will not give (a cpuset changed meanwhile): wherever it may run.
    state.restricted = false;
    error = pthread_create(&state.thread, nullptr, run, &state);
  }
  if (error != 0) throw std::system_error(error, std::generic_category(), "cannot start a thread");
}

OtherCoreThread::OtherCoreThread(OtherCoreThread&&) noexcept = default;

OtherCoreThread::~OtherCoreThread() {
  if (state_ != nullptr && !state_->joined) pthread_join(state_->thread, nullptr);
}

void OtherCoreThread::join() {
  if (!state_->joined) {
    pthread_join(state_->thread, nullptr);
    state_->joined = true;
  }
  if (state_->failure) std::rethrow_exception(std::exchange(state_->failure, nullptr));
}

}  // namespace pt2lint
