// OtherCoreThread: the body runs once, what it throws comes back from join(), and the thread
// runs with its creator's cores again once started (it was created on the others only).
#include "support/other_core_thread.h"

#include <sched.h>

#include <atomic>
#include <stdexcept>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace pt2lint {
namespace {

TEST(OtherCoreThread, RunsTheBodyOnceAndJoins) {
  std::atomic<int> runs{0};
  OtherCoreThread thread([&] { ++runs; });
  thread.join();
  EXPECT_EQ(runs.load(), 1);
  thread.join();  // a second join waits for nothing
  EXPECT_EQ(runs.load(), 1);
}

TEST(OtherCoreThread, JoinRethrowsWhatTheBodyThrew) {
  OtherCoreThread thread([] { throw std::runtime_error("from the body"); });
  EXPECT_THROW(thread.join(), std::runtime_error);
  EXPECT_NO_THROW(thread.join());  // thrown once, as std::future::get gives it once
}

TEST(OtherCoreThread, DestructorJoinsAndDropsAFailure) {
  std::atomic<bool> ran{false};
  {
    OtherCoreThread thread([&] {
      ran = true;
      throw std::runtime_error("dropped");
    });
  }
  EXPECT_TRUE(ran.load());
}

TEST(OtherCoreThread, RunsWithItsCreatorsCoresAgain) {
  cpu_set_t creators{};
  ASSERT_EQ(sched_getaffinity(0, sizeof creators, &creators), 0);
  cpu_set_t seen{};
  int here = -1;
  OtherCoreThread thread([&] {
    sched_getaffinity(0, sizeof seen, &seen);
    here = sched_getcpu();
  });
  thread.join();
  EXPECT_TRUE(CPU_EQUAL(&seen, &creators)) << "the thread kept the narrowed core set";
  EXPECT_TRUE(here >= 0 && CPU_ISSET(here, &creators));
}

TEST(OtherCoreThread, MovesIntoAVector) {
  std::atomic<int> runs{0};
  std::vector<OtherCoreThread> threads;
  for (int i = 0; i < 4; ++i) threads.emplace_back([&] { ++runs; });
  for (OtherCoreThread& thread : threads) thread.join();
  EXPECT_EQ(runs.load(), 4);
}

}  // namespace
}  // namespace pt2lint
