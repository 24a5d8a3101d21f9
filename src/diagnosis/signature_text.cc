#include "diagnosis/signature_text.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/program_index.h"

namespace pt2lint::diagnosis {

std::vector<std::string> signature_lines(const SignatureDraft& draft) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < draft.inputs.size(); ++i) {
    const ir::InputSpec& spec = draft.inputs[i];
    std::string line = fmt::format("input  {} {}", state_kind_name(state_kind_of(spec)), input_spec_arg_name(spec));
    if (!input_spec_target(spec).empty()) line += fmt::format(" -> `{}`", input_spec_target(spec));
    if (spec.has_buffer() && spec.buffer().has_persistent())
      line += spec.buffer().persistent() ? " (persistent)" : " (not persistent)";
    lines.push_back(std::move(line));
  }
  for (std::size_t i = 0; i < draft.outputs.size(); ++i) {
    const OutputSlot& slot = draft.outputs[i];
    std::string line = fmt::format("output {} {}", output_spec_kind(slot.spec), output_spec_arg_name(slot.spec));
    if (!output_spec_target(slot.spec).empty()) line += fmt::format(" -> `{}`", output_spec_target(slot.spec));
    const std::string_view value = argument_value_name(slot.output);
    if (value != output_spec_arg_name(slot.spec)) line += fmt::format("  [graph output: {}]", value);
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string unified_diff(const std::vector<std::string>& a, const std::vector<std::string>& b,
                         const std::string& before_name, const std::string& after_name) {
  // Longest common subsequence table; signatures are small (two lines per state at most).
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  struct Line { char tag; std::size_t ai, bi; };
  std::vector<Line> script;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) script.push_back({' ', i++, j++});
    else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) script.push_back({'-', i++, j});
    else script.push_back({'+', i, j++});
  }
  if (std::all_of(script.begin(), script.end(), [](const Line& l) { return l.tag == ' '; })) return {};
  constexpr std::size_t kContext = 3;
  std::string out = fmt::format("--- {}\n+++ {}\n", before_name, after_name);
  std::size_t k = 0;
  while (k < script.size()) {
    if (script[k].tag == ' ') { ++k; continue; }
    std::size_t start = k >= kContext ? k - kContext : 0, end = k;
    // Extend the hunk while the next change is within 2 * context lines.
    for (std::size_t c = k; c < script.size(); ++c) {
      if (script[c].tag != ' ') end = c;
      else if (c - end > 2 * kContext) break;
    }
    const std::size_t stop = std::min(script.size(), end + kContext + 1);
    std::size_t a_count = 0, b_count = 0;
    for (std::size_t c = start; c < stop; ++c) {
      if (script[c].tag != '+') ++a_count;
      if (script[c].tag != '-') ++b_count;
    }
    out += fmt::format("@@ -{},{} +{},{} @@\n", script[start].ai + 1, a_count, script[start].bi + 1, b_count);
    for (std::size_t c = start; c < stop; ++c)
      out += fmt::format("{}{}\n", script[c].tag, script[c].tag == '+' ? b[script[c].bi] : a[script[c].ai]);
    k = stop;
  }
  return out;
}

}  // namespace pt2lint::diagnosis
