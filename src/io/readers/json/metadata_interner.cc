#include "io/readers/json/metadata_interner.h"

#include <functional>

namespace pt2lint::json_reader {

std::uint32_t MetadataInterner::intern(std::string_view s) {
  if ((size_ + 1) * 2 > slots_.size()) grow();
  const std::size_t hash = std::hash<std::string_view>{}(s);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.id_plus_one == 0) {
      const auto id = static_cast<std::uint32_t>(strings_.size());
      strings_.Add()->assign(s.data(), s.size());
      slot = {hash, id + 1};
      ++size_;
      return id;
    }
    if (slot.hash == hash && strings_[static_cast<int>(slot.id_plus_one - 1)] == s) {
      return slot.id_plus_one - 1;
    }
  }
}

void MetadataInterner::grow() {
  std::vector<Slot> old(slots_.empty() ? 64 : slots_.size() * 2);
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.id_plus_one == 0) continue;
    std::size_t i = slot.hash & mask;
    while (slots_[i].id_plus_one != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

}  // namespace pt2lint::json_reader
