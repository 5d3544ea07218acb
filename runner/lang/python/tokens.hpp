// Python tokens for the clone search (runner/analysis/clones.hpp): names, keywords, literals and
// operators of a run of source lines, with import statements and docstrings marked as filler.
//
//   auto toks = review::lang::python::clone_tokens("import os\nx = f(1)\n");
//   // "import", "os": filler; "x" Identifier, "=" Punct, "f" Identifier, "(" ...
#pragma once

#include <string_view>
#include <vector>

#include "runner/analysis/clones.hpp"

namespace review::lang::python {

/// Splits `text` (any run of lines of a Python file; it may start or end inside a statement or a
/// string) into tokens, following Python's lexical rules (docs.python.org/3/reference/
/// lexical_analysis.html): names (non-ASCII bytes count as name characters), keywords, numbers,
/// strings with prefixes and triple quotes (one token each, at the line where they start),
/// operators longest-first (`**=`, `//`, `->`, `:=`, ...); comments and line joins dropped.
/// `None`, `True`, `False` and `...` are Literals; `self` and `cls` are Keywords (compared by
/// text). A logical line (up to a newline outside brackets, or `;`) that starts with `import` or
/// `from`, or holds only string literals (a docstring), is filler. An unterminated string runs
/// to the end of the text (triple-quoted) or of its line. Offsets are into `text`; none when it
/// is over analysis::kMaxCloneText bytes. Never throws.
std::vector<analysis::CloneToken> clone_tokens(std::string_view text);

}  // namespace review::lang::python
