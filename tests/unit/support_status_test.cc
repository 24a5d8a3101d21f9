// Status and Expected<T> (support/status.h), the one convention for functions that fail with
// a message, and the two support types built on it that hand back a resource: AtomicFile and
// TempFile, which must clean up exactly once however they are moved.
#include "support/status.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <type_traits>

#include "support/atomic_file.h"
#include "support/temp_file.h"

namespace pt2lint {
namespace {

Status fails_when(bool fail) {
  if (fail) return Status::error("'a.pt2' is not a zip archive");
  return {};
}

Expected<int> half_of(int n) {
  if (n % 2 != 0) return Status::error("odd: " + std::to_string(n));
  return n / 2;
}

// A caller that adds context in front and passes the failure up, as CONTRIBUTING.md shows.
Expected<int> quarter_of(int n) {
  Expected<int> half = half_of(n);
  if (!half.ok()) return Status::error("quartering " + std::to_string(n) + ": " + half.message());
  return half_of(half.value());
}

TEST(SupportStatus, DefaultIsSuccessWithNoMessage) {
  const Status status;
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(status.message(), "");
  EXPECT_TRUE(fails_when(false).ok());
}

TEST(SupportStatus, ErrorKeepsItsMessageByteForByte) {
  const Status status = fails_when(true);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "'a.pt2' is not a zip archive");
  // A failure with an empty message is still a failure: ok() does not look at the text.
  EXPECT_FALSE(Status::error("").ok());
}

TEST(SupportStatus, ExpectedHoldsAValueOrAFailure) {
  Expected<int> four = half_of(8);
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(four.value(), 4);
  EXPECT_EQ(four.message(), "");  // empty on success, as Status::message()
  EXPECT_TRUE(four.status().ok());

  const Expected<int> odd = half_of(7);
  EXPECT_FALSE(odd.ok());
  EXPECT_EQ(odd.message(), "odd: 7");
  EXPECT_FALSE(odd.status().ok());
  EXPECT_EQ(odd.status().message(), "odd: 7");
}

TEST(SupportStatus, FailuresPassUpWithContextInFront) {
  EXPECT_EQ(quarter_of(8).value(), 2);
  EXPECT_EQ(quarter_of(6).message(), "odd: 3");
  EXPECT_EQ(quarter_of(5).message(), "quartering 5: odd: 5");
}

TEST(SupportStatus, ExpectedOfAMoveOnlyValueAndOfAString) {
  Expected<std::unique_ptr<int>> owned = std::make_unique<int>(3);
  ASSERT_TRUE(owned.ok());
  std::unique_ptr<int> taken = std::move(owned).value();
  EXPECT_EQ(*taken, 3);

  // A string value and a failure stay apart: a value that happens to be empty is a success.
  const Expected<std::string> empty = std::string();
  EXPECT_TRUE(empty.ok());
  const Expected<std::string> text = std::string("x");
  EXPECT_EQ(text->size(), 1u);
}

TEST(SupportStatus, BothTypesAreNodiscard) {
  // [[nodiscard]] cannot be observed at run time; this pins that both stay class types that
  // carry it (a plain bool or std::string would compile a dropped result silently).
  static_assert(std::is_class_v<Status>);
  static_assert(std::is_class_v<Expected<int>>);
  SUCCEED();
}

class SupportFiles : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(testing::TempDir()) / ("pt2lint_status_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(SupportFiles, AtomicFileMovesOutOfExpectedAndCommitsOnce) {
  Expected<AtomicFile> created = AtomicFile::create(dir_ / "out.json");
  ASSERT_TRUE(created.ok()) << created.message();
  AtomicFile file = std::move(created).value();
  const std::filesystem::path temporary = file.temporary();
  EXPECT_TRUE(std::filesystem::exists(temporary));
  ASSERT_EQ(::write(file.fd(), "{}", 2), 2);
  const Status committed = file.commit();
  ASSERT_TRUE(committed.ok()) << committed.message();
  EXPECT_TRUE(std::filesystem::exists(dir_ / "out.json"));
  EXPECT_FALSE(std::filesystem::exists(temporary));
  // A second commit fails instead of renaming twice.
  EXPECT_FALSE(file.commit().ok());
}

TEST_F(SupportFiles, AtomicFileRefusesAFolderAtItsOutput) {
  std::filesystem::create_directories(dir_ / "out.json");
  const Expected<AtomicFile> refused = AtomicFile::create(dir_ / "out.json");
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("is a folder"), std::string::npos) << refused.message();
  EXPECT_FALSE(check_writable_target(dir_ / "out.json").ok());
  EXPECT_TRUE(check_writable_target(dir_ / "absent.json").ok());
}

TEST_F(SupportFiles, TempFileIsRemovedOnceByItsLastOwner) {
  std::filesystem::path path;
  {
    Expected<TempFile> created = TempFile::create(".json");
    ASSERT_TRUE(created.ok()) << created.message();
    TempFile moved = std::move(created).value();
    path = moved.path();
    EXPECT_EQ(path.extension(), ".json");
    EXPECT_TRUE(std::filesystem::exists(path));
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace pt2lint
