// The fact-source table. Field names here are the contract with rulesets: rename nothing.
#include "runner/facts/schema.hpp"

namespace review::facts {

namespace {

using dsl::FieldSchema;
using dsl::SourceSchema;
using T = dsl::Type;

constexpr const char* kNested = "(nested) ";

FieldSchema F(const char* name, T type, const char* doc, const char* fact_source = "") {
  return FieldSchema{name, type, doc, fact_source};
}

// Fields shared by every line-level record.
std::vector<FieldSchema> line_fields() {
  return {
      F("file", T::String, "repository-relative path ('/'-separated)"),
      F("line", T::Int, "1-based line (head line; base line for base-scope and removed lines)"),
      F("text", T::String, "the line as written, without its line ending"),
      F("code", T::String, "the line with comments and string contents blanked by spaces (columns kept)"),
      F("comment", T::String, "comment text on the line, comment markers included; \"\" when none"),
      F("kind", T::String, "added, removed or context"),
      F("head_line", T::Int, "head line at this line's place: the line itself at head; for a removed line the first head line after the deleted block; base lines mapped through the hunks"),
      F("added", T::Bool, "the line is an added line of the change"),
      F("function", T::String, "qualified name of the innermost enclosing function, \"\" outside any"),
      F("class", T::String, "name of the innermost enclosing class, \"\" outside any"),
      F("in_loop", T::Bool, "inside a loop body of the same function"),
      F("in_condition", T::Bool, "inside an if/elif/else, match/case or switch of the same function"),
  };
}

std::vector<SourceSchema> build() {
  std::vector<SourceSchema> s;
  s.push_back({"pr", "the pull request (one fact; written without a scope)", false,
               {
                   F("number", T::Int, "pull-request number, 0 for a local run"),
                   F("title", T::String, "title"),
                   F("body", T::String, "description as written"),
                   F("text", T::String, "title + blank line + body, with HTML comments removed"),
                   F("labels", T::List, "label names (list of strings)"),
                   F("base", T::String, "base branch name"),
                   F("head", T::String, "head branch name"),
                   F("author", T::String, "author login"),
                   F("commits", T::Int, "number of commits"),
               }});
  s.push_back({"files", "one fact per file of the scope", true,
               {
                   F("file", T::String, "repository-relative path (same as path)"),
                   F("path", T::String, "repository-relative path at head (base path for deleted files)"),
                   F("status", T::String, "added, modified, deleted, renamed, copied, or unchanged (repo scope)"),
                   F("old_path", T::String, "base path (differs from path for renames and copies)"),
                   F("language", T::String, "python, cpp, cmake, markdown or text"),
                   F("tier", T::Int, "tier of the first matching ruleset tier glob, 0 when none"),
                   F("blast", T::String, "blast radius text of that tier entry, \"\" when none"),
                   F("fails", T::String, "failure modes text of that tier entry, \"\" when none"),
                   F("is_test", T::Bool, "matches the ruleset's test globs or the built-in test-path rule"),
                   F("is_tooling", T::Bool, "under scripts/, tools/, bench*/, examples/, docs/, .github/ or recipes/"),
                   F("added_count", T::Int, "number of added lines"),
                   F("removed_count", T::Int, "number of removed lines"),
                   F("has_errors", T::Bool, "the parser found syntax errors (changed files only; false otherwise)"),
                   F("binary", T::Bool, "binary file"),
                   F("skipped", T::Bool, "not analysed (size limit, binary, vendored); see the run notes"),
               }});
  s.push_back({"lines", "every line of the scope's files (changed: head lines, kind added or context)", true,
               line_fields()});
  s.push_back({"added_lines", "the added lines of the scope's changed files", true, line_fields()});
  s.push_back({"removed_lines",
               "the removed lines of the scope's changed files (base line numbers, base-side function)", true,
               line_fields()});
  s.push_back({"functions", "one fact per Python def or C/C++ function definition", true,
               {
                   F("file", T::String, "path"),
                   F("line", T::Int, "the def / definition line (same as start)"),
                   F("end_line", T::Int, "last line (same as end)"),
                   F("name", T::String, "function name (\"forward\", \"operator()\")"),
                   F("qualified", T::String, "Python Cls.method / outer.inner; C++ ns::Cls::f"),
                   F("class", T::String, "class whose body defines it (C++ out-of-line: the qualifier), \"\" for free functions"),
                   F("params", T::List, "parameter names in order (list of strings, self included)"),
                   F("defaults", T::List, "\"name=default\" for each parameter with a default (list of strings)"),
                   F("decorators", T::List, "decorator texts without '@' (list of strings)"),
                   F("start", T::Int, "first line (decorators excluded)"),
                   F("end", T::Int, "last line"),
                   F("changed", T::Bool, "an added line lies inside, or a removed line lay inside its base version"),
                   F("added", T::Bool, "the def line itself is added"),
                   F("calls", T::List, "callee texts of the calls directly inside (list of strings)"),
                   F("text", T::String, "the def line, trimmed"),
               }});
  s.push_back({"calls", "one fact per call expression", true,
               {
                   F("file", T::String, "path"),
                   F("line", T::Int, "line of the call's first character"),
                   F("column", T::Int, "1-based byte column"),
                   F("callee", T::String, "the called expression as written, whitespace collapsed (\"torch.empty\")"),
                   F("args", T::List, "positional argument texts (list of strings; *a and **kw included as written)"),
                   F("kwargs", T::List, "keyword arguments as \"name=value\" (list of strings)"),
                   F("kwarg_names", T::List, "keyword argument names (list of strings)"),
                   F("function", T::String, "qualified name of the enclosing function, \"\" at module level"),
                   F("in_loop", T::Bool, "inside a loop body or comprehension of the same function"),
                   F("added", T::Bool, "the call's first line is added"),
                   F("text", T::String, "the whole call expression"),
               }});
  s.push_back({"assignments", "one fact per assignment target (tuple unpacking gives one per name)", true,
               {
                   F("file", T::String, "path"),
                   F("line", T::Int, "line of the assignment"),
                   F("target", T::String, "one target as written (\"x\", \"self.w\", \"a[i]\")"),
                   F("value", T::String, "right-hand side text, \"\" for a bare annotation"),
                   F("op", T::String, "\"=\", an augmented operator (\"+=\"), \":\" (annotation only), \":=\", or \"decl\" (C++ initialised declaration)"),
                   F("function", T::String, "qualified name of the enclosing function"),
                   F("class", T::String, "innermost enclosing class"),
                   F("added", T::Bool, "the assignment's line is added"),
                   F("text", T::String, "the whole assignment"),
               }});
  s.push_back({"statements", "one fact per statement (module, block and C++ compound-statement level)", true,
               {
                   F("file", T::String, "path"),
                   F("line", T::Int, "first line"),
                   F("end_line", T::Int, "last line, body included"),
                   F("kind", T::String, "tree-sitter node type (\"expression_statement\", \"if_statement\", \"delete_statement\")"),
                   F("text", T::String, "simple statements: the whole text; compound ones: the header up to the body"),
                   F("code", T::String, "text with comments and string contents blanked"),
                   F("function", T::String, "qualified name of the enclosing function"),
                   F("added", T::Bool, "the statement's first line is added"),
               }});
  s.push_back({"branches", "one fact per if/elif/else chain, match, switch or conditional-expression chain", true,
               {
                   F("file", T::String, "path"),
                   F("line", T::Int, "line of the first arm"),
                   F("end_line", T::Int, "last line of the chain"),
                   F("kind", T::String, "if, match, switch or ternary"),
                   F("arms", T::Int, "number of arms, the else arm included"),
                   F("has_else", T::Bool, "has a final else / case _ / default"),
                   F("else_raises", T::Bool, "the else arm raises, asserts, warns or returns None"),
                   F("else_kind", T::String, "what the else arm does: raise, assert, warn, return_none, or \"\""),
                   F("subject", T::String, "the expression every arm compares (whitespace removed), \"\" when none"),
                   F("function", T::String, "qualified name of the enclosing function"),
                   F("added", T::Bool, "some arm's first line is added"),
                   F("conditions", T::List, "each arm's condition text in order, \"\" for else (list of strings)"),
               }});
  s.push_back({"dispatch_cases", "one fact per (arm, compared value) of a chain that compares one subject", true,
               {
                   F("file", T::String, "path"),
                   F("line", T::Int, "line of the arm"),
                   F("subject", T::String, "the compared expression (\"dtype\", \"self.arch\")"),
                   F("value", T::String, "the compared value: string literals re-quoted with \", others without whitespace"),
                   F("op", T::String, "how: ==, !=, in, not in, is, is not, isinstance, startswith, endswith, case, is_same"),
                   F("dispatch", T::Fact, "the whole chain", "branches"),
                   F("function", T::String, "qualified name of the enclosing function"),
                   F("added", T::Bool, "the arm's line is added"),
               }});
  s.push_back({"unbound_reads", "one fact per read of a local that some path leaves unbound (Python)", true,
               {
                   F("file", T::String, "path"),
                   F("line", T::Int, "line of the read"),
                   F("column", T::Int, "column of the read"),
                   F("name", T::String, "the variable"),
                   F("read", T::Fact, "where it is read (file, line, column, added, text)", "location"),
                   F("branch", T::Fact, "the construct whose arms bind it (line, kind)", "construct"),
                   F("bound_in", T::String, "which arms bind it (\"the if and elif arms\")"),
                   F("unbound_path", T::String, "one path that leaves it unbound (\"else\")"),
                   F("cause", T::String, "branch, loop, try, match or del"),
                   F("function", T::String, "enclosing function, \"\" at module level"),
                   F("scope_kind", T::String, "function, module or class"),
                   F("guarded", T::Bool, "the tests around the read rule out every path that leaves it unbound (correlated conditions)"),
                   F("guard", T::String, "that test as written (\"`not mla`\"), \"\" when not guarded"),
                   F("added", T::Bool, "the read's line is added (same as read.added)"),
               }});
  s.push_back({"clones", "one fact per pair of similar added blocks (>= 5 lines) in two different files", true,
               {
                   F("file", T::String, "path of the first block"),
                   F("line", T::Int, "first line of the first block"),
                   F("a", T::Fact, "first block (file, line, end_line, text)", "location"),
                   F("b", T::Fact, "second block (file, line, end_line, text)", "location"),
                   F("similarity", T::Int, "token similarity after renaming identifiers, percent"),
                   F("lines", T::Int, "number of lines of the first block"),
               }});
  s.push_back({"siblings", "one fact per (changed function, unchanged name-variant in the same file)", true,
               {
                   F("file", T::String, "path"),
                   F("line", T::Int, "def line of the changed function"),
                   F("function", T::Fact, "the changed function", "functions"),
                   F("sibling", T::Fact, "the unchanged variant", "functions"),
                   F("suffix", T::String, "the suffix that tells them apart (\"_opt\", \"_v2\")"),
               }});
  s.push_back({"symbols", "definitions, imports, assignments and references by name (usually over repo)", true,
               {
                   F("file", T::String, "path"),
                   F("line", T::Int, "line"),
                   F("name", T::String, "the bare name (\"forward\", \"np\")"),
                   F("kind", T::String, "def, class, import, assign (module or class level) or reference (call, base class, decorator)"),
                   F("qualified", T::String, "qualified name for def/class, module for import, callee for reference"),
                   F("text", T::String, "the line, trimmed"),
               }});
  s.push_back({"cmake_commands", "one fact per CMake command invocation (may span lines)", true,
               {
                   F("file", T::String, "path"),
                   F("line", T::Int, "first line"),
                   F("end_line", T::Int, "last line"),
                   F("name", T::String, "command name, lowercased"),
                   F("args", T::List, "arguments (bracket/quoted contents; \"(\" and \")\" for nested parentheses)"),
                   F("argtext", T::String, "arguments joined by single spaces"),
                   F("depth", T::Int, "number of enclosing if() blocks"),
                   F("added", T::Bool, "some line of the invocation is added"),
               }});
  s.push_back({"sections", "one fact per Markdown section of .md files; changed scope adds the PR body's", true,
               {
                   F("file", T::String, "path, \"\" for the PR body"),
                   F("line", T::Int, "heading line (same as start)"),
                   F("heading", T::String, "heading text without '#' marks, \"\" before the first heading"),
                   F("level", T::Int, "1..6, 0 for text before the first heading"),
                   F("text", T::String, "body text up to the next heading (PR body: HTML comments removed)"),
                   F("start", T::Int, "heading line"),
                   F("end", T::Int, "last line of the section"),
                   F("pr_body", T::Bool, "the section comes from the pull-request body"),
                   F("added", T::Bool, "some line of the section is added"),
               }});
  s.push_back({"location", std::string(kNested) + "a place in a file: read of unbound_reads, a/b of clones", false,
               {
                   F("file", T::String, "path"),
                   F("line", T::Int, "first line"),
                   F("end_line", T::Int, "last line (0 = same as line)"),
                   F("column", T::Int, "column, 0 when unknown"),
                   F("added", T::Bool, "the first line is added"),
                   F("text", T::String, "the text there"),
               }});
  s.push_back({"construct", std::string(kNested) + "the construct an unbound read depends on", false,
               {
                   F("file", T::String, "path"),
                   F("line", T::Int, "its first line"),
                   F("kind", T::String, "if, match, for, while, try, with or del"),
               }});
  return s;
}

}  // namespace

const std::vector<dsl::SourceSchema>& fact_schema() {
  static const std::vector<dsl::SourceSchema> kSchema = build();
  return kSchema;
}

bool is_nested_only(const dsl::SourceSchema& s) { return s.doc.rfind(kNested, 0) == 0; }

}  // namespace review::facts
