// Text helpers shared by the parser and the evaluator: string-literal decoding, the dedent of
// triple-quoted strings, `{name}` holes in regexes, templates read without a finding, and
// `# <- ID` example markers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace review::dsl {

/// Returns the value of a string token as written (quotes included): "..." with \" \\ \n \t
/// escapes decoded (any other `\c` keeps both characters), or """...""" dedented.
std::string decode_string_literal(std::string_view token);

/// Returns `text` dedented: a first line that is empty after the opening quotes is dropped, a last
/// line of only blanks is dropped, and the longest common leading run of spaces/tabs of the
/// non-blank lines is removed from every line. Lines are joined with "\n" (no trailing newline).
std::string dedent(std::string_view text);

/// Returns the body of a regex token `/.../` with `\/` turned into `/`.
std::string decode_regex_literal(std::string_view token);

/// A `{name}` or `{name.field.field}` hole in a regex pattern: byte offset of `{` in the pattern,
/// the variable name, the field chain after it (possibly empty) and the length of the whole hole
/// in bytes, braces included.
struct RegexHole {
  size_t offset = 0;
  std::string name;
  std::vector<std::string> path;
  size_t length = 0;
  /// Returns the hole as written without braces: "name" or "name.field.field".
  std::string text() const;
};
/// Returns every `{identifier}` or `{identifier.identifier...}` in `pattern` that is not preceded
/// by a backslash escape and not a `\p{..}`/`\P{..}` class (numeric `{3,4}` repetitions never
/// look like identifiers). Anything else in braces (`{a.}`, `{a-b}`) is left to RE2.
std::vector<RegexHole> regex_holes(std::string_view pattern);

/// Returns the position of the `}` that closes the template hole opened by the `{` at `open` in
/// `body`, or npos when it is unterminated. Braces inside the hole's own string literals do not
/// count. `escaped_quotes`: `body` is a "..." string as written, where the hole's quotes are
/// spelled `\"` (the parser); false for a decoded template or a triple-quoted one.
size_t template_hole_end(std::string_view body, size_t open, bool escaped_quotes);

/// Returns a `problem`/`impact`/`action` template as it reads without a finding, for a rule's
/// description (SARIF's fullDescription): each `{expr}` hole becomes `‹name›`, the last field
/// path the expression names, variable included, so that two facts' fields read apart
/// (`{f.path}` -> `‹f.path›`, `{a.line}` and `{k.line}` -> `‹a.line›` and `‹k.line›`,
/// `{trim(c.argtext)}` -> `‹c.argtext›`, `…` when it names none; holes written side by side,
/// the alternatives of an `or`'s captures, `{idx}{idx2}`, as one: `‹idx›`), and `{{`/`}}` become literal braces, as the template language reads
/// them (docs/rule-language.md, Templates). Quotes inside a hole are skipped when its closing
/// brace is looked for; an unterminated hole keeps its text as written. Never throws.
std::string template_outline(std::string_view raw);


}  // namespace review::dsl
