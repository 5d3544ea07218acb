#include "runner/analysis/guards.hpp"

#include <algorithm>
#include <cctype>
#include <functional>

namespace review::analysis {

std::vector<bool> top_level(std::string_view t) {
  std::vector<bool> top(t.size(), false);
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') depth = std::max(0, depth - 1);
    else top[i] = depth == 0;
  }
  return top;
}

namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string_view trim(std::string_view t) {
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  return t;
}


// Positions of the keyword `w` as a whole word at depth 0.
std::vector<size_t> keyword_at(std::string_view t, const std::vector<bool>& top, std::string_view w) {
  std::vector<size_t> out;
  for (size_t i = 0; i + w.size() <= t.size(); ++i) {
    if (!top[i] || t.substr(i, w.size()) != w) continue;
    if (i > 0 && word_char(t[i - 1])) continue;
    if (i + w.size() < t.size() && word_char(t[i + w.size()])) continue;
    out.push_back(i);
  }
  return out;
}

// Splits `t` at every depth-0 occurrence of keyword `w`; one piece when it does not occur.
std::vector<std::string_view> split_keyword(std::string_view t, std::string_view w) {
  std::vector<std::string_view> parts;
  size_t from = 0;
  for (size_t at : keyword_at(t, top_level(t), w)) {
    parts.push_back(t.substr(from, at - from));
    from = at + w.size();
  }
  parts.push_back(t.substr(from));
  return parts;
}

}  // namespace

bool is_truth_wrapper(std::string_view callee) {
  callee = trim(callee);
  if (callee == "bool") return true;
  size_t dot = callee.rfind('.');
  std::string_view last = dot == std::string_view::npos ? callee : callee.substr(dot + 1);
  if (dot != std::string_view::npos) {
    // The prefix is a dotted name (`tl`, `fx.expr`), nothing else (`f(x).constexpr` is not).
    for (char c : callee.substr(0, dot))
      if (!word_char(c) && c != '.') return false;
  }
  return last == "const_expr" || last == "constexpr";
}

std::string normalise_condition(std::string_view t) {
  std::string out;
  bool gap = false;
  for (char c : t) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') {
      gap = true;
      continue;
    }
    if (gap && !out.empty() && word_char(out.back()) && word_char(c)) out += ' ';
    gap = false;
    out += c;
  }
  return out;
}

Formula GuardLogic::atom(std::string_view text) {
  std::string t = normalise_condition(text);
  auto [it, fresh] = names_.try_emplace(t, static_cast<int>(text_.size()));
  if (fresh) text_.push_back(t);
  Formula f;
  f.atom = it->second;
  return f;
}

Formula GuardLogic::comparison(std::string_view l, std::string_view op, std::string_view r) {
  std::string ln = normalise_condition(l), rn = normalise_condition(r), o = normalise_condition(op);
  if (o == "is not" || o == "isnot") return negate(atom(ln + " is " + rn));
  if (o == "!=") return negate(atom(ln + "==" + rn));
  if (o == "not in" || o == "notin") return negate(atom(ln + " in " + rn));
  return atom(ln + " " + o + " " + rn);
}

Formula GuardLogic::negate(Formula f) {
  if (f.kind == Formula::Not) return std::move(f.kids[0]);
  Formula n;
  n.kind = Formula::Not;
  n.kids.push_back(std::move(f));
  return n;
}

Formula GuardLogic::all_of(std::vector<Formula> fs) {
  if (fs.size() == 1) return std::move(fs[0]);
  Formula f;
  f.kind = Formula::And;
  f.kids = std::move(fs);
  return f;
}

Formula GuardLogic::any_of(std::vector<Formula> fs) {
  if (fs.size() == 1) return std::move(fs[0]);
  Formula f;
  f.kind = Formula::Or;
  f.kids = std::move(fs);
  return f;
}

Formula GuardLogic::parse(std::string_view text) {
  std::string_view t = trim(text);
  if (auto parts = split_keyword(t, "or"); parts.size() > 1) {
    std::vector<Formula> fs;
    for (auto p : parts) fs.push_back(parse(p));
    return any_of(std::move(fs));
  }
  if (auto parts = split_keyword(t, "and"); parts.size() > 1) {
    std::vector<Formula> fs;
    for (auto p : parts) fs.push_back(parse(p));
    return all_of(std::move(fs));
  }
  std::vector<bool> top = top_level(t);
  auto nots = keyword_at(t, top, "not");
  if (!nots.empty() && nots[0] == 0) return negate(parse(t.substr(3)));
  if (t.size() >= 2 && t.front() == '(' && t.back() == ')') {
    // Only when the opening bracket closes at the very end: `(a) == (b)` is a comparison.
    bool whole = true;
    for (size_t i = 1; i + 1 < t.size(); ++i)
      if (top[i]) whole = false;
    if (whole) return parse(t.substr(1, t.size() - 2));
  }
  // `const_expr(x)`, `bool(x)`: the truth of `x` (one argument: no comma or keyword `=` at the
  // argument's depth, and the call's bracket closes at the very end).
  if (size_t open = t.find('('); open != std::string_view::npos && open > 0 && t.back() == ')' &&
                                 is_truth_wrapper(t.substr(0, open))) {
    std::string_view arg = t.substr(open + 1, t.size() - open - 2);
    std::vector<bool> in = top_level(arg);
    int depth = 0;
    bool one = !trim(arg).empty();
    for (char c : arg) {
      if (c == '(' || c == '[' || c == '{') ++depth;
      else if (c == ')' || c == ']' || c == '}') one = one && --depth >= 0;
    }
    for (size_t i = 0; i < arg.size() && one; ++i) {
      if (!in[i]) continue;
      if (arg[i] == ',') one = false;
      bool cmp = (i > 0 && std::string_view("=!<>").find(arg[i - 1]) != std::string_view::npos) ||
                 (i + 1 < arg.size() && arg[i + 1] == '=');
      if (arg[i] == '=' && !cmp) one = false;  // a keyword argument
    }
    if (one && depth == 0) return parse(arg);
  }
  // The first comparison operator at depth 0 (word operators as whole words).
  size_t best = std::string_view::npos, len = 0;
  std::string op;
  auto consider = [&](size_t at, size_t n, std::string o) {
    if (at < best) best = at, len = n, op = std::move(o);
  };
  for (size_t i = 0; i + 1 < t.size(); ++i) {
    if (!top[i]) continue;
    std::string_view two = t.substr(i, 2);
    if (two == "==" || two == "!=" || two == "<=" || two == ">=") {
      consider(i, 2, std::string(two));
      break;
    }
    if ((t[i] == '<' || t[i] == '>') && t[i + 1] != '<' && t[i + 1] != '>' && (i == 0 || (t[i - 1] != '<' && t[i - 1] != '>' && t[i - 1] != '-'))) {
      consider(i, 1, std::string(1, t[i]));
      break;
    }
  }
  for (size_t at : keyword_at(t, top, "is")) {
    std::string_view rest = trim(t.substr(at + 2));
    if (rest.substr(0, 3) == "not" && (rest.size() == 3 || !word_char(rest[3])))
      consider(at, static_cast<size_t>(rest.data() + 3 - (t.data() + at)), "is not");
    else
      consider(at, 2, "is");
    break;
  }
  for (size_t at : keyword_at(t, top, "in")) {
    // `not in`: the `not` just before the `in`.
    size_t k = at;
    while (k > 0 && std::isspace(static_cast<unsigned char>(t[k - 1]))) --k;
    if (k >= 3 && t.substr(k - 3, 3) == "not" && (k == 3 || !word_char(t[k - 4])))
      consider(k - 3, at + 2 - (k - 3), "not in");
    else
      consider(at, 2, "in");
    break;
  }
  if (best != std::string_view::npos && best > 0 && best + len < t.size())
    return comparison(t.substr(0, best), op, t.substr(best + len));
  return atom(t);
}

std::pair<std::string, std::string> GuardLogic::equality(int atom) const {
  const std::string& t = text_[static_cast<size_t>(atom)];
  size_t eq = t.find("==");
  if (eq == std::string::npos || t.find("==", eq + 2) != std::string::npos || !is_literal(t.substr(eq + 2))) return {};
  return {t.substr(0, eq), t.substr(eq + 2)};
}

std::vector<std::pair<int, int>> GuardLogic::exclusive_pairs(const std::vector<int>& use) const {
  std::vector<std::pair<int, int>> out;
  std::vector<std::pair<std::string, std::string>> split;
  for (int a : use) split.push_back(equality(a));
  for (size_t a = 0; a < use.size(); ++a)
    for (size_t b = a + 1; b < use.size(); ++b)
      if (!split[a].first.empty() && split[a].first == split[b].first && split[a].second != split[b].second)
        out.emplace_back(use[a], use[b]);
  return out;
}

void GuardLogic::atoms_of(const Formula& f, std::set<int>& out) {
  if (f.kind == Formula::Atom && f.atom >= 0) out.insert(f.atom);
  for (const auto& k : f.kids) atoms_of(k, out);
}

bool GuardLogic::unsat(const std::vector<const Formula*>& fs, const std::vector<int>& use) const {
  if (use.empty() || use.size() > 31) return false;
  std::vector<int> slot(static_cast<size_t>(*std::max_element(use.begin(), use.end()) + 1), -1);
  for (size_t i = 0; i < use.size(); ++i) slot[static_cast<size_t>(use[i])] = static_cast<int>(i);
  const auto excl = exclusive_pairs(use);
  const uint32_t n = static_cast<uint32_t>(use.size());
  for (uint32_t bits = 0; bits < (1u << n); ++bits) {
    bool possible = true;
    for (auto [a, b] : excl)
      if (((bits >> slot[static_cast<size_t>(a)]) & 1u) && ((bits >> slot[static_cast<size_t>(b)]) & 1u)) possible = false;
    if (!possible) continue;
    bool all = true;
    for (const Formula* f : fs)
      if (!eval(*f, bits, slot)) {
        all = false;
        break;
      }
    if (all) return false;
  }
  return true;
}

bool GuardLogic::contradictory(const std::vector<Formula>& fs, int max_atoms) const {
  std::set<int> at;
  std::vector<const Formula*> ptrs;
  for (const auto& f : fs) {
    atoms_of(f, at);
    ptrs.push_back(&f);
  }
  if (at.empty() || static_cast<int>(at.size()) > std::min(max_atoms, 31)) return false;
  return unsat(ptrs, std::vector<int>(at.begin(), at.end()));
}

bool GuardLogic::eval(const Formula& f, uint32_t bits, const std::vector<int>& slot) {
  switch (f.kind) {
    case Formula::Atom: return f.atom >= 0 && ((bits >> slot[static_cast<size_t>(f.atom)]) & 1u);
    case Formula::Not: return !eval(f.kids[0], bits, slot);
    case Formula::And:
      for (const auto& k : f.kids)
        if (!eval(k, bits, slot)) return false;
      return true;
    case Formula::Or:
      for (const auto& k : f.kids)
        if (eval(k, bits, slot)) return true;
      return false;
  }
  return false;
}

bool GuardLogic::is_literal(const std::string& t) {
  if (t.empty()) return false;
  if (t == "None" || t == "True" || t == "False") return true;
  char q = t.front();
  if ((q == '"' || q == '\'') && t.size() >= 2 && t.back() == q && t.find(q, 1) == t.size() - 1) return true;
  size_t k = t[0] == '-' ? 1 : 0;
  if (k == t.size()) return false;
  for (; k < t.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(t[k])) && t[k] != '.' && t[k] != 'x' && t[k] != '_') return false;
  return true;
}

}  // namespace review::analysis

namespace review::analysis {
namespace {

// C-like logical operators read as Python's, outside strings and brackets-insensitive: `&&`,
// `||`, and `!` not followed by `=`.
std::string pythonise_logic(std::string_view t) {
  std::string out;
  char quote = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (quote) {
      out += c;
      if (c == '\\' && i + 1 < t.size()) out += t[++i];
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    if (c == '&' && i + 1 < t.size() && t[i + 1] == '&') { out += " and "; ++i; continue; }
    if (c == '|' && i + 1 < t.size() && t[i + 1] == '|') { out += " or "; ++i; continue; }
    if (c == '!' && (i + 1 >= t.size() || t[i + 1] != '=')) { out += " not "; continue; }
    out += c;
  }
  return out;
}

// `t` with each plain string literal in single quotes (no quote or backslash inside) written
// with double quotes, and one pair of brackets around the whole text dropped: `('a')` -> `"a"`.
std::string requote(std::string s) {
  if (s.size() >= 2 && s.front() == '(' && s.back() == ')') {
    std::vector<bool> top = top_level(s);
    bool whole = true;
    for (size_t i = 1; i + 1 < s.size(); ++i)
      if (top[i]) whole = false;
    // A tuple keeps its brackets: `('a', 'b')` is not `'a', 'b'`.
    std::string inner = s.substr(1, s.size() - 2);
    std::vector<bool> in = top_level(inner);
    for (size_t i = 0; i < inner.size(); ++i)
      if (in[i] && inner[i] == ',') whole = false;
    if (whole) s = inner;
  }
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '"') {  // a double-quoted literal is copied whole
      size_t e = i + 1;
      while (e < s.size() && s[e] != '"') e += s[e] == '\\' ? 2 : 1;
      out += s.substr(i, e + 1 - i);
      i = e;
      continue;
    }
    if (s[i] == '\'') {
      size_t e = s.find_first_of("'\"\\", i + 1);
      if (e != std::string::npos && s[e] == '\'') {
        out += '"' + s.substr(i + 1, e - i - 1) + '"';
        i = e;
        continue;
      }
      out += s.substr(i);  // not a plain literal: the rest as written
      break;
    }
    out += s[i];
  }
  return out;
}

// Splits a normalised atom text at its first depth-0 comparison operator among `ops`
// (longest first at each position); false when there is none.
bool split_comparison(const std::string& t, std::string& l, std::string& op, std::string& r) {
  std::vector<bool> top = top_level(t);
  for (size_t i = 0; i < t.size(); ++i) {
    if (!top[i]) continue;
    for (const char* o : {"==", "<=", ">=", "<", ">"}) {
      size_t n = std::string_view(o).size();
      if (t.compare(i, n, o) != 0) continue;
      if (n == 1 && ((i + 1 < t.size() && (t[i + 1] == '<' || t[i + 1] == '>' || t[i + 1] == '=')) ||
                     (i > 0 && (t[i - 1] == '<' || t[i - 1] == '>' || t[i - 1] == '-' || t[i - 1] == '='))))
        continue;  // shifts, `->`
      if (i == 0 || i + n >= t.size()) return false;
      l = t.substr(0, i), op = o, r = t.substr(i + n);
      return true;
    }
  }
  return false;
}

// Canonical text of an atom, `positive` false for its negation.
std::string render_atom(const std::string& t, bool positive) {
  std::string l, op, r;
  std::string l2, op2, r2;
  if (split_comparison(t, l, op, r) && !split_comparison(r, l2, op2, r2)) {
    l = requote(l), r = requote(r);
    if (op == "==") {
      if (r < l) std::swap(l, r);
      return l + (positive ? " == " : " != ") + r;
    }
    // Orderings: `a > b` is `b < a`; `not a < b` is `b <= a`.
    if (op == ">" || op == ">=") std::swap(l, r), op = op == ">" ? "<" : "<=";
    if (!positive) std::swap(l, r), op = op == "<" ? "<=" : "<";
    return l + " " + op + " " + r;
  }
  std::vector<bool> top = top_level(t);
  for (const char* kw : {"is", "in"}) {
    auto at = keyword_at(t, top, kw);
    if (at.empty() || at[0] == 0) continue;
    std::string lhs = requote(std::string(trim(std::string_view(t).substr(0, at[0]))));
    std::string rhs = requote(std::string(trim(std::string_view(t).substr(at[0] + 2))));
    if (rhs.empty()) continue;
    if (positive) return lhs + " " + kw + " " + rhs;
    return lhs + (kw == std::string("is") ? " is not " : " not in ") + rhs;
  }
  return positive ? requote(t) : "not " + requote(t);
}

std::string render(const GuardLogic& g, const Formula& f, bool positive);

std::string render_group(const GuardLogic& g, const Formula& f, bool positive) {
  // Or under `positive`, or And under negation, is a disjunction; the other two a conjunction.
  bool disj = (f.kind == Formula::Or) == positive;
  std::vector<std::string> parts;
  for (const auto& k : f.kids) {
    std::string s = render(g, k, positive);
    // Flatten nested groups of the same connective.
    bool same = (k.kind == Formula::Or || k.kind == Formula::And) &&
                ((k.kind == Formula::Or) == positive) == disj;
    if (same && s.size() >= 2 && s.front() == '(' && s.back() == ')') {
      std::string inner = s.substr(1, s.size() - 2), sep = disj ? " or " : " and ";
      size_t from = 0;
      // Only depth-0 separators of the inner text split it.
      std::vector<bool> top = top_level(inner);
      for (size_t i = 0; i + sep.size() <= inner.size(); ++i)
        if (top[i] && inner.compare(i, sep.size(), sep) == 0) {
          parts.push_back(inner.substr(from, i - from));
          from = i + sep.size();
          i += sep.size() - 1;
        }
      parts.push_back(inner.substr(from));
    } else {
      parts.push_back(s);
    }
  }
  std::sort(parts.begin(), parts.end());
  parts.erase(std::unique(parts.begin(), parts.end()), parts.end());
  if (parts.size() == 1) return parts[0];
  std::string out = "(";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? (disj ? " or " : " and ") : "") + parts[i];
  return out + ")";
}

std::string render(const GuardLogic& g, const Formula& f, bool positive) {
  switch (f.kind) {
    case Formula::Atom: return f.atom >= 0 ? render_atom(g.text(f.atom), positive) : (positive == true ? "True" : "False");
    case Formula::Not: return render(g, f.kids[0], !positive);
    default: return render_group(g, f, positive);
  }
}

// The conjuncts of `f` under `positive` (a negated Or is a conjunction).
void conjuncts(const GuardLogic& g, const Formula& f, bool positive, std::vector<std::string>& out) {
  if (f.kind == Formula::Not) return conjuncts(g, f.kids[0], !positive, out);
  if ((f.kind == Formula::And && positive) || (f.kind == Formula::Or && !positive)) {
    for (const auto& k : f.kids) conjuncts(g, k, positive, out);
    return;
  }
  out.push_back(render(g, f, positive));
}

}  // namespace

std::vector<std::string> condition_conjuncts(std::string_view cond, bool negated) {
  std::string py = pythonise_logic(cond);
  if (trim(py).empty()) return {};
  GuardLogic g;
  Formula f = g.parse(py);
  std::vector<std::string> out;
  conjuncts(g, f, !negated, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace review::analysis
