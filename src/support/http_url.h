// Links from untrusted settings (a config's `docs-url`): only http and https, and only
// characters that cannot end a Markdown link target or an HTML attribute.
#pragma once

#include <string>
#include <string_view>

namespace pt2lint {

// A link target for a Markdown or HTML link: `url` when it is an http or https URL with no
// byte that could end the target or the attribute (space, quotes, <, >, parentheses,
// backslash, controls), else empty (no link is written).
std::string safe_link_target(std::string_view url);

}  // namespace pt2lint
