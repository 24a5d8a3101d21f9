#include "engine/baseline/fingerprint.h"

#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <map>

namespace pt2lint {
namespace {

// FNV-1a, run twice with different offset bases for 128 bits: collisions between the few
// thousand findings of a model zoo stay negligible without a crypto dependency.
std::uint64_t fnv1a(std::string_view text, std::uint64_t basis) {
  std::uint64_t hash = basis;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string identity(const std::string& path, const Finding& f) {
  // '\x1f' (unit separator) cannot occur in names, so fields cannot run into each other.
  std::string key = fmt::format("v1\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}", f.rule_name, path, f.program,
                                f.op, f.state_fqn);
  if (f.op.empty() && f.state_fqn.empty()) {
    const Location& at = f.location;
    if (at.input_spec) key += fmt::format("\x1finput_specs[{}]", *at.input_spec);
    if (at.output_spec) key += fmt::format("\x1foutput_specs[{}]", *at.output_spec);
    if (!at.json_path.empty()) key += "\x1f" + at.json_path;
    if (!at.archive_member.empty()) key += "\x1f" + at.archive_member;
  }
  return key;
}

}  // namespace

std::string fingerprint_path(const std::string& path) {
  std::string normal = std::filesystem::path(path).lexically_normal().generic_string();
  while (normal.size() > 2 && normal.compare(0, 2, "./") == 0) normal.erase(0, 2);
  return normal;
}

std::vector<std::string> file_fingerprints(const FileResult& file) {
  const std::string path = fingerprint_path(file.path);
  std::map<std::string, int> occurrences;
  std::vector<std::string> prints;
  prints.reserve(file.findings.size());
  for (const Finding& f : file.findings) {
    std::string key = identity(path, f);
    int occurrence = ++occurrences[key];
    prints.push_back(fmt::format("{:016x}{:016x}:{}", fnv1a(key, 0xcbf29ce484222325ULL),
                                 fnv1a(key, 0x84222325cbf29ce4ULL), occurrence));
  }
  return prints;
}

}  // namespace pt2lint
