// Internal to runner/lang: the shared state of one model extraction (code blanking, comment
// collection, per-line context marks). Front ends (python.cpp, cpp.cpp) fill it while walking a
// tree; finish() turns it into SourceModel::lines.
#pragma once

#include <algorithm>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tree_sitter/api.h>

#include "runner/lang/model.hpp"
#include "runner/lang/tree.hpp"

namespace review::lang::detail {

/// Context passed down a tree walk. Copied per node, so it holds only small values.
struct Ctx {
  int function = -1;      ///< index of the innermost function, -1 at module level
  int cls = -1;           ///< innermost enclosing class (for lines)
  int direct_class = -1;  ///< class whose body directly contains this node (for methods)
  int loop = 0;           ///< loop bodies entered inside the current function
  int cond = 0;           ///< conditional constructs entered inside the current function
  bool comprehension = false;
  int prefix = 0;         ///< index into Builder::prefixes: qualified-name prefix ("Cls." / "ns::")
  int handler = -1;       ///< C++: index into model.handlers of the innermost catch body, -1 outside
};

/// Walks deeper than this are cut (hostile nesting); the file is marked has_errors.
constexpr int kMaxDepth = 800;

class Builder {
 public:
  Builder(SourceModel& m, std::string_view src);

  SourceModel& model;
  std::string_view source;
  std::string code;                     ///< copy of source, blanked in place
  std::deque<std::string> prefixes;     ///< prefixes[0] == ""
  /// The depth of the deepest node the walk counted (the root is at 0). A walk that counts every
  /// node it does not visit too (Python's) makes it the tree's depth as long as it is at most
  /// kMaxDepth, where the walk stops: a depth check need not walk the tree again.
  int deepest = 0;
  /// Counts a node at `depth`.
  void reached(int depth) { deepest = std::max(deepest, depth); }

  std::string_view text(TSNode n) const { return node_text(n, source); }
  std::string str(TSNode n) const { return std::string(text(n)); }
  /// Node text with every run of whitespace (newlines included) collapsed to one space.
  std::string flat(TSNode n) const;
  /// `s` as a view that lives as long as the model: into the source text when `s` is the text of
  /// node `n` as written, else a copy kept in model.function_names.
  std::string_view kept(TSNode n, std::string s);
  /// Blanks bytes [a, b) of `code` (newlines kept).
  void blank(uint32_t a, uint32_t b);
  /// Records comment node `n`: blanks it and appends its text to the comment of each line.
  void comment(TSNode n);
  /// Marks the lines spanned by `n` with `ctx` (deeper nodes overwrite, so call in pre-order).
  /// `skip_first`: leave the first line alone (a `{` on a loop header line).
  void mark(TSNode n, const Ctx& ctx, bool skip_first = false);
  /// The qualified name of ctx's function ("" outside any), a view into model.function_names
  /// (interned there on first use).
  std::string_view fn_name(const Ctx& ctx);
  /// The name of ctx's innermost class ("" outside any), a view into model.function_names
  /// (interned there on first use).
  std::string_view cls_name(const Ctx& ctx);
  int add_prefix(std::string p);
  /// Trimmed text of line `line` (1-based).
  std::string line_text(int line) const;
  /// code bytes [a, b).
  std::string code_range(uint32_t a, uint32_t b) const;

  /// Appends the statement `n` of kind `type` to model.statements. Its `text` is the header: from
  /// the start of `n` to the start of `body` with trailing whitespace cut (all of `n` when `body`
  /// is null). Returns the header's byte range [start, end).
  std::pair<uint32_t, uint32_t> add_statement(TSNode n, std::string_view type, const Ctx& ctx, TSNode body);

  /// Appends `f` to model.functions and returns the context of its body: a fresh function scope
  /// (no loop, condition or class around it) whose qualified-name prefix is f.qualified + `sep`
  /// ("." for Python, "::" for C++).
  Ctx add_function(Function f, const Ctx& ctx, std::string_view sep);
  /// Appends class `k`, spanning `n` (its start and end lines are set from `n`), to
  /// model.classes and returns the context of its body: `ctx` with this class around it and
  /// the qualified-name prefix k.qualified + `sep`.
  Ctx add_class(Class k, TSNode n, const Ctx& ctx, std::string_view sep);

  /// Fills model.lines from the marks, the blanked code and the comments.
  void finish();

 private:
  std::vector<int> fn_, cls_;
  std::vector<std::string_view> fn_names_;  ///< function index -> its name in model.function_names
  std::vector<std::string_view> cls_names_;  ///< class index -> its name in model.function_names
  /// `seen[i]`, or `name` interned into model.function_names (once per index) and remembered there.
  std::string_view pooled(std::vector<std::string_view>& seen, int i, const std::string& name);
  /// model.function_names, made on first use.
  std::deque<std::string>& pool();
  std::vector<char> loop_, cond_;
  std::vector<std::string> comments_;
};

using lang::for_each_child;

void extract_python(TSNode root, Builder& b);
void extract_cpp(TSNode root, Builder& b);
/// Fills model.includes and model.ifdefs from the blanked lines (call after Builder::finish).
void extract_cpp_preprocessor(SourceModel& m);

}  // namespace review::lang::detail
