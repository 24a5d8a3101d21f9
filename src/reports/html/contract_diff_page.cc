#include "reports/html/contract_diff_page.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include "reports/html/html_text.h"
#include "reports/html/page_assets.h"

namespace pt2lint::html {
namespace {

const ProgramContract* find_program(const std::vector<ProgramContract>& contracts, const std::string& name) {
  for (const ProgramContract& c : contracts)
    if (c.program == name) return &c;
  return nullptr;
}

// One side of a state's row: how it is written back, or that it is not written.
std::string write_cell(const WritePromise* write) {
  if (write == nullptr) return "<td class=\"none\">not written</td>";
  std::string how = write->output_spec >= 0
                        ? fmt::format("output_specs[{}] ← <code>{}</code>", write->output_spec,
                                      escape(write->value_name))
                        : fmt::format("in place by <code>{}</code>", escape(write->value_name));
  std::string base = write->base.empty() ? "a new value"
                                         : fmt::format("the update of <code>{}</code>", escape(write->base));
  return fmt::format("<td>{} <small>{}</small><br>{}: {}<br>value {}</td>", escape(state_kind_name(write->kind)),
                     escape(write->state.text()), how, base, escape(write->value.text()));
}

void write_program(const ProgramContract* before, const ProgramContract* after, const RenameMap& renames,
                   std::ostream& out) {
  const std::string name = before != nullptr ? before->program : after->program;
  out << fmt::format("<section class=\"program\"><h2>Program <code>{}</code></h2>\n", escape(name));
  if (before == nullptr || after == nullptr) {
    out << fmt::format("<p class=\"diff-lost\">Only in the {} file.</p></section>\n",
                       before == nullptr ? "lowered" : "original");
    return;
  }
  // Written states, paired through the rename map (original FQN -> lowered name).
  std::map<std::string, std::pair<const WritePromise*, const WritePromise*>> rows;
  for (const WritePromise& w : before->writes) {
    auto renamed = renames.find(w.target);
    rows[renamed == renames.end() ? w.target : renamed->second].first = &w;
  }
  for (const WritePromise& w : after->writes) rows[w.target].second = &w;
  out << "<h3>Written state</h3>\n<table class=\"contract-diff\"><tr><th>state</th><th>before</th>"
         "<th>after</th><th>verdict</th></tr>\n";
  for (const auto& [target, pair] : rows) {
    const auto [b, a] = pair;
    const bool same = b != nullptr && a != nullptr && b->kind == a->kind && b->state == a->state &&
                      b->value == a->value &&
                      (b->base == a->base || (renames.count(b->base) && renames.at(b->base) == a->base));
    const char* verdict = same ? "kept" : b == nullptr ? "write-back added" : a == nullptr ? "write-back lost" : "changed";
    const char* style = same ? "" : b == nullptr ? "diff-added" : a == nullptr ? "diff-lost" : "diff-changed";
    std::string shown = escape(target);
    if (b != nullptr && b->target != target) shown = fmt::format("{} <small>(was <code>{}</code>)</small>", shown, escape(b->target));
    out << fmt::format("<tr class=\"{}\"><td><code>{}</code></td>{}{}<td>{}</td></tr>\n", style, shown,
                       write_cell(b), write_cell(a), verdict);
  }
  out << "</table>\n<h3>User inputs and outputs</h3>\n<table class=\"contract-diff\"><tr><th></th>"
         "<th>before</th><th>after</th></tr>\n";
  const std::size_t inputs = std::max(before->user_inputs.size(), after->user_inputs.size());
  for (std::size_t i = 0; i < inputs; ++i) {
    const UserInputPromise* b = i < before->user_inputs.size() ? &before->user_inputs[i] : nullptr;
    const UserInputPromise* a = i < after->user_inputs.size() ? &after->user_inputs[i] : nullptr;
    auto cell = [](const UserInputPromise* p) {
      return p == nullptr ? std::string("—") : fmt::format("<code>{}</code> {}", escape(p->name), escape(p->value.text()));
    };
    out << fmt::format("<tr class=\"{}\"><td>input {}</td><td>{}</td><td>{}</td></tr>\n",
                       b != nullptr && a != nullptr && *b == *a ? "" : "diff-changed", i, cell(b), cell(a));
  }
  const std::size_t outputs = std::max(before->user_outputs.size(), after->user_outputs.size());
  for (std::size_t i = 0; i < outputs; ++i) {
    const UserOutputPromise* b = i < before->user_outputs.size() ? &before->user_outputs[i] : nullptr;
    const UserOutputPromise* a = i < after->user_outputs.size() ? &after->user_outputs[i] : nullptr;
    out << fmt::format("<tr class=\"{}\"><td>output {}</td><td>{}</td><td>{}</td></tr>\n",
                       b != nullptr && a != nullptr && *b == *a ? "" : "diff-changed", i,
                       b == nullptr ? "—" : escape(b->value.text()), a == nullptr ? "—" : escape(a->value.text()));
  }
  out << "</table></section>\n";
}

}  // namespace

void write_contract_diff_page(const ContractDiffPage& page, const RenderOptions& options,
                              std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>pt2lint diff</title><style>"
      << page_style() << "</style></head><body>\n";
  out << fmt::format("<h1>pt2lint diff</h1><p>before: <code>{}</code><br>after: <code>{}</code></p>\n",
                     escape(page.before_path), escape(page.after_path));
  out << fmt::format("<p class=\"totals\">{}</p>\n",
                     page.findings->empty() ? "The lowered program keeps every promise of the contract."
                                            : fmt::format("{} broken promise{}.", page.findings->size(),
                                                          page.findings->size() == 1 ? "" : "s"));
  for (const Finding& f : *page.findings) {
    out << fmt::format("<article class=\"finding\" data-rule=\"{}\"><div class=\"text\"><h4><span class=\"sev "
                       "sev-{}\">{}</span> {} {}</h4><p>{}</p>",
                       escape(f.rule_id), severity_name(f.severity), severity_name(f.severity),
                       escape(f.rule_id), escape(f.rule_name), inline_code(f.message));
    for (const Note& note : f.notes) out << "<p class=\"where\">note: " << inline_code(note.text) << "</p>";
    if (f.fix) out << "<p class=\"fix\"><strong>fix:</strong> " << inline_code(f.fix->description) << "</p>";
    if (std::string url = options.docs_url; !url.empty())
      out << fmt::format("<p><a href=\"{}{}.md\">about {}</a></p>", escape(url), escape(f.rule_name), escape(f.rule_name));
    out << "</div></article>\n";
  }
  std::set<std::string> names;
  for (const ProgramContract& c : *page.before) names.insert(c.program);
  for (const ProgramContract& c : *page.after) names.insert(c.program);
  for (const std::string& name : names) {
    const ProgramContract* before = find_program(*page.before, name);
    const ProgramContract* after = find_program(*page.after, name);
    write_program(before, after, after != nullptr ? page.renames_for(*after) : RenameMap{}, out);
  }
  out << "<p>Highlighted: <span class=\"diff-changed\">changed</span>, <span class=\"diff-lost\">lost</span>, "
         "<span class=\"diff-added\">added</span>.</p>\n</body></html>\n";
}

}  // namespace pt2lint::html
