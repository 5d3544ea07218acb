// Text -> AST for one .rules file: grammar (dsl/grammar.hpp) + actions + control
// (dsl/grammar_errors.hpp), joined here and nowhere else.
//
//   ParseResult r = parse_ruleset(text, "atom.rules");
//   for (auto& d : r.diagnostics) std::cerr << format_diagnostic(d);
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/diagnostic.hpp"

namespace review::dsl {

/// Maximum nesting of expressions (parentheses, lists, `not`, count/exists); deeper input is a
/// syntax error rather than a stack overflow.
inline constexpr int kMaxExprNesting = 64;
/// Syntax errors reported per file before the parser gives up.
inline constexpr int kMaxSyntaxErrors = 20;

struct ParseResult {
  ast::File file;                       ///< every declaration parsed without error
  std::vector<Diagnostic> diagnostics;  ///< syntax errors (Level::Error), in source order
};

/// Returns the AST of `text`, named `file_name` in diagnostics. Never throws on bad input:
/// invalid UTF-8 is one error at the first bad byte (and nothing is parsed); a syntax error is
/// reported at the position where the parser stopped with a message from the table in
/// dsl/grammar_errors.hpp, and parsing resumes at the next line that starts with a declaration
/// keyword in column 1, so one run reports several errors (at most kMaxSyntaxErrors).
/// Holes of problem/impact/action templates are parsed here too.
ParseResult parse_ruleset(std::string_view text, const std::string& file_name);

/// Returns the AST of a lone expression (tests and tools), or null with a diagnostic.
ast::ExprPtr parse_expression(std::string_view text, const std::string& file_name,
                              std::vector<Diagnostic>& diagnostics);

/// True when `word` is a keyword of the rule language that cannot name a variable (grammar.hpp's
/// `reserved`: `and`, `for`, `if`, `where` …), so a capture or binder of that name could never be read.
bool is_reserved_word(std::string_view word);

/// Returns line `line` (1-based) of `text` without its newline, or "" past the end.
std::string source_line_at(std::string_view text, int line);

}  // namespace review::dsl
