// The one definition of a finding's identity, shared by SARIF, GitLab Code Quality and
// baselines, so a finding matched in one is the same finding in the others.
#pragma once

#include <string>
#include <vector>

#include "engine/engine.h"

namespace pt2lint {

// One fingerprint per finding of `file`, in the same order as `file.findings`.
//
// The identity is (fingerprint version, rule name, file path, program, node target (op),
// state FQN); when a finding names neither op nor FQN, the parts of its location that do not
// move when a model is re-exported (spec index, JSON path, archive member) are added. Node
// names, values and line numbers are left out: they are renumbered by every re-export.
// Findings with the same identity are told apart by their order within the file, the way
// GitHub's own `primaryLocationLineHash` does: "<32 hex digits>:<occurrence from 1>".
std::vector<std::string> file_fingerprints(const FileResult& file);

// The file path as fingerprints see it: lexically normal, '/' separators, no leading "./".
std::string fingerprint_path(const std::string& path);

}  // namespace pt2lint
