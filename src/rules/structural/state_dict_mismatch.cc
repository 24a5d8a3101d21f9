// PT206 state-dict-mismatch: the weights and constants configs agree with the lifted state.
// docs/rules/state-dict-mismatch.md
#include <fmt/format.h>

#include <unordered_map>
#include <unordered_set>

#include "analysis/program_index.h"
#include "analysis/state/name_suggestions.h"
#include "analysis/state/state_storage.h"
#include "core/ir/tensor_bytes.h"
#include "support/name_table.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"
#include "rules/common/signature_helpers.h"

namespace pt2lint {
namespace {

class StateDictMismatch final : public Rule {
 public:
  const RuleInfo& info() const override { return kStateDictMismatch; }
  void check(const ProgramIndex& index, DiagnosticSink& sink) const override;
};

// Lookups over one payload config (weights or constants) and the records beside it. Keys
// are interned into flat tables (src/support/name_table.h): the first entry of a key wins, as
// with try_emplace, and an entry's id is that of its key.
class Payload {
 public:
  Payload(const ir::StateSource& source, std::string_view label)
      : source_(source), label_(label) {
    const auto& config = source.config().config();
    entries_.reserve(static_cast<std::size_t>(config.size()));
    entry_values_.reserve(static_cast<std::size_t>(config.size()));
    for (const ir::PayloadMetaEntry& entry : config) {
      if (entries_.intern(entry.key()) == static_cast<int>(entry_values_.size()))
        entry_values_.push_back(&entry.value());
    }
    records_.reserve(static_cast<std::size_t>(source.records().size()));
    record_sizes_.reserve(static_cast<std::size_t>(source.records().size()));
    for (const ir::ArchiveRecord& record : source.records()) {
      if (records_.intern(record.path()) == static_cast<int>(record_sizes_.size()))
        record_sizes_.push_back(record.size());
    }
  }

  bool present() const { return source_.present(); }
  bool records_omitted() const { return source_.records_omitted(); }
  std::string_view label() const { return label_; }  // "weights" or "constants"
  std::string where() const {
    return source_.config_path().empty() ? fmt::format("the {} config", label_)
                                         : fmt::format("`{}`", source_.config_path());
  }
  // The id of the entry keyed `fqn`, or NameTable::kAbsent.
  int entry_id(std::string_view fqn) const { return entries_.find(fqn); }
  std::size_t entry_count() const { return entry_values_.size(); }
  const ir::PayloadMeta* entry(std::string_view fqn) const {
    const int id = entries_.find(fqn);
    return id == NameTable::kAbsent ? nullptr : entry_values_[static_cast<std::size_t>(id)];
  }
  const std::uint64_t* record_size(std::string_view path) const {
    const int id = records_.find(path);
    return id == NameTable::kAbsent ? nullptr : &record_sizes_[static_cast<std::size_t>(id)];
  }
  const ir::StateSource& source() const { return source_; }
  // Entries whose key no input spec declares: where a misspelt state entry would be.
  std::vector<NameCandidate> unclaimed_entries(const NameTable& declared) const {
    std::vector<NameCandidate> names;
    for (const ir::PayloadMetaEntry& entry : source_.config().config())
      if (declared.find(entry.key()) == NameTable::kAbsent) names.push_back({entry.key(), {}});
    return names;
  }

 private:
  const ir::StateSource& source_;
  std::string_view label_;
  NameTable entries_;  // config keys
  std::vector<const ir::PayloadMeta*> entry_values_;  // by key id: the first entry's value
  NameTable records_;  // record paths
  std::vector<std::uint64_t> record_sizes_;  // by path id: the first record's size
};

// Where each kind of lifted state is saved by torch.export.save.
enum class Home { kWeights, kConstants, kEither };

Home home_of(const DeclaredState& state) {
  if (state.kind == StateKind::kParameter) return Home::kWeights;
  if (state.kind == StateKind::kBuffer) {
    if (!state.persistence_known) return Home::kEither;
    return state.persistent ? Home::kWeights : Home::kConstants;
  }
  return Home::kConstants;  // tensor constants, custom objects
}

std::string state_words(const DeclaredState& state) {
  if (state.kind == StateKind::kBuffer && state.persistence_known)
    return fmt::format("{} buffer `{}`", state.persistent ? "persistent" : "non-persistent",
                       state.fqn);
  // A custom object keeps its report word here ("custom_obj"), as the messages always said.
  return fmt::format("{} `{}`",
                     state.kind == StateKind::kTensorConstant ? "tensor constant" : state_kind_name(state.kind),
                     state.fqn);
}

class StateChecker {
 public:
  StateChecker(const ProgramIndex& index, DiagnosticSink& sink, const RuleInfo& info)
      : index_(index),
        sink_(sink),
        info_(info),
        weights_(index.program().weights(), "weights"),
        constants_(index.program().constants(), "constants") {}

  void run() {
    std::vector<DeclaredState> states = declared_state(index_.signature());
    declared_.reserve(states.size());
    for (const DeclaredState& state : states) declared_.intern(state.fqn);
    if (!weights_.present() && !constants_.present()) {
      report_skipped(states);
      if (index_.program().layout() != ir::LAYOUT_PT2_ARCHIVE) return;
    }
    // By entry id: whether an input spec declares that key.
    std::vector<bool> claimed_weights(weights_.entry_count()),
        claimed_constants(constants_.entry_count());
    for (const DeclaredState& state : states) {
      if (state.fqn.empty()) continue;  // input-specs rules and the loader report that
      Home home = home_of(state);
      const ir::PayloadMeta* in_weights = weights_.entry(state.fqn);
      const ir::PayloadMeta* in_constants = constants_.entry(state.fqn);
      if (in_weights) claimed_weights[static_cast<std::size_t>(weights_.entry_id(state.fqn))] = true;
      if (in_constants)
        claimed_constants[static_cast<std::size_t>(constants_.entry_id(state.fqn))] = true;
      switch (home) {
        case Home::kWeights: check_saved_in(state, weights_, constants_); break;
        case Home::kConstants:
          // Found only in the weights: one finding saying it is misplaced, not two.
          if (in_weights) report_misplaced(state);
          if (!in_weights || in_constants) check_saved_in(state, constants_, weights_);
          break;
        case Home::kEither:
          if (in_weights) check_record(state, weights_, *in_weights);
          else if (in_constants) check_record(state, constants_, *in_constants);
          break;
      }
    }
    report_unclaimed(weights_, claimed_weights);
    report_unclaimed(constants_, claimed_constants);
    if (records_omitted() && !states.empty()) {
      emit(sink_, info_, index_.name(),
           "state-dict record checks skipped: this archive was written from a live "
           "ExportedProgram without the weights' bytes; the configs' entries were checked, "
           "whether each record exists and fits its tensor was not")
          .severity(Severity::kNote);
    }
  }

 private:
  // Legacy zips keep state in pickles, and a bare JSON has none: nothing to compare against.
  void report_skipped(const std::vector<DeclaredState>& states) {
    ir::ArchiveLayout layout = index_.program().layout();
    if (states.empty()) return;
    if (layout == ir::LAYOUT_LEGACY_ZIP) {
      emit(sink_, info_, index_.name(),
           "state-dict checks skipped: this legacy-layout file (PyTorch 2.1-2.7 zip) keeps its "
           "weights and constants in pickled serialized_state_dict.pt / serialized_constants.pt, "
           "which pt2lint does not unpickle")
          .severity(Severity::kNote);
    } else if (layout == ir::LAYOUT_BARE_JSON) {
      emit(sink_, info_, index_.name(),
           "state-dict checks skipped: a bare program JSON carries no weights or constants")
          .severity(Severity::kNote);
    }
  }

  void check_saved_in(const DeclaredState& state, const Payload& home, const Payload& other) {
    if (!home.present()) {
      if (index_.program().layout() == ir::LAYOUT_PT2_ARCHIVE) report_no_config(state, home);
      return;
    }
    if (const ir::PayloadMeta* entry = home.entry(state.fqn)) {
      check_record(state, home, *entry);
      return;
    }
    bool elsewhere = other.present() && other.entry(state.fqn) != nullptr;
    // Newest torch falls back to the constants for a persistent buffer missing from the
    // state dict; older releases and the state_dict() of the unlifted module do not.
    bool tolerated = elsewhere && state.kind == StateKind::kBuffer;
    InFlightFinding finding = emit(
        sink_, info_, index_.name(),
        fmt::format("{} (input_specs[{}]) has no entry in {}{}", state_words(state),
                    state.spec_index, home.where(),
                    elsewhere ? fmt::format("; it is in the {} config instead", other.label())
                              : std::string()));
    finding.at_input_spec(state.spec_index).state(std::string(state.fqn));
    if (tolerated) {
      finding.severity(Severity::kWarning)
          .note("PyTorch 2.11 falls back to the constants for it, but older releases reject "
                "the file and it is missing from the module's state_dict()");
    } else if (home.label() == "weights") {
      finding.note(fmt::format("torch.export.load rejects this file (\"{} {} is not in the state "
                               "dict.\")",
                               state.kind == StateKind::kParameter ? "Parameter" : "Buffer", state.fqn));
    } else {
      finding.note(fmt::format("torch.export.load rejects this file (\"{} {} is not in the "
                               "constants dictionary.\")",
                               state.kind == StateKind::kCustomObj ? "Custom object" : "Constant tensor",
                               state.fqn));
    }
    std::optional<NearMiss> near = find_near_miss(state.fqn, home.unclaimed_entries(declared_));
    if (near) {
      finding.note(fmt::format("did you mean the entry `{}`? {}", near->name, near->explanation))
          .fix(fmt::format("rename the entry `{}` to `{}` in {}", near->name, state.fqn,
                           home.where()));
    } else {
      finding.fix(fmt::format("save `{}` in the {} (an entry in {} and its record)", state.fqn,
                              home.label(), home.where()));
    }
  }

  void check_record(const DeclaredState& state, const Payload& payload,
                    const ir::PayloadMeta& entry) {
    const std::uint64_t* size = payload.record_size(entry.path_name());
    if (size == nullptr && payload.records_omitted()) {
      check_is_param(state, entry);
      return;
    }
    if (size == nullptr) {
      emit(sink_, info_, index_.name(),
           fmt::format("{} (input_specs[{}]) points at {} record `{}`, which is not in the "
                       "archive",
                       state_words(state), state.spec_index, payload.label(), entry.path_name()))
          .at_input_spec(state.spec_index)
          .state(std::string(state.fqn))
          .note("torch.export.load fails when it reads the state (KeyError on the missing "
                "archive member)")
          .fix(fmt::format("restore data/{}/{} in the archive, or point the entry at the record "
                           "that holds `{}`",
                           payload.label(), entry.path_name(), state.fqn));
      return;
    }
    check_is_param(state, entry);
    if (entry.use_pickle() || state.kind == StateKind::kCustomObj) return;  // a pickle, not raw bytes
    const ir::TensorMeta* meta =
        entry.has_tensor_meta() ? &entry.tensor_meta() : index_.tensor_meta(state.placeholder);
    if (meta == nullptr) return;
    RecordFit fit = check_record_fits(*size, *meta);
    if (fit.fits) return;
    emit(sink_, info_, index_.name(),
         fmt::format("{} record `{}` for {} does not fit its tensor: {}", payload.label(),
                     entry.path_name(), state_words(state), fit.problem))
        .at_input_spec(state.spec_index)
        .state(std::string(state.fqn))
        .note("torch.export.load reads the record as a 1-D array of the dtype and applies "
              "as_strided(sizes, strides, storage_offset); a short or ragged record makes it fail")
        .fix(fmt::format("re-save `{}`, or fix the tensor_meta of its entry", state.fqn));
  }

  bool records_omitted() const { return weights_.records_omitted() || constants_.records_omitted(); }

  void check_is_param(const DeclaredState& state, const ir::PayloadMeta& entry) {
    if (state.kind != StateKind::kParameter || entry.is_param()) return;
    emit(sink_, info_, index_.name(),
         fmt::format("parameter `{}` (input_specs[{}]) is saved with is_param false", state.fqn,
                     state.spec_index))
        .at_input_spec(state.spec_index)
        .state(std::string(state.fqn))
        .note(fmt::format("torch.export.load loads it as a plain tensor and rejects the file "
                          "(\"State dict entry for parameter {} is not an instance of "
                          "torch.nn.Parameter.\")",
                          state.fqn))
        .fix(fmt::format("set is_param to true in the entry for `{}`", state.fqn));
  }

  void report_misplaced(const DeclaredState& state) {
    emit(sink_, info_, index_.name(),
         fmt::format("{} (input_specs[{}]) is in {}; it belongs in the constants",
                     state_words(state), state.spec_index, weights_.where()))
        .at_input_spec(state.spec_index)
        .state(std::string(state.fqn))
        .note(state.kind == StateKind::kBuffer
                  ? fmt::format("torch.export.load rejects this file (\"Non-persistent buffer {} "
                                "is in the state dict, it should not be.\")",
                                state.fqn)
                  : std::string("the weights become the module's state_dict(), where a constant "
                                "does not belong; loading it fails or checkpoints pick it up"))
        .fix(fmt::format("move the entry for `{}` to the constants config", state.fqn));
  }

  void report_no_config(const DeclaredState& state, const Payload& home) {
    if (reported_missing_.count(home.label())) return;
    reported_missing_.insert(home.label());
    emit(sink_, info_, index_.name(),
         fmt::format("the archive has no {} config, but the program lifts {} (input_specs[{}]) "
                     "which must be saved there",
                     home.label(), state_words(state), state.spec_index))
        .at_input_spec(state.spec_index)
        .state(std::string(state.fqn))
        .note("torch.export.load reads data/<kind>/<model>_<kind>_config.json to rebuild the "
              "state; without it the program cannot be loaded")
        .fix(fmt::format("save the program with its {} (torch.export.save writes the config)",
                         home.label()));
  }

  // Tied weights exported with strict=True: the program lifts one name and the config also
  // lists the others, on the same record. Those entries are the lifted state, not strays.
  // Whether another name of key's storage is declared. Counted once per storage group, so
  // 40,000 config entries on one record cost one pass, not 40,000.
  bool is_alias_of_declared(std::string_view key) {
    const StateStorage& storage = index_.storage();
    if (!storage.aliased(key)) return false;
    auto [it, fresh] = declared_per_group_.try_emplace(storage.canonical(key), 0);
    if (fresh) {
      std::size_t declared = declared_.find(key) != NameTable::kAbsent ? 1 : 0;
      for (std::string_view alias : storage.aliases_of(key))
        declared += declared_.find(alias) != NameTable::kAbsent ? 1 : 0;
      it->second = declared;
    }
    const std::size_t self = declared_.find(key) != NameTable::kAbsent ? 1 : 0;
    return it->second > self;
  }

  void report_unclaimed(const Payload& payload, const std::vector<bool>& claimed) {
    if (!payload.present()) return;
    for (const ir::PayloadMetaEntry& entry : payload.source().config().config()) {
      if (claimed[static_cast<std::size_t>(payload.entry_id(entry.key()))]) continue;
      if (is_alias_of_declared(entry.key())) continue;
      emit(sink_, info_, index_.name(),
           fmt::format("{} entry `{}` matches no input spec of the program", payload.label(),
                       entry.key()))
          .severity(Severity::kWarning)
          .state(entry.key())
          .at_member(payload.source().config_path())
          .note("it is loaded but nothing uses it: dead weight in the file, or the input spec "
                "that should read it was renamed or dropped")
          .fix(fmt::format("remove `{}` from {}, or restore the input spec that reads it",
                           entry.key(), payload.where()));
    }
  }

  const ProgramIndex& index_;
  DiagnosticSink& sink_;
  const RuleInfo& info_;
  Payload weights_;
  Payload constants_;
  std::unordered_set<std::string_view> reported_missing_;
  NameTable declared_;  // every FQN an input spec lifts
  std::unordered_map<std::string_view, std::size_t> declared_per_group_;  // canonical name -> declared names
};

}  // namespace

void StateDictMismatch::check(const ProgramIndex& index, DiagnosticSink& sink) const {
  StateChecker(index, sink, kStateDictMismatch).run();
}

std::unique_ptr<Rule> make_StateDictMismatch() { return std::make_unique<StateDictMismatch>(); }

}  // namespace pt2lint
