// The style sheet and script of pt2lint's HTML pages, inlined into every page: the pages
// work offline, from a CI artifact or an e-mail attachment, with nothing to fetch.
#pragma once

#include <string_view>

namespace pt2lint::html {

std::string_view page_style();
// Filters the findings by rule and severity: every <article class="finding"> carries
// data-rule and data-severity; the counts of shown findings follow the filters.
std::string_view filter_script();

}  // namespace pt2lint::html
