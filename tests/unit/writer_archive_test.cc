// The archive writer replaces the members it is given and copies every other one through
// unchanged, in order.
#include <gtest/gtest.h>
#include <zip.h>

#include "../data/lowering/lowering_test_support.h"
#include "io/writers/pt2_archive_writer.h"

namespace pt2lint {
namespace {

using namespace lowering_testing;

std::vector<std::string> member_names(const std::filesystem::path& path) {
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &error);
  std::vector<std::string> names;
  if (archive == nullptr) return names;
  for (zip_int64_t i = 0; i < zip_get_num_entries(archive, 0); ++i) {
    names.emplace_back(zip_get_name(archive, static_cast<zip_uint64_t>(i), 0));
    zip_stat_t stat;
    zip_stat_index(archive, static_cast<zip_uint64_t>(i), 0, &stat);
    EXPECT_EQ(stat.comp_method, ZIP_CM_STORE) << path << ": " << names.back();
  }
  zip_close(archive);
  return names;
}

TEST(WriterArchive, ReplacesOneMemberAndCopiesTheRest) {
  if (!have_corpus()) GTEST_SKIP() << "corpus not found at " << corpus();
  const auto input = corpus() / "base" / "counter.pt2";
  const auto output = temp_path("edited.pt2");
  ArchiveEdit edit;
  edit.replaced_members["counter/models/model.json"] = "{\"replaced\": true}";
  const Status written = write_edited_archive(input, output, edit);
  ASSERT_TRUE(written.ok()) << written.message();

  const auto names = member_names(output);
  EXPECT_EQ(names, member_names(input));
  for (const std::string& name : names) {
    std::string before, after;
    ASSERT_TRUE(read_archive_member(input, name, before));
    ASSERT_TRUE(read_archive_member(output, name, after));
    if (name == "counter/models/model.json") {
      EXPECT_EQ(after, "{\"replaced\": true}");
    } else {
      EXPECT_TRUE(before == after) << name;
    }
  }
  std::filesystem::remove(output);
}

TEST(WriterArchive, AnUnreadableInputLeavesNoOutput) {
  const auto output = temp_path("never.pt2");
  const Status refused = write_edited_archive("/nonexistent/in.pt2", output, {});
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("cannot open '/nonexistent/in.pt2'"), std::string::npos) << refused.message();
  EXPECT_FALSE(std::filesystem::exists(output));
}

}  // namespace
}  // namespace pt2lint
