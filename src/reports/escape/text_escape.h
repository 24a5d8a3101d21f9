// Text for terminals and CI logs: nothing interpolated from a file (a path, a program or node
// name, a message quoting one) may act on whoever reads it. C0 and C1 controls, DEL, U+2028
// and U+2029 and bytes that are not UTF-8 are written as visible escapes, so a name cannot
// start a new line (a GitHub workflow command such as `::add-mask::`), move the cursor or
// recolour the terminal (ANSI), ring the bell or hide text behind a carriage return.
#pragma once

#include <string>
#include <string_view>

namespace pt2lint {

enum class Newlines { kEscape, kKeep };

// `text` with every control escaped: \n \r \t as those two characters, other bytes as \xNN,
// C1 controls and the two Unicode line separators as \uNNNN. With Newlines::kKeep a '\n'
// stays (for outputs that encode it themselves, as GitHub's %0A).
std::string inert_text(std::string_view text, Newlines newlines = Newlines::kEscape);

// A path at the start of a line: inert, and a relative one starting with ':' written as
// './:...' (the same file) so that no line a file's name begins is a workflow command.
std::string inert_line_start(std::string_view path);

}  // namespace pt2lint
