#include "dsl/facts.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace review::dsl {

const FieldSchema* SourceSchema::field(std::string_view n) const {
  for (const auto& f : fields)
    if (f.name == n) return &f;
  return nullptr;
}

std::string Scope::describe() const {
  switch (kind) {
    case Kind::Changed: return "changed";
    case Kind::Base: return "base";
    case Kind::Repo: return "repo";
    case Kind::Named: return patterns.empty() ? std::string("?") : patterns.front();
    case Kind::Globs:
    case Kind::Files: {
      std::string out;
      for (const auto& p : patterns) {
        if (!out.empty()) out += ", ";
        out += "\"" + p + "\"";
      }
      return out;
    }
  }
  return {};
}

Value RulesetData::let(std::string_view name) const {
  for (const auto& [n, v] : lets)
    if (n == name) return v;
  return {};
}

namespace {

// A glob compiled to a small program run as a Pike VM (Thompson's construction): every input
// character advances the set of live instructions once, so a match takes O(|pattern| * |path|)
// steps whatever the pattern ("**a**a**a**c" once took exponential time with backtracking).
struct Instr {
  enum Op { Char, Any, AnyButSlash, Class, Split, Jump, Match };
  explicit Instr(Op o, char ch = 0, int target = 0) : op(o), c(ch), x(target) {}
  Op op;
  char c = 0;
  int x = 0, y = 0;       // Split: both targets; Jump: x
  std::string_view set;   // Class: the characters between '[' (after '!'/'^') and ']'
  bool negated = false;
};

class GlobCompiler {
 public:
  explicit GlobCompiler(std::string_view p) : p_(p) {}
  // Returns false for a malformed pattern (unclosed '[' or '{').
  bool compile(std::vector<Instr>& out) {
    size_t i = 0;
    if (!seq(i, false) || i != p_.size()) return false;
    emit(Instr(Instr::Match));
    out = std::move(prog_);
    return true;
  }

 private:
  int emit(Instr in) {
    prog_.push_back(in);
    return static_cast<int>(prog_.size()) - 1;
  }
  // One sequence up to the end, or (inside braces) up to an unnested ',' or '}'.
  bool seq(size_t& i, bool in_braces) {
    while (i < p_.size()) {
      char c = p_[i];
      if (in_braces && (c == ',' || c == '}')) return true;
      if (c == '*' && i + 1 < p_.size() && p_[i + 1] == '*') {
        i += 2;
        bool slash = i < p_.size() && p_[i] == '/';
        if (slash) ++i;
        // "**/" = (any* '/')?, "**" = any*
        int split = emit(Instr(Instr::Split));
        int loop = emit(Instr(Instr::Split));
        int any = emit(Instr(Instr::Any));
        emit(Instr(Instr::Jump, 0, loop));
        int body_end = slash ? emit(Instr(Instr::Char, '/')) : -1;
        int after = static_cast<int>(prog_.size());
        prog_[split].x = loop;
        prog_[split].y = after;
        prog_[loop].x = any;
        prog_[loop].y = slash ? body_end : after;
        continue;
      }
      if (c == '*') {
        ++i;
        int loop = emit(Instr(Instr::Split));
        int any = emit(Instr(Instr::AnyButSlash));
        emit(Instr(Instr::Jump, 0, loop));
        prog_[loop].x = any;
        prog_[loop].y = static_cast<int>(prog_.size());
        continue;
      }
      if (c == '?') {
        ++i;
        emit(Instr(Instr::AnyButSlash));
        continue;
      }
      if (c == '[') {
        size_t close = p_.find(']', i + 1);
        if (close == std::string_view::npos) return false;
        Instr in(Instr::Class);
        in.negated = i + 1 < close && (p_[i + 1] == '!' || p_[i + 1] == '^');
        size_t from = i + 1 + (in.negated ? 1 : 0);
        in.set = p_.substr(from, close - from);
        emit(in);
        i = close + 1;
        continue;
      }
      if (c == '{') {
        ++i;
        std::vector<int> jumps;
        int pending_split = -1;
        while (true) {
          int split = emit(Instr(Instr::Split));
          if (pending_split >= 0) prog_[pending_split].y = split;
          prog_[split].x = split + 1;
          if (!seq(i, true)) return false;
          if (i >= p_.size()) return false;  // unclosed '{'
          jumps.push_back(emit(Instr(Instr::Jump)));
          pending_split = split;
          if (p_[i++] == '}') break;
        }
        int after = static_cast<int>(prog_.size());
        // The last alternative's split has no other branch: make it a plain fall-through.
        prog_[pending_split].y = prog_[pending_split].x;
        for (int j : jumps) prog_[j].x = after;
        continue;
      }
      ++i;
      emit(Instr(Instr::Char, c));
    }
    return !in_braces;
  }

  std::string_view p_;
  std::vector<Instr> prog_;
};

bool in_class(const Instr& in, char ch) {
  bool hit = false;
  const std::string_view& s = in.set;
  for (size_t k = 0; k < s.size(); ++k) {
    if (k + 2 < s.size() && s[k + 1] == '-') {
      if (ch >= s[k] && ch <= s[k + 2]) hit = true;
      k += 2;
    } else if (s[k] == ch) {
      hit = true;
    }
  }
  return hit != in.negated;
}

// Adds instruction `pc` and everything it reaches without reading a character.
void add(const std::vector<Instr>& prog, std::vector<int>& list, std::vector<char>& on, int pc) {
  thread_local std::vector<int> stack;  // not re-entered: reused, not allocated per step
  stack.assign(1, pc);
  while (!stack.empty()) {
    int k = stack.back();
    stack.pop_back();
    if (on[k]) continue;
    on[k] = 1;
    const Instr& in = prog[k];
    if (in.op == Instr::Split) {
      stack.push_back(in.y);
      stack.push_back(in.x);
    } else if (in.op == Instr::Jump) {
      stack.push_back(in.x);
    } else {
      list.push_back(k);
    }
  }
}

// A pattern's program, compiled once per thread: the same patterns (scopes, tiers, excludes) are
// matched against every file and every finding (an audit of ROCm/aiter compiled one per call,
// about 1% of its CPU). `set` views of the program point into `pattern`, which the node keeps.
struct Compiled {
  std::string pattern;
  std::vector<Instr> prog;
  bool ok = false;
};

const Compiled& compiled(std::string_view pattern) {
  constexpr size_t kMaxPrograms = 4096;  // a rule can make patterns at run time: bounded
  thread_local std::unordered_map<std::string_view, std::unique_ptr<Compiled>> programs;
  auto it = programs.find(pattern);
  if (it != programs.end()) return *it->second;
  if (programs.size() >= kMaxPrograms) programs.clear();
  auto c = std::make_unique<Compiled>();
  c->pattern = std::string(pattern);
  c->ok = GlobCompiler(c->pattern).compile(c->prog);
  std::string_view key = c->pattern;
  return *programs.emplace(key, std::move(c)).first->second;
}

bool match(std::string_view pattern, std::string_view s) {
  const Compiled& c = compiled(pattern);
  if (!c.ok) return false;
  const std::vector<Instr>& prog = c.prog;
  thread_local std::vector<int> cur, next;
  thread_local std::vector<char> on;
  cur.clear();
  on.assign(prog.size(), 0);
  add(prog, cur, on, 0);
  for (char ch : s) {
    next.clear();
    std::fill(on.begin(), on.end(), 0);
    for (int k : cur) {
      const Instr& in = prog[k];
      bool step = (in.op == Instr::Char && in.c == ch) || in.op == Instr::Any ||
                  (in.op == Instr::AnyButSlash && ch != '/') || (in.op == Instr::Class && ch != '/' && in_class(in, ch));
      if (step) add(prog, next, on, k + 1);
    }
    cur.swap(next);
    if (cur.empty()) return false;
  }
  for (int k : cur)
    if (prog[k].op == Instr::Match) return true;
  return false;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) { return match(pattern, path); }

const std::vector<FactPtr>* Facts::query_containing(const std::string&, const Scope&, const std::vector<std::string>&) {
  return nullptr;
}

const std::vector<FactPtr>* Facts::query_in_files(const std::string&, const Scope&, const std::vector<std::string>&,
                                                  const std::vector<std::string>*) {
  return nullptr;
}

}  // namespace review::dsl
