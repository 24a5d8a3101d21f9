// Which lifted state a program uses: reads (a node or graph output names its placeholder) or
// writes back (a mutation output targets it; an ATEN program's full overwrite of a buffer
// reads nothing from it but still writes it on every call).
#pragma once

#include <string_view>
#include <unordered_set>
#include <vector>

#include "program.pb.h"

namespace pt2lint {

class ProgramIndex;

// By graph input: whether it is read, returned or the target of a mutation output.
std::vector<bool> used_placeholders(const ProgramIndex& index);

// Graph inputs whose input spec `wanted` accepts and that no program of the file uses under
// any name of their storage (ArchiveStateUse), in graph order.
std::vector<int> unused_state_placeholders(const ProgramIndex& index,
                                           bool (*wanted)(const ir::InputSpec& spec));

// Whether any program of `index`'s file uses `fqn` or a name that shares its storage
// (verifier/state/state_storage.h): an alias group counts as one, and so do the programs
// of one archive, which share one state. The other programs are indexed on first use.
class ArchiveStateUse {
 public:
  explicit ArchiveStateUse(const ProgramIndex& index) : index_(index) {}
  bool used_anywhere(std::string_view fqn);

 private:
  const ProgramIndex& index_;
  bool built_ = false;
  std::unordered_set<std::string_view> used_;  // by every program of the file
};

}  // namespace pt2lint
