#include "analysis/opschema/schema_catalog.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "analysis/opschema/bundled_schema_files.h"
#include "support/bounded_file.h"
#include "support/printable.h"

namespace pt2lint::opschema {
namespace {

// A schema file holds one line per op: a few MB is thousands of ops.
constexpr std::uint64_t kMaxSchemaFileBytes = std::uint64_t{16} << 20;
// Problems reported per file; a file that is not a schema file at all says so in a few.
constexpr std::size_t kMaxProblemsPerFile = 20;

}  // namespace

std::vector<std::string> SchemaCatalog::add_text(std::string_view text, std::string_view source_name) {
  std::vector<std::string> problems;
  std::size_t line_number = 0;
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_number;
    if (std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    Expected<ParsedSchema> parsed = parse_schema(line);
    if (!parsed.ok()) {
      // Only a short printable excerpt: the file may be anything a config names.
      if (problems.size() < kMaxProblemsPerFile) {
        problems.push_back(fmt::format("{}:{}: not an operator schema ({}): {}", source_name,
                                       line_number, parsed.message(), printable_excerpt(line, 80)));
      } else if (problems.size() == kMaxProblemsPerFile) {
        problems.push_back(fmt::format("{}: more lines are not operator schemas; only the first {} are "
                                       "shown", source_name, kMaxProblemsPerFile));
      }
      continue;
    }
    std::string name_key = key(parsed->record().name, parsed->record().overload);
    if (auto it = by_name_.find(name_key); it != by_name_.end()) {
      if (entries_[it->second]->schema.text() != parsed->text())
        problems.push_back(fmt::format("{}:{}: `{}` is declared again, differently (first at {}); the first wins",
                                       source_name, line_number, printable_excerpt(parsed->text(), 200),
                                       entries_[it->second]->source));
      continue;
    }
    auto entry = std::make_unique<Entry>();
    entry->schema = std::move(*parsed);
    entry->source = fmt::format("{}:{}", source_name, line_number);
    by_name_.emplace(std::move(name_key), entries_.size());
    entries_.push_back(std::move(entry));
  }
  return problems;
}

std::vector<std::string> SchemaCatalog::add_file(const std::filesystem::path& path) {
  Expected<std::string> text = read_regular_file(path, kMaxSchemaFileBytes);
  if (!text.ok()) {
    return {fmt::format("{}: cannot read the op schema file: {}", printable_excerpt(path.string(), 200),
                        text.message())};
  }
  return add_text(text.value(), printable_excerpt(path.string(), 200));
}

std::string SchemaCatalog::key(std::string_view name, std::string_view overload) {
  std::string out;
  out.reserve(name.size() + 1 + overload.size());
  return out.append(name).append(1, '.').append(overload);
}

const SchemaCatalog::Entry* SchemaCatalog::entry(std::string_view name, std::string_view overload) const {
  auto it = by_name_.find(key(name, overload));
  return it == by_name_.end() ? nullptr : entries_[it->second].get();
}

std::optional<OpSchema> SchemaCatalog::find(std::string_view name, std::string_view overload) const {
  const Entry* found = entry(name, overload);
  if (found == nullptr) return std::nullopt;
  return OpSchema(found->schema.record(), found->schema.arguments(), found->schema.returns());
}

std::vector<OpSchema> SchemaCatalog::in_namespace(std::string_view ns) const {
  std::vector<OpSchema> found;
  for (const std::unique_ptr<Entry>& entry : entries_) {
    const std::string_view name = entry->schema.record().name;
    if (name.size() > ns.size() + 2 && name.starts_with(ns) && name.substr(ns.size(), 2) == "::")
      found.emplace_back(entry->schema.record(), entry->schema.arguments(), entry->schema.returns());
  }
  return found;
}

const SchemaCatalog& bundled_schemas() {
  static const SchemaCatalog kBundled = [] {
    SchemaCatalog catalog;
    for (const BundledSchemaFile& file : bundled_schema_files())
      catalog.add_text(file.text, fmt::format("bundled {}", file.name));  // pinned by a unit test
    return catalog;
  }();
  return kBundled;
}

SchemaLookup lookup_schema(const OperatorName& op, const SchemaCatalog* user) {
  if (std::optional<OpSchema> schema = find_schema(op)) return {schema, ""};
  if (user != nullptr) {
    if (const SchemaCatalog::Entry* entry = user->entry(op.name, op.overload))
      return {user->find(op.name, op.overload), entry->source};
  }
  const SchemaCatalog& bundled = bundled_schemas();
  if (const SchemaCatalog::Entry* entry = bundled.entry(op.name, op.overload))
    return {bundled.find(op.name, op.overload), entry->source};
  return {};
}

}  // namespace pt2lint::opschema
