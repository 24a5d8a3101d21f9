#include "contract/contract_diff.h"

#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "core/ir/ir_accessors.h"
#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

std::string mapped(const RenameMap& renames, const std::string& name) {
  auto it = renames.find(name);
  return it == renames.end() ? name : it->second;
}

// What is left of a state name once the decorations lowerings add or drop are removed
// (`lifted_buf_`, `buf_`, placeholder prefixes, dots vs underscores): equal keys mean one
// name is plausibly the other renamed.
std::string rename_key(std::string_view name) {
  for (std::string_view prefix : {"lifted_buf_", "buf_", "b_", "p_"}) {
    if (name.starts_with(prefix)) {
      name.remove_prefix(prefix.size());
      break;
    }
  }
  std::string key;
  for (char c : name) key += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
  return key;
}

std::string origin(const WritePromise& w) {
  if (w.output_spec >= 0) return fmt::format("output_specs[{}] writes back `{}`", w.output_spec, w.value_name);
  return w.value_name.empty() ? std::string("written in place") : fmt::format("written in place by `{}`", w.value_name);
}

class ContractDiff {
 public:
  ContractDiff(const ProgramContract& before, const ProgramContract& after, const RenameMap& renames,
               DiagnosticSink& sink)
      : before_(before), after_(after), renames_(renames), sink_(sink) {}

  void run() {
    user_inputs();
    user_outputs();
    writes();
    gradients();
  }

 private:
  InFlightFinding report(const RuleInfo& rule, std::string message) {
    return emit(sink_, rule, after_.program, std::move(message));
  }

  void user_inputs() {
    const auto& b = before_.user_inputs;
    const auto& a = after_.user_inputs;
    if (b.size() != a.size()) {
      auto f = report(kUserInputChanged, fmt::format("the program takes {} user input(s), the original {}",
                                                     a.size(), b.size()));
      for (const auto& input : b) f.note(fmt::format("original: `{}` {}", input.name, input.value.text()));
      for (const auto& input : a) f.note(fmt::format("lowered: `{}` {}", input.name, input.value.text()));
      return;
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
      if (b[i] == a[i]) continue;
      report(kUserInputChanged,
             fmt::format("user input {} is `{}` {}, the original's is `{}` {}", i, a[i].name,
                         a[i].value.text(), b[i].name, b[i].value.text()))
          .at_input_spec(a[i].input_spec);
    }
  }

  void user_outputs() {
    const auto& b = before_.user_outputs;
    const auto& a = after_.user_outputs;
    if (!before_.out_spec.empty() && !after_.out_spec.empty() && before_.out_spec != after_.out_spec) {
      report(kUserOutputTreeChanged, "the output tree spec of the root call signature changed")
          .note("original: " + before_.out_spec)
          .note("lowered: " + after_.out_spec);
    }
    if (a.size() == b.size()) {
      std::vector<std::size_t> differing;
      for (std::size_t i = 0; i < b.size(); ++i)
        if (!(a[i] == b[i])) differing.push_back(i);
      if (differing.empty()) return;
      if (std::is_permutation(a.begin(), a.end(), b.begin())) {
        auto f = report(kUserOutputReordered,
                        fmt::format("the {} user outputs are the original's, in a different order", a.size()));
        for (std::size_t i : differing)
          f.note(fmt::format("output {}: {}, the original's is {}", i, a[i].value.text(), b[i].value.text()));
        return;
      }
      for (std::size_t i : differing) {
        report(kUserOutputChanged, fmt::format("user output {} is {}, the original's is {}", i,
                                               a[i].value.text(), b[i].value.text()));
      }
      return;
    }
    // Different counts: align the two lists (longest common subsequence) to say which
    // outputs appeared or disappeared.
    const std::size_t n = b.size(), m = a.size();
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;)
      for (std::size_t j = m; j-- > 0;)
        lcs[i][j] = b[i] == a[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    std::vector<std::size_t> lost, gained;
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && b[i] == a[j]) {
        ++i, ++j;
      } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
        gained.push_back(j++);
      } else {
        lost.push_back(i++);
      }
    }
    if (m > n) {
      auto f = report(kUserOutputGained, fmt::format("the program returns {} user output(s), the original {}", m, n));
      for (std::size_t g : gained) f.note(fmt::format("output {} ({}) has no counterpart in the original", g, a[g].value.text()));
      for (std::size_t l : lost) f.note(fmt::format("the original's output {} ({}) is gone", l, b[l].value.text()));
    } else {
      auto f = report(kUserOutputLost, fmt::format("the program returns {} user output(s), the original {}", m, n));
      for (std::size_t l : lost) f.note(fmt::format("the original's output {} ({}) is gone", l, b[l].value.text()));
      for (std::size_t g : gained) f.note(fmt::format("output {} ({}) has no counterpart in the original", g, a[g].value.text()));
    }
  }

  void writes() {
    std::map<std::string, std::vector<const WritePromise*>> after_by_target;
    for (const WritePromise& w : after_.writes) after_by_target[w.target].push_back(&w);
    // A state the original already writes back twice is check's finding (PT205), not the
    // lowering's: only write-backs beyond the original's count are duplicates here.
    std::map<std::string, std::size_t> before_count;
    for (const WritePromise& b : before_.writes) ++before_count[mapped(renames_, b.target)];
    for (const auto& [target, list] : after_by_target) {
      for (std::size_t k = std::max<std::size_t>(1, before_count[target]); k < list.size(); ++k) {
        auto f = report(kWriteBackDuplicated,
                        fmt::format("{} `{}` is written back {} times; only one value can win", state_kind_words(list[k]->kind),
                                    target, list.size()));
        if (list[k]->output_spec >= 0) f.at_output_spec(list[k]->output_spec);
        f.state(target);
        for (const WritePromise* w : list) f.note(origin(*w));
      }
    }
    std::map<std::string, bool> matched;
    std::vector<const WritePromise*> missing;
    const std::map<std::string, std::string> undecidable = undecidable_states();
    std::map<std::string, std::size_t> compared;  // k-th write of a target pairs with the k-th
    for (const WritePromise& b : before_.writes) {
      const std::string expected = mapped(renames_, b.target);
      auto it = after_by_target.find(expected);
      if (it != after_by_target.end()) {
        matched[expected] = true;
        compare(b, *it->second[std::min(compared[expected]++, it->second.size() - 1)], expected);
        continue;
      }
      // The same storage written back under another of its names (tied weights, one tensor
      // registered twice): the write is kept.
      if (const WritePromise* same = write_to_alias(b, after_by_target, matched)) {
        matched[same->target] = true;
        compare(b, *same, same->target);
        continue;
      }
      if (expected != b.target && after_by_target.count(b.target) != 0) {
        matched[b.target] = true;
        const WritePromise& a = *after_by_target[b.target].front();
        auto f = report(kWriteBackTargetRenamed,
                        fmt::format("the renaming maps `{}` to `{}`, but the program still writes back `{}`",
                                    b.target, expected, b.target));
        locate(f, a);
        f.note("a renaming must cover the input specs, the mutation targets and the state entries together");
        continue;
      }
      missing.push_back(&b);
    }
    // What AFTER writes that BEFORE does not: a renamed target when the names match up to
    // the usual decorations, else a write-back nobody asked for.
    for (const WritePromise* b : missing) {
      const WritePromise* renamed = nullptr;
      for (const auto& [target, list] : after_by_target) {
        if (!matched[target] && rename_key(target) == rename_key(b->target)) renamed = list.front();
      }
      if (renamed != nullptr) {
        matched[renamed->target] = true;
        auto f = report(kWriteBackTargetRenamed,
                        fmt::format("{} `{}` is written back as `{}`, and no mapping says `{}` became `{}`",
                                    state_kind_words(b->kind), b->target, renamed->target, b->target, renamed->target));
        locate(f, *renamed);
        f.fix(fmt::format("pass --rename with {{\"{}\": \"{}\"}}, or record the mapping in the program", b->target,
                          renamed->target));
        compare(*b, *renamed, renamed->target);
        continue;
      }
      if (undecidable.count(mapped(renames_, b->target)) != 0) continue;  // PT414 says so
      if (std::find(after_.constants.begin(), after_.constants.end(), mapped(renames_, b->target)) !=
          after_.constants.end()) {
        report(kWrittenStateBecameConstant,
               fmt::format("{} `{}` is written by the original ({}), but here it is a tensor constant: its reads "
                           "were folded into its initial value, and its writes dropped",
                           state_kind_words(b->kind), b->target, origin(*b)))
            .state(b->target)
            .note("a constant is never written back, so every call reads the value saved with the program: "
                  "a KV cache stays empty, a counter stays at zero (constant folding of a mutated buffer, "
                  "pytorch/executorch#7779)")
            .fix(fmt::format("keep `{}` a buffer through the lowering: exclude mutated buffers from constant "
                             "folding (they are in the graph signature's buffers_to_mutate)",
                             b->target));
        continue;
      }
      report(kWriteBackLost,
             fmt::format("{} `{}` is written by the original ({}) but never written back here: its state silently "
                         "stops changing",
                         state_kind_words(b->kind), b->target, origin(*b)))
          .state(b->target);
    }
    for (const auto& [target, list] : after_by_target) {
      if (matched[target] || undecidable.count(target) != 0) continue;
      auto f = report(kWriteBackAdded, fmt::format("{} `{}` is written back here, but the original never writes it",
                                                   state_kind_words(list.front()->kind), target));
      locate(f, *list.front());
    }
  }

  // Gradients of a joint program (when the original is one), paired by their input (through the renaming, or any name of
  // a tied parameter's storage): one lost, one gained, or one whose shape or dtype changed. Two
  // whose values were exchanged between their inputs are one finding.
  void gradients() {
    if (!before_.joint) return;  // a forward program: its joint program gains gradients by design
    const auto& b = before_.gradients;
    const auto& a = after_.gradients;
    std::vector<int> pair(b.size(), -1);  // before -> after
    std::vector<bool> taken(a.size(), false);
    for (std::size_t i = 0; i < b.size(); ++i) {
      const std::string expected =
          b[i].kind == StateKind::kParameter ? mapped(renames_, b[i].target) : b[i].target;
      // The same name and value first (one of two gradients naming one input is the right one),
      // then the same name, then another name of the storage.
      for (int pass = 0; pass < 3 && pair[i] < 0; ++pass) {
        for (std::size_t j = 0; j < a.size(); ++j) {
          if (taken[j] || a[j].kind != b[i].kind) continue;
          const bool same = a[j].target == expected;
          auto names = [](const GradientPromise& g, const std::string& name) {
            return std::find(g.aliases.begin(), g.aliases.end(), name) != g.aliases.end();
          };
          const bool alias = names(b[i], a[j].target) || names(a[j], b[i].target);
          if (pass == 0 ? same && a[j].value == b[i].value : pass == 1 ? same : alias) {
            pair[i] = static_cast<int>(j);
            taken[j] = true;
            break;
          }
        }
      }
    }
    std::vector<bool> reported(b.size(), false);
    for (std::size_t i = 0; i < b.size(); ++i) {
      if (pair[i] < 0 || reported[i]) continue;
      const GradientPromise& now = a[pair[i]];
      if (now.value == b[i].value) continue;
      // Exchanged: each side's value is the other's original gradient.
      for (std::size_t k = i + 1; k < b.size() && !reported[i]; ++k) {
        if (pair[k] < 0 || reported[k]) continue;
        const GradientPromise& other = a[pair[k]];
        if (!(now.value == b[k].value && other.value == b[i].value) || other.value == b[k].value) continue;
        // Told in the order of the specs, and found at the first.
        const bool in_order = now.output_spec <= other.output_spec;
        const GradientPromise& first = in_order ? now : other;
        const GradientPromise& second = in_order ? other : now;
        auto f = report(kGradientChanged,
                        fmt::format("the gradients of {} `{}` and `{}` are exchanged: output_specs[{}] declares {} "
                                    "for `{}` and output_specs[{}] {} for `{}`, the other's original shape and dtype",
                                    state_kind_words(first.kind), first.target, second.target, first.output_spec,
                                    first.value.text(), first.target, second.output_spec, second.value.text(),
                                    second.target));
        locate_gradient(f, first);
        f.note("each input would be trained with the other's gradient: the optimizer fails on the shapes, or, "
               "where they broadcast, trains the wrong weights");
        f.fix(fmt::format("exchange the targets of output_specs[{}] and output_specs[{}] back", first.output_spec,
                          second.output_spec));
        reported[i] = reported[k] = true;
      }
      if (reported[i]) continue;
      auto f = report(kGradientChanged,
                      fmt::format("the gradient of {} `{}` is {}, the original's is {}", state_kind_words(now.kind),
                                  now.target, now.value.text(), b[i].value.text()));
      locate_gradient(f, now);
      f.note("a gradient has its input's shape and dtype: the lowering declares another value for it, or "
             "changed how it is computed");
      f.fix(fmt::format("return the original's gradient of `{}` at output_specs[{}]", now.target, now.output_spec));
      reported[i] = true;
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
      if (pair[i] >= 0) continue;
      auto f = report(kGradientLost,
                      fmt::format("the original returns the gradient of {} `{}` ({}, output_specs[{}] `{}`), and "
                                  "this program returns none: it silently stops training",
                                  state_kind_words(b[i].kind), b[i].target, b[i].value.text(), b[i].output_spec,
                                  b[i].value_name));
      if (b[i].kind == StateKind::kParameter) f.state(mapped(renames_, b[i].target));
      f.note("PyTorch loads and validates a joint program without it; the optimizer finds no gradient for the "
             "weight and leaves it as it is");
      f.fix(fmt::format("return the gradient of `{}` as a {} output", b[i].target,
                        b[i].kind == StateKind::kParameter ? "GRADIENT_TO_PARAMETER" : "GRADIENT_TO_USER_INPUT"));
    }
    for (std::size_t j = 0; j < a.size(); ++j) {
      if (taken[j]) continue;
      const bool again = std::any_of(a.begin(), a.end(), [&](const GradientPromise& g) {
        return &g != &a[j] && taken[static_cast<std::size_t>(&g - a.data())] && g.kind == a[j].kind &&
               g.target == a[j].target;
      });
      auto f = report(kGradientGained,
                      again ? fmt::format("output_specs[{}] returns a second gradient ({}) for {} `{}`; the original "
                                          "returns one",
                                          a[j].output_spec, a[j].value.text(), state_kind_words(a[j].kind),
                                          a[j].target)
                            : fmt::format("output_specs[{}] returns a gradient ({}) for {} `{}`, which the original "
                                          "returns no gradient for",
                                          a[j].output_spec, a[j].value.text(), state_kind_words(a[j].kind),
                                          a[j].target));
      locate_gradient(f, a[j]);
      f.note(a[j].input.kind.empty() ? "the program has no such input: the gradient is dropped at run time, and "
                                       "the input it was meant for gets none"
             : again ? "the optimizer applies both to one input, and the input this gradient was meant for gets none"
                     : "the optimizer applies it to an input the original does not train");
      f.fix("declare the gradient for the input the original returns it for, or remove it");
    }
  }

  static void locate_gradient(InFlightFinding& f, const GradientPromise& g) {
    if (g.output_spec >= 0) f.at_output_spec(g.output_spec);
    if (!g.value_name.empty()) f.at_value(g.value_name);
  }

  // States an op of unknown schema may write, on either side (AFTER's names), each with
  // a description of the ops; one PT414 finding each. Never a PT401/PT402 for them.
  std::map<std::string, std::string> undecidable_states() {
    std::map<std::string, std::string> states;
    auto add = [&](const PossibleWritePromise& p, const std::string& target, std::string_view side) {
      std::string& text = states[target];
      for (const std::string& op : p.ops) {
        std::string item = fmt::format("`{}` in the {}", op, side);
        if (text.find(item) == std::string::npos) text += (text.empty() ? "" : ", ") + item;
      }
    };
    for (const PossibleWritePromise& p : before_.possible_writes) add(p, mapped(renames_, p.target), "original");
    for (const PossibleWritePromise& p : after_.possible_writes) add(p, p.target, "lowered program");
    for (const auto& [target, ops] : states) {
      auto f = report(kWriteBackUndecidable,
                      fmt::format("whether `{}` is written cannot be decided: it is passed to {}, whose schema "
                                  "pt2lint does not know",
                                  target, ops));
      f.state(target);
      f.note(fmt::format("diff reports neither {} nor {} for it, and exits 3 when nothing else is wrong",
                         kWriteBackLost.name, kWriteBackAdded.name));
      f.fix("pass the op's schema with --op-schemas (`pt2lint schemas --missing FILE` prints a template), or diff "
            "against the ATEN twin, from whose auto_functionalized nodes diff learns the writes");
    }
    return states;
  }

  // A write of `after_by_target` not matched yet whose target shares storage with b's,
  // according to either program; nullptr when none.
  static const WritePromise* write_to_alias(
      const WritePromise& b, const std::map<std::string, std::vector<const WritePromise*>>& after_by_target,
      std::map<std::string, bool>& matched) {
    for (const auto& [target, list] : after_by_target) {
      if (matched[target]) continue;
      const WritePromise& a = *list.front();
      auto names = [](const WritePromise& w, const std::string& name) {
        return std::find(w.aliases.begin(), w.aliases.end(), name) != w.aliases.end();
      };
      if (names(b, target) || names(a, b.target)) return &a;
    }
    return nullptr;
  }

  // Whether `name` is a name of the storage that writes `a` and `b` (matched) write.
  static bool names_storage(const WritePromise& a, const WritePromise& b, const std::string& name) {
    auto in = [&name](const WritePromise& w) {
      return name == w.target || std::find(w.aliases.begin(), w.aliases.end(), name) != w.aliases.end();
    };
    return in(a) || in(b);
  }

  static void locate(InFlightFinding& f, const WritePromise& w) {
    if (w.output_spec >= 0) f.at_output_spec(w.output_spec);
    if (!w.value_name.empty()) f.at_value(w.value_name);
    f.state(w.target);
  }

  void compare(const WritePromise& b, const WritePromise& a, const std::string& target) {
    // A state updated in place is expected to be updated under whatever name it was matched.
    const std::string expected_base = b.base.empty() ? "" : b.base == b.target ? target : mapped(renames_, b.base);
    if (!a.base.empty() && !expected_base.empty() && a.base != expected_base &&
        !(names_storage(a, b, a.base) && names_storage(a, b, expected_base))) {
      if (rename_key(a.base) == rename_key(expected_base)) {
        auto f = report(kWriteBackTargetRenamed,
                        fmt::format("the value written back to `{}` updates `{}`, which is `{}` renamed without a mapping",
                                    target, a.base, expected_base));
        locate(f, a);
      } else {
        auto f = report(kWriteBackFromOtherState,
                        fmt::format("the value written back to {} `{}` is an update of `{}`, not of `{}`",
                                    state_kind_words(a.kind), target, a.base, expected_base));
        locate(f, a);
        f.note(origin(a));
        f.note("every shape may still match: the state silently takes another state's values");
      }
    }
    if (!(a.value == b.value)) {
      auto f = report(kWriteBackShapeChanged,
                      fmt::format("the value written back to `{}` is {}, the original writes back {}", target,
                                  a.value.text(), b.value.text()));
      locate(f, a);
      f.note(origin(a));
    }
    if (!a.state.kind.empty() && !b.state.kind.empty() && !(a.state == b.state)) {
      auto f = report(kWriteBackShapeChanged,
                      fmt::format("{} `{}` is {} here, {} in the original", state_kind_words(a.kind), target,
                                  a.state.text(), b.state.text()));
      locate(f, a);
    }
  }

  const ProgramContract& before_;
  const ProgramContract& after_;
  const RenameMap& renames_;
  DiagnosticSink& sink_;
};

}  // namespace

void diff_contracts(const ProgramContract& before, const ProgramContract& after,
                    const RenameMap& renames, DiagnosticSink& sink) {
  ContractDiff(before, after, renames, sink).run();
}

void diff_program_sets(const std::vector<ProgramContract>& before,
                       const std::vector<ProgramContract>& after,
                       const std::function<RenameMap(const ProgramContract& after)>& renames_for,
                       DiagnosticSink& sink) {
  // A file with one program pairs with a file with one program whatever their names: the
  // name is the archive's choice ("model"), not the model's.
  if (before.size() == 1 && after.size() == 1) {
    diff_contracts(before.front(), after.front(), renames_for(after.front()), sink);
    return;
  }
  for (const ProgramContract& b : before) {
    auto a = std::find_if(after.begin(), after.end(), [&](const ProgramContract& c) { return c.program == b.program; });
    if (a == after.end()) {
      emit(sink, kProgramMissing, b.program,
           fmt::format("program `{}` of the original has no counterpart in the lowered file", b.program));
      continue;
    }
    diff_contracts(b, *a, renames_for(*a), sink);
  }
  for (const ProgramContract& a : after) {
    if (std::none_of(before.begin(), before.end(), [&](const ProgramContract& c) { return c.program == a.program; })) {
      emit(sink, kProgramMissing, a.program,
           fmt::format("program `{}` has no counterpart in the original file", a.program));
    }
  }
}

}  // namespace pt2lint
