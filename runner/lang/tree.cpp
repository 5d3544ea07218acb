#include "runner/lang/tree.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <vector>

extern "C" const TSLanguage* tree_sitter_python(void);
extern "C" const TSLanguage* tree_sitter_cpp(void);

namespace review::lang {

namespace {

constexpr uint64_t kParseTimeoutMicros = 20'000'000;

struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
using ParserPtr = std::unique_ptr<TSParser, ParserDeleter>;

TSParser* thread_parser(Language lang) {
  thread_local ParserPtr python, cpp;
  ParserPtr& slot = lang == Language::Python ? python : cpp;
  if (!slot) {
    slot.reset(ts_parser_new());
    ts_parser_set_language(slot.get(), ts_language(lang));
    ts_parser_set_timeout_micros(slot.get(), kParseTimeoutMicros);
  }
  return slot.get();
}

// tree-sitter 0.20.7 stores a node's child count in 16 bits: a node with 65,536 or more
// children (an ERROR node over ~65,536 unclosed brackets) keeps the count modulo 65,536, sees
// only the tail of its children, and ts_tree_delete then frees a pointer into the middle of
// their array (the count is 32 bits from tree-sitter 0.20.8 on). Sizes are summed over the
// children it sees, so such a tree ends at least 65,536 bytes (one per lost token) before the
// text does; a sound tree ends where the text's trailing whitespace begins.
bool has_wrapped_child_count(TSTree* tree, std::string_view source) {
  TSNode root = ts_tree_root_node(tree);
  if (!ts_node_has_error(root)) return false;
  const size_t end = ts_node_end_byte(root);
  if (end >= source.size() || source.size() - end < 65536) return false;
  for (size_t i = end; i < source.size(); ++i) {
    const unsigned char ch = static_cast<unsigned char>(source[i]);
    if (ch < 0x80 && !std::isspace(ch) && ch != '\\') return true;
  }
  return false;
}

// Trees that must never be freed (see has_wrapped_child_count); kept reachable on purpose.
std::mutex quarantine_mutex;
std::vector<TSTree*>& quarantine() {
  static auto* trees = new std::vector<TSTree*>;
  return *trees;
}

}  // namespace

TSNode Tree::root() const {
  if (!tree_) return TSNode{};
  return ts_tree_root_node(tree_.get());
}

bool Tree::has_error() const { return tree_ && ts_node_has_error(root()); }

const TSLanguage* ts_language(Language lang) {
  switch (lang) {
    case Language::Python: return tree_sitter_python();
    case Language::Cpp: return tree_sitter_cpp();
    default: return nullptr;
  }
}

Tree parse_tree(Language lang, std::string_view source) {
  if (!ts_language(lang)) return Tree{};
  TSParser* p = thread_parser(lang);
  TSTree* t = ts_parser_parse_string(p, nullptr, source.data(), static_cast<uint32_t>(source.size()));
  if (!t) {
    ts_parser_reset(p);
    return Tree{};
  }
  if (has_wrapped_child_count(t, source)) {
    std::lock_guard<std::mutex> lock(quarantine_mutex);
    quarantine().push_back(t);
    return Tree{};
  }
  return Tree(t);
}

std::string_view node_text(TSNode node, std::string_view source) {
  if (ts_node_is_null(node)) return {};
  uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
  if (a > b || b > source.size()) return {};
  return source.substr(a, b - a);
}

bool may_hold_keyword(std::string_view text, std::string_view word) {
  auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const size_t end = at + word.size();
    if ((at == 0 || !letter(text[at - 1])) && (end == text.size() || !word_char(text[end]))) return true;
  }
  return false;
}

TSNode field(TSNode node, const char* name) {
  if (ts_node_is_null(node)) return node;
  // The name's field id, cached per thread by (language, name): tree-sitter finds it by comparing
  // the name with each of the grammar's field names (about 1% of an audit's CPU, asked for the
  // same few literal names millions of times). A hit compares the name once, so a caller's
  // buffer reused for another name gets its own id.
  struct Entry {
    const TSLanguage* lang = nullptr;
    const char* name = nullptr;
    char text[24] = {};
    TSFieldId id = 0;
  };
  thread_local Entry cache[256];
  const TSLanguage* lang = ts_tree_language(node.tree);
  const size_t len = std::strlen(name);
  Entry& e = cache[((reinterpret_cast<uintptr_t>(name) >> 3) ^ (reinterpret_cast<uintptr_t>(lang) >> 4)) & 255];
  if (e.lang != lang || e.name != name || std::strcmp(e.text, name) != 0) {
    const TSFieldId id = ts_language_field_id_for_name(lang, name, static_cast<uint32_t>(len));
    if (len >= sizeof e.text) return id ? ts_node_child_by_field_id(node, id) : TSNode{};
    e.lang = lang;
    e.name = name;
    std::memcpy(e.text, name, len + 1);
    e.id = id;
  }
  if (e.id == 0) return TSNode{};  // no such field in this grammar: a null node, as by name
  return ts_node_child_by_field_id(node, e.id);
}

int depth_below(TSNode root, int limit) {
  if (ts_node_is_null(root)) return 0;
  TSTreeCursor c = ts_tree_cursor_new(root);
  int depth = 0, deepest = 0;
  for (;;) {
    if (ts_tree_cursor_goto_first_child(&c)) {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) break;
      continue;
    }
    while (depth > 0 && !ts_tree_cursor_goto_next_sibling(&c)) {
      ts_tree_cursor_goto_parent(&c);
      --depth;
    }
    if (depth == 0) break;
  }
  ts_tree_cursor_delete(&c);
  return deepest;
}

bool deeper_than(TSNode root, int limit) { return depth_below(root, limit) > limit; }

}  // namespace review::lang
