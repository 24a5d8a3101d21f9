// Where the loaders put the programs they read. One parsing path fills either a vector of
// programs (value semantics: callers that move programs out, e.g. lowering and the contract)
// or programs on a google::protobuf::Arena (`check`: the IR of a large program is ~166 k
// messages and strings, and an arena turns their mallocs into bumps and their frees into a
// few block releases).
#pragma once

#include <vector>

#include <google/protobuf/arena.h>

#include "program.pb.h"

namespace pt2lint {

class ProgramOutput {
 public:
  explicit ProgramOutput(std::vector<ir::Program>& values) : values_(&values) {}
  ProgramOutput(google::protobuf::Arena& arena, std::vector<ir::Program*>& on_arena)
      : arena_(&arena), on_arena_(&on_arena) {}

  // A fresh, empty program appended to the output. The reference stays valid only until
  // the next add(): a loader fills one program completely before it starts the next.
  ir::Program& add() {
    if (values_ != nullptr) return values_->emplace_back();
    on_arena_->push_back(google::protobuf::Arena::CreateMessage<ir::Program>(arena_));
    return *on_arena_->back();
  }

 private:
  std::vector<ir::Program>* values_ = nullptr;
  google::protobuf::Arena* arena_ = nullptr;
  std::vector<ir::Program*>* on_arena_ = nullptr;
};

}  // namespace pt2lint
