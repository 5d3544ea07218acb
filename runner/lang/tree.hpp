// RAII ownership of tree-sitter parsers and trees (tree-sitter 0.20 C API, grammars pinned in
// scripts/grammars.lock: tree-sitter-python 0.23.6, tree-sitter-cpp 0.23.4).
//
//   review::lang::Tree t = review::lang::parse_tree(Language::Python, text);
//   TSNode root = t.root();                  // valid while `t` lives
//   review::lang::node_text(root, text);     // the node's bytes as a view into `text`
#pragma once

#include <climits>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "runner/lang/model.hpp"

namespace review::lang {

/// Owns one TSTree. Movable, not copyable. An empty Tree (no language, or parse failure) has a
/// null root (ts_node_is_null(root()) is true).
class Tree {
 public:
  Tree() = default;
  explicit Tree(TSTree* t) : tree_(t) {}
  TSNode root() const;
  bool empty() const { return !tree_; }
  /// True when the tree contains ERROR or MISSING nodes.
  bool has_error() const;
  TSTree* get() const { return tree_.get(); }

 private:
  struct Deleter {
    void operator()(TSTree* t) const { ts_tree_delete(t); }
  };
  std::unique_ptr<TSTree, Deleter> tree_;
};

/// The tree-sitter language for Python or Cpp; nullptr for the others.
const TSLanguage* ts_language(Language lang);

/// Parses `source` (UTF-8) with a thread-local parser for `lang`. Returns an empty Tree for
/// languages without a tree-sitter grammar, or when parsing is cancelled by the 20 s timeout,
/// or when the tree has a node of 65,536+ children (e.g. ~65,536 unclosed brackets), which
/// tree-sitter 0.20.7 cannot free safely: that tree is set aside, never freed.
/// The tree refers to byte offsets of `source`; keep `source` alive while reading node text.
Tree parse_tree(Language lang, std::string_view source);

/// The bytes of `node` inside `source` (empty for a null node or out-of-range offsets).
std::string_view node_text(TSNode node, std::string_view source);

/// Whether `text` may hold the keyword `word` (a walk's prefilter: a node whose text cannot hold
/// it has no node of that keyword inside): an occurrence with no letter or `_` before it (a digit
/// may end a number written against it, as in Python's `1if x else 2`) and no letter, digit or
/// `_` after it. Comments and strings are not told apart: they can only make it true.
bool may_hold_keyword(std::string_view text, std::string_view word);

/// Child by field name ("body", "condition"); a null node when absent.
TSNode field(TSNode node, const char* name);

/// 1-based line of the node's first / last byte.
inline int start_line(TSNode n) { return static_cast<int>(ts_node_start_point(n).row) + 1; }
inline int end_line(TSNode n) {
  TSPoint p = ts_node_end_point(n);
  // A node ending at column 0 ends on the previous line (it includes the newline).
  return static_cast<int>(p.row) + (p.column == 0 && p.row > ts_node_start_point(n).row ? 0 : 1);
}

/// 1-based line of the node's end point (row + 1, also when it ends at column 0).
inline int end_row_line(TSNode n) { return static_cast<int>(ts_node_end_point(n).row) + 1; }

/// Node type as a view ("function_definition").
inline std::string_view type_of(TSNode n) { return ts_node_type(n); }

/// True when `n` is not null and its type is `type`.
inline bool is(TSNode n, const char* type) { return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), type) == 0; }

/// Calls f(child, field_name_or_nullptr) for every child of `n` (named and anonymous), in order,
/// with one cursor (linear, unlike repeated ts_node_child calls). A null `n` has no children.
template <typename F>
void for_each_child(TSNode n, F&& f) {
  if (ts_node_is_null(n)) return;
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      f(ts_tree_cursor_current_node(&c), ts_tree_cursor_current_field_name(&c));
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
}

namespace detail {
/// Cursors reused per recursion depth of each_named (creating a cursor allocates).
struct CursorPool {
  std::deque<TSTreeCursor> cursors;
  size_t depth = 0;
  ~CursorPool() {
    for (auto& c : cursors) ts_tree_cursor_delete(&c);
  }
};
inline thread_local CursorPool cursor_pool;
}  // namespace detail

/// Calls f(child) for every named child of `n`, in order. Linear (ts_node_named_child(n, i)
/// walks from the first child each time, which is quadratic over long blocks); the cursors are
/// pooled per nesting level of the calls, so `f` may call each_named again.
template <class F>
void each_named(TSNode n, F&& f) {
  if (ts_node_is_null(n) || ts_node_child_count(n) == 0) return;
  detail::CursorPool& pool = detail::cursor_pool;
  if (pool.depth == pool.cursors.size()) pool.cursors.push_back(ts_tree_cursor_new(n));
  else ts_tree_cursor_reset(&pool.cursors[pool.depth], n);
  TSTreeCursor* c = &pool.cursors[pool.depth];
  ++pool.depth;
  if (ts_tree_cursor_goto_first_child(c)) {
    do {
      TSNode k = ts_tree_cursor_current_node(c);
      if (ts_node_is_named(k)) f(k);
    } while (ts_tree_cursor_goto_next_sibling(c));
  }
  --pool.depth;
}

/// The named children of `n` (none for a null node), read in one cursor pass.
inline std::vector<TSNode> named_children(TSNode n) {
  std::vector<TSNode> out;
  each_named(n, [&](TSNode k) { out.push_back(k); });
  return out;
}

/// How many levels below `root` its deepest node is (0 for a leaf or a null node), every node
/// counted, named or not; an iterative walk that stops as soon as it is past `limit` (then
/// limit + 1). Never throws.
int depth_below(TSNode root, int limit = INT_MAX - 1);

/// Whether the tree has a node more than `limit` levels below `root` (depth_below, for guarding
/// recursive walks against hostile nesting).
bool deeper_than(TSNode root, int limit);

}  // namespace review::lang
