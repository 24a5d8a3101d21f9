#include "analysis/state/name_suggestions.h"

#include <fmt/format.h>

#include "support/edit_distance.h"

namespace pt2lint {
namespace {

// Prefixes that lifting passes, FX and the placeholder naming pass put in front of an FQN.
constexpr std::string_view kLiftingPrefixes[] = {
    "lifted_buf_", "lifted_param_", "lifted_tensor_", "lifted_", "L__self___", "l__self___",
    "self_",       "buf_",          "param_",         "b_",      "p_",         "c_",
};

std::string_view strip_prefix(std::string_view name, std::string_view prefix) {
  return name.starts_with(prefix) ? name.substr(prefix.size()) : std::string_view{};
}

}  // namespace

std::string sanitize_state_name(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!alnum) c = '_';
  }
  return out;
}

std::optional<NearMiss> find_near_miss(std::string_view wrong,
                                       const std::vector<NameCandidate>& candidates) {
  if (wrong.empty() || candidates.empty()) return std::nullopt;

  for (const NameCandidate& candidate : candidates) {
    if (!candidate.placeholder.empty() && candidate.placeholder == wrong &&
        candidate.name != wrong) {
      return NearMiss{std::string(candidate.name), NearMissKind::kPlaceholderName,
                      fmt::format("`{}` is the placeholder name of `{}`; mutation specs name "
                                  "the FQN, not the placeholder",
                                  wrong, candidate.name)};
    }
  }

  // Respellings: the wrong name as written, and with each known prefix removed.
  std::vector<std::string_view> forms = {wrong};
  for (std::string_view prefix : kLiftingPrefixes) {
    std::string_view rest = strip_prefix(wrong, prefix);
    if (!rest.empty()) forms.push_back(rest);
  }
  for (std::string_view form : forms) {
    std::string wanted = sanitize_state_name(form);
    const NameCandidate* match = nullptr;
    int matches = 0;
    for (const NameCandidate& candidate : candidates) {
      if (candidate.name != wrong && sanitize_state_name(candidate.name) == wanted) {
        match = &candidate;
        ++matches;
      }
    }
    if (matches == 1) {
      std::string how =
          form.size() == wrong.size()
              ? std::string("with its dots, underscores or case changed")
              : fmt::format("with the prefix `{}` added and its dots turned into underscores",
                            wrong.substr(0, wrong.size() - form.size()));
      return NearMiss{std::string(match->name), NearMissKind::kRespelled,
                      fmt::format("`{}` looks like `{}` {}", wrong, match->name, how)};
    }
  }

  std::vector<std::string_view> names;
  names.reserve(candidates.size());
  for (const NameCandidate& candidate : candidates) names.push_back(candidate.name);
  std::string closest = closest_match(wrong, names);
  if (!closest.empty() && closest != wrong) {
    return NearMiss{closest, NearMissKind::kTypo,
                    fmt::format("`{}` is {} edit(s) away from `{}`", wrong,
                                edit_distance(wrong, closest), closest)};
  }
  return std::nullopt;
}

}  // namespace pt2lint
