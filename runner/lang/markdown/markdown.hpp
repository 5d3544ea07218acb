// Markdown front end: the section structure of a .md file or of a pull-request body.
//
//   auto s = review::lang::markdown_sections("intro\n## Test Plan\nrun it\n");
//   s[0] = {heading "", level 0, start 1, end 1};  s[1] = {"Test Plan", 2, "run it", 2, 3}
#pragma once

#include <string_view>
#include <vector>

#include "runner/lang/model.hpp"

namespace review::lang {

/// Splits Markdown text into sections at ATX headings ("# x" .. "###### x", up to three leading
/// spaces, closing '#'s dropped) and setext headings (a text line underlined by "===" for level
/// 1 or "---" for level 2), following CommonMark 0.31 §4.2-4.3. Lines inside fenced code blocks
/// (``` or ~~~, §4.5) never start a section. Text before the first heading becomes a level-0
/// section with an empty heading, only when it has a non-blank line. HTML comments are kept.
/// Never throws.
std::vector<Section> markdown_sections(std::string_view text);

}  // namespace review::lang
