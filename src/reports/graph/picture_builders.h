// Builds the pictures pt2lint draws (contract_picture.h): a whole program's contract, one
// state's slice, or one finding's slice with its broken edge marked (see docs/graph.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/finding.h"
#include "reports/graph/contract_picture.h"

namespace pt2lint {

class ProgramIndex;

namespace graph {

// At most this many written states are drawn in a whole-program picture; the rest are one
// "… N more written states …" box (`pt2lint graph --state FQN` draws any one of them).
inline constexpr std::size_t kMaxStatesDrawn = 8;

// Every written state with its slice and write-back, the unwritten states counted per kind,
// and the user outputs.
Picture program_picture(const ProgramIndex& index, std::string title);

// The slice of one state, named by FQN (or by its placeholder or user-input name);
// nullopt when the program has no such state.
std::optional<Picture> state_picture(const ProgramIndex& index, std::string_view state,
                                     std::string title);

// The slice a finding is about, with its wrong edge marked and the expected one dashed.
// `index` is null when the file has no readable program: the picture then says so.
Picture finding_picture(const ProgramIndex* index, const Finding& finding, std::string title);

}  // namespace graph
}  // namespace pt2lint
