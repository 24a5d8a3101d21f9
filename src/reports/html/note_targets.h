// Which finding of a file a note's place (Note::location) points at, for the HTML report's
// links: found through an index of the file's findings by program and place, so a file of
// N findings with notes costs O(N), not O(N^2) (a hostile file can hold 40,000 findings).
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/engine.h"

namespace pt2lint::html {

class NoteTargets {
 public:
  // `listed`: whether the report lists each finding (listed_in_report): a link to a finding
  // that is not on the page would lead nowhere.
  NoteTargets(const FileResult& file, const std::vector<char>& listed);

  // The index of the first listed finding other than `self` in `self`'s program whose place
  // is `at` (every part `at` sets is the same), or -1; -1 too when `at` is `self`'s own place.
  long target(std::size_t self, const Location& at) const;

 private:
  const FileResult& file_;
  const std::vector<char>& listed_;
  // "program\0tag\0value" of each set part of a listed finding's place -> its indices, in
  // file order.
  std::unordered_map<std::string, std::vector<std::size_t>> by_part_;
};

// Whether `location` is at `at`: every part `at` sets (a spec, a node, ...) is the same.
bool located_at(const Location& location, const Location& at);

}  // namespace pt2lint::html
