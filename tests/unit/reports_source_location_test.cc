#include <gtest/gtest.h>

#include "reports/source_location.h"

namespace pt2lint {
namespace {

constexpr std::string_view kTrace =
    "File \"/src/gen_corpus.py\", line 128, in forward\n"
    "    self.count.add_(1)\n"
    "File \"/src/layers/attn.py\", line 7, in forward\n"
    "    return self.inner(x)\n"
    "File \"/opt/venv/lib/python3.11/site-packages/torch/nn/modules/module.py\", line 1750, in _call_impl\n"
    "    return forward_call(*args, **kwargs)\n";

TEST(ReportsStackTrace, ParsesEveryFrameWithItsCode) {
  std::vector<StackFrame> frames = parse_stack_trace(kTrace);
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].file, "/src/gen_corpus.py");
  EXPECT_EQ(frames[0].line, 128);
  EXPECT_EQ(frames[0].function, "forward");
  EXPECT_EQ(frames[0].code, "self.count.add_(1)");
  EXPECT_EQ(frames[2].line, 1750);
}

TEST(ReportsStackTrace, InnermostUserFrameUnderTheRootWins) {
  auto location = user_source_location(kTrace, "/src");
  ASSERT_TRUE(location);
  EXPECT_EQ(location->path, "layers/attn.py");
  EXPECT_EQ(location->line, 7);
  EXPECT_EQ(location->code, "return self.inner(x)");
}

TEST(ReportsStackTrace, AbsolutePathsOutsideTheRootAreNotPhysical) {
  EXPECT_FALSE(user_source_location(kTrace, "/home/ci/repo"));
  EXPECT_FALSE(user_source_location(kTrace, ""));
  EXPECT_FALSE(user_source_location("File \"/srcx/a.py\", line 3, in f\n", "/src"));
}

TEST(ReportsStackTrace, OuterFrameUsedWhenTheInnerOneIsElsewhere) {
  auto location = user_source_location(
      "File \"/repo/model.py\", line 5, in forward\n  y = lib(x)\n"
      "File \"/usr/lib/python3/dist-packages/transformers/x.py\", line 9, in lib\n  z\n",
      "/repo/");
  ASSERT_TRUE(location);
  EXPECT_EQ(location->path, "model.py");
  EXPECT_EQ(location->line, 5);
}

TEST(ReportsStackTrace, RelativeFramesNeedNoRoot) {
  auto location = user_source_location("File \"my_module.py\", line 19, in forward\n", "");
  ASSERT_TRUE(location);
  EXPECT_EQ(location->path, "my_module.py");
  EXPECT_FALSE(user_source_location("File \"../up.py\", line 1, in f\n", ""));
  EXPECT_FALSE(user_source_location("File \"<eval_with_key>.3\", line 1, in f\n", ""));
}

TEST(ReportsStackTrace, GarbageIsNoLocation) {
  EXPECT_FALSE(user_source_location("", "/src"));
  EXPECT_FALSE(user_source_location("File \"/src/a.py\", line x, in f", "/src"));
  EXPECT_FALSE(user_source_location("File \"/src/a.py\", line 0, in f", "/src"));
  EXPECT_TRUE(parse_stack_trace("no frames here\nat all").empty());
}

}  // namespace
}  // namespace pt2lint
