// Dispatch chains of C/C++/CUDA/HIP files: if/else-if/else, switch and `?:`.
#include "runner/lang/cpp/branches.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

#include "runner/lang/tree.hpp"

namespace review::analysis {
namespace {

using lang::field;
using lang::is;
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

// ---------------- C / C++ ----------------
bool cpp_constantish(TSNode n, std::string_view src) {
  if (is(n, "number_literal") || is(n, "string_literal") || is(n, "char_literal") || is(n, "true") ||
      is(n, "false") || is(n, "null") || is(n, "nullptr") || is(n, "raw_string_literal"))
    return true;
  std::string_view t = node_text(n, src);
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
    std::string_view op = node_text(field(n, "operator"), src);
    TSNode l = field(n, "left"), r = field(n, "right");
    if (op == "&&" || op == "||") {
      cpp_compares(l, src, out);
      cpp_compares(r, src, out);
    } else if (op == "==" || op == "!=") {
      if (cpp_constantish(l, src) && !cpp_constantish(r, src)) std::swap(l, r);
      out.push_back({squash(node_text(l, src)), squash(node_text(r, src)), std::string(op)});
    }
    return;
  }
  // std::is_same_v<A, B> / std::is_same<A, B>::value
  std::string_view t = node_text(n, src);
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
    std::string f = lower(node_text(field(ts_node_named_child(s, 0), "function"), src));
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
    // A chain starts at an `if`, a `switch` or a `?:`: a node whose text holds none of them has
    // none inside and is not walked.
    const std::string_view text = node_text(n, src);
    if (text.find('?') == std::string_view::npos && !lang::may_hold_keyword(text, "if") &&
        !lang::may_hold_keyword(text, "switch"))
      return;
    bool pushed = false;
    if (is(n, "function_definition")) {
      TSNode d = field(n, "declarator");
      while (!ts_node_is_null(d) && !is(d, "function_declarator")) d = field(d, "declarator");
      fns.push_back(squash(node_text(field(d, "declarator"), src)));
      pushed = true;
    } else if (is(n, "if_statement") && !chained.count(ts_node_start_byte(n))) {
      if_chain(n);
    } else if (is(n, "switch_statement")) {
      switch_chain(n);
    } else if (is(n, "conditional_expression") && !chained.count(ts_node_start_byte(n))) {
      ternary_chain(n);
    }
    if (++depth <= kMaxWalkDepth)
      lang::each_named(n, [&](TSNode c) { walk(c); });
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
      std::string ct = collapse(node_text(is(cond, "condition_clause") ? field(cond, "value") : cond, src));
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
    std::string subj = squash(node_text(is(cond, "condition_clause") ? field(cond, "value") : cond, src));
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
      std::vector<Cmp> cmps{{subj, squash(node_text(v, src)), "case"}};
      add_arm(c, per, collapse(node_text(v, src)), line_of(cs), std::move(cmps));
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
      add_arm(c, per, collapse(node_text(cond, src)), line_of(cond), std::move(cmps));
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

std::vector<BranchChain> find_cpp_branches(TSNode root, std::string_view source) {
  std::vector<BranchChain> out;
  if (ts_node_is_null(root)) return out;
  CppWalker w{source, out, {}, {}};
  w.walk(root);
  std::stable_sort(out.begin(), out.end(), [](const BranchChain& a, const BranchChain& b) { return a.line < b.line; });
  return out;
}

}  // namespace review::analysis
