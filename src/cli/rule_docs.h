// The docs/rules/<name>.md pages, embedded at build time so `pt2lint explain` works anywhere.
#pragma once

#include <string_view>

namespace pt2lint {

std::string_view rule_doc_page(std::string_view rule_name);  // "" when there is no page

}  // namespace pt2lint
