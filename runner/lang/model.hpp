// The per-file source model: plain structs extracted once from a file's text, read by every fact
// source. A model never holds a syntax tree, so it stays small and can be shared between threads.
//
//   auto m = review::lang::analyze_file("atom/config.py", text);
//   for (const auto& f : m->functions) ...;          // f.qualified == "Config.build"
//   m->code(11);                                     // line 12 with comments/strings blanked (a view)
//
// Lines are 1-based; columns are 1-based byte columns. `lines[i]` describes line i + 1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
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

/// The extension of `path` (lower case, without the dot) when it names a binary file format,
/// else "": images (png jpg jpeg gif bmp ico webp tif tiff), archives and compressed files (zip
/// gz tgz bz2 xz zst 7z tar rar whl jar), compiled objects and libraries (o a so dylib dll exe lib
/// obj pyc class), GPU code objects (co hsaco cubin fatbin), serialized tensors and models (npy
/// npz pt pth ckpt safetensors onnx h5 pkl parquet), fonts (ttf otf woff woff2), media (mp3 mp4
/// wav) and pdf. Such files are skipped as binary without reading them: a repository of
/// compiled kernels (aiter holds 118 MB of `.co` files) is otherwise read whole, through git,
/// by every repository-wide read of text files. GitHub Linguist takes the same shortcut (a file
/// whose extension's MIME type is binary is binary, `BlobHelper#binary_mime_type?`). Only the
/// last extension counts ("x.tar.gz" -> "gz"; "co" alone, without a dot, is no extension).
std::string_view binary_format(std::string_view path);

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
  std::vector<std::string_view> calls;  ///< callees (Call::callee) of calls directly inside (not in nested defs)
};

struct Class {
  std::string name;
  std::string qualified;
  std::vector<std::string> bases;  ///< base-class texts as written
  int start_line = 0, end_line = 0;
};

struct Call {
  /// the function expression as written, whitespace collapsed ("torch.empty", "self.f"): a view
  /// into the model's LineStore text, or into function_names when collapsing changed it
  std::string_view callee;
  /// Positional argument texts and keyword name -> value texts, as written (into the model's
  /// LineStore text, like `text`: no copy per argument)
  std::vector<std::string_view> args;
  std::vector<std::pair<std::string_view, std::string_view>> kwargs;
  int line = 0, column = 0, end_line = 0;
  /// qualified name of the enclosing function, "" at module level (into the model's
  /// function_names: one copy per function, not per call)
  std::string_view function;
  bool in_loop = false;       ///< inside a loop body or comprehension of the same function
  std::string_view text;      ///< the whole call expression (into the model's LineStore text)
};

struct Assignment {
  std::string target;         ///< one target ("x", "self.w", "a[i]"); tuple unpacking yields one each
  /// right-hand side text ("" for declarations without initialiser), into the model's LineStore text
  std::string_view value;
  /// "=", "+=", ":" (annotation only), "decl" (C++ declaration): a literal or into the store's text
  std::string_view op;
  int line = 0;
  std::string_view function;  ///< as Call::function
  std::string_view cls;       ///< innermost enclosing class, "" outside any (into function_names)
  std::string_view text;      ///< the whole statement (into the model's LineStore text)
};

struct Statement {
  /// tree-sitter node type ("expression_statement", "if_statement"): the grammar's own static
  /// name, not a copy
  std::string_view kind;
  /// simple statements: whole text; compound ones: the header lines (into the model's LineStore text)
  std::string_view text;
  int column = 0;             ///< 0-based byte column of `text` on `line` (statement_code reads it)
  int line = 0, end_line = 0; ///< end_line covers the whole statement, body included
  int header_end = 0;         ///< last line of `text`
  std::string_view function;  ///< as Call::function
};

struct Import {
  std::string module;         ///< "os.path", ".utils"; C++: the #include path as written
  /// Imported names as written ("x", "x as y", "*"); `import m` has none, `import m as n` has
  /// the one entry "m as n".
  std::vector<std::string> names;
  int line = 0;
};

/// What the extraction knows of one line. Its blanked code and its comment are read through
/// SourceModel::code(i) and comment(i), from the LineStore (12 bytes a line: an audit of
/// ROCm/aiter holds about 1.5 million lines).
struct LineInfo {
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

/// One C++ catch clause (runner/lang/cpp/extract.cpp).
struct CppHandler {
  std::string type;           ///< the caught declaration as written ("const std::exception& e"), "..." for a catch-all
  std::string name;           ///< the variable that holds the exception, "" when unnamed
  bool catches_all = false;   ///< `catch (...)`
  /// The body passes the exception on: a bare `throw;`, `throw NAME;`, or a call of
  /// std::rethrow_exception / std::rethrow_if_nested / std::throw_with_nested.
  bool rethrows = false;
  bool throws = false;        ///< the body throws something other than the caught exception
  bool returns = false;       ///< the body has a return statement
  bool uses_cause = false;    ///< the body names the caught variable or calls std::current_exception
  int line = 0, end_line = 0;           ///< the `catch` line .. the body's closing brace
  int body_start = 0, body_end = 0;     ///< lines of the body's braces
  std::string body;           ///< code between the braces, comments and string contents blanked, whitespace collapsed
  std::string function;       ///< qualified name of the enclosing function, "" at namespace level
};

/// One C++ `throw` statement.
struct CppThrow {
  std::string expr;           ///< the operand as written, "" for a bare `throw;`
  std::string type;           ///< the constructed type of `T(...)` / `T{...}` / `T` operands ("std::runtime_error"), else ""
  int handler = -1;           ///< index into SourceModel::handlers of the innermost enclosing catch body, or -1
  int line = 0, end_line = 0;
  std::string function;
};

/// One `#include` directive (runner/lang/cpp/preproc.cpp).
struct Include {
  std::string path;           ///< as written between the delimiters; a macro include keeps its text
  bool system = false;        ///< `<...>` rather than `"..."`
  int line = 0;
  std::string guard;          ///< the enclosing preprocessor conditions (PreprocBranch::expr joined by " && "), "" when none
};

/// One branch of a preprocessor conditional: `#if`, `#ifdef`, `#ifndef`, `#elif`, `#elifdef`,
/// `#elifndef` or `#else`, up to the next branch directive or the `#endif`.
struct PreprocBranch {
  std::string directive;      ///< "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else"
  std::string condition;      ///< as written after the directive (the macro name for ifdef), "" for else
  /// The condition under which the branch is compiled: `#ifdef X` -> "defined(X)", `#ifndef X` ->
  /// "!defined(X)", `#else` -> "!(c1 || c2)" over the earlier branches, `#elif c` -> "!(c1) && (c)".
  std::string expr;
  std::string guard;          ///< the enclosing branches' exprs joined by " && " (include guards left out)
  int line = 0;               ///< the directive line (its first, when continued with `\`)
  int end_line = 0;           ///< last line of the branch (the line before the next directive of the chain)
  int endif_line = 0;         ///< line of the chain's `#endif`, 0 when the file ends first
  int depth = 0;              ///< enclosing conditionals (include guards count)
  bool include_guard = false; ///< `#ifndef X` + `#define X` wrapping the whole file
  std::string body;           ///< the branch's lines (directive excluded), comments and string contents blanked, '\n'-joined; "" for include guards
};

/// The lines of a text, without their line endings (LF or CRLF; a final line without a newline
/// counts; "" has no lines), as views into it, kept as the offset where each line starts: 4
/// bytes a line instead of a 16-byte std::string_view (an audit holds every line of every file:
/// about 1.5 million on ROCm/aiter). The text must not move or change while the views are used
/// (a model's LineStore). Copies view the same text.
class LineViews {
 public:
  LineViews() = default;
  /// The lines of `text`, split as split_line_views does. Throws std::length_error for a text of
  /// 4 GiB or more (offsets are 32 bits; analyze_file skips such files first), std::bad_alloc.
  explicit LineViews(std::string_view text);
  size_t size() const { return starts_.size(); }
  bool empty() const { return starts_.empty(); }
  /// Line i + 1 (i < size(); unchecked, like a vector's).
  std::string_view operator[](size_t i) const {
    size_t from = starts_[i];
    size_t to = i + 1 < starts_.size() ? starts_[i + 1] - 1 : last_end_;  // at its '\n', or the text's end
    if (to > from && text_[to - 1] == '\r') --to;
    return {text_ + from, to - from};
  }
  /// Iterates the lines in order, as std::string_view values.
  class const_iterator {
   public:
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    const_iterator(const LineViews* v, size_t i) : v_(v), i_(i) {}
    std::string_view operator*() const { return (*v_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }

   private:
    const LineViews* v_;
    size_t i_;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, starts_.size()}; }
  /// Bytes held (for the memory figures of bench/facts_bench).
  size_t bytes() const { return starts_.capacity() * sizeof(uint32_t); }

 private:
  const char* text_ = nullptr;
  std::vector<uint32_t> starts_;  ///< offset of each line's first byte in the text
  uint32_t last_end_ = 0;         ///< end of the last line: the text's size, less its final '\n'
};

/// The texts a model's lines point into, once per file side: the raw lines, their blanked code
/// and their comments were a string each per line before (with malloc's header on each, about
/// 2.5 times the text on ROCm/aiter's Python; one buffer per kind is about 1 time).
struct LineStore {
  std::string text;      ///< the file's text as read, line endings included
  /// The blanked code of the lines whose code differs from their text (a comment or a string on
  /// them), one after the other; "" when every line's code is its text. A full blanked copy of
  /// the text before: on ROCm/aiter's Python and C++, about a fifth of the lines differ.
  std::string code;
  /// Per line: where its code starts in `code`, or kSameAsText; empty when `code` is.
  std::vector<uint32_t> code_at;
  static constexpr uint32_t kSameAsText = 0xFFFFFFFFu;
  std::string comments;  ///< every line's comment, one after the other
  /// The lines (0-based, ascending) that have a comment, and where each one's comment starts in
  /// `comments` (one more entry: the end of the last). Most lines have none: an offset and a
  /// length on every line's LineInfo were 8 of its 20 bytes, over every line of an audit.
  std::vector<uint32_t> comment_lines;
  std::vector<uint32_t> comment_starts;
};

struct SourceModel {
  std::string path;
  Language language = Language::Text;
  /// the raw lines, without line endings (views into `store`, valid while the model or a copy of
  /// it lives)
  LineViews text_lines;
  std::vector<LineInfo> lines;          ///< same size as text_lines once extracted

  /// Line i + 1 with comments and string contents blanked by spaces (columns kept), a view into
  /// `store`; the raw line when the model has no line information (not extracted, or skipped)
  /// or its code is the text itself; "" when i is past the last line. Never throws.
  std::string_view code(size_t i) const;
  /// The comment text on line i + 1 (several joined by a space), a view into `store`; "" when
  /// none or when i has no line information. Never throws.
  std::string_view comment(size_t i) const;
  /// What text_lines and lines point into; set by analyze_file (set_text, set_code). Shared by
  /// copies of the model.
  std::shared_ptr<LineStore> store;
  /// The qualified names that Call, Assignment and Statement::function view, one per function
  /// that encloses any, and the callees whose whitespace collapsing changed their text (a
  /// deque: an element never moves). Written by the extraction only; a reader that keeps those
  /// views without the model keeps this pool (call_targets' copies).
  /// On ROCm/aiter's Python, some 420,000 entries had each held a copy of the name.
  std::shared_ptr<std::deque<std::string>> function_names;
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
  std::vector<CppHandler> handlers;     ///< C/C++ catch clauses, in source order
  std::vector<CppThrow> throws;         ///< C/C++ throw statements, in source order
  std::vector<Include> includes;        ///< C/C++ #include directives, in line order
  std::vector<PreprocBranch> ifdefs;    ///< C/C++ preprocessor conditional branches, in line order

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

  /// Whether the analyses have run on this model, eagerly at the parse or on demand (false for
  /// models with none to run). Never runs them. For tests and metrics.
  bool analyses_ran() const;

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

/// `s.text` with comments and string contents blanked (column-preserving, as LineInfo::code):
/// cut from the blanked lines of `m` that `s.text` spans, so models do not keep a second copy of
/// every statement's text. A line `m` has no LineInfo for keeps its text as is.
std::string statement_code(const SourceModel& m, const Statement& s);

/// Splits text into lines (LF or CRLF; a final line without newline counts; "" -> no lines).
std::vector<std::string> split_lines(std::string_view text);
/// split_lines as views into `text` (valid while it is).
std::vector<std::string_view> split_line_views(std::string_view text);

/// Sets `m.text_lines` to the lines of `text` (split as split_lines does), held in a new
/// `m.store`; `m.lines` is cleared. Throws std::bad_alloc only.
void set_text(SourceModel& m, std::string_view text);

/// Sets `m.lines` (one per text line; function/cls -1, flags false) with their code and comments:
/// `code` is the text blanked (line i's code is the text line's length taken where the i-th
/// '\n' of `code` leaves off, or the text line itself past the end of `code`); "" = the code is
/// the text. `comments` holds one entry per line (fewer: the rest have none). After set_text.
void set_code(SourceModel& m, std::string code, const std::vector<std::string>& comments);

}  // namespace review::lang
