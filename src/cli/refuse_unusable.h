// The load-or-refuse step that lower, contract, diff, fix and schemas share: a command that
// transforms or compares programs must not run on a file it cannot open or that the loader
// found broken.
#pragma once

#include <string>
#include <string_view>

#include "io/readers/loaded_programs.h"

namespace pt2lint {

// kExitClean when `path` could be opened; otherwise prints "cannot open 'PATH': why" on stderr
// and returns kExitUsage.
int refuse_unreadable(const std::string& path, const LoadedPrograms& loaded);

// kExitClean when `loaded` can be used. Otherwise prints why on stderr and returns the exit
// code: kExitUsage when `path` could not be opened; kExitFindings when the loader found the
// file broken or without a program (its findings, then "'PATH' <why_broken>").
int refuse_unusable(const std::string& path, const LoadedPrograms& loaded, std::string_view why_broken);

}  // namespace pt2lint
