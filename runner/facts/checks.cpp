// Source `checks`: one fact per run-time check of an invariant, with the condition it enforces in
// a canonical form (analysis::condition_conjuncts), so a rule can tell a check that was removed
// from one that was restated in another form.
//
// What counts as a check (field `form`; read from the model's statements and calls, no syntax tree kept):
//   - "assert": a Python `assert TEST[, MSG]` statement; the condition is TEST.
//   - "raise":  a Python `if TEST:` (not an `elif`) whose first clause's body ends in a `raise`
//               statement at its own level (`if x is None: raise ValueError(...)`, also after a
//               log call); the condition that must hold is `not TEST`.
//   - "call":   a call whose callee's last name is a check function: in Python `_check` or
//               `_check_*` (torch._check, torch._check_is_size, ...); in C/C++ `assert`,
//               `static_assert`, or an upper-case macro name holding CHECK or ASSERT
//               (TORCH_CHECK, TORCH_INTERNAL_ASSERT, AITER_CHECK, HIP_CHECK). The condition is
//               the first argument; a macro ending in _EQ, _NE, _LT, _LE, _GT or _GE
//               (TORCH_CHECK_EQ(a, b)) compares its first two arguments.
#include <algorithm>
#include <cctype>

#include "runner/analysis/guards.hpp"
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Value;
using T = dsl::Type;
using util::field;

struct Check {
  std::string kind, callee, cond;
  bool negated = false;  // cond is the failing test (raise guards)
  int line = 0, end_line = 0;
  std::string function, text;
  std::string raises;  // raise guards: the raise statement
};

// Collapses runs of blanks, tabs and line breaks (and backslash continuations) into one blank.
std::string collapse(std::string_view t) {
  std::string out;
  bool gap = false;
  for (char c : t) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') {
      gap = !out.empty();
      continue;
    }
    if (gap) out += ' ';
    gap = false;
    out += c;
  }
  return out;
}

// Offset of the first depth-0 `,` of `t` (outside brackets and string literals), or npos.
size_t top_comma(std::string_view t) {
  std::vector<bool> top = analysis::top_level(t);
  for (size_t i = 0; i < t.size(); ++i)
    if (top[i] && t[i] == ',') return i;
  return std::string_view::npos;
}

// `assert TEST, MSG` -> TEST.
std::string assert_test(std::string_view text) {
  std::string t = collapse(text);
  if (t.rfind("assert", 0) != 0) return "";
  std::string_view rest = std::string_view(t).substr(6);
  size_t comma = top_comma(rest);
  return util::trim(rest.substr(0, comma));
}

// `if TEST:` header -> TEST ("" for anything else).
std::string if_test(std::string_view header) {
  std::string t = collapse(header);
  if (t.rfind("if ", 0) != 0 && t.rfind("if(", 0) != 0) return "";
  // The header may run into a one-line body (`if x: raise E`): cut at the first depth-0 `:`.
  std::vector<bool> top = analysis::top_level(t);
  for (size_t i = 2; i < t.size(); ++i)
    if (top[i] && t[i] == ':' && (i + 1 >= t.size() || t[i + 1] != '=')) return util::trim(t.substr(2, i - 2));
  return "";
}

bool upper_macro(std::string_view n) {
  bool letter = false;
  for (char c : n) {
    if (std::islower(static_cast<unsigned char>(c))) return false;
    if (std::isupper(static_cast<unsigned char>(c))) letter = true;
  }
  return letter && (n.find("CHECK") != std::string_view::npos || n.find("ASSERT") != std::string_view::npos);
}

// The comparison a CHECK_EQ-style macro name stands for, "" for none.
std::string macro_comparison(std::string_view n) {
  static const std::pair<const char*, const char*> kOps[] = {
      {"_EQ", "=="}, {"_NE", "!="}, {"_LT", "<"}, {"_LE", "<="}, {"_GT", ">"}, {"_GE", ">="}};
  for (auto [suffix, op] : kOps) {
    std::string_view s(suffix);
    if (n.size() > s.size() && n.substr(n.size() - s.size()) == s) return op;
  }
  return "";
}

// Indentation (leading blanks) of `line`.
size_t indent(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return i;
}

std::vector<Check> python_checks(const lang::SourceModel& m) {
  std::vector<Check> out;
  const auto& st = m.statements;
  for (size_t i = 0; i < st.size(); ++i) {
    const auto& s = st[i];
    if (s.kind == "assert_statement") {
      std::string cond = assert_test(s.text);
      if (!cond.empty()) out.push_back({"assert", "", cond, false, s.line, s.end_line, std::string(s.function), collapse(s.text), ""});
      continue;
    }
    if (s.kind != "if_statement") continue;
    std::string test = if_test(s.text);
    if (test.empty()) continue;
    // The first clause ends before the first `elif`/`else` line at the `if`'s own indentation.
    int clause_end = s.end_line;
    size_t own = s.line >= 1 && s.line <= static_cast<int>(m.text_lines.size()) ? indent(m.text_lines[s.line - 1]) : 0;
    for (int l = s.header_end + 1; l <= s.end_line && l <= static_cast<int>(m.lines.size()); ++l) {
      std::string_view code = m.code(l - 1);
      size_t at = indent(code);
      if (at != own) continue;
      std::string_view rest = std::string_view(code).substr(at);
      auto word = [&](std::string_view w) {
        return rest.substr(0, w.size()) == w && (rest.size() == w.size() || !(std::isalnum(static_cast<unsigned char>(rest[w.size()])) || rest[w.size()] == '_'));
      };
      if (word("elif") || word("else")) {
        clause_end = l - 1;
        break;
      }
    }
    // The direct children of the first clause (statements after the `if` in pre-order that no
    // earlier child contains); the last one must be a `raise`.
    const lang::Statement* last = nullptr;
    int covered = 0;
    for (size_t j = i + 1; j < st.size() && st[j].line <= clause_end; ++j) {
      if (st[j].line < s.line) break;
      if (st[j].line <= covered) continue;
      last = &st[j];
      covered = st[j].end_line;
    }
    if (last && last->kind == "raise_statement")
      out.push_back({"raise", "", test, true, s.line, clause_end, std::string(s.function), collapse(s.text), collapse(last->text)});
  }
  for (const auto& c : m.calls) {
    std::string last = util::last_name(c.callee);
    if (!(last == "_check" || last.rfind("_check_", 0) == 0) || c.args.empty()) continue;
    out.push_back({"call", std::string(c.callee), collapse(c.args[0]), false, c.line, c.end_line, std::string(c.function), collapse(c.text), ""});
  }
  return out;
}

std::vector<Check> cpp_checks(const lang::SourceModel& m) {
  std::vector<Check> out;
  for (const auto& c : m.calls) {
    std::string last = util::last_name(c.callee);
    if (!(last == "assert" || last == "static_assert" || upper_macro(last)) || c.args.empty()) continue;
    std::string cond = collapse(c.args[0]);
    if (std::string op = macro_comparison(last); !op.empty()) {
      if (c.args.size() < 2) continue;
      cond = "(" + cond + ") " + op + " (" + collapse(c.args[1]) + ")";
    }
    out.push_back({"call", std::string(c.callee), cond, false, c.line, c.end_line, std::string(c.function), collapse(c.text), ""});
  }
  return out;
}

class ChecksSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"checks",
            "one fact per run-time check of an invariant: a Python `assert`, an `if TEST:` whose first body ends in "
            "`raise`, a call of torch._check*, or a C/C++ assert/static_assert or *CHECK*/*ASSERT* macro",
            true,
            {
                field("file", T::String, "path"),
                field("line", T::Int, "first line of the check (the `assert`, `if` or call)"),
                field("end_line", T::Int, "last line (for \"raise\": of the `if`'s first clause)"),
                field("form", T::String, "\"assert\", \"raise\" (an if-guard that raises) or \"call\" (a check function or macro)"),
                field("callee", T::String, "the check function as written for \"call\" (\"torch._check\", \"TORCH_CHECK\"), else \"\""),
                field("cond", T::String, "the tested expression as written, whitespace collapsed: the asserted test, the `if` test of a raise guard (which must NOT hold), the call's first argument (`(a) == (b)` for *_EQ-style macros)"),
                field("conjuncts", T::List, "the condition that must hold, split at `and`, each part canonical (analysis::condition_conjuncts: negations pushed in, `>` turned round, `==` operands sorted); sorted"),
                field("norm", T::String, "the conjuncts joined by \" and \": equal for the same invariant written two ways"),
                field("text", T::String, "the check's statement or call text, whitespace collapsed (a raise guard: its `if` header)"),
                field("raises", T::String, "for \"raise\": the `raise` statement ending the guard, whitespace collapsed (\"raise ValueError(mode)\"); else \"\""),
                field("function", T::String, "qualified name of the enclosing function, \"\" outside functions"),
                field("added", T::Bool, "head side: the check's first line is added"),
                field("kind", T::String, "as for line facts: \"added\" (head side, first line added), \"removed\" (base side, first line removed) or \"context\"; a finding located at or joined to a \"removed\" check touches the change (`--filter added`)"),
                field("head_line", T::Int, "head line at the check's place: its line at head; on the base side the line mapped through the hunks (for a removed check, the first head line after the deleted block)"),
            }};
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    std::vector<Check> cs;
    if (m->language == lang::Language::Python) cs = python_checks(*m);
    else if (m->language == lang::Language::Cpp) cs = cpp_checks(*m);
    else return out;
    std::stable_sort(cs.begin(), cs.end(), [](const Check& a, const Check& b) { return a.line < b.line; });
    for (const auto& c : cs) {
      auto parts = analysis::condition_conjuncts(c.cond, c.negated);
      std::string norm;
      for (const auto& p : parts) norm += (norm.empty() ? "" : " and ") + p;
      auto f = dsl::make_fact("checks", r.path, c.line);
      f->end_line = std::max(c.line, c.end_line);
      f->set("form", Value(c.kind));
      f->set("callee", Value(std::string(c.callee)));
      f->set("cond", Value(c.cond));
      f->set("conjuncts", util::str_list(parts));
      f->set("norm", Value(norm));
      f->set("text", Value(c.text));
      f->set("raises", Value(c.raises));
      f->set("function", Value(std::string(c.function)));
      f->set("added", Value(r.added(c.line)));
      bool removed = r.base && r.changed && r.changed->removed_lines.count(c.line) > 0;
      f->set("kind", Value(removed ? "removed" : r.added(c.line) ? "added" : "context"));
      f->set("head_line", Value(r.base ? (r.changed ? r.changed->head_line_of(c.line) : c.line) : c.line));
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_checks_source() { return std::make_unique<ChecksSource>(); }

}  // namespace review::facts
