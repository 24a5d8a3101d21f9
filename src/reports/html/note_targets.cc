#include "reports/html/note_targets.h"

namespace pt2lint::html {
namespace {

// The index keys of a place's set parts, the most selective first.
std::vector<std::string> part_keys(const std::string& program, const Location& at) {
  std::vector<std::string> keys;
  const auto key = [&](char tag, const std::string& value) {
    std::string k = program;
    k += '\0';
    k += tag;
    k += '\0';
    k += value;
    keys.push_back(std::move(k));
  };
  if (at.output_spec) key('o', std::to_string(*at.output_spec));
  if (at.input_spec) key('i', std::to_string(*at.input_spec));
  if (!at.node.empty()) key('n', at.node);
  if (!at.value.empty()) key('v', at.value);
  if (!at.json_path.empty()) key('j', at.json_path);
  if (!at.archive_member.empty()) key('m', at.archive_member);
  return keys;
}

}  // namespace

bool located_at(const Location& location, const Location& at) {
  return (!at.input_spec || location.input_spec == at.input_spec) &&
         (!at.output_spec || location.output_spec == at.output_spec) &&
         (at.node.empty() || location.node == at.node) && (at.value.empty() || location.value == at.value) &&
         (at.json_path.empty() || location.json_path == at.json_path) &&
         (at.archive_member.empty() || location.archive_member == at.archive_member);
}

NoteTargets::NoteTargets(const FileResult& file, const std::vector<char>& listed) : file_(file), listed_(listed) {
  for (std::size_t i = 0; i < file.findings.size(); ++i) {
    if (!listed_[i]) continue;
    const Finding& f = file.findings[i];
    for (std::string& key : part_keys(f.program, f.location)) by_part_[std::move(key)].push_back(i);
  }
}

long NoteTargets::target(std::size_t self, const Location& at) const {
  const Finding& f = file_.findings[self];
  if (located_at(f.location, at)) return -1;
  const std::vector<std::string> keys = part_keys(f.program, at);
  if (keys.empty()) return -1;
  // Every finding at `at` has `at`'s first part, so its bucket holds them all, in file order.
  const auto bucket = by_part_.find(keys.front());
  if (bucket == by_part_.end()) return -1;
  for (std::size_t i : bucket->second) {
    if (i != self && located_at(file_.findings[i].location, at)) return static_cast<long>(i);
  }
  return -1;
}

}  // namespace pt2lint::html
