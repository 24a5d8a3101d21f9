// A baseline: the findings a team has accepted, matched by fingerprint, so CI fails only on
// new ones (`--baseline FILE`, written by `--update-baseline`).
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"

namespace pt2lint {

// The file, program, rule and message are kept for the people reading the baseline and
// for the stale-entry listing; only the fingerprint is matched.
struct BaselineEntry {
  std::string fingerprint;
  std::string file;
  std::string program;
  std::string rule;
  std::string name;
  std::string message;
};

struct Baseline {
  std::vector<BaselineEntry> entries;
};

inline constexpr int kBaselineFormatVersion = 1;

// False with `error` set when the file cannot be read or is not a pt2lint baseline.
bool read_baseline(const std::filesystem::path& path, Baseline& baseline, std::string& error);

// Every finding of `files`, in report order, as a baseline document.
void write_baseline(const std::vector<FileResult>& files, std::ostream& out);

// Whether the rule `rule_id` ran on `file` in this run (not left out by --select, --ignore or
// per-file-ignores).
using RuleRanOn = std::function<bool(const FileResult& file, std::string_view rule_id)>;

// Marks each finding whose fingerprint the baseline holds as baselined and returns the
// entries that matched nothing. Entries of files this run did not check (another shard,
// a path not given), and, with `rule_ran`, entries of rules that did not run on their file,
// are not stale: their findings were not looked for, and dropping them would lose accepted
// findings. With `registry`, a renamed rule's finding also matches an entry written under
// one of its former names.
std::vector<BaselineEntry> apply_baseline(const Baseline& baseline, std::vector<FileResult>& files,
                                          const RuleRegistry* registry = nullptr,
                                          const RuleRanOn& rule_ran = {});

}  // namespace pt2lint
