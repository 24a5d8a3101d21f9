// The run-time schema parser against LibTorch's: the generated table holds what
// torch::jit::parseSchema made of every line of aten_schemas.txt, so a parsed line must give
// the same arguments, returns, alias sets and writes as its table record. Also the custom
// schema catalog (files, comments, errors) and the bundled schema files.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <string>

#include "analysis/opschema/bundled_schema_files.h"
#include "analysis/opschema/schema_catalog.h"
#include "analysis/opschema/schema_parser.h"

namespace pt2lint::opschema {
namespace {

std::string describe(const ArgumentRecord& a) {
  return fmt::format("{} type={} set={} writes={} kwarg_only={}", a.name, static_cast<int>(a.type), a.alias_set,
                     a.writes, a.kwarg_only);
}
std::string describe(const ReturnRecord& r) {
  return fmt::format("{} type={} set={} writes={} aliases={}", r.name, static_cast<int>(r.type), r.alias_set,
                     r.writes, r.aliases_argument);
}

// Differences between a parsed schema and the table record of the same name, one per line.
std::string differences(const ParsedSchema& parsed, const OpSchema& table) {
  std::string out;
  if (parsed.record().is_mutable != table.is_mutable()) out += "is_mutable differs\n";
  if (parsed.arguments().size() != table.arguments().size()) out += "argument count differs\n";
  if (parsed.returns().size() != table.returns().size()) out += "return count differs\n";
  if (!out.empty()) return out;
  for (std::size_t i = 0; i < parsed.arguments().size(); ++i) {
    std::string a = describe(parsed.arguments()[i]), b = describe(table.arguments()[i]);
    if (a != b) out += fmt::format("argument {}: parsed [{}], LibTorch [{}]\n", i, a, b);
  }
  for (std::size_t i = 0; i < parsed.returns().size(); ++i) {
    std::string a = describe(parsed.returns()[i]), b = describe(table.returns()[i]);
    if (a != b) out += fmt::format("return {}: parsed [{}], LibTorch [{}]\n", i, a, b);
  }
  return out;
}

TEST(SchemaParser, AgreesWithLibTorchOnEverySchemaOfAtenSchemasTxt) {
  std::ifstream in(std::string(PT2LINT_TESTS_DIR) + "/../src/analysis/opschema/aten_schemas.txt");
  ASSERT_TRUE(in);
  std::string line;
  int compared = 0, rejected_by_us = 0, disagreements = 0;
  std::string report;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    Expected<ParsedSchema> parsed = parse_schema(line);
    if (!parsed.ok()) {
      ++rejected_by_us;
      report += fmt::format("rejected: {}: {}\n", parsed.message(), line);
      continue;
    }
    std::optional<OpSchema> table = find_schema(parsed->record().name, parsed->record().overload);
    if (!table) continue;  // LibTorch 1.13 rejected it (opschema_table_test pins those)
    ++compared;
    std::string diff = differences(*parsed, *table);
    if (!diff.empty()) {
      ++disagreements;
      report += line + "\n" + diff;
    }
  }
  // Every schema LibTorch accepted is accepted here, and they agree on all of them.
  EXPECT_EQ(compared, static_cast<int>(op_table().schemas.size())) << report;
  EXPECT_EQ(rejected_by_us, 0) << report;
  EXPECT_EQ(disagreements, 0) << report;
}

TEST(SchemaParser, ReadsCustomOpSchemas) {
  auto parsed = parse_schema("mylib::update_cache(Tensor(a!) cache, Tensor x, int pos) -> ()");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->record().name, "mylib::update_cache");
  EXPECT_EQ(parsed->record().overload, "");
  EXPECT_TRUE(parsed->record().is_mutable);
  ASSERT_EQ(parsed->arguments().size(), 3u);
  EXPECT_TRUE(parsed->arguments()[0].writes);
  EXPECT_EQ(parsed->arguments()[0].type, ValueType::kTensor);
  EXPECT_FALSE(parsed->arguments()[1].writes);
  EXPECT_EQ(parsed->returns().size(), 0u);

  auto list = parse_schema("mylib::bump_all.out(Tensor(a!)[] xs, *, float alpha=1., Tensor(b!) out) -> Tensor(b!)");
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->record().overload, "out");
  EXPECT_EQ(list->arguments()[0].type, ValueType::kTensorList);
  EXPECT_TRUE(list->arguments()[0].writes);
  EXPECT_TRUE(list->arguments()[2].kwarg_only);
  ASSERT_EQ(list->returns().size(), 1u);
  EXPECT_EQ(list->returns()[0].aliases_argument, 2);

  auto strings = parse_schema(R"s(ns::f(Tensor x, str mode="a,b)", int[2] k=[1, 2]) -> (Tensor y, Tensor z))s");
  ASSERT_TRUE(strings.ok());
  EXPECT_EQ(strings->arguments().size(), 3u);
  EXPECT_EQ(strings->returns()[1].name, "z");
}

TEST(SchemaParser, RejectsMalformedText) {
  for (std::string_view bad : {"", "mylib::f", "mylib::f(Tensor x)", "mylib::f(Tensor(a! x) -> ()",
                               "::f(Tensor x) -> ()", "mylib::f(Tensor x) -> () extra", "mylib::f(Tensor) -> ()"}) {
    Expected<ParsedSchema> parsed = parse_schema(bad);
    EXPECT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.message().find(" at column "), std::string::npos) << parsed.message();
  }
  // Deep nesting is refused, not recursed into without end.
  std::string deep = "ns::f(" + std::string(100000, '(') + "int x) -> ()";
  EXPECT_FALSE(parse_schema(deep).ok());
}

TEST(SchemaCatalog, ReadsLinesCommentsAndReportsBadLines) {
  SchemaCatalog catalog;
  auto problems = catalog.add_text(
      "# my ops\n"
      "mylib::ema_(Tensor(a!) avg, Tensor x, float decay) -> ()  # EMA update\n"
      "\n"
      "mylib::broken(Tensor x\n"
      "mylib::ema_(Tensor(a!) avg, Tensor x, float decay) -> ()\n",
      "ops.txt");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("ops.txt:4:"), std::string::npos) << problems[0];
  std::optional<OpSchema> ema = catalog.find("mylib::ema_", "");
  ASSERT_TRUE(ema);
  EXPECT_TRUE(ema->arguments()[0].writes);
  EXPECT_EQ(catalog.entry("mylib::ema_", "")->source, "ops.txt:2");
}

TEST(SchemaCatalog, BundledFilesParseAndAreFoundAfterTheTable) {
  for (const BundledSchemaFile& file : bundled_schema_files()) {
    SchemaCatalog fresh;
    EXPECT_TRUE(fresh.add_text(file.text, file.name).empty()) << file.name;
  }
  const SchemaCatalog& bundled = bundled_schemas();
  EXPECT_GE(bundled.size(), 6u);
  SchemaLookup found = lookup_schema({"llama::update_cache", ""}, nullptr);
  ASSERT_TRUE(found.schema);
  EXPECT_TRUE(found.schema->arguments()[1].writes);  // Tensor(a!) cache
  EXPECT_NE(found.source.find("executorch_llama.txt"), std::string_view::npos);
  EXPECT_TRUE(lookup_schema({"aten::add_", "Tensor"}, nullptr).source.empty());  // the table wins
  SchemaLookup quantize = lookup_schema({"quantized_decomposed::quantize_per_tensor", ""}, nullptr);
  ASSERT_TRUE(quantize.schema);
  EXPECT_FALSE(quantize.schema->is_mutable());  // known, and writing nothing: no PT310
}

}  // namespace
}  // namespace pt2lint::opschema
