// "Did you mean" for state names (buffer/parameter FQNs, user-input placeholder names).
// Wrong mutation targets are rarely random: a lowering pass writes the lifted placeholder
// name, or rebuilds the FQN with underscores, or adds a prefix of its own. Each of those
// has its own explanation, so the suggestion says which kind of slip it looks like.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pt2lint {

// A name a reference may mean: the FQN (or user-input name) and its placeholder name.
struct NameCandidate {
  std::string_view name;
  std::string_view placeholder;
};

enum class NearMissKind {
  kPlaceholderName,  // the placeholder (`b_count`) was written instead of the FQN (`count`)
  kRespelled,        // same name once prefixes, case and '.'/'_' spelling are ignored
  kTypo,             // a small edit distance away
};

struct NearMiss {
  std::string name;         // the candidate's name
  NearMissKind kind;
  std::string explanation;  // one sentence, names quoted
};

// The base torch.export's placeholder naming pass derives from an FQN: lowercased, every
// character outside [a-z0-9] replaced by '_' (`layers.0.kv.k_cache` -> `layers_0_kv_k_cache`).
std::string sanitize_state_name(std::string_view name);

// The best explanation of `wrong` as a slip for one of `candidates`, or nullopt.
// A respelling only counts when exactly one candidate matches, since the sanitised
// form is lossy (`a.b_c` and `a_b.c` collide).
std::optional<NearMiss> find_near_miss(std::string_view wrong,
                                       const std::vector<NameCandidate>& candidates);

}  // namespace pt2lint
