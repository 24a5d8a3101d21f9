// A run-time parser for operator schemas in the text form PyTorch prints
// (`torch.ops.ns.op.default._schema`, `Library.define`, `native_functions.yaml`):
//
//   mylib::update_cache(Tensor(a!) cache, Tensor x, int pos) -> ()
//   mylib::bump_many(Tensor(a!)[] xs, *, float alpha=1.) -> Tensor[]
//
// It extracts exactly what the generated table holds (op_table.h): per argument and return,
// whether it is a tensor, its alias set and whether it is written. Alias sets are numbered
// as the table generator numbers them, so a parsed schema and a table record compare equal;
// tests/unit/opschema_parser_test.cc checks that on every schema of aten_schemas.txt, which
// the table generator parsed with LibTorch's own parser.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/opschema/op_table.h"
#include "support/status.h"

namespace pt2lint::opschema {

// One parsed schema. The records' string_views point into `strings_`, so a ParsedSchema is
// movable but not copyable.
class ParsedSchema {
 public:
  ParsedSchema() = default;
  ParsedSchema(ParsedSchema&&) = default;
  ParsedSchema& operator=(ParsedSchema&&) = default;
  ParsedSchema(const ParsedSchema&) = delete;
  ParsedSchema& operator=(const ParsedSchema&) = delete;

  const SchemaRecord& record() const { return record_; }
  const std::vector<ArgumentRecord>& arguments() const { return arguments_; }
  const std::vector<ReturnRecord>& returns() const { return returns_; }
  // The schema as it was written, trimmed.
  std::string_view text() const { return text_; }

 private:
  friend class SchemaParser;
  std::string_view keep(std::string_view text) { return strings_.emplace_back(text); }

  std::deque<std::string> strings_;  // deque: growing it never moves a stored string
  std::string text_;
  SchemaRecord record_{};
  std::vector<ArgumentRecord> arguments_;
  std::vector<ReturnRecord> returns_;
};

// Parses one schema; on failure, what is wrong and where: "expected ')' at column 12"
// (1-based, in the text as given, surrounding white space removed).
Expected<ParsedSchema> parse_schema(std::string_view text);

}  // namespace pt2lint::opschema
