#include "engine/baseline/baseline.h"

#include <simdjson.h>

#include <algorithm>
#include <map>
#include <set>

#include "engine/baseline/fingerprint.h"
#include "support/json_writer.h"

namespace pt2lint {
namespace {

bool read_entry(simdjson::dom::element item, BaselineEntry& entry) {
  std::string_view fingerprint;
  if (item["fingerprint"].get(fingerprint) != simdjson::SUCCESS) return false;
  entry.fingerprint = std::string(fingerprint);
  auto text = [&item](const char* key, std::string& out) {
    std::string_view value;
    if (item[key].get(value) == simdjson::SUCCESS) out = std::string(value);
  };
  text("file", entry.file);
  text("program", entry.program);
  text("rule", entry.rule);
  text("name", entry.name);
  text("message", entry.message);
  return true;
}

}  // namespace

bool read_baseline(const std::filesystem::path& path, Baseline& baseline, std::string& error) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto failure = parser.load(path.string()).get(root)) {
    error = path.string() + ": cannot read the baseline: " + simdjson::error_message(failure);
    return false;
  }
  std::int64_t version = 0;
  simdjson::dom::array findings;
  if (root["version"].get(version) != simdjson::SUCCESS || version != kBaselineFormatVersion ||
      root["findings"].get(findings) != simdjson::SUCCESS) {
    error = path.string() + ": not a pt2lint baseline (version " +
            std::to_string(kBaselineFormatVersion) + " with a \"findings\" array)";
    return false;
  }
  for (simdjson::dom::element item : findings) {
    BaselineEntry entry;
    if (!read_entry(item, entry)) {
      error = path.string() + ": a baseline entry has no \"fingerprint\"";
      return false;
    }
    baseline.entries.push_back(std::move(entry));
  }
  return true;
}

void write_baseline(const std::vector<FileResult>& files, std::ostream& out) {
  JsonWriter json(out, /*pretty=*/true);
  json.begin_object();
  json.field("tool", "pt2lint").field("version", kBaselineFormatVersion);
  json.key("findings").begin_array();
  for (const FileResult& file : files) {
    std::vector<std::string> prints = file_fingerprints(file);
    for (std::size_t i = 0; i < file.findings.size(); ++i) {
      const Finding& f = file.findings[i];
      json.begin_object().field("fingerprint", prints[i]).field("file", fingerprint_path(file.path));
      json.field("program", f.program).field("rule", f.rule_id).field("name", f.rule_name);
      json.field("message", f.message).end_object();
    }
  }
  json.end_array();
  json.end_object();
  out << '\n';
}

namespace {

// The file's fingerprints again under each former name of its findings' rules (README,
// "Stability": a rename keeps baselines working for a release). Empty when no rule of the
// file was renamed, which is every file until a rule is.
std::vector<std::vector<std::string>> former_name_fingerprints(const FileResult& file,
                                                                const RuleRegistry& registry) {
  std::set<std::string_view> former_names;
  for (const Finding& f : file.findings)
    if (const RuleInfo* info = registry.find(f.rule_id))
      for (std::string_view former : registry.aliases_of(*info)) former_names.insert(former);
  std::vector<std::vector<std::string>> prints;
  for (std::string_view former : former_names) {
    FileResult renamed;
    renamed.path = file.path;
    renamed.findings = file.findings;
    for (Finding& f : renamed.findings) {
      const RuleInfo* info = registry.find(f.rule_id);
      if (info == nullptr) continue;
      const std::vector<std::string_view> aliases = registry.aliases_of(*info);
      if (std::find(aliases.begin(), aliases.end(), former) != aliases.end())
        f.rule_name = std::string(former);
    }
    prints.push_back(file_fingerprints(renamed));
  }
  return prints;
}

}  // namespace

std::vector<BaselineEntry> apply_baseline(const Baseline& baseline, std::vector<FileResult>& files,
                                          const RuleRegistry* registry, const RuleRanOn& rule_ran) {
  std::set<std::string, std::less<>> accepted;
  for (const BaselineEntry& entry : baseline.entries) accepted.insert(entry.fingerprint);
  std::set<std::string, std::less<>> matched;
  std::map<std::string, const FileResult*, std::less<>> checked_files;
  for (FileResult& file : files) {
    checked_files.emplace(fingerprint_path(file.path), &file);
    std::vector<std::vector<std::string>> prints{file_fingerprints(file)};
    if (registry != nullptr) {
      for (std::vector<std::string>& former : former_name_fingerprints(file, *registry))
        prints.push_back(std::move(former));
    }
    for (std::size_t i = 0; i < file.findings.size(); ++i) {
      for (const std::vector<std::string>& names : prints) {
        if (accepted.count(names[i]) == 0) continue;
        file.findings[i].baselined = true;
        matched.insert(names[i]);
      }
    }
  }
  std::vector<BaselineEntry> stale;
  for (const BaselineEntry& entry : baseline.entries) {
    if (matched.count(entry.fingerprint) != 0) continue;
    const auto checked = checked_files.find(entry.file);
    if (checked == checked_files.end()) continue;
    if (rule_ran && !rule_ran(*checked->second, entry.rule)) continue;
    stale.push_back(entry);
  }
  return stale;
}

}  // namespace pt2lint
