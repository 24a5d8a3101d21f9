// One model of state storage with aliasing: which parameters, buffers and constants of a
// program are one tensor under several names.
//
// Storage is shared when
//   * entries of the weights config, or of the constants config, name the same record
//     (`path_name`): torch.export.save writes one record per storage, so tied weights
//     (GPT-2's `lm_head.weight` and `transformer.wte.weight`), one tensor registered as two
//     buffers, and the parameters of a submodule registered under two names all share one;
//   * several input specs lift the same placeholder (one placeholder serving several FQNs).
// Without a weights or constants config (bare JSON, legacy zip, textproto without configs)
// only the second source is known. Used by every rule that reasons about state identity,
// the effective mutation set, the contract and `diff` (docs/dataflow.md, "Aliased state").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "program.pb.h"
#include "support/name_table.h"

namespace pt2lint {

class StateStorage {
 public:
  explicit StateStorage(const ir::Program& program);

  // Every other name of `fqn`'s storage, in the order the program lists them (input specs,
  // then weights config, then constants config); empty when `fqn` has none or is unknown.
  std::vector<std::string_view> aliases_of(std::string_view fqn) const;
  bool aliased(std::string_view fqn) const;
  // One name per storage: the first listed name of `fqn`'s storage, or `fqn` itself when
  // it is unknown. Two names share storage exactly when their canonical names are equal.
  std::string_view canonical(std::string_view fqn) const;
  bool same_storage(std::string_view a, std::string_view b) const {
    return a == b || canonical(a) == canonical(b);
  }
  // Why `fqn` has aliases, for messages: "they name the weights record `weight_0`", or ""
  // when it has none.
  std::string why_shared(std::string_view fqn) const;
  // Whether any storage has more than one name.
  bool has_aliases() const { return has_aliases_; }
  // Storages with more than one name, each in listing order.
  std::vector<std::vector<std::string_view>> alias_groups() const;

 private:
  int add(std::string_view fqn);
  // Joins every entry of one payload config with the first entry naming the same record.
  void join_by_record(const ir::StateSource& source, std::string_view label);
  int find_root(int id);
  void join(int a, int b, std::string reason);
  // After every join: each id points straight at its root, and roots know their size.
  void flatten();

  NameTable names_;                      // every FQN seen
  std::vector<std::string_view> fqns_;   // by id
  std::vector<int> parent_;              // union-find over ids; flat after construction
  std::vector<int> size_;                // by root id: how many names the storage has
  std::vector<int> group_start_;         // by root id: where its members start in group_members_
  std::vector<int> group_members_;       // ids, grouped by root, in id order
  std::vector<std::string> reason_;      // by root id: why its names share storage
  bool has_aliases_ = false;
};

class ProgramIndex;

// The other names of `fqn`'s storage in words, for messages: "buffer `b`, parameter `c` and
// `d` (saved with the program; no input spec lifts it)". "" when it has none.
std::string describe_aliases(const ProgramIndex& index, std::string_view fqn);

}  // namespace pt2lint
