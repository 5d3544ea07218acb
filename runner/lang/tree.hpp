// RAII ownership of tree-sitter parsers and trees (tree-sitter 0.20 C API, grammars pinned in
// scripts/grammars.lock: tree-sitter-python 0.23.6, tree-sitter-cpp 0.23.4).
//
//   review::lang::Tree t = review::lang::parse_tree(Language::Python, text);
//   TSNode root = t.root();                  // valid while `t` lives
//   review::lang::node_text(root, text);     // the node's bytes as a view into `text`
#pragma once

#include <memory>
#include <string>
#include <string_view>

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

/// Child by field name ("body", "condition"); a null node when absent.
TSNode field(TSNode node, const char* name);

/// 1-based line of the node's first / last byte.
inline int start_line(TSNode n) { return static_cast<int>(ts_node_start_point(n).row) + 1; }
inline int end_line(TSNode n) {
  TSPoint p = ts_node_end_point(n);
  // A node ending at column 0 ends on the previous line (it includes the newline).
  return static_cast<int>(p.row) + (p.column == 0 && p.row > ts_node_start_point(n).row ? 0 : 1);
}

/// Node type as a view ("function_definition").
inline std::string_view type_of(TSNode n) { return ts_node_type(n); }

}  // namespace review::lang
