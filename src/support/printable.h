// Shows bytes that come from a file (a member name, a config line, a version record) in a
// message: at most `limit` bytes, every byte outside printable ASCII written as \xNN, and the
// full length when it was cut. Nothing a file holds can then act on the reader's terminal.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pt2lint {

std::string printable_excerpt(std::string_view bytes, std::size_t limit = 40);

}  // namespace pt2lint
