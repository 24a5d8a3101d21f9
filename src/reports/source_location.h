// Maps a node's `stack_trace` metadata to the Python source line a user would edit.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pt2lint {

struct StackFrame {
  std::string file;      // as written by the exporting machine, usually absolute
  int line = 0;
  std::string function;  // "forward"
  std::string code;      // the source line, leading blanks stripped by Python's traceback
};

// Every `File "...", line N, in fn` frame, outermost first (traceback order).
std::vector<StackFrame> parse_stack_trace(std::string_view trace);

struct SourceLocation {
  std::string path;  // relative to the source root, '/' separated
  int line = 0;
  std::string code;
};

// The innermost frame that lies in the user's tree. Frames inside torch itself (the
// `torch/` package under site-packages or dist-packages) and pseudo-files such as
// "<eval_with_key>" are skipped: an annotation on torch's own code helps no reviewer.
// With a `source_root`, an absolute frame path must lie under it and is made relative to
// it; without one, only relative frame paths qualify. Anything else is not a physical
// location: stack traces hold paths of the exporting machine, which a CI checkout
// rarely shares.
std::optional<SourceLocation> user_source_location(std::string_view trace,
                                                   std::string_view source_root);

// The frame of the user's code a finding's node came from, for people (text) and scripts
// (JSON): the innermost frame under `source_root` (its path made relative), else the innermost
// one outside any installed package, else the innermost one outside torch; its path is then
// as the exporting machine wrote it. nullopt when every frame is torch's own.
std::optional<StackFrame> user_frame(std::string_view trace, std::string_view source_root);

// A path relative to `source_root` when it lies under it (and is then '/' separated);
// a relative path unchanged; otherwise nullopt.
std::optional<std::string> relative_to_root(std::string_view path, std::string_view source_root);

}  // namespace pt2lint
