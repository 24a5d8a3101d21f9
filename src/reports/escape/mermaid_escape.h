// Text for Mermaid labels (```mermaid blocks GitHub renders): a name must stay a label. Quotes,
// '<' '>' and '&' become Mermaid entities (#quot; ...), '%' too so that no `%%{init}%%`
// directive or `%%` comment forms, backticks (Mermaid's markdown strings) plain quotes,
// brackets, braces, parentheses and '|' entities (they end shapes and edge labels), and
// controls visible (a newline would end the statement).
#pragma once

#include <string>
#include <string_view>

namespace pt2lint {

std::string mermaid_label(std::string_view text);

}  // namespace pt2lint
