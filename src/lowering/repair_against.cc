#include "lowering/repair_against.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "contract/diff_programs.h"
#include "contract/mutation_contract.h"
#include "contract/recorded_renames.h"
#include "diagnosis/promised_write_backs.h"
#include "diagnosis/signature_text.h"

namespace pt2lint::lowering {
namespace {

const ir::Program* program_named(const LoadedPrograms& loaded, const std::string& name) {
  for (const ir::Program& p : loaded.programs)
    if (p.name() == name) return &p;
  return nullptr;
}

bool writes(const ProgramContract& contract, const std::string& target) {
  return std::any_of(contract.writes.begin(), contract.writes.end(), [&](const WritePromise& w) {
    return w.target == target || std::find(w.aliases.begin(), w.aliases.end(), target) != w.aliases.end();
  });
}

}  // namespace

bool restore_against(const LoadedPrograms& original, FileFix& fix) {
  for (ir::Program& program : fix.loaded.programs) {
    const ir::Program* before = program_named(original, program.name());
    if (before == nullptr) {
      fix.error = fmt::format("'{}' is out of reach: ORIGINAL has no program `{}` to keep the contract of",
                              fix.input, program.name());
      return false;
    }
    Expected<std::optional<RenameMap>> recorded = recorded_renames(program);
    if (!recorded.ok()) {
      fix.error = fmt::format("{}:{}: {}", fix.input, program.name(), recorded.message());
      return false;
    }
    const RenameMap renames = recorded.value() ? *recorded.value() : RenameMap{};
    const ProgramContract promised = derive_contract(*before), now = derive_contract(program);
    std::vector<diagnosis::PromisedWrite> missing;
    for (const WritePromise& w : promised.writes) {
      auto it = renames.find(w.target);
      const std::string target = it == renames.end() ? w.target : it->second;
      if (!writes(now, target)) missing.push_back({target, w.value_name, w.target});
    }
    if (missing.empty()) continue;
    diagnosis::PromisedRepair repair = diagnosis::restore_promised_write_backs(program, *before, missing);
    if (!repair.refusal.empty()) {
      fix.error = fmt::format("{}:{}: not repaired against ORIGINAL: {}", fix.input, program.name(), repair.refusal);
      return false;
    }
    if (!repair.erased.empty()) {
      std::string lines;
      for (const std::string& e : repair.erased) lines += "\n  " + e;
      fix.error = fmt::format("'{}' is out of reach: {}:{} lost write(s) ORIGINAL promises that no signature edit "
                              "can restore:{}", fix.input, fix.input, program.name(), lines);
      return false;
    }
    fix.edits += repair.edits.size();
    fix.diff += diagnosis::unified_diff(
        diagnosis::signature_lines(repair.before), diagnosis::signature_lines(repair.after),
        fmt::format("{}:{}", fix.input, program.name()),
        fmt::format("{}:{} (kept ORIGINAL's contract)", fix.output.empty() ? fix.input : fix.output, program.name()));
    auto done = std::find_if(fix.repaired.begin(), fix.repaired.end(),
                             [&](const ProgramFix& p) { return p.program == program.name(); });
    if (done == fix.repaired.end()) done = fix.repaired.insert(fix.repaired.end(), ProgramFix{program.name(), {}});
    for (RootCause& cause : repair.causes) done->causes.push_back(std::move(cause));
  }
  return true;
}

Status keeps_contract(const std::string& original, const std::string& candidate) {
  DiffOptions options;
  options.before = original;
  options.after = candidate;
  const DiffReport report = diff_programs(options);
  if (report.outcome != DiffOutcome::kCompared)
    return Status::error(fmt::format("`pt2lint diff ORIGINAL` cannot compare it{}",
                                     report.error.empty() ? "" : ": " + report.error));
  if (report.verdict != ContractVerdict::kBroken) return Status();
  std::string lines;
  for (const Finding& f : report.findings) lines += fmt::format("\n  {} [{} {}]", f.message, f.rule_id, f.rule_name);
  return Status::error("it breaks ORIGINAL's contract (`pt2lint diff ORIGINAL`):" + lines);
}

}  // namespace pt2lint::lowering
