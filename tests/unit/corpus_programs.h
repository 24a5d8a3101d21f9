// The program JSON of every archive in some folders of the corpus, for the readers' tests that
// compare two ways of reading each.
#pragma once

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

#include "io/readers/padded_bytes.h"
#include "io/readers/zip/zip_archive.h"
#include "test_paths.h"

namespace pt2lint::testing_support {

// Calls visit(dir, label, json) for each program JSON member (not a state config) of each
// .pt2 in the corpus folders `dirs` that exist; `label` is "FILE:MEMBER". Returns how many.
template <typename Visit>
std::size_t for_each_corpus_program(std::initializer_list<const char*> dirs, Visit&& visit) {
  std::size_t programs = 0;
  for (const char* dir : dirs) {
    if (!std::filesystem::exists(test_paths::kCorpus / dir)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(test_paths::kCorpus / dir)) {
      if (entry.path().extension() != ".pt2") continue;
      auto opened = ZipArchive::open_file(entry.path(), 1'000'000);
      if (!opened.ok()) continue;
      for (const auto& m : opened.value()->members()) {
        if (!m.unsafe.empty() || !m.name.ends_with(".json") || m.name.ends_with("_config.json")) {
          continue;
        }
        PaddedBytes json;
        if (!opened.value()->read(m, std::uint64_t{1} << 30, json).ok()) continue;
        visit(std::string_view(dir), entry.path().filename().string() + ":" + m.name, json);
        ++programs;
      }
    }
  }
  return programs;
}

}  // namespace pt2lint::testing_support
