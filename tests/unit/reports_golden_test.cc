// Every report format over one hand-built run, compared with tests/golden/reports/unit.*.
// The run covers what the formats must get right: a finding with a stack trace inside the
// source root and one outside it, notes, a baselined finding, two programs, and characters
// each format must escape. PT2LINT_UPDATE_GOLDEN=1 rewrites the golden files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "reports/formats.h"

namespace pt2lint {
namespace {

const RuleInfo kMalformed{"PT101", "malformed-program", Severity::kError, RulePhase::kLoad,
                          "the file cannot be read as an exported program"};
const RuleInfo kMutationTarget{"PT204", "mutation-target-resolves", Severity::kError,
                               RulePhase::kLoad, "a mutation names state that exists"};
const RuleInfo kStateUsed{"PT306", "state-is-used", Severity::kWarning, RulePhase::kLoad,
                          "a parameter or buffer is declared but nothing reads or writes it"};

Finding make(const RuleInfo& rule, Severity severity, std::string program, std::string message) {
  Finding f;
  f.rule_id = std::string(rule.id);
  f.rule_name = std::string(rule.name);
  f.severity = severity;
  f.program = std::move(program);
  f.message = std::move(message);
  return f;
}

ProgramSummary program_summary(std::string name, std::string dialect) {
  ProgramSummary summary;
  summary.name = std::move(name);
  summary.dialect = std::move(dialect);
  summary.schema_version = "8.17";
  summary.layout = "pt2";
  return summary;
}

RunReport sample_report() {
  RunReport report;
  FileResult model;
  model.path = "models/kv cache.pt2";
  model.programs.push_back(program_summary("model", "TRAINING"));
  model.programs.push_back(program_summary("decode", "TRAINING"));

  Finding mutation = make(kMutationTarget, Severity::kError, "model",
                          "output_specs[0] is a buffer_mutation of `lifted_buf_k`, but no buffer "
                          "input has that name: 100% wrong, <really> & \"truly\"");
  mutation.location.output_spec = 0;
  mutation.location.node = "index_put";
  mutation.op = "torch.ops.aten.index_put_.default";
  mutation.state_fqn = "layers.0.k";
  mutation.notes = {"did you mean `layers.0.k`?", "line two, with: colon"};
  mutation.stack_trace =
      "File \"/home/ci/repo/src/model.py\", line 42, in forward\n"
      "    x = self.attn(x)\n"
      "File \"/home/ci/repo/src/attn.py\", line 17, in forward\n"
      "    self.k.index_put_((pos,), k)\n"
      "File \"/usr/lib/python3/site-packages/torch/nn/modules/module.py\", line 1750, in _call_impl\n"
      "    return forward_call(*args, **kwargs)\n";
  model.findings.push_back(mutation);

  Finding unused = make(kStateUsed, Severity::kWarning, "model", "buffer `scale` is never used");
  unused.state_fqn = "scale";
  unused.stack_trace = "File \"/elsewhere/gen.py\", line 9, in forward\n    return x\n";
  unused.baselined = true;
  model.findings.push_back(unused);

  Finding second = make(kStateUsed, Severity::kWarning, "decode", "buffer `bias` is never used");
  second.state_fqn = "bias";
  model.findings.push_back(second);
  report.files.push_back(model);

  FileResult broken;
  broken.path = "./models/broken.pt2";
  Finding malformed = make(kMalformed, Severity::kError, "", "truncated zip\r\nat offset 12");
  malformed.location.json_path = "archive";
  broken.findings.push_back(malformed);
  report.files.push_back(broken);

  FileResult clean;
  clean.path = "models/clean.pt2";
  clean.programs.push_back(program_summary("model", "ATEN"));
  report.files.push_back(clean);
  return report;
}

std::string normalise(std::string text) {
  const std::string version = PT2LINT_VERSION;
  for (std::size_t at = text.find(version); at != std::string::npos; at = text.find(version, at))
    text.replace(at, version.size(), "@VERSION@");
  return text;
}

std::string render(std::string_view format) {
  RuleRegistry registry;
  registry.add_reported_elsewhere(kStateUsed);
  registry.add_reported_elsewhere(kMalformed);
  registry.add_reported_elsewhere(kMutationTarget);
  RenderOptions options;
  options.registry = &registry;
  options.source_root = "/home/ci/repo";
  options.baseline_active = true;
  options.rule_doc = [](std::string_view name) -> std::string_view {
    return name == "mutation-target-resolves"
               ? "# mutation-target-resolves\n\nA mutation output must name a buffer input.\n"
                 "Otherwise torch.export.load rejects the file.\n\n## Example\n"
               : "";
  };
  std::ostringstream out;
  make_renderer(format)->render(sample_report(), options, out);
  return normalise(out.str());
}

class ReportsGolden : public testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(ReportsGolden, MatchesGoldenFile) {
  auto [format, extension] = GetParam();
  std::string path = std::string(PT2LINT_TESTS_DIR) + "/golden/reports/unit." + format + extension;
  std::string actual = render(format);
  if (std::getenv("PT2LINT_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path) << actual;
    GTEST_SKIP() << "rewrote " << path;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << "missing golden file " << path << " (PT2LINT_UPDATE_GOLDEN=1 writes it)";
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(expected.str(), actual) << "format " << format << " differs from " << path;
}

INSTANTIATE_TEST_SUITE_P(
    Formats, ReportsGolden,
    testing::Values(std::pair{"sarif", ".json"}, std::pair{"github", ".txt"},
                    std::pair{"junit", ".xml"}, std::pair{"rdjson", ".json"},
                    std::pair{"gitlab", ".json"}, std::pair{"markdown", ".md"},
                    std::pair{"json", ".json"}, std::pair{"text", ".txt"}),
    [](const auto& info) { return std::string(info.param.first); });

TEST(ReportsRegistry, EveryNamedFormatHasARenderer) {
  for (const std::string& name : format_names()) EXPECT_NE(make_renderer(name), nullptr) << name;
  EXPECT_EQ(make_renderer("yaml"), nullptr);
  EXPECT_EQ(find_format("yaml"), nullptr);
}

// The format table is the one place that knows a format: each name once, each row findable
// under its own name, and the traits the commands read where they belong today.
TEST(ReportsRegistry, FormatTableRowsAreDistinctAndFindable) {
  std::set<std::string_view> names;
  for (const ReportFormat& format : report_formats()) {
    EXPECT_TRUE(names.insert(format.name).second) << format.name;
    EXPECT_EQ(find_format(format.name), &format) << format.name;
    // A JSON document is never coloured, and never silenced by --quiet.
    if (format.json) {
      EXPECT_FALSE(format.colour || format.quiet) << format.name;
    }
  }
  EXPECT_EQ(names.size(), format_names().size());
  EXPECT_EQ(find_format("html")->pictures, graph::PictureLanguage::kSvg);
  EXPECT_EQ(find_format("markdown")->pictures, graph::PictureLanguage::kMermaid);
  EXPECT_EQ(find_format("json")->pictures, graph::PictureLanguage::kNone);
  EXPECT_TRUE(find_format("github")->step_summary);
  EXPECT_TRUE(find_format("text")->colour && find_format("concise")->colour);
}

TEST(ReportsCounts, BaselinedErrorsDoNotFail) {
  RunReport report = sample_report();
  ReportCounts counts = count_findings(report);
  EXPECT_EQ(counts.errors, 2u);
  EXPECT_EQ(counts.failing, 2u);
  EXPECT_EQ(counts.baselined, 1u);
  for (FileResult& file : report.files)
    for (Finding& f : file.findings) f.baselined = true;
  EXPECT_EQ(count_findings(report).failing, 0u);
}

}  // namespace
}  // namespace pt2lint
