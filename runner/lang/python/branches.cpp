// Dispatch chains of Python files: if/elif/else, match/case and conditional expressions.
#include "runner/lang/python/branches.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

#include "runner/lang/tree.hpp"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace review::analysis {
namespace {

using lang::field;
using lang::is;
using lang::named_children;
using lang::node_text;
using Cmp = ArmCompare;
// Deeper syntax trees than this are not walked (hostile input must not exhaust the stack).
constexpr int kMaxWalkDepth = 400;

int line_of(TSNode n) { return lang::start_line(n); }
int end_line_of(TSNode n) { return lang::end_row_line(n); }
std::string squash(std::string_view t) { return squash_space(t); }
std::string collapse(std::string_view t) { return collapse_space(t); }
std::string lower(std::string_view t) { return lower_ascii(t); }
void finish(BranchChain& c, const std::vector<std::vector<Cmp>>& per_arm) { finish_chain(c, per_arm); }

// Python string literal -> "content" (prefix letters and quote style dropped).
std::string requote(std::string_view t) {
  size_t i = 0;
  while (i < t.size() && std::isalpha(static_cast<unsigned char>(t[i]))) ++i;
  std::string_view body = t.substr(i);
  size_t q = 0;
  if (body.size() >= 6 && (body.substr(0, 3) == "\"\"\"" || body.substr(0, 3) == "'''")) q = 3;
  else if (body.size() >= 2 && (body[0] == '"' || body[0] == '\'')) q = 1;
  if (q == 0 || body.size() < 2 * q) return std::string(t);
  return "\"" + std::string(body.substr(q, body.size() - 2 * q)) + "\"";
}

// ---------------- Python ----------------
bool py_literal(TSNode n) {
  return is(n, "string") || is(n, "integer") || is(n, "float") || is(n, "none") || is(n, "true") ||
         is(n, "false") || is(n, "concatenated_string") ||
         (is(n, "unary_operator") && (is(ts_node_named_child(n, 0), "integer") || is(ts_node_named_child(n, 0), "float")));
}
// `Enum.MEMBER`, `torch.float8`, `ALL_CAPS`: looks like a constant, not a subject.
bool py_constantish(TSNode n, std::string_view src) {
  if (py_literal(n)) return true;
  std::string_view t = node_text(n, src);
  if (is(n, "identifier")) {
    bool upper = t.size() > 1;
    for (char c : t)
      if (std::islower(static_cast<unsigned char>(c))) upper = false;
    return upper;
  }
  if (is(n, "attribute")) {
    std::string_view last = node_text(field(n, "attribute"), src);
    bool upper = !last.empty();
    for (char c : last)
      if (std::islower(static_cast<unsigned char>(c))) upper = false;
    std::string_view obj = node_text(field(n, "object"), src);
    return upper || obj == "torch" || obj == "tl" || obj == "np" || obj == "dtypes";
  }
  return false;
}
std::string py_value(TSNode n, std::string_view src) {
  if (is(n, "string")) return requote(node_text(n, src));
  return squash(node_text(n, src));
}

void py_compares(TSNode n, std::string_view src, std::vector<Cmp>& out) {
  if (ts_node_is_null(n)) return;
  if (is(n, "parenthesized_expression") || is(n, "boolean_operator")) {
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) py_compares(ts_node_named_child(n, i), src, out);
    return;
  }
  if (is(n, "not_operator")) {
    py_compares(field(n, "argument"), src, out);
    return;
  }
  if (is(n, "comparison_operator") && ts_node_named_child_count(n) == 2) {
    TSNode l = ts_node_named_child(n, 0), r = ts_node_named_child(n, 1);
    // operator tokens between the operands
    std::string op;
    for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
      TSNode c = ts_node_child(n, i);
      if (ts_node_is_named(c)) continue;
      if (!op.empty()) op += ' ';
      op += std::string(node_text(c, src));
    }
    if (op == "in" || op == "not in") {
      if (is(r, "tuple") || is(r, "list") || is(r, "set")) {
        for (uint32_t i = 0; i < ts_node_named_child_count(r); ++i) {
          TSNode v = ts_node_named_child(r, i);
          if (is(v, "comment")) continue;
          out.push_back({squash(node_text(l, src)), py_value(v, src), op});
        }
      }
      return;
    }
    if (op == "==" || op == "!=" || op == "is" || op == "is not") {
      bool lc = py_constantish(l, src), rc = py_constantish(r, src);
      if (lc && !rc) std::swap(l, r);
      out.push_back({squash(node_text(l, src)), py_value(r, src), op});
    }
    return;
  }
  if (is(n, "call")) {
    TSNode fn = field(n, "function");
    TSNode args = field(n, "arguments");
    std::string_view f = node_text(fn, src);
    if (f == "isinstance" && ts_node_named_child_count(args) == 2) {
      TSNode subj = ts_node_named_child(args, 0), t = ts_node_named_child(args, 1);
      if (is(t, "tuple")) {
        for (uint32_t i = 0; i < ts_node_named_child_count(t); ++i)
          out.push_back({squash(node_text(subj, src)), squash(node_text(ts_node_named_child(t, i), src)), "isinstance"});
      } else {
        out.push_back({squash(node_text(subj, src)), squash(node_text(t, src)), "isinstance"});
      }
      return;
    }
    if (is(fn, "attribute")) {
      std::string_view m = node_text(field(fn, "attribute"), src);
      if ((m == "startswith" || m == "endswith") && ts_node_named_child_count(args) >= 1) {
        TSNode a = ts_node_named_child(args, 0);
        std::string subj = squash(node_text(field(fn, "object"), src));
        if (is(a, "tuple")) {
          for (uint32_t i = 0; i < ts_node_named_child_count(a); ++i)
            out.push_back({subj, py_value(ts_node_named_child(a, i), src), std::string(m)});
        } else {
          out.push_back({subj, py_value(a, src), std::string(m)});
        }
      }
    }
  }
}

std::string py_else_kind(TSNode body, std::string_view src) {
  for (uint32_t i = 0; i < ts_node_named_child_count(body); ++i) {
    TSNode s = ts_node_named_child(body, i);
    if (is(s, "raise_statement")) return "raise";
    if (is(s, "assert_statement")) return "assert";
    if (is(s, "return_statement")) {
      TSNode v = ts_node_named_child(s, 0);
      if (ts_node_is_null(v) || is(v, "none")) return "return_none";
      return "";
    }
    if (is(s, "expression_statement") && is(ts_node_named_child(s, 0), "call")) {
      std::string f = lower(node_text(field(ts_node_named_child(s, 0), "function"), src));
      for (const char* w : {"warn", "log", "error", "abort", "fatal"})
        if (f.find(w) != std::string::npos) return "warn";
    }
  }
  return "";
}

bool py_irrefutable(TSNode cc) {
  int patterns = 0;
  TSNode only{};
  for (uint32_t i = 0; i < ts_node_named_child_count(cc); ++i) {
    TSNode c = ts_node_named_child(cc, i);
    if (is(c, "if_clause")) return false;
    if (is(c, "case_pattern")) ++patterns, only = c;
  }
  if (patterns != 1) return false;
  if (ts_node_named_child_count(only) == 0) return true;
  TSNode c = ts_node_named_child(only, 0);
  return ts_node_named_child_count(only) == 1 && is(c, "dotted_name") && ts_node_named_child_count(c) == 1;
}

void py_pattern_values(TSNode p, const std::string& subj, std::string_view src, std::vector<Cmp>& out) {
  if (ts_node_is_null(p)) return;
  if (is(p, "case_pattern") || is(p, "union_pattern")) {
    for (uint32_t i = 0; i < ts_node_named_child_count(p); ++i) py_pattern_values(ts_node_named_child(p, i), subj, src, out);
    return;
  }
  if (is(p, "class_pattern")) {
    out.push_back({subj, squash(node_text(ts_node_named_child(p, 0), src)), "isinstance"});
    return;
  }
  if (is(p, "dotted_name") && ts_node_named_child_count(p) == 1) return;  // capture
  if (is(p, "as_pattern")) {
    py_pattern_values(ts_node_named_child(p, 0), subj, src, out);
    return;
  }
  if (is(p, "string") || is(p, "integer") || is(p, "float") || is(p, "true") || is(p, "false") || is(p, "none") ||
      is(p, "dotted_name") || is(p, "concatenated_string"))
    out.push_back({subj, py_value(p, src), "case"});
}

enum class PyKind : uint8_t { Other, Def, If, Match, Ternary };

// The walker's node kinds by symbol id, looked up by name once per grammar: every symbol with a
// given name gets the kind (aliases included), so a test matches what comparing ts_node_type()
// with the name would.
PyKind py_kind(TSNode n) {
  struct Table {
    const TSLanguage* lang = nullptr;
    std::vector<PyKind> kinds;
  };
  static const Table table = [] {
    Table t;
    t.lang = tree_sitter_python();
    uint32_t count = ts_language_symbol_count(t.lang);
    t.kinds.assign(count, PyKind::Other);
    for (uint32_t s = 0; s < count; ++s) {
      const char* name = ts_language_symbol_name(t.lang, static_cast<TSSymbol>(s));
      if (!name) continue;
      if (!std::strcmp(name, "function_definition") || !std::strcmp(name, "class_definition")) t.kinds[s] = PyKind::Def;
      else if (!std::strcmp(name, "if_statement")) t.kinds[s] = PyKind::If;
      else if (!std::strcmp(name, "match_statement")) t.kinds[s] = PyKind::Match;
      else if (!std::strcmp(name, "conditional_expression")) t.kinds[s] = PyKind::Ternary;
    }
    return t;
  }();
  if (ts_node_is_null(n)) return PyKind::Other;
  if (ts_tree_language(n.tree) != table.lang) {  // another grammar: compare names
    const char* t = ts_node_type(n);
    if (!std::strcmp(t, "function_definition") || !std::strcmp(t, "class_definition")) return PyKind::Def;
    if (!std::strcmp(t, "if_statement")) return PyKind::If;
    if (!std::strcmp(t, "match_statement")) return PyKind::Match;
    if (!std::strcmp(t, "conditional_expression")) return PyKind::Ternary;
    return PyKind::Other;
  }
  TSSymbol s = ts_node_symbol(n);
  return s < table.kinds.size() ? table.kinds[s] : PyKind::Other;
}

struct PyWalker {
  std::string_view src;
  std::vector<BranchChain>& out;
  std::vector<std::string> names;  // enclosing class/function names
  int depth = 0;

  std::string fn() const {
    std::string s;
    for (auto& n : names) s += (s.empty() ? "" : ".") + n;
    return s;
  }

  BranchChain start(TSNode n, const char* kind) const {
    BranchChain c;
    c.kind = kind;
    c.line = line_of(n);
    c.end_line = end_line_of(n);
    c.function = fn();
    return c;
  }

  void walk(TSNode root) {
    TSTreeCursor c = ts_tree_cursor_new(root);
    walk(&c, false);
    ts_tree_cursor_delete(&c);
  }

  // One cursor for the whole walk and symbol-id dispatch: no per-node allocation or strcmp.
  void walk(TSTreeCursor* cur, bool ternary_continuation) {
    TSNode n = ts_tree_cursor_current_node(cur);
    PyKind k = py_kind(n);
    bool pushed = false;
    if (k == PyKind::Def) {
      names.emplace_back(node_text(field(n, "name"), src));
      pushed = true;
    } else if (k == PyKind::If) {
      if_chain(n);
    } else if (k == PyKind::Match) {
      match_chain(n);
    } else if (k == PyKind::Ternary && !ternary_continuation) {
      ternary_chain(n);
    }
    // A chain starts at an `if`, a `match` or a conditional expression, each of which holds the
    // word `if` or `match`: a node whose text holds neither has none inside and is not walked.
    const std::string_view text = node_text(n, src);
    if (k != PyKind::Other || lang::may_hold_keyword(text, "if") || lang::may_hold_keyword(text, "match")) {
      if (++depth <= kMaxWalkDepth && ts_tree_cursor_goto_first_child(cur)) {
        uint32_t i = 0;
        do {
          TSNode ch = ts_tree_cursor_current_node(cur);
          if (!ts_node_is_named(ch)) continue;
          walk(cur, k == PyKind::Ternary && i == 2 && py_kind(ch) == PyKind::Ternary);
          ++i;
        } while (ts_tree_cursor_goto_next_sibling(cur));
        ts_tree_cursor_goto_parent(cur);
      }
      --depth;
    }
    if (pushed) names.pop_back();
  }

  void if_chain(TSNode n) {
    BranchChain c = start(n, "if");
    std::vector<std::vector<Cmp>> per;
    auto arm = [&](TSNode cond, int line) {
      std::vector<Cmp> cmps;
      py_compares(cond, src, cmps);
      add_arm(c, per, collapse(node_text(cond, src)), line, std::move(cmps));
    };
    arm(field(n, "condition"), line_of(n));
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode a = ts_node_named_child(n, i);
      if (is(a, "elif_clause")) arm(field(a, "condition"), line_of(a));
      else if (is(a, "else_clause")) {
        c.has_else = true;
        c.else_kind = py_else_kind(field(a, "body"), src);
      }
    }
    finish(c, per);
    out.push_back(std::move(c));
  }

  void match_chain(TSNode n) {
    BranchChain c = start(n, "match");
    std::string subj;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode s = ts_node_named_child(n, i);
      if (is(s, "block")) break;
      if (!subj.empty()) subj += ",";
      subj += squash(node_text(s, src));
    }
    std::vector<std::vector<Cmp>> per;
    TSNode body = field(n, "body");
    for (uint32_t i = 0; i < ts_node_named_child_count(body); ++i) {
      TSNode cc = ts_node_named_child(body, i);
      if (!is(cc, "case_clause")) continue;
      if (py_irrefutable(cc)) {
        c.has_else = true;
        c.else_kind = py_else_kind(field(cc, "consequence"), src);
        break;
      }
      std::vector<Cmp> cmps;
      std::string pat;
      for (uint32_t j = 0; j < ts_node_named_child_count(cc); ++j) {
        TSNode p = ts_node_named_child(cc, j);
        if (!is(p, "case_pattern")) continue;
        if (!pat.empty()) pat += ", ";
        pat += collapse(node_text(p, src));
        py_pattern_values(p, subj, src, cmps);
      }
      add_arm(c, per, pat, line_of(cc), std::move(cmps));
    }
    finish(c, per);
    c.subject = subj;
    out.push_back(std::move(c));
  }

  void ternary_chain(TSNode n) {
    BranchChain c = start(n, "ternary");
    std::vector<std::vector<Cmp>> per;
    TSNode cur = n;
    while (is(cur, "conditional_expression")) {
      TSNode cond = ts_node_named_child(cur, 1);
      std::vector<Cmp> cmps;
      py_compares(cond, src, cmps);
      add_arm(c, per, collapse(node_text(cond, src)), line_of(cond), std::move(cmps));
      cur = ts_node_named_child(cur, 2);
    }
    c.has_else = true;
    if (is(cur, "none")) c.else_kind = "return_none";
    finish(c, per);
    out.push_back(std::move(c));
  }
};

}  // namespace

std::vector<BranchChain> find_python_branches(TSNode root, std::string_view source) {
  std::vector<BranchChain> out;
  if (ts_node_is_null(root)) return out;
  PyWalker w{source, out, {}};
  w.walk(root);
  std::stable_sort(out.begin(), out.end(), [](const BranchChain& a, const BranchChain& b) { return a.line < b.line; });
  return out;
}

}  // namespace review::analysis
