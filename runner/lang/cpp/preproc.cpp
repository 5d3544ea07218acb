// C/C++ preprocessor structure: #include directives and the branches of #if/#ifdef/#ifndef
// chains, read line by line as the preprocessor itself does (C17 6.10: a directive is a line whose
// first non-blank character is '#'; a backslash at the end of a line continues it). The lines'
// `code` is used, so directives inside comments and strings are not seen.
#include <algorithm>
#include <cctype>

#include "runner/lang/extract.hpp"

namespace review::lang::detail {

namespace {

std::string trim(std::string_view s) {
  size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string_view::npos) return {};
  size_t b = s.find_last_not_of(" \t\r");
  return std::string(s.substr(a, b - a + 1));
}

// Whitespace runs collapsed to one space.
std::string collapse(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

struct Chain {
  std::vector<size_t> branches;  ///< indices into model.ifdefs
  std::vector<std::string> exprs;  ///< the branches' own conditions, for #else / #elif
};

}  // namespace

void extract_cpp_preprocessor(SourceModel& m) {
  const int n = static_cast<int>(m.lines.size());
  std::vector<Chain> stack;
  // The guard string of what is open now (include guards left out).
  auto guard = [&] {
    std::string g;
    for (const Chain& c : stack) {
      const PreprocBranch& b = m.ifdefs[c.branches.back()];
      if (b.include_guard) continue;
      if (!g.empty()) g += " && ";
      g += b.expr;
    }
    return g;
  };
  auto close_branch = [&](int last_line) {
    PreprocBranch& b = m.ifdefs[stack.back().branches.back()];
    b.end_line = std::max(b.line, last_line);
    std::string body;
    for (int l = b.line + 1; l <= b.end_line; ++l) {
      if (l > b.line + 1) body += '\n';
      body += m.code(l - 1);
    }
    b.body = std::move(body);
  };
  for (int i = 0; i < n; ++i) {
    std::string_view code = m.code(i);
    size_t h = code.find_first_not_of(" \t");
    if (h == std::string::npos || code[h] != '#') continue;
    // The whole directive: continued lines joined.
    int first = i;
    std::string text(code.substr(h + 1));
    std::string raw(m.text_lines[i].substr(std::min(h + 1, m.text_lines[i].size())));
    while (!text.empty() && trim(text).size() && trim(text).back() == '\\' && i + 1 < n) {
      text = trim(text);
      text.pop_back();
      raw = trim(raw);
      if (!raw.empty() && raw.back() == '\\') raw.pop_back();
      ++i;
      text += ' ';
      text += m.code(i);
      raw += ' ';
      raw += m.text_lines[i];
    }
    std::string rest = trim(text);
    if (!rest.empty() && rest.back() == '\\') rest.pop_back();  // continued past the last line
    size_t w = 0;
    while (w < rest.size() && (std::isalpha(static_cast<unsigned char>(rest[w])) || rest[w] == '_')) ++w;
    std::string word = rest.substr(0, w);
    std::string arg = collapse(rest.substr(w));
    int line = first + 1;
    if (word == "if" || word == "ifdef" || word == "ifndef") {
      PreprocBranch b;
      b.directive = word;
      b.condition = arg;
      b.expr = word == "if" ? arg : word == "ifdef" ? "defined(" + arg + ")" : "!defined(" + arg + ")";
      b.guard = guard();
      b.line = line;
      b.depth = static_cast<int>(stack.size());
      m.ifdefs.push_back(std::move(b));
      stack.push_back(Chain{{m.ifdefs.size() - 1}, {m.ifdefs.back().expr}});
    } else if (word == "elif" || word == "elifdef" || word == "elifndef" || word == "else") {
      if (stack.empty()) continue;  // stray: the compiler reports it
      close_branch(line - 1);
      Chain c = std::move(stack.back());
      stack.pop_back();  // the guard of the new branch is its enclosing chains'
      std::string before;
      for (const auto& e : c.exprs) before += (before.empty() ? "" : " || ") + e;
      std::string own = word == "else"      ? ""
                        : word == "elif"    ? arg
                        : word == "elifdef" ? "defined(" + arg + ")"
                                            : "!defined(" + arg + ")";
      PreprocBranch b;
      b.directive = word;
      b.condition = word == "else" ? "" : arg;
      b.expr = "!(" + before + ")" + (own.empty() ? "" : " && (" + own + ")");
      b.line = line;
      b.depth = static_cast<int>(stack.size());
      if (!own.empty()) c.exprs.push_back(own);
      b.guard = guard();
      stack.push_back(std::move(c));
      m.ifdefs.push_back(std::move(b));
      stack.back().branches.push_back(m.ifdefs.size() - 1);
    } else if (word == "endif") {
      if (stack.empty()) continue;
      close_branch(line - 1);
      for (size_t k : stack.back().branches) m.ifdefs[k].endif_line = line;
      stack.pop_back();
    } else if (word == "define" && !stack.empty()) {
      // `#ifndef X` directly followed by `#define X`: a candidate include guard (confirmed below
      // when its #endif is the last directive-or-code line of the file).
      PreprocBranch& b = m.ifdefs[stack.back().branches.back()];
      std::string name = arg.substr(0, arg.find_first_of(" ("));
      bool next = true;
      for (int l = b.line; l < first; ++l)
        if (!trim(m.code(l)).empty()) next = false;
      if (next && stack.back().branches.size() == 1 && stack.size() == 1 &&
          ((b.directive == "ifndef" && b.condition == name) ||
           (b.directive == "if" && collapse(b.condition) == "!defined(" + name + ")") ||
           (b.directive == "if" && collapse(b.condition) == "!defined " + name)))
        b.include_guard = true;
    } else if (word == "include" || word == "include_next") {
      Include inc;
      inc.line = line;
      inc.guard = guard();
      std::string a = trim(raw.substr(raw.find(word) + word.size()));
      if (!a.empty() && (a[0] == '<' || a[0] == '"')) {
        char close = a[0] == '<' ? '>' : '"';
        size_t e = a.find(close, 1);
        inc.system = a[0] == '<';
        inc.path = a.substr(1, e == std::string::npos ? std::string::npos : e - 1);
      } else {
        inc.path = a.substr(0, a.find_first_of(" \t/"));
      }
      m.includes.push_back(std::move(inc));
    }
  }
  // The file ends inside open chains: close them at the last line.
  while (!stack.empty()) {
    close_branch(n);
    stack.pop_back();
  }
  // An include guard must wrap the whole file: nothing but blank lines (or a #pragma) before it,
  // nothing after its #endif, and no #else.
  for (auto& b : m.ifdefs) {
    if (!b.include_guard) continue;
    bool whole = b.endif_line > 0 && b.end_line + 1 == b.endif_line;
    for (int l = 0; whole && l < b.line - 1; ++l) {
      std::string t = trim(m.code(l));
      if (!t.empty() && t.rfind("#pragma", 0) != 0) whole = false;
    }
    for (int l = b.endif_line; whole && l < n; ++l)
      if (!trim(m.code(l)).empty()) whole = false;
    if (!whole) b.include_guard = false;
    else std::string().swap(b.body);  // the whole file: no rule reads it as a branch
  }
}

}  // namespace review::lang::detail
