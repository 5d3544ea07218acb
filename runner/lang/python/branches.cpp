#include "runner/analysis/branches.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

extern "C" const TSLanguage* tree_sitter_python(void);

namespace review::analysis {
namespace {

std::string_view text_of(TSNode n, std::string_view src) {
  if (ts_node_is_null(n)) return {};
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (b > src.size() || e > src.size() || e < b) return {};
  return src.substr(b, e - b);
}
bool is(TSNode n, const char* type) { return !ts_node_is_null(n) && std::strcmp(ts_node_type(n), type) == 0; }
// Null-safe: tree-sitter 0.20.7 crashes when asked for a field of a null node.
TSNode field(TSNode n, const char* name) {
  if (ts_node_is_null(n)) return n;
  return ts_node_child_by_field_name(n, name, static_cast<uint32_t>(std::strlen(name)));
}
// The named children of `n`, read with one cursor pass (ts_node_named_child(n, i) is linear in i,
// so indexing in a loop is quadratic on wide nodes).
std::vector<TSNode> named_children(TSNode n) {
  std::vector<TSNode> out;
  if (ts_node_is_null(n)) return out;
  TSTreeCursor cur = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&cur)) {
    do {
      TSNode c = ts_tree_cursor_current_node(&cur);
      if (ts_node_is_named(c)) out.push_back(c);
    } while (ts_tree_cursor_goto_next_sibling(&cur));
  }
  ts_tree_cursor_delete(&cur);
  return out;
}
// Deeper syntax trees than this are not walked (hostile input must not exhaust the stack).
constexpr int kMaxWalkDepth = 400;

int line_of(TSNode n) { return static_cast<int>(ts_node_start_point(n).row) + 1; }
int end_line_of(TSNode n) { return static_cast<int>(ts_node_end_point(n).row) + 1; }

std::string squash(std::string_view t) {
  std::string out;
  for (char c : t)
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '\\') out += c;
  return out;
}
std::string collapse(std::string_view t) {
  std::string out;
  bool sp = false;
  for (char c : t) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '\\') {
      sp = !out.empty();
      continue;
    }
    if (sp) out += ' ';
    sp = false;
    out += c;
  }
  return out;
}
std::string lower(std::string_view t) {
  std::string o(t);
  for (auto& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

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

struct Cmp {
  std::string subject, value, op;
};

// ---------------- Python ----------------
bool py_literal(TSNode n) {
  return is(n, "string") || is(n, "integer") || is(n, "float") || is(n, "none") || is(n, "true") ||
         is(n, "false") || is(n, "concatenated_string") ||
         (is(n, "unary_operator") && (is(ts_node_named_child(n, 0), "integer") || is(ts_node_named_child(n, 0), "float")));
}
// `Enum.MEMBER`, `torch.float8`, `ALL_CAPS`: looks like a constant, not a subject.
bool py_constantish(TSNode n, std::string_view src) {
  if (py_literal(n)) return true;
  std::string_view t = text_of(n, src);
  if (is(n, "identifier")) {
    bool upper = t.size() > 1;
    for (char c : t)
      if (std::islower(static_cast<unsigned char>(c))) upper = false;
    return upper;
  }
  if (is(n, "attribute")) {
    std::string_view last = text_of(field(n, "attribute"), src);
    bool upper = !last.empty();
    for (char c : last)
      if (std::islower(static_cast<unsigned char>(c))) upper = false;
    std::string_view obj = text_of(field(n, "object"), src);
    return upper || obj == "torch" || obj == "tl" || obj == "np" || obj == "dtypes";
  }
  return false;
}
std::string py_value(TSNode n, std::string_view src) {
  if (is(n, "string")) return requote(text_of(n, src));
  return squash(text_of(n, src));
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
      op += std::string(text_of(c, src));
    }
    if (op == "in" || op == "not in") {
      if (is(r, "tuple") || is(r, "list") || is(r, "set")) {
        for (uint32_t i = 0; i < ts_node_named_child_count(r); ++i) {
          TSNode v = ts_node_named_child(r, i);
          if (is(v, "comment")) continue;
          out.push_back({squash(text_of(l, src)), py_value(v, src), op});
        }
      }
      return;
    }
    if (op == "==" || op == "!=" || op == "is" || op == "is not") {
      bool lc = py_constantish(l, src), rc = py_constantish(r, src);
      if (lc && !rc) std::swap(l, r);
      out.push_back({squash(text_of(l, src)), py_value(r, src), op});
    }
    return;
  }
  if (is(n, "call")) {
    TSNode fn = field(n, "function");
    TSNode args = field(n, "arguments");
    std::string_view f = text_of(fn, src);
    if (f == "isinstance" && ts_node_named_child_count(args) == 2) {
      TSNode subj = ts_node_named_child(args, 0), t = ts_node_named_child(args, 1);
      if (is(t, "tuple")) {
        for (uint32_t i = 0; i < ts_node_named_child_count(t); ++i)
          out.push_back({squash(text_of(subj, src)), squash(text_of(ts_node_named_child(t, i), src)), "isinstance"});
      } else {
        out.push_back({squash(text_of(subj, src)), squash(text_of(t, src)), "isinstance"});
      }
      return;
    }
    if (is(fn, "attribute")) {
      std::string_view m = text_of(field(fn, "attribute"), src);
      if ((m == "startswith" || m == "endswith") && ts_node_named_child_count(args) >= 1) {
        TSNode a = ts_node_named_child(args, 0);
        std::string subj = squash(text_of(field(fn, "object"), src));
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
      std::string f = lower(text_of(field(ts_node_named_child(s, 0), "function"), src));
      for (const char* w : {"warn", "log", "error", "abort", "fatal"})
        if (f.find(w) != std::string::npos) return "warn";
    }
  }
  return "";
}

void finish(BranchChain& c, const std::vector<std::vector<Cmp>>& per_arm) {
  // subject common to every arm
  if (!per_arm.empty()) {
    std::vector<std::string> cands;
    for (auto& x : per_arm[0])
      if (std::find(cands.begin(), cands.end(), x.subject) == cands.end()) cands.push_back(x.subject);
    for (auto& cand : cands) {
      bool all = true;
      for (auto& arm : per_arm)
        if (std::none_of(arm.begin(), arm.end(), [&](const Cmp& x) { return x.subject == cand; })) all = false;
      if (all) {
        c.subject = cand;
        break;
      }
    }
  }
  c.else_raises = !c.else_kind.empty();
}

void add_arm(BranchChain& c, std::vector<std::vector<Cmp>>& per_arm, std::string condition, int line,
             std::vector<Cmp> cmps) {
  BranchArm a;
  a.condition = std::move(condition);
  a.line = line;
  for (auto& x : cmps) {
    a.compares.emplace_back(x.subject, x.value);
    a.ops.push_back(x.op);
  }
  c.arms.push_back(std::move(a));
  per_arm.push_back(std::move(cmps));
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
    out.push_back({subj, squash(text_of(ts_node_named_child(p, 0), src)), "isinstance"});
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
      names.emplace_back(text_of(field(n, "name"), src));
      pushed = true;
    } else if (k == PyKind::If) {
      if_chain(n);
    } else if (k == PyKind::Match) {
      match_chain(n);
    } else if (k == PyKind::Ternary && !ternary_continuation) {
      ternary_chain(n);
    }
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
    if (pushed) names.pop_back();
  }

  void if_chain(TSNode n) {
    BranchChain c = start(n, "if");
    std::vector<std::vector<Cmp>> per;
    auto arm = [&](TSNode cond, int line) {
      std::vector<Cmp> cmps;
      py_compares(cond, src, cmps);
      add_arm(c, per, collapse(text_of(cond, src)), line, std::move(cmps));
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
      subj += squash(text_of(s, src));
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
        pat += collapse(text_of(p, src));
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
      add_arm(c, per, collapse(text_of(cond, src)), line_of(cond), std::move(cmps));
      cur = ts_node_named_child(cur, 2);
    }
    c.has_else = true;
    if (is(cur, "none")) c.else_kind = "return_none";
    finish(c, per);
    out.push_back(std::move(c));
  }
};

// ---------------- C / C++ ----------------
bool cpp_constantish(TSNode n, std::string_view src) {
  if (is(n, "number_literal") || is(n, "string_literal") || is(n, "char_literal") || is(n, "true") ||
      is(n, "false") || is(n, "null") || is(n, "nullptr") || is(n, "raw_string_literal"))
    return true;
  std::string_view t = text_of(n, src);
  if (is(n, "qualified_identifier")) return true;  // Enum::kValue
  if (is(n, "identifier")) {
    if (t.size() > 1 && t[0] == 'k' && std::isupper(static_cast<unsigned char>(t[1]))) return true;
    bool upper = t.size() > 1;
    for (char c : t)
      if (std::islower(static_cast<unsigned char>(c))) upper = false;
    return upper;
  }
  return false;
}

void cpp_compares(TSNode n, std::string_view src, std::vector<Cmp>& out) {
  if (ts_node_is_null(n)) return;
  if (is(n, "condition_clause")) {
    cpp_compares(field(n, "value"), src, out);
    return;
  }
  if (is(n, "parenthesized_expression")) {
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) cpp_compares(ts_node_named_child(n, i), src, out);
    return;
  }
  if (is(n, "unary_expression")) {
    cpp_compares(field(n, "argument"), src, out);
    return;
  }
  if (is(n, "binary_expression")) {
    std::string_view op = text_of(field(n, "operator"), src);
    TSNode l = field(n, "left"), r = field(n, "right");
    if (op == "&&" || op == "||") {
      cpp_compares(l, src, out);
      cpp_compares(r, src, out);
    } else if (op == "==" || op == "!=") {
      if (cpp_constantish(l, src) && !cpp_constantish(r, src)) std::swap(l, r);
      out.push_back({squash(text_of(l, src)), squash(text_of(r, src)), std::string(op)});
    }
    return;
  }
  // std::is_same_v<A, B> / std::is_same<A, B>::value
  std::string_view t = text_of(n, src);
  size_t p = t.find("is_same");
  if (p != std::string_view::npos) {
    size_t lt = t.find('<', p);
    if (lt == std::string_view::npos) return;
    int depth = 0;
    size_t comma = std::string_view::npos, gt = std::string_view::npos;
    for (size_t i = lt; i < t.size(); ++i) {
      if (t[i] == '<' || t[i] == '(') ++depth;
      else if (t[i] == '>' || t[i] == ')') {
        if (--depth == 0) {
          gt = i;
          break;
        }
      } else if (t[i] == ',' && depth == 1 && comma == std::string_view::npos) comma = i;
    }
    if (comma != std::string_view::npos && gt != std::string_view::npos)
      out.push_back({squash(t.substr(lt + 1, comma - lt - 1)), squash(t.substr(comma + 1, gt - comma - 1)), "is_same"});
  }
}

std::string cpp_else_kind(TSNode s, std::string_view src) {
  if (ts_node_is_null(s)) return "";
  if (is(s, "compound_statement")) {
    for (uint32_t i = 0; i < ts_node_named_child_count(s); ++i) {
      std::string k = cpp_else_kind(ts_node_named_child(s, i), src);
      if (!k.empty()) return k;
    }
    return "";
  }
  if (is(s, "throw_statement") || (is(s, "expression_statement") && is(ts_node_named_child(s, 0), "throw_expression")))
    return "raise";
  if (is(s, "static_assert_declaration")) return "assert";
  if (is(s, "return_statement")) {
    TSNode v = ts_node_named_child(s, 0);
    if (ts_node_is_null(v) || is(v, "nullptr") || is(v, "null")) return "return_none";
    return "";
  }
  if (is(s, "expression_statement") && is(ts_node_named_child(s, 0), "call_expression")) {
    std::string f = lower(text_of(field(ts_node_named_child(s, 0), "function"), src));
    if (f.find("assert") != std::string::npos || f.find("check") != std::string::npos) return "assert";
    for (const char* w : {"warn", "log", "error", "abort", "fatal", "printf"})
      if (f.find(w) != std::string::npos) return "warn";
  }
  return "";
}

struct CppWalker {
  std::string_view src;
  std::vector<BranchChain>& out;
  std::set<uint32_t> chained;  // start bytes of `if` nodes that continue an else-if chain
  std::vector<std::string> fns;
  int depth = 0;

  void walk(TSNode n) {
    if (ts_node_is_null(n)) return;
    bool pushed = false;
    if (is(n, "function_definition")) {
      TSNode d = field(n, "declarator");
      while (!ts_node_is_null(d) && !is(d, "function_declarator")) d = field(d, "declarator");
      fns.push_back(squash(text_of(field(d, "declarator"), src)));
      pushed = true;
    } else if (is(n, "if_statement") && !chained.count(ts_node_start_byte(n))) {
      if_chain(n);
    } else if (is(n, "switch_statement")) {
      switch_chain(n);
    } else if (is(n, "conditional_expression") && !chained.count(ts_node_start_byte(n))) {
      ternary_chain(n);
    }
    if (++depth <= kMaxWalkDepth)
      for (TSNode c : named_children(n)) walk(c);
    --depth;
    if (pushed) fns.pop_back();
  }

  BranchChain start(TSNode n, const char* kind) {
    BranchChain c;
    c.kind = kind;
    c.line = line_of(n);
    c.end_line = end_line_of(n);
    c.function = fns.empty() ? "" : fns.back();
    return c;
  }

  void if_chain(TSNode n) {
    BranchChain c = start(n, "if");
    std::vector<std::vector<Cmp>> per;
    TSNode cur = n;
    while (is(cur, "if_statement")) {
      TSNode cond = field(cur, "condition");
      std::vector<Cmp> cmps;
      cpp_compares(cond, src, cmps);
      std::string ct = collapse(text_of(is(cond, "condition_clause") ? field(cond, "value") : cond, src));
      add_arm(c, per, ct, line_of(cur), std::move(cmps));
      TSNode els = field(cur, "alternative");
      if (ts_node_is_null(els)) break;
      TSNode body = ts_node_named_child(els, ts_node_named_child_count(els) - 1);
      if (is(body, "if_statement")) {
        chained.insert(ts_node_start_byte(body));
        cur = body;
        continue;
      }
      c.has_else = true;
      c.else_kind = cpp_else_kind(body, src);
      break;
    }
    finish(c, per);
    out.push_back(std::move(c));
  }

  void switch_chain(TSNode n) {
    BranchChain c = start(n, "switch");
    TSNode cond = field(n, "condition");
    std::string subj = squash(text_of(is(cond, "condition_clause") ? field(cond, "value") : cond, src));
    if (subj.size() >= 2 && subj.front() == '(' && subj.back() == ')') subj = subj.substr(1, subj.size() - 2);
    std::vector<std::vector<Cmp>> per;
    TSNode body = field(n, "body");
    for (uint32_t i = 0; i < ts_node_named_child_count(body); ++i) {
      TSNode cs = ts_node_named_child(body, i);
      if (!is(cs, "case_statement")) continue;
      TSNode v = field(cs, "value");
      if (ts_node_is_null(v)) {
        c.has_else = true;
        for (uint32_t j = 0; j < ts_node_named_child_count(cs); ++j) {
          std::string k = cpp_else_kind(ts_node_named_child(cs, j), src);
          if (!k.empty()) {
            c.else_kind = k;
            break;
          }
        }
        continue;
      }
      std::vector<Cmp> cmps{{subj, squash(text_of(v, src)), "case"}};
      add_arm(c, per, collapse(text_of(v, src)), line_of(cs), std::move(cmps));
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
      TSNode cond = field(cur, "condition");
      std::vector<Cmp> cmps;
      cpp_compares(cond, src, cmps);
      add_arm(c, per, collapse(text_of(cond, src)), line_of(cond), std::move(cmps));
      TSNode alt = field(cur, "alternative");
      if (is(alt, "conditional_expression")) chained.insert(ts_node_start_byte(alt));
      cur = alt;
    }
    c.has_else = true;
    if (is(cur, "nullptr") || is(cur, "null")) c.else_kind = "return_none";
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

std::vector<BranchChain> find_cpp_branches(TSNode root, std::string_view source) {
  std::vector<BranchChain> out;
  if (ts_node_is_null(root)) return out;
  CppWalker w{source, out, {}, {}};
  w.walk(root);
  std::stable_sort(out.begin(), out.end(), [](const BranchChain& a, const BranchChain& b) { return a.line < b.line; });
  return out;
}

}  // namespace review::analysis
