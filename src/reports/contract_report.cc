#include "reports/contract_report.h"

#include <fmt/format.h>

#include "core/ir/ir_accessors.h"
#include "support/json_writer.h"

namespace pt2lint {
namespace {

void facts_fields(JsonWriter& json, const ValueFacts& facts) {
  json.field("kind", facts.kind);
  if (facts.kind == "tensor") {
    json.field("shape", facts.shape);
    json.field("dtype", facts.dtype);
  }
}

// `key: {kind, shape, dtype}`: the facts of one value as their own object.
void facts_object(JsonWriter& json, std::string_view key, const ValueFacts& facts) {
  json.key(key).begin_object();
  facts_fields(json, facts);
  json.end_object();
}

std::string program_list(const std::vector<std::string>& names) {
  if (names.empty()) return "none";
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "`" : "`, `") + name;
  return text + "`";
}

std::string_view initial_value_text(const std::string& verdict) {
  if (verdict == "depends") return "depends on its initial value";
  if (verdict == "overwritten") return "fully overwritten before any read";
  return "initial value: undecided";
}

}  // namespace

void print_contracts_text(const std::vector<ProgramContract>& contracts, std::ostream& out,
                          const std::vector<SharedStatePromise>& shared) {
  for (const ProgramContract& c : contracts) {
    out << fmt::format("program {} ({})\n", c.program, c.dialect.empty() ? "no dialect" : c.dialect);
    out << fmt::format("  user inputs ({}):\n", c.user_inputs.size());
    for (const UserInputPromise& input : c.user_inputs)
      out << fmt::format("    {}: {}\n", input.name, input.value.text());
    out << fmt::format("  user outputs ({}), tree spec {}:\n", c.user_outputs.size(),
                       c.out_spec.empty() ? "(none)" : c.out_spec);
    for (std::size_t i = 0; i < c.user_outputs.size(); ++i)
      out << fmt::format("    [{}] {}\n", i, c.user_outputs[i].value.text());
    out << fmt::format("  written state ({}):\n", c.writes.size());
    for (const WritePromise& w : c.writes) {
      std::string also;
      for (const std::string& alias : w.aliases) also += (also.empty() ? " (also named `" : "`, `") + alias;
      if (!also.empty()) also += "`)";
      out << fmt::format("    {} `{}`{} {}: written back {}, {}{}\n", state_kind_words(w.kind), w.target, also,
                         w.state.kind.empty() ? "(does not resolve)" : w.state.text(),
                         w.base.empty() ? "a value of unknown origin" : fmt::format("an update of `{}`", w.base),
                         w.value.text(),
                         w.initial_value.empty() ? "" : fmt::format("; {} ({})", initial_value_text(w.initial_value),
                                                                    w.initial_value_why));
    }
    for (const PossibleWritePromise& p : c.possible_writes) {
      std::string ops;
      for (const std::string& op : p.ops) ops += (ops.empty() ? "`" : ", `") + op + "`";
      out << fmt::format("    {} `{}`: may be written by {} (schema unknown)\n", state_kind_words(p.kind), p.target, ops);
    }
    if (!c.gradients.empty()) {  // joint programs only
      out << fmt::format("  gradients ({}):\n", c.gradients.size());
      for (const GradientPromise& g : c.gradients)
        out << fmt::format("    {} `{}` {}: gradient {}\n", state_kind_words(g.kind), g.target,
                           g.input.kind.empty() ? "(does not resolve)" : g.input.text(), g.value.text());
    }
  }
  if (shared.empty()) return;
  out << fmt::format("state shared by the programs ({}), written by some program:\n", shared.size());
  for (const SharedStatePromise& s : shared)
    out << fmt::format("  {} `{}`: written by {}; only read by {}\n", state_kind_words(s.kind), s.target,
                       program_list(s.writers), program_list(s.readers));
}

void print_contracts_json(const std::vector<ProgramContract>& contracts, std::ostream& out,
                          const std::vector<SharedStatePromise>& shared) {
  JsonWriter json(out, true);
  json.begin_object().key("programs").begin_array();
  for (const ProgramContract& c : contracts) {
    json.begin_object();
    json.field("name", c.program);
    json.field("dialect", c.dialect);
    json.key("user_inputs").begin_array();
    for (const UserInputPromise& input : c.user_inputs) {
      json.begin_object().field("name", input.name);
      facts_fields(json, input.value);
      json.end_object();
    }
    json.end_array();
    json.key("user_outputs").begin_array();
    for (const UserOutputPromise& output : c.user_outputs) {
      json.begin_object();
      facts_fields(json, output.value);
      json.end_object();
    }
    json.end_array();
    json.field("out_spec", c.out_spec);
    json.key("writes").begin_array();
    for (const WritePromise& w : c.writes) {
      json.begin_object().field("target", w.target).field("kind", state_kind_name(w.kind));
      facts_object(json, "state", w.state);
      json.key("value").begin_object();
      json.key("update_of");
      w.base.empty() ? json.null() : json.value(w.base);
      facts_fields(json, w.value);
      json.end_object();
      if (!w.initial_value.empty()) json.field("initial_value", w.initial_value);  // additive
      // Additive: only for state with other names.
      if (!w.aliases.empty()) json.string_array("aliases", w.aliases);
      json.end_object();
    }
    json.end_array();
    json.key("possible_writes").begin_array();  // additive: state ops of unknown schema may write
    for (const PossibleWritePromise& p : c.possible_writes) {
      json.begin_object().field("target", p.target).field("kind", state_kind_name(p.kind));
      json.string_array("ops", p.ops).end_object();
    }
    json.end_array();
    // Additive: GRADIENT_TO_PARAMETER and GRADIENT_TO_USER_INPUT outputs, empty for a program
    // that is not joint.
    json.key("gradients").begin_array();
    for (const GradientPromise& g : c.gradients) {
      json.begin_object().field("target", g.target).field("kind", state_kind_name(g.kind));
      facts_object(json, "input", g.input);
      facts_object(json, "value", g.value);
      if (!g.aliases.empty()) json.string_array("aliases", g.aliases);
      json.end_object();
    }
    json.end_array();
    json.end_object();
  }
  json.end_array();
  if (!shared.empty()) {  // additive: multi-program archives only
    json.key("shared_state").begin_array();
    for (const SharedStatePromise& s : shared) {
      json.begin_object().field("target", s.target).field("kind", state_kind_name(s.kind));
      json.string_array("written_by", s.writers).string_array("only_read_by", s.readers).end_object();
    }
    json.end_array();
  }
  json.end_object();
  out << '\n';
}

}  // namespace pt2lint
