// The per-file source model: plain structs extracted once from a file's text, read by every fact
// source. A model never holds a syntax tree, so it stays small and can be shared between threads.
//
//   auto m = review::lang::analyze_file("atom/config.py", text);
//   for (const auto& f : m->functions) ...;          // f.qualified == "Config.build"
//   m->lines[11].code;                               // line 12 with comments/strings blanked
//
// Lines are 1-based; columns are 1-based byte columns. `lines[i]` describes line i + 1.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runner/analysis/branches.hpp"
#include "runner/lang/python/unbound.hpp"

namespace review::lang {

enum class Language { Python, Cpp, CMake, Markdown, Text };

/// "python", "cpp", "cmake", "markdown", "text".
std::string_view language_name(Language lang);

/// Language of a repository path, by name only: python for `.py`; cpp for `.c .cc .cpp .cxx .h
/// .hh .hpp .cu .cuh .hip`; cmake for a basename `CMakeLists.txt` or a `.cmake` suffix; markdown
/// for `.md`; text otherwise. Suffixes are case-sensitive except `.md`/`.MD`.
Language language_of(std::string_view path);

struct Param {
  std::string name;           ///< without `*`/`**`; "" for bare `*` and `/` separators (skipped)
  std::string default_value;  ///< text of the default, "" when none
  std::string text;           ///< the whole parameter as written ("x: int = 3")
};

struct Function {
  std::string name;           ///< "forward", "operator()", "~Cls"
  std::string qualified;      ///< Python "Cls.method" / "outer.inner"; C++ "ns::Cls::f"
  std::string cls;            ///< innermost enclosing class, "" for free functions
  std::vector<Param> params;
  std::vector<std::string> decorators;  ///< Python decorator text without the '@'
  int start_line = 0;         ///< the `def` line (decorators excluded); C++: first line of the definition
  int end_line = 0;           ///< inclusive
  std::string signature;      ///< text of the start line, trimmed
  std::vector<std::string> calls;  ///< callee texts of calls directly inside (not in nested defs)
};

struct Class {
  std::string name;
  std::string qualified;
  std::vector<std::string> bases;  ///< base-class texts as written
  int start_line = 0, end_line = 0;
};

struct Call {
  std::string callee;         ///< the function expression as written ("torch.empty", "self.f")
  std::vector<std::string> args;                              ///< positional argument texts
  std::vector<std::pair<std::string, std::string>> kwargs;    ///< keyword name -> value text
  int line = 0, column = 0, end_line = 0;
  std::string function;       ///< qualified name of the enclosing function, "" at module level
  bool in_loop = false;       ///< inside a loop body or comprehension of the same function
  std::string text;           ///< the whole call expression
};

struct Assignment {
  std::string target;         ///< one target ("x", "self.w", "a[i]"); tuple unpacking yields one each
  std::string value;          ///< right-hand side text ("" for declarations without initialiser)
  std::string op;             ///< "=", "+=", ":" (annotation only), "decl" (C++ declaration)
  int line = 0;
  std::string function;
  std::string cls;
  std::string text;           ///< the whole statement
};

struct Statement {
  std::string kind;           ///< tree-sitter node type ("expression_statement", "if_statement")
  std::string text;           ///< simple statements: whole text; compound ones: the header lines
  std::string code;           ///< `text` with comments and string contents blanked
  int line = 0, end_line = 0; ///< end_line covers the whole statement, body included
  int header_end = 0;         ///< last line of `text`
  std::string function;
};

struct Import {
  std::string module;         ///< "os.path", ".utils"; C++: the #include path as written
  /// Imported names as written ("x", "x as y", "*"); `import m` has none, `import m as n` has
  /// the one entry "m as n".
  std::vector<std::string> names;
  int line = 0;
};

struct LineInfo {
  std::string code;           ///< text with comments and string contents blanked (column-preserving)
  std::string comment;        ///< comment text on the line (several joined by a space), "" if none
  int function = -1;          ///< index into functions of the innermost enclosing function, or -1
  int cls = -1;               ///< index into classes of the innermost enclosing class, or -1
  bool in_loop = false;       ///< inside a loop body of the same function
  bool in_condition = false;  ///< inside an if/elif/else, match/case or switch of the same function
};

/// One CMake command invocation (see cmake.hpp).
struct CMakeCommand {
  std::string name;           ///< lowercased
  std::vector<std::string> args;  ///< unquoted/bracket contents, as written otherwise
  int line = 0, end_line = 0;
  int depth = 0;              ///< number of enclosing if() blocks
};

/// One Markdown section: a heading and the text up to the next heading of any level.
struct Section {
  std::string heading;        ///< heading text without '#' marks
  int level = 0;              ///< 1..6; 0 for text before the first heading
  std::string text;           ///< body lines joined with '\n' (heading line excluded)
  int start = 0, end = 0;     ///< heading line .. last line before the next heading
};

struct SourceModel {
  std::string path;
  Language language = Language::Text;
  std::vector<std::string> text_lines;  ///< the raw lines, without line endings
  std::vector<LineInfo> lines;          ///< same size as text_lines
  bool has_errors = false;    ///< syntax errors in the tree, or a CMake parse error
  bool skipped = false;       ///< too large (or binary): only `note` is meaningful
  std::string note;           ///< why skipped, or the CMake error with its position

  std::vector<Function> functions;      ///< in start-line order
  std::vector<Class> classes;
  std::vector<Call> calls;
  std::vector<Assignment> assignments;
  std::vector<Statement> statements;
  std::vector<Import> imports;
  std::vector<CMakeCommand> cmake_commands;
  std::vector<Section> sections;

  /// The analyses of runner/analysis/ on this file's tree, computed on the first call of either
  /// accessor (thread-safe, at most once per model; the text is parsed again then, unless
  /// AnalyzeOptions::analyses ran them eagerly on the extraction's tree). Empty for other
  /// languages, skipped files and parser timeouts.
  /// Possibly-unbound reads (Python only), in analysis::find_unbound_reads order.
  const std::vector<analysis::UnboundRead>& unbound_reads() const;
  /// If/elif/else chains, `match` and `switch` (Python and C/C++), in source order.
  const std::vector<analysis::BranchChain>& branch_chains() const;
  /// Why an analysis of this file did not run ("" when every analysis ran): e.g. "unbound
  /// variables: the syntax tree nests deeper than 500 levels". Runs the analyses if needed.
  const std::string& analysis_note() const;

  /// Internal: the analyses' state (the kept text until they run, then their results).
  struct Lazy;
  std::shared_ptr<Lazy> lazy;

  /// Returns the qualified name of the function enclosing `line` (1-based), or "".
  const std::string& function_at(int line) const;
  /// Returns the name of the class enclosing `line`, or "".
  const std::string& class_at(int line) const;
};

/// Limits for analyze_file.
struct AnalyzeOptions {
  size_t max_bytes = 2 * 1024 * 1024;   ///< larger files are skipped (lines only stay empty)
  /// true: run runner/analysis on the extraction's tree now (no second parse later, but the
  /// cost is paid even when no rule reads the results); false: keep the text and run them on
  /// the first SourceModel::unbound_reads()/branch_chains() call.
  bool analyses = false;
};

/// Parses `text` as the language of `path` and extracts the model. Never throws on any input:
/// syntax errors set has_errors and the parts that parse still yield facts; a file over
/// `opts.max_bytes` or containing NUL bytes is returned with skipped = true and a note.
std::shared_ptr<const SourceModel> analyze_file(std::string_view path, std::string_view text,
                                                const AnalyzeOptions& opts = {});

/// Splits text into lines (LF or CRLF; a final line without newline counts; "" -> no lines).
std::vector<std::string> split_lines(std::string_view text);

}  // namespace review::lang
