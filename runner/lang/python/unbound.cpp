// Definite-assignment analysis for Python scopes, run directly over the tree-sitter tree
// (structured data-flow: each compound statement joins the states of its arms).
#include "runner/lang/python/unbound.hpp"

#include "runner/lang/python/noreturn.hpp"

#include "runner/analysis/guards.hpp"
#include "runner/lang/tree.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace review::analysis {
namespace {

// Per-name abstract value: bit 1 = may be unbound on some path, bit 2 = may be bound.
constexpr uint8_t kUnbound = 1, kBound = 2, kMaybe = 3;

using lang::each_named;
using lang::field;
using lang::is;
using lang::node_text;
int line_of(TSNode n) { return lang::start_line(n); }

std::string short_text(TSNode n, std::string_view src, size_t max = 60) {
  std::string out;
  bool space = false;
  for (char c : node_text(n, src)) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ' || c == '\\') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > max) out = out.substr(0, max - 3) + "...";
  return out;
}

std::string join_words(const std::vector<std::string>& items, const char* conj) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += (i + 1 == items.size()) ? std::string(" ") + conj + " " : std::string(", ");
    out += items[i];
  }
  return out;
}

// ---- guards: which tests hold where a name is read ----

// A condition node that holds (`pos`) or fails on a path.
struct Lit {
  TSNode node{};      // the test; null for a flag fact (then `flag` names the test's text)
  bool pos = true;
  std::string flag;   // `x` or `x is None`: a name assigned a constant on the path
  std::string name;   // for a flag: the name
  uint32_t at = 0;    // for a flag: the byte where it was known (it holds there, not after a rebinding)
  // When not empty: the tests of one of these arms hold (each arm's tests all hold), and `node`
  // is the `if` statement whose continuing arms they are (where the tests were learnt).
  std::vector<std::vector<Lit>> any;

  Lit() = default;
  Lit(TSNode test, bool holds) : node(test), pos(holds) {}
  Lit(std::string flag_text, bool holds, std::string flag_name, uint32_t known_at)
      : pos(holds), flag(std::move(flag_text)), name(std::move(flag_name)), at(known_at) {}
};

// Guard formulas from Python tests (tree-sitter-python nodes); the logic itself is
// analysis::GuardLogic.
class Logic {
 public:
  // `collection(name)`: the display (list, tuple or set node) a module-level constant `name` is
  // bound to, or a null node; empty = no such constants.
  // `alias(operand)`: the text a comparison's left operand is compared as, or "" for its own
  // text (a name unpacked from a dotted name, `B, T, H, BT = A.shape`: BT is `A.shape[-1]`, and
  // `A.shape[2]` is `A.shape[-1]` too; see Analyzer::alias_of); empty = no aliases.
  explicit Logic(std::string_view src, std::function<TSNode(std::string_view)> collection = {},
                 std::function<std::string(TSNode)> alias = {})
      : src_(src), collection_(std::move(collection)), alias_(std::move(alias)) {}

  Formula build(TSNode n, int depth = 0) {
    while (is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1) n = ts_node_named_child(n, 0);
    if (depth < 64) {
      if (is(n, "not_operator")) return GuardLogic::negate(build(field(n, "argument"), depth + 1));
      if (is(n, "boolean_operator")) {
        std::vector<Formula> kids;
        kids.push_back(build(field(n, "left"), depth + 1));
        kids.push_back(build(field(n, "right"), depth + 1));
        return node_text(field(n, "operator"), src_) == "and" ? GuardLogic::all_of(std::move(kids))
                                                              : GuardLogic::any_of(std::move(kids));
      }
    }
    // `const_expr(x)`, `bool(x)` (analysis::is_truth_wrapper): the test `x` itself, so that
    // `if const_expr(n > 1):` and `… if n > 1 else …` are one test.
    if (is(n, "call") && depth < 64) {
      TSNode args = field(n, "arguments");
      if (!ts_node_is_null(args) && is(args, "argument_list") && ts_node_named_child_count(args) == 1 &&
          analysis::is_truth_wrapper(node_text(field(n, "function"), src_))) {
        TSNode a = ts_node_named_child(args, 0);
        if (!is(a, "keyword_argument") && !is(a, "list_splat") && !is(a, "dictionary_splat") && !is(a, "comment"))
          return build(a, depth + 1);
      }
    }
    // One comparison: `a is not b` = not (`a is b`), `a != b` = not (`a == b`).
    if (is(n, "comparison_operator") && ts_node_named_child_count(n) == 2) {
      TSNode l = ts_node_named_child(n, 0), r = ts_node_named_child(n, 1);
      uint32_t from = ts_node_end_byte(l), to = ts_node_start_byte(r);
      if (from <= to && to <= src_.size()) {
        std::string operand(node_text(l, src_));
        if (alias_)
          if (std::string a = alias_(l); !a.empty()) operand = std::move(a);
        const std::string left = tag(n) + operand;
        const std::string_view op = src_.substr(from, to - from);
        // `x in [a, b]` (a list, tuple or set of literals or dotted names) = `x == a or x ==
        // b`, so that `assert kind in ("a", "b")` and a chain `if kind == "a": … elif kind ==
        // "b": …` are one set of tests; `not in` is its negation. A module-level constant bound
        // once to such a display (`KINDS = {"a", "b"}`, `assert kind in KINDS`) is read as it.
        TSNode display = r;
        if (is(r, "identifier") && collection_) display = collection_(node_text(r, src_));
        if (auto members = ts_node_is_null(display) ? std::nullopt : literal_members(display)) {
          const std::string o = normalise_condition(op);
          if (o == "in" || o == "notin" || o == "not in") {
            std::vector<Formula> eqs;
            for (TSNode m : *members) eqs.push_back(g_.comparison(left, "==", node_text(m, src_)));
            Formula any = GuardLogic::any_of(std::move(eqs));
            return o == "in" ? any : GuardLogic::negate(std::move(any));
          }
        }
        return g_.comparison(left, op, node_text(r, src_));
      }
    }
    return g_.atom(tag(n) + std::string(node_text(n, src_)));
  }

  // `stale(leaf)` names a leaf test (an atom or one comparison) whose value at the read may
  // differ from its value where it was tested (a name it reads is rebound in between): such a
  // leaf becomes an atom of its own, keyed by `stale`'s non-empty answer, and so relates to no
  // other test. A null `stale` keeps every leaf as written.
  Formula lit(const Lit& l, const std::function<std::string(TSNode)>& stale = {}) {
    stale_ = &stale;
    Formula f = formula(l);
    stale_ = nullptr;
    return f;
  }

  // The elements of `n` when it is a list, tuple or set display of 1 to kMaxMembers literals
  // (strings without interpolation, numbers, True, False, None) or dotted names (`torch.bfloat16`,
  // `Mode.FAST`: an attribute of a name, compared by its text like any operand); nullopt
  // otherwise.
  static constexpr uint32_t kMaxMembers = 64;
  std::optional<std::vector<TSNode>> literal_members(TSNode n) const {
    if (!is(n, "list") && !is(n, "tuple") && !is(n, "set")) return std::nullopt;
    const uint32_t count = ts_node_named_child_count(n);
    if (count == 0 || count > kMaxMembers) return std::nullopt;
    std::vector<TSNode> out;
    for (uint32_t i = 0; i < count; ++i) {
      TSNode m = ts_node_named_child(n, i);
      if (is(m, "comment")) continue;
      bool literal = is(m, "integer") || is(m, "float") || is(m, "true") || is(m, "false") || is(m, "none") ||
                     dotted_name(m);
      if (is(m, "string")) {
        literal = true;
        for (uint32_t k = 0; k < ts_node_named_child_count(m); ++k)
          if (is(ts_node_named_child(m, k), "interpolation")) literal = false;
      }
      if (!literal) return std::nullopt;
      out.push_back(m);
    }
    if (out.empty()) return std::nullopt;
    return out;
  }

  // `a.b` or `a.b.c`: an attribute chain over identifiers (no call, subscript or literal).
  static bool dotted_name(TSNode n) {
    if (!is(n, "attribute")) return false;
    for (int depth = 0; depth < 8; ++depth) {
      if (!is(field(n, "attribute"), "identifier")) return false;
      n = field(n, "object");
      if (is(n, "identifier")) return true;
      if (!is(n, "attribute")) return false;
    }
    return false;
  }

  std::string subject(int atom) const { return g_.subject(atom); }
  static void atoms_of(const Formula& f, std::set<int>& out) { GuardLogic::atoms_of(f, out); }
  bool unsat(const std::vector<const Formula*>& fs, const std::vector<int>& use) const { return g_.unsat(fs, use); }

 private:
  Formula formula(const Lit& l) {
    Formula f;
    if (!l.any.empty()) {
      std::vector<Formula> arms;
      for (const auto& arm : l.any) {
        std::vector<Formula> all;
        for (const Lit& x : arm) all.push_back(formula(x));
        arms.push_back(GuardLogic::all_of(std::move(all)));
      }
      f = GuardLogic::any_of(std::move(arms));
    } else {
      f = ts_node_is_null(l.node) ? g_.atom(l.flag) : build(l.node);
    }
    return l.pos ? f : GuardLogic::negate(std::move(f));
  }

  std::string tag(TSNode leaf) const {
    if (stale_ == nullptr || !*stale_) return {};
    std::string k = (*stale_)(leaf);
    return k.empty() ? k : "\x01" + k + "\x01";
  }

  std::string_view src_;
  std::function<TSNode(std::string_view)> collection_;
  std::function<std::string(TSNode)> alias_;
  GuardLogic g_;
  const std::function<std::string(TSNode)>* stale_ = nullptr;
};

struct Reason {
  std::string cause, kind, bound_in, unbound_path, inside_path;
  int line = 0;
  uint32_t start = 0, end = 0;  // byte range of the construct
  // The tests that hold on each path of the construct that leaves the name unbound; empty
  // with lits_known false when the construct's paths are not tests (loops, try, match).
  std::vector<std::vector<Lit>> unbound_lits;
  bool lits_known = false;
};

struct State {
  bool live = true;
  std::vector<uint8_t> st;
  std::vector<int> why;
  // Names read on every path to here since they were last bound or deleted, where a path may
  // leave them unbound (UnboundOptions::every_read false): that read raises first, so a later
  // read on these paths is not reported. Kept apart from `st`, so that the reasons a later
  // construct gives (`why`) still name the statements that bind the name.
  std::vector<uint8_t> chk;
  bool checked(size_t i) const { return i < chk.size() && chk[i] != 0; }
  void check(size_t i) {
    if (i >= chk.size()) chk.resize(i + 1, 0);
    chk[i] = 1;
  }
  // The name is bound, or read, on this path (for the joins of `chk`).
  bool bound_or_checked(size_t i) const { return get(i) == kBound || checked(i); }
  // Names assigned a constant on every path to here: (name index, 1 truthy / 0 falsy / 2 None).
  std::vector<std::pair<size_t, uint8_t>> known;
  void forget(size_t i) {
    known.erase(std::remove_if(known.begin(), known.end(), [i](const auto& k) { return k.first == i; }), known.end());
  }
  void remember(size_t i, uint8_t v) {
    forget(i);
    known.emplace_back(i, v);
  }
  uint8_t get(size_t i) const { return i < st.size() ? st[i] : kUnbound; }
  int reason(size_t i) const { return i < why.size() ? why[i] : -1; }
  void set(size_t i, uint8_t v, int r) {
    if (i >= st.size()) {
      st.resize(i + 1, kUnbound);
      why.resize(i + 1, -1);
    }
    st[i] = v;
    why[i] = r;
    if (i < chk.size()) chk[i] = 0;  // bound or deleted anew
  }
  static State dead() {
    State s;
    s.live = false;
    return s;
  }
  bool same(const State& o) const {
    if (live != o.live) return false;
    size_t n = std::max({st.size(), o.st.size(), chk.size(), o.chk.size()});
    for (size_t i = 0; i < n; ++i)
      if (get(i) != o.get(i) || checked(i) != o.checked(i)) return false;
    return true;
  }
};

struct Arm {
  State s;
  std::string label;  // for bound_in, e.g. "`if`"
  std::string path;   // how this arm is taken, e.g. "`x > 0` holds"
};

struct Construct {
  std::string cause, kind;
  int line = 0;
  uint32_t start = 0, end = 0;
  std::string plural = "arms";  // "the `if` and `elif` arms"
  std::string inside_path;       // unbound path used for reads inside the construct
};

struct LoopCtx {
  std::vector<State> breaks, continues;
};

// What a finished scope leaves for the scopes nested in it (captured-variable checks).
struct ScopeInfo {
  std::string kind;
  std::unordered_map<std::string, size_t> names;
  // name -> (byte offset of the binding, kind: v variable, i import, d def/class, p parameter)
  std::unordered_map<std::string, std::vector<std::pair<uint32_t, char>>> bindings;
  std::unordered_set<std::string> declared_outer;
  std::vector<Reason> reasons;
  struct Snap {
    State st;
    std::vector<std::pair<uint32_t, uint32_t>> loops;  // enclosing loops' byte ranges
  };
  std::unordered_map<uint32_t, Snap> snaps;  // state where each nested def/class/lambda starts
};

struct ScopeJob {
  TSNode node;         // function_definition / class_definition / lambda / module
  std::string name;    // qualified name
  std::string kind;    // function / class / module / lambda
  std::vector<std::pair<const ScopeInfo*, uint32_t>> chain;  // enclosing scopes, outermost first
};

const std::unordered_set<std::string_view>& noreturn_callees() {
  static const std::unordered_set<std::string_view> s = {
      "sys.exit", "exit", "quit", "os._exit", "os.abort", "assert_never", "typing.assert_never",
      "typing_extensions.assert_never", "self.fail", "self.skipTest", "os.execv", "os.execvp",
      "os.execve", "os.execl", "os.execlp", "os.execvpe",
      // pytest's outcome helpers raise (annotated NoReturn in pytest itself)
      "pytest.skip", "pytest.fail", "pytest.exit", "pytest.xfail"};
  return s;
}

// Module-level names bound once, by a top-level statement of the module, to a list, tuple or set
// display (`KINDS = {"a", "b"}`, `KINDS: set[str] = {…}`), and never changed in the file by the
// ways a display is changed in place or rebound: another `KINDS =` or `KINDS: T =` anywhere in
// the text (a nested or conditional one, or a local of the same name), an augmented assignment, a
// mutating method (`.add(`, `.append(` …), an item assignment, `global`, `del`, `for`, `as` or
// `import` before the name. Read from the module's own statements and its text: a name it cannot
// vouch for is left out (a tuple target, `KINDS, X = …`, is not looked for). The candidates are
// found in one pass over the module's statements when a test first asks (`x in KINDS`); a name's
// text is searched only when a test asks for that name, once.
class ModuleCollections {
 public:
  ModuleCollections(TSNode root, std::string_view src) : root_(root), src_(src) {}

  /// The display `name` is bound to, or a null node when the name is not vouched for.
  TSNode find(std::string_view name) {
    if (!found_) collect();
    auto it = candidates_.find(name);
    if (it == candidates_.end()) return TSNode{};
    if (it->second.second == 0) it->second.second = unchanged(name) ? 1 : 2;
    return it->second.second == 1 ? it->second.first : TSNode{};
  }

 private:
  // The candidates, from the module's top-level statements: on the first question only (most
  // files never ask).
  void collect() {
    found_ = true;
    std::unordered_map<std::string_view, int> bound;
    each_named(root_, [&](TSNode c) {
      if (!is(c, "expression_statement")) return;
      TSNode a = ts_node_named_child(c, 0);
      if (!is(a, "assignment") || !is(field(a, "left"), "identifier")) return;
      const std::string_view nm = node_text(field(a, "left"), src_);
      ++bound[nm];
      TSNode r = field(a, "right");
      if (is(r, "list") || is(r, "tuple") || is(r, "set")) candidates_[nm] = {r, 0};
    });
    for (auto& [nm, c] : candidates_)
      if (bound[nm] != 1) c.second = 2;  // bound twice at the top level
  }

  bool unchanged(std::string_view nm) const {
    const std::string_view src = src_;
    int assigned = 0;  // `NAME =` / `NAME: T =` in the text, the top-level one included
    for (size_t at = src.find(nm); at != std::string_view::npos; at = src.find(nm, at + 1)) {
      const bool starts = at == 0 || !(std::isalnum(static_cast<unsigned char>(src[at - 1])) || src[at - 1] == '_' || src[at - 1] == '.');
      size_t e = at + nm.size();
      if (!starts || (e < src.size() && (std::isalnum(static_cast<unsigned char>(src[e])) || src[e] == '_'))) continue;
      for (std::string_view w : {"global ", "del ", "for ", "as ", "import "})
        if (at >= w.size() && src.substr(at - w.size(), w.size()) == w) return false;
      while (e < src.size() && (src[e] == ' ' || src[e] == '\t')) ++e;
      const std::string_view rest = src.substr(e, 24);
      if (!rest.empty() && rest[0] == '=' && (rest.size() < 2 || rest[1] != '=')) ++assigned;
      if (!rest.empty() && rest[0] == ':') {  // an annotation, `NAME: T = v`: an `=` before the line ends
        const size_t eq = src.find('=', e), eol = src.find('\n', e);
        if (eq != std::string_view::npos && eq < eol && (eq + 1 >= src.size() || src[eq + 1] != '=')) ++assigned;
      }
      if (rest.size() >= 2 && rest[1] == '=' && std::string_view("+-|&^*").find(rest[0]) != std::string_view::npos)
        return false;
      if (!rest.empty() && rest[0] == '[') {  // an item assignment: `NAME[k] = v`
        const size_t close = src.find(']', e), eol = src.find('\n', e);
        if (close != std::string_view::npos && close < eol) {
          size_t q = close + 1;
          while (q < src.size() && src[q] == ' ') ++q;
          if (q + 1 < src.size() && src[q] == '=' && src[q + 1] != '=') return false;
        }
      }
      if (!rest.empty() && rest[0] == '.')
        for (std::string_view m : {".add(", ".append(", ".extend(", ".update(", ".insert(", ".remove(", ".discard(",
                                   ".pop(", ".clear(", ".difference_update(", ".intersection_update(",
                                   ".symmetric_difference_update("})
          if (rest.substr(0, m.size()) == m) return false;
    }
    return assigned == 1;
  }

  TSNode root_;
  std::string_view src_;
  bool found_ = false;  // collect() has run
  // name -> (display, 0 not yet searched / 1 vouched for / 2 not)
  std::unordered_map<std::string_view, std::pair<TSNode, int>> candidates_;
};

class Analyzer {
 public:
  Analyzer(std::string_view src, std::vector<UnboundRead>& out,
           const std::unordered_set<std::string>& noreturn_funcs,
           const std::unordered_set<std::string>& noreturn_methods)
      : src_(src), out_(out), nr_funcs_(noreturn_funcs), nr_methods_(noreturn_methods) {}

  // Analyses one scope; nested scopes are appended to `jobs`.
  // Returns whether the end of the body is reachable and whether any `return` was seen.
  void run(const ScopeJob& job, ScopeInfo& info, std::vector<ScopeJob>* jobs, bool report) {
    info_ = &info;
    info.kind = job.kind;
    job_ = &job;
    jobs_ = jobs;
    report_ = report;
    names_.clear();
    declared_outer_.clear();
    shadow_.clear();
    seen_.clear();
    unpack_alias_.clear();
    unpacked_names_.clear();
    unpack_arity_.clear();
    alias_checks_.clear();
    saw_return_ = false;
    TSNode body = job.kind == "module" ? job.node : field(job.node, "body");
    if (ts_node_is_null(body)) return;
    collect_declarations(body);
    State s;
    if (job.kind == "function" || job.kind == "lambda") bind_parameters(field(job.node, "parameters"), s);
    if (job.kind == "lambda") expr(body, s);
    else block(body, s);
    end_live_ = s.live;
    info.names = names_;
    info.declared_outer = declared_outer_;
    for (TSNode id : pending_) {
      std::string nm(node_text(id, src_));
      if (!names_.count(nm) || info.bindings[nm].empty()) captured_read(id, nm);
    }
    for (const auto& [id, r] : unbound_here_) definite_read(id, r);
    for (const auto& [at, used] : alias_checks_) {
      if (at >= out_.size()) continue;
      for (const auto& nm : used)
        if (auto b = info.bindings.find(nm); b == info.bindings.end() || b->second.size() != 1) {
          out_[at].guarded = false;
          out_[at].guard.clear();
        }
    }
  }

  bool end_live() const { return end_live_; }
  bool saw_return() const { return saw_return_; }

 private:
  std::string_view src_;
  std::vector<UnboundRead>& out_;
  const std::unordered_set<std::string>& nr_funcs_;
  const std::unordered_set<std::string>& nr_methods_;
  const ScopeJob* job_ = nullptr;
  std::vector<ScopeJob>* jobs_ = nullptr;
  bool report_ = true;
  bool end_live_ = true, saw_return_ = false;
  std::unordered_map<std::string, size_t> names_;
  std::vector<std::string> name_list_;
  std::unordered_set<std::string> declared_outer_;
  std::vector<int> shadow_;
  std::set<std::pair<uint32_t, std::string>> seen_;
  std::vector<LoopCtx*> loops_;
  std::vector<std::pair<uint32_t, uint32_t>> loop_ranges_;
  std::vector<TSNode> pending_;  // reads of names not (yet) bound in this scope
  // Reads where the name is unbound on every path (with the reason of a `del`, or -1); decided
  // at the end of the scope, when every binding of the scope is known.
  std::vector<std::pair<TSNode, int>> unbound_here_;
  ScopeInfo* info_ = nullptr;
  std::vector<State*> catchers_;  // exception accumulators of enclosing try bodies
  std::vector<Lit> guards_;       // tests that hold at the current point (enclosing arms)
  // Start byte of a name target of an unpacking of a dotted name -> the item it stands for.
  std::unordered_map<uint32_t, std::string> unpack_alias_;
  std::unordered_set<std::string_view> unpacked_names_;  // the names those targets bind
  std::unordered_map<std::string, size_t> unpack_arity_;  // unpacked text -> item count (0: two counts)
  // Reads judged guarded through such items (index into out_, the names): each name must be
  // bound only once in the scope, or the read is not guarded after all (checked at its end).
  std::vector<std::pair<size_t, std::set<std::string>>> alias_checks_;
  const State* read_state_ = nullptr;  // the state at the read being reported

  // ---- names ----
  size_t index_of(std::string_view name) {
    auto [it, fresh] = names_.try_emplace(std::string(name), names_.size());
    if (fresh) {
      name_list_.resize(names_.size());
      name_list_[it->second] = it->first;
      shadow_.resize(names_.size(), 0);
    }
    return it->second;
  }
  const size_t* find_index(std::string_view name) const {
    auto it = names_.find(std::string(name));
    return it == names_.end() ? nullptr : &it->second;
  }

  void collect_declarations(TSNode n) {
    const char* t = ts_node_type(n);
    if (!std::strcmp(t, "global_statement") || !std::strcmp(t, "nonlocal_statement")) {
      for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
        TSNode c = ts_node_named_child(n, i);
        if (is(c, "identifier")) declared_outer_.emplace(node_text(c, src_));
      }
      return;
    }
    // global/nonlocal are statements: only statement containers need a look
    static const std::unordered_set<std::string_view> containers = {
        "module", "block", "if_statement", "elif_clause", "else_clause", "for_statement",
        "while_statement", "try_statement", "except_clause", "except_group_clause", "finally_clause",
        "with_statement", "match_statement", "case_clause"};
    if (!containers.count(t)) return;
    each_named(n, [&](TSNode k) { collect_declarations(k); });
  }

  // ---- state helpers ----
  void bind_name(std::string_view name, State& s, char kind = 'v', uint32_t at = 0) {
    if (declared_outer_.count(std::string(name))) return;
    size_t i = index_of(name);
    if (shadow_[i] > 0) return;
    auto& b = info_->bindings[std::string(name)];
    if (std::find(b.begin(), b.end(), std::make_pair(at, kind)) == b.end()) b.emplace_back(at, kind);
    if (!s.live) return;
    s.set(i, kBound, -1);
    s.forget(i);
  }
  void bind_id(TSNode id, State& s, char kind = 'v') {
    bind_name(node_text(id, src_), s, kind, ts_node_start_byte(id));
  }

  void note_exception_point(const State& s) {
    if (s.live && !catchers_.empty()) merge_into(*catchers_.back(), s);
  }

  // Plain union without attributing a new reason (used for exception accumulators).
  static void merge_into(State& acc, const State& s) {
    if (!s.live) return;
    if (!acc.live) {
      acc = s;
      return;
    }
    size_t n = std::max(acc.st.size(), s.st.size());
    for (size_t i = 0; i < n; ++i) {
      uint8_t a = acc.get(i), b = s.get(i);
      uint8_t v = a | b;
      int r = acc.reason(i);
      if (v == kMaybe && a != kMaybe) r = s.reason(i) >= 0 && b == kMaybe ? s.reason(i) : r;
      const bool read_first = v != kBound && acc.bound_or_checked(i) && s.bound_or_checked(i);
      acc.set(i, v, r);
      if (read_first) acc.check(i);
    }
  }

  // `lits`, when given, holds for each arm (same order) the tests that hold on it.
  State join(std::vector<Arm>& arms, const Construct& c, const std::vector<std::vector<Lit>>* lits = nullptr) {
    State out = State::dead();
    size_t n = 0;
    for (auto& a : arms)
      if (a.s.live) {
        out.live = true;
        n = std::max(n, a.s.st.size());
      }
    if (!out.live) return out;
    out.st.assign(n, kUnbound);
    out.why.assign(n, -1);
    {  // a constant is known after the construct when every live arm knows the same one
      bool first = true;
      for (auto& a : arms) {
        if (!a.s.live) continue;
        if (first) {
          out.known = a.s.known;
          first = false;
          continue;
        }
        std::vector<std::pair<size_t, uint8_t>> both;
        for (const auto& k : out.known)
          if (std::find(a.s.known.begin(), a.s.known.end(), k) != a.s.known.end()) both.push_back(k);
        out.known = std::move(both);
      }
    }
    for (size_t i = 0; i < n; ++i) {
      uint8_t v = 0;
      // some arm leaves the name unbound with no reason of its own: it was unbound before the
      // construct on that arm, or deleted (a `del` is a reason of its own, below)
      bool some_bound = false, some_unbound = false;
      for (auto& a : arms) {
        if (!a.s.live) continue;
        uint8_t x = a.s.get(i);
        v |= x;
        some_bound |= x == kBound;
        some_unbound |= x == kUnbound || (x == kMaybe && a.s.reason(i) < 0);
      }
      int r = -1;
      // This construct is the reason when it binds the name on some arms and another leaves it
      // as unbound as before. When the arms that do not bind it carry an earlier construct's
      // reason (maybe bound since `if a: y = …`, then `if b: y = g(y)`), the name is as bound
      // after this construct as it was after that one on those paths: the earlier reason
      // stands, with this construct's tests before its paths (compose).
      if (v == kMaybe && some_bound && some_unbound) {
        Reason rs;
        rs.cause = c.cause;
        rs.kind = c.kind;
        rs.line = c.line;
        rs.start = c.start;
        rs.end = c.end;
        rs.inside_path = c.inside_path;
        std::vector<std::string> labels;
        for (auto& a : arms)
          if (a.s.live && a.s.get(i) == kBound && !a.label.empty() &&
              std::find(labels.begin(), labels.end(), a.label) == labels.end())
            labels.push_back(a.label);
        rs.bound_in = "the " + join_words(labels, "and") + " " +
                      (labels.size() == 1 && c.plural == "arms" ? std::string("arm") : c.plural);
        if (c.plural != "arms") rs.bound_in = "the " + join_words(labels, "and");
        for (auto& a : arms) {
          if (!a.s.live || !(a.s.get(i) & kUnbound)) continue;
          rs.unbound_path = a.path;
          int prev = a.s.reason(i);
          if (prev >= 0 && info_->reasons[prev].cause == "del") {
            rs.cause = "del";
            rs.unbound_path = info_->reasons[prev].unbound_path;
          }
          break;
        }
        rs.lits_known = unbound_paths(arms, i, lits, rs.unbound_lits, c.end);
        info_->reasons.push_back(std::move(rs));
        r = static_cast<int>(info_->reasons.size()) - 1;
      } else {
        for (auto& a : arms)
          if (a.s.live && a.s.get(i) == kMaybe && a.s.reason(i) >= 0) {
            r = a.s.reason(i);
            break;
          }
        if (r < 0)
          for (auto& a : arms)
            if (a.s.live && (a.s.get(i) & kUnbound) && a.s.reason(i) >= 0) {
              r = a.s.reason(i);
              break;
            }
        if (v == kMaybe && r >= 0) r = compose(arms, i, r, lits, c.end);
      }
      out.st[i] = v;
      out.why[i] = r;
      bool read_first = v != kBound;  // every live arm bound the name or read it
      for (auto& a : arms)
        if (a.s.live && !a.s.bound_or_checked(i)) read_first = false;
      if (read_first) out.check(i);
    }
    return out;
  }

  // The reason `r` an arm brings in describes only that arm's unbound paths. When another arm
  // leaves the name unbound too (or brings another reason), or binds it (only the arms that do
  // not are still paths), the unbound paths of the whole construct are the union over the arms
  // that leave it unbound, each prefixed with its arm's tests: a copy of `r` with those paths
  // (lits_known false when an arm's tests or inner paths are unknown). Returns `r` itself when
  // it already covers every unbound path.
  int compose(const std::vector<Arm>& arms, size_t i, int r, const std::vector<std::vector<Lit>>* lits, uint32_t end) {
    bool other = false, narrowed = false;
    const Arm* carrier = nullptr;  // the one arm that leaves it unbound, when there is one
    int carriers = 0;
    for (const auto& a : arms) {
      if (!a.s.live) continue;
      if (a.s.get(i) == kBound) narrowed = true;  // the arm that binds it narrows the paths
      if (!(a.s.get(i) & kUnbound)) continue;
      ++carriers;
      carrier = &a;
      if (a.s.get(i) == kUnbound || a.s.reason(i) != r) other = true;
    }
    if (!other && !narrowed) return r;
    Reason nr = info_->reasons[static_cast<size_t>(r)];
    // This construct binds it on its other arms: the one arm that carries the earlier reason is
    // part of every path that leaves it unbound, and the path text says so (`neither a nor b
    // holds, and c does not hold`) when that arm's path names its test (an explicit `else` arm's
    // "the `else` arm runs" would not say which statement's).
    const std::string before = nr.unbound_path;
    if (narrowed && carriers == 1 && !carrier->path.empty() && carrier->label != "`else`" && nr.cause != "del")
      nr.unbound_path = before.empty() ? carrier->path : before + ", and " + carrier->path;
    if (!nr.lits_known && nr.unbound_path == before) return r;
    if (nr.lits_known) {
      nr.unbound_lits.clear();
      nr.lits_known = unbound_paths(arms, i, lits, nr.unbound_lits, end);
    }
    info_->reasons.push_back(std::move(nr));
    return static_cast<int>(info_->reasons.size()) - 1;
  }

  // The paths through the arms of one construct that leave name `i` unbound, each as the tests
  // that hold on it: an arm that leaves it unbound is one path (its tests; none for an arm
  // that is not a test, such as a loop's zero iterations); an arm where it is only maybe bound
  // contributes its tests followed by each unbound path of the reason it carries. Returns false
  // (and clears `out`) when such a reason's paths are unknown.
  bool unbound_paths(const std::vector<Arm>& arms, size_t i, const std::vector<std::vector<Lit>>* lits,
                     std::vector<std::vector<Lit>>& out, uint32_t end) {
    static const std::vector<Lit> none;
    const bool have = lits != nullptr && lits->size() == arms.size();
    for (size_t ai = 0; ai < arms.size(); ++ai) {
      const Arm& a = arms[ai];
      if (!a.s.live || !(a.s.get(i) & kUnbound)) continue;
      std::vector<Lit> here = have ? (*lits)[ai] : none;
      flag_lits(a.s, here, end);
      int ar = a.s.reason(i);
      if (a.s.get(i) == kUnbound || ar < 0) {
        out.push_back(here);
        continue;
      }
      const Reason& inner = info_->reasons[static_cast<size_t>(ar)];
      if (!inner.lits_known) {
        out.clear();
        return false;
      }
      for (const auto& path : inner.unbound_lits) {
        std::vector<Lit> both = here;
        both.insert(both.end(), path.begin(), path.end());
        out.push_back(std::move(both));
      }
      if (out.size() > 64) {  // bounded: a long chain of nested partial bindings is not decided
        out.clear();
        return false;
      }
    }
    return true;
  }

  Construct construct(TSNode n, const char* cause, const char* kind) {
    Construct c;
    c.cause = cause;
    c.kind = kind;
    c.line = line_of(n);
    c.start = ts_node_start_byte(n);
    c.end = ts_node_end_byte(n);
    return c;
  }

  // ---- reads ----
  void read_name(TSNode id, State& s) {
    if (!s.live) return;
    const size_t* ip = find_index(node_text(id, src_));
    if (!ip) {
      if (report_ && !declared_outer_.count(std::string(node_text(id, src_)))) {
        pending_.push_back(id);
        unbound_here_.emplace_back(id, -1);
      }
      return;
    }
    if (shadow_[*ip] > 0) return;
    size_t i = *ip;
    uint8_t v = s.get(i);
    if (s.checked(i)) return;  // an earlier read on every path to here raised first
    if (v == kUnbound && report_) unbound_here_.emplace_back(id, s.reason(i));
    if (v == kMaybe && report_) {
      uint32_t at = ts_node_start_byte(id);
      // A class body falls back to the module's binding when its own is missing.
      bool fallback = job_->kind == "class" && outer_names_ && outer_names_->count(name_list_[i]);
      if (!fallback && seen_.emplace(at, name_list_[i]).second) {
        read_state_ = &s;
        emit(id, name_list_[i], s.reason(i), *info_);
        read_state_ = nullptr;
      }
    }
    if ((v & kUnbound) && !every_read_) s.check(i);  // a failing read raises
  }

  // A read of a name the enclosing scopes bind: checked against the state where the
  // nested scope was created, when no binding of the name can run after that point.
  void captured_read(TSNode id, const std::string& nm) {
    for (auto it = job_->chain.rbegin(); it != job_->chain.rend(); ++it) {
      const ScopeInfo* e = it->first;
      if (e->kind == "class") continue;
      if (e->declared_outer.count(nm)) return;
      auto b = e->bindings.find(nm);
      auto ni = e->names.find(nm);
      if (b == e->bindings.end() || b->second.empty() || ni == e->names.end()) continue;
      auto snap = e->snaps.find(it->second);
      if (snap == e->snaps.end()) return;
      for (auto [at, kind] : b->second) {
        if (kind == 'd') return;
        if (e->kind == "module" && kind != 'i') return;
        if (kind == 'p') continue;
        if (at >= it->second) return;
        for (auto [lb, le] : snap->second.loops)
          if (at >= lb && at < le) return;
      }
      if (snap->second.st.get(ni->second) == kMaybe)
        emit(id, nm, snap->second.st.reason(ni->second), *e);
      return;
    }
  }

  // A read where the name is unbound on every path reaching it, of a name this scope binds
  // somewhere (a local): UnboundLocalError in a function. Module and class bodies fall back to
  // the builtins (and a class body to the module), so there such names are left out.
  void definite_read(TSNode id, int r) {
    std::string nm(node_text(id, src_));
    uint32_t at = ts_node_start_byte(id);
    auto b = info_->bindings.find(nm);
    if (b == info_->bindings.end() || b->second.empty()) return;  // never bound here: a global
    if (job_->kind == "lambda") return;
    if (job_->kind != "function" && python_builtins().count(nm)) return;
    if (job_->kind == "class" && outer_names_ && outer_names_->count(nm)) return;
    if (!seen_.emplace(at, nm).second) return;  // reported already (possibly unbound on a later pass)
    uint32_t next = UINT32_MAX, first = UINT32_MAX;
    for (auto [pos, kind] : b->second) {
      first = std::min(first, pos);
      if (pos > at) next = std::min(next, pos);
    }
    if (first >= at) next = first;
    UnboundRead u;
    u.name = nm;
    TSPoint p = ts_node_start_point(id);
    u.read_line = static_cast<int>(p.row) + 1;
    u.read_column = static_cast<int>(p.column) + 1;
    u.function = job_->name;
    u.scope_kind = job_->kind;
    u.definite = true;
    if (r >= 0 && info_->reasons[static_cast<size_t>(r)].cause == "del") {
      const Reason& rs = info_->reasons[static_cast<size_t>(r)];
      u.cause = "del";
      u.branch_line = rs.line;
      u.branch_kind = rs.kind;
      u.bound_in = rs.bound_in;
      u.unbound_path = "the `del` at line " + std::to_string(rs.line) + " unbinds it on every path";
    } else {
      u.cause = "before_binding";
      uint32_t where = first < at ? first : next;
      u.branch_line = 1 + static_cast<int>(std::count(src_.begin(), src_.begin() + std::min<size_t>(where, src_.size()), '\n'));
      u.branch_kind = "binding";
      u.bound_in = "line " + std::to_string(u.branch_line);
      u.unbound_path = first > at ? "it is first bound at line " + std::to_string(u.branch_line) + ", below the read"
                                  : "only other paths bind it (line " + std::to_string(u.branch_line) + ")";
    }
    out_.push_back(std::move(u));
  }

  static const std::unordered_set<std::string>& python_builtins() {
    // dir(builtins) of CPython 3.12, less the dunder names.
    static const std::unordered_set<std::string> names = {
        "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup",
        "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError",
        "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
        "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning", "EnvironmentError", "Exception",
        "ExceptionGroup", "False", "FileExistsError", "FileNotFoundError", "FloatingPointError", "FutureWarning",
        "GeneratorExit", "IOError", "ImportError", "ImportWarning", "IndentationError", "IndexError",
        "InterruptedError", "IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError",
        "ModuleNotFoundError", "NameError", "None", "NotADirectoryError", "NotImplemented", "NotImplementedError",
        "OSError", "OverflowError", "PendingDeprecationWarning", "PermissionError", "ProcessLookupError",
        "PythonFinalizationError", "RecursionError", "ReferenceError", "ResourceWarning", "RuntimeError",
        "RuntimeWarning", "StopAsyncIteration", "StopIteration", "SyntaxError", "SyntaxWarning", "SystemError",
        "SystemExit", "TabError", "TimeoutError", "True", "TypeError", "UnboundLocalError", "UnicodeDecodeError",
        "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError", "UnicodeWarning", "UserWarning",
        "ValueError", "Warning", "ZeroDivisionError", "abs", "aiter", "all", "anext", "any", "ascii", "bin",
        "bool", "breakpoint", "bytearray", "bytes", "callable", "chr", "classmethod", "compile", "complex",
        "copyright", "credits", "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec", "exit",
        "filter", "float", "format", "frozenset", "getattr", "globals", "hasattr", "hash", "help", "hex", "id",
        "input", "int", "isinstance", "issubclass", "iter", "len", "license", "list", "locals", "map", "max",
        "memoryview", "min", "next", "object", "oct", "open", "ord", "pow", "print", "property", "quit",
        "range", "repr", "reversed", "round", "set", "setattr", "slice", "sorted", "staticmethod", "str",
        "sum", "super", "tuple", "type", "vars", "zip", "__name__", "__file__", "__doc__", "__spec__",
        "__loader__", "__package__", "__builtins__", "__debug__", "__import__", "__build_class__"};
    return names;
  }

  void nested(TSNode n, const State& s, const char* kind) {
    uint32_t at = ts_node_start_byte(n);
    if (s.live) info_->snaps[at] = ScopeInfo::Snap{s, loop_ranges_};
    if (!jobs_) return;
    ScopeJob j{n, std::string(kind) == "lambda" ? job_->name + ".<lambda>" : qualified(n), kind, job_->chain};
    j.chain.emplace_back(info_, at);
    jobs_->push_back(std::move(j));
  }

  // The item a name stands for when its only binding seen so far is one target of an unpacking
  // of a dotted name (`B, T, H, BT = A.shape`: "A.shape[-1]"); "" otherwise.
  std::string alias_of(std::string_view nm) const {
    auto b = info_->bindings.find(std::string(nm));
    if (b == info_->bindings.end() || b->second.size() != 1) return {};
    auto a = unpack_alias_.find(b->second.front().first);
    return a == unpack_alias_.end() ? std::string() : a->second;
  }

  // `E[i]` (an integer index, i >= 0) written from the end, `E[i - n]`, when E was unpacked
  // into n names in this scope (an unpacking succeeds only for exactly n items, so where it has
  // run the two are one item); "" otherwise.
  std::string item_of(TSNode n) const {
    if (!is(n, "subscript") || ts_node_named_child_count(n) != 2) return {};
    TSNode idx = field(n, "subscript");
    if (!is(idx, "integer")) return {};
    const std::string value(node_text(field(n, "value"), src_));
    auto a = unpack_arity_.find(value);
    if (a == unpack_arity_.end() || a->second == 0) return {};
    const std::string_view digits = node_text(idx, src_);
    if (digits.empty() || digits.size() > 4 || digits.find_first_not_of("0123456789") != std::string_view::npos) return {};
    const size_t i = static_cast<size_t>(std::stoi(std::string(digits)));
    if (i >= a->second) return {};
    return value + "[-" + std::to_string(a->second - i) + "]";
  }

  // Where the test of `l` was evaluated: its node's first byte (a path of a composed reason holds
  // tests of earlier constructs too), or `start` (the construct's) for a flag.
  static uint32_t tested_at(const Lit& l, uint32_t start) {
    return ts_node_is_null(l.node) ? start : std::min(start, ts_node_start_byte(l.node));
  }

  // Whether the tests of unbound path `path` (flags left out) cannot all hold at once: `tests`
  // holds each one's formula (built from where it was tested, so a test whose names are bound
  // again between it and the read relates to nothing); at most kMaxGuardAtoms atoms.
  static bool self_contradictory(const Logic& lg, const std::vector<Lit>& path, const std::vector<Formula>& tests) {
    std::vector<const Formula*> fs;
    std::set<int> atoms;
    for (size_t li = 0; li < path.size(); ++li) {
      if (ts_node_is_null(path[li].node) && path[li].any.empty()) continue;  // a flag
      fs.push_back(&tests[li]);
      Logic::atoms_of(tests[li], atoms);
    }
    if (fs.size() < 2 || atoms.empty() || static_cast<int>(atoms.size()) > kMaxGuardAtoms) return false;
    return lg.unsat(fs, std::vector<int>(atoms.begin(), atoms.end()));
  }

  // Sets u.guarded / u.guard when the tests enclosing the read (guards_) rule out every
  // unbound path of `rs`, and no name those tests read is rebound after the construct starts.
  void guard_check(const Reason& rs, uint32_t read_at, UnboundRead& u) {
    bool would_alias = false;  // a test compares a name or item that an unpacking gives another text
    guard_check(rs, read_at, u, nullptr, unpack_alias_.empty() ? nullptr : &would_alias);
    if (u.guarded || !would_alias) return;
    // Again with the names unpacked from a dotted name read as its items; kept only if each such
    // name turns out to be bound once in the scope (checked when the scope ends, see run).
    std::set<std::string> used;
    guard_check(rs, read_at, u, &used);
    if (u.guarded && !used.empty()) alias_checks_.emplace_back(out_.size(), std::move(used));
  }

  // `aliases`: null = compare names as written; else a name unpacked from a dotted name (and
  // bound only there so far) is compared as that item, and each one so used is added.
  // `would_alias` (with `aliases` null): set when a test has such a name or item, so that the
  // pass with aliases is run only when it can decide otherwise.
  void guard_check(const Reason& rs, uint32_t read_at, UnboundRead& u, std::set<std::string>* aliases,
                   bool* would_alias = nullptr) {
    // What holds at the read: the enclosing tests, and the flags the path assigned constants.
    std::vector<Lit> held = guards_;
    if (read_state_) flag_lits(*read_state_, held, read_at);
    if (rs.unbound_lits.empty()) return;
    std::function<std::string(TSNode)> alias;
    if (would_alias)
      alias = [this, would_alias](TSNode operand) -> std::string {
        if (!*would_alias)
          *would_alias = is(operand, "identifier") ? unpacked_names_.count(node_text(operand, src_)) > 0
                                                   : !item_of(operand).empty();
        return {};
      };
    if (aliases)
      alias = [this, aliases](TSNode operand) -> std::string {
        if (!is(operand, "identifier")) return item_of(operand);
        std::string nm(node_text(operand, src_));
        std::string a = alias_of(nm);
        if (!a.empty()) aliases->emplace(std::move(nm));
        return a;
      };
    Logic lg(
        src_,
        // a module constant's display, unless this scope binds the name itself
        [this](std::string_view nm) -> TSNode {
          if (!module_collections_ || names_.count(std::string(nm))) return TSNode{};
          return module_collections_->find(nm);
        },
        std::move(alias));
    // The tests must still mean what they meant: a leaf test (an atom or one comparison) that
    // reads a name rebound between the test (or the start of the construct, for a test
    // evaluated in it) and the read is an atom of its own, related to nothing else. So
    // `if a or b.c is None: x = …` … `b = …` … `if a: use(x)` is still decided by `a`. Flags
    // are followed along the path and need no such check.
    auto stale_from = [&](uint32_t from, std::string key, uint32_t start) {
      return [this, from, read_at, start, key](TSNode leaf) -> std::string {
        std::unordered_set<std::string> names;
        collect_identifiers(leaf, names, 0);
        std::string text = normalise_condition(node_text(leaf, src_));
        for (const auto& nm : names)
          if (rebound(nm, text, start, from, read_at)) return key;
        return {};
      };
    };
    std::vector<Formula> gs;
    for (size_t gi = 0; gi < held.size(); ++gi) {
      // A test learnt before the construct (an assert, an early return) stops holding where a
      // name it reads is bound again, before the construct as well as after it.
      const uint32_t at = ts_node_is_null(held[gi].node) ? rs.start : ts_node_start_byte(held[gi].node);
      gs.push_back(lg.lit(held[gi], stale_from(at, "guard" + std::to_string(gi), std::min(rs.start, at))));
    }
    std::string used;
    std::vector<bool> relevant(held.size(), false);  // what took part
    std::set<int> held_atoms;
    std::set<std::string> held_subjects;
    for (const auto& g : gs) Logic::atoms_of(g, held_atoms);
    for (int a : held_atoms)
      if (std::string sj = lg.subject(a); !sj.empty()) held_subjects.insert(sj);
    for (const auto& path : rs.unbound_lits) {
      // Each test and flag of the path as a formula, built once; a test goes stale from where
      // it was tested (tested_at).
      std::vector<Formula> tests;
      tests.reserve(path.size());
      for (size_t li = 0; li < path.size(); ++li) {
        const uint32_t at = tested_at(path[li], rs.start);
        tests.push_back(lg.lit(path[li], stale_from(at, "path" + std::to_string(li), at)));
      }
      // A path whose own tests contradict each other is never taken (`if x is None: …` then
      // `elif x is not None: …` and no `else`).
      if (self_contradictory(lg, path, tests)) {
        if (used.empty()) used = "the construct's own tests (one of them always holds)";
        continue;
      }
      if (held.empty()) return;  // nothing at the read speaks about this path
      // The pieces that may take part: the path's tests and flags that share an atom (or a
      // `v == literal` subject) with what holds at the read, and what holds that shares one
      // with them. Leaving a piece out only weakens the argument, so the answer stays sound;
      // the smallest pieces go first until kMaxGuardAtoms atoms are in use.
      struct Piece {
        Formula f;
        std::set<int> atoms;
        int guard = -1;      // index into `held`, or -1 for a path piece
        TSNode node{};       // a path test (null for a flag)
      };
      std::vector<Piece> pieces;
      std::set<int> path_atoms;
      auto same_flag = [](const Lit& x, const Lit& y) {
        return ts_node_is_null(x.node) && ts_node_is_null(y.node) && x.flag == y.flag && x.pos == y.pos;
      };
      for (size_t li = 0; li < path.size(); ++li) {
        const Lit& l = path[li];
        if (ts_node_is_null(l.node) && !flag_still_holds(l, read_at)) continue;  // stale flag
        // A flag the read knows just the same cannot contradict anything.
        if (std::any_of(held.begin(), held.end(), [&](const Lit& h) { return same_flag(h, l); })) continue;
        Piece p{tests[li], {}, -1, l.node};
        Logic::atoms_of(p.f, p.atoms);
        bool touches = std::any_of(p.atoms.begin(), p.atoms.end(), [&](int x) {
          return held_atoms.count(x) > 0 || held_subjects.count(lg.subject(x)) > 0;
        });
        if (!touches) continue;
        path_atoms.insert(p.atoms.begin(), p.atoms.end());
        pieces.push_back(std::move(p));
      }
      if (pieces.empty()) return;  // nothing at the read speaks about this path
      std::set<std::string> subjects;
      for (int x : path_atoms)
        if (std::string sj = lg.subject(x); !sj.empty()) subjects.insert(sj);
      for (size_t gi = 0; gi < gs.size(); ++gi) {
        if (std::any_of(path.begin(), path.end(), [&](const Lit& l) { return same_flag(held[gi], l); })) continue;
        Piece p{gs[gi], {}, static_cast<int>(gi), {}};
        Logic::atoms_of(p.f, p.atoms);
        bool shares = std::any_of(p.atoms.begin(), p.atoms.end(), [&](int x) {
          return path_atoms.count(x) > 0 || (!subjects.empty() && subjects.count(lg.subject(x)) > 0);
        });
        if (shares) pieces.push_back(std::move(p));
      }
      // Tests before flags, then the smallest first.
      auto is_flag = [&](const Piece& p) {
        return p.guard >= 0 ? ts_node_is_null(held[static_cast<size_t>(p.guard)].node) : ts_node_is_null(p.node);
      };
      std::stable_sort(pieces.begin(), pieces.end(), [&](const Piece& x, const Piece& y) {
        return std::make_pair(is_flag(x), x.atoms.size()) < std::make_pair(is_flag(y), y.atoms.size());
      });
      std::set<int> use;
      std::vector<const Piece*> chosen;
      bool has_guard = false, has_path = false;
      for (const Piece& p : pieces) {
        std::set<int> grown = use;
        grown.insert(p.atoms.begin(), p.atoms.end());
        if (static_cast<int>(grown.size()) > kMaxGuardAtoms) continue;
        use = std::move(grown);
        chosen.push_back(&p);
        (p.guard >= 0 ? has_guard : has_path) = true;
      }
      if (!has_guard || !has_path || use.empty()) return;
      auto contradicts = [&](const std::vector<const Piece*>& set) {
        std::vector<const Formula*> fs;
        std::set<int> at;
        for (const Piece* p : set) {
          fs.push_back(&p->f);
          at.insert(p->atoms.begin(), p->atoms.end());
        }
        return !at.empty() && lg.unsat(fs, std::vector<int>(at.begin(), at.end()));
      };
      if (!contradicts(chosen)) return;
      // Keep only the pieces the contradiction needs (largest dropped first): the guard left
      // is the one the finding names.
      for (size_t k = chosen.size(); k-- > 0;) {
        std::vector<const Piece*> fewer = chosen;
        fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(k));
        if (contradicts(fewer)) chosen = std::move(fewer);
      }
      std::string why;
      for (const Piece* p : chosen) {
        if (p->guard < 0) continue;
        relevant[static_cast<size_t>(p->guard)] = true;
        const Lit& g = held[static_cast<size_t>(p->guard)];
        if (why.empty() && !g.any.empty()) {
          why = "one of the arms of the `if` at line " + std::to_string(line_of(g.node)) + " that continue";
        } else if (why.empty() && !ts_node_is_null(g.node)) {
          TSNode gn = g.node;
          bool pos = g.pos;
          if (is(gn, "not_operator")) gn = field(gn, "argument"), pos = !pos;
          why = (pos ? "" : "not ") + std::string("`") + short_text(gn, src_) + "`";
        }
      }
      if (used.empty()) used = why;
    }
    if (used.empty()) {  // decided by flags alone
      for (size_t gi = 0; gi < held.size() && used.empty(); ++gi)
        if (relevant[gi] && ts_node_is_null(held[gi].node))
          used = (held[gi].pos ? "`" : "not `") + held[gi].flag + "` (assigned on the way)";
    }
    u.guarded = true;
    u.guard = used;
  }

  // The target identifier of the binding that starts at byte `at`; null when there is none.
  TSNode binding_target(uint32_t at) const {
    if (at == 0 || ts_node_is_null(job_->node)) return TSNode{};
    TSNode id = ts_node_named_descendant_for_byte_range(ts_tree_root_node(job_->node.tree), at, at + 1);
    return is(id, "identifier") ? id : TSNode{};
  }

  // Whether `name`, read by the test text `text`, is rebound after byte `from` and before byte
  // `to` in a way that may change the test: a name fetched again with the same right-hand side
  // as its binding before byte `start` (`g = get_group()` twice) keeps its meaning, and `p += k`
  // cannot make `p` None (it would raise first).
  bool rebound(const std::string& name, const std::string& text, uint32_t start, uint32_t from, uint32_t to) const {
    auto b = info_->bindings.find(name);
    if (b == info_->bindings.end()) return false;
    uint32_t before = 0;
    bool has_before = false;
    for (auto [at, kind] : b->second)
      if (at < start && (!has_before || at > before)) before = at, has_before = true;
    std::string before_rhs = has_before ? assigned_text(before) : std::string();
    bool none_test = only_none_tests(text, name);
    for (auto [at, kind] : b->second) {
      if (at <= from || at >= to) continue;
      if (none_test && is_augmented(at)) continue;
      if (before_rhs.empty() || assigned_text(at) != before_rhs) return true;
    }
    return false;
  }

  // The right-hand side (whitespace-normalised) of the plain `name = value` assignment whose
  // target starts at byte `at`; "" for any other kind of binding.
  std::string assigned_text(uint32_t at) const {
    TSNode id = binding_target(at);
    TSNode a = ts_node_is_null(id) ? id : ts_node_parent(id);
    if (!is(a, "assignment") || !ts_node_eq(field(a, "left"), id)) return {};
    TSNode r = field(a, "right");
    return ts_node_is_null(r) ? std::string() : normalise_condition(node_text(r, src_));
  }

  // Whether the binding whose target starts at byte `at` is an augmented assignment (`x += 1`).
  bool is_augmented(uint32_t at) const {
    TSNode id = binding_target(at);
    return !ts_node_is_null(id) && is(ts_node_parent(id), "augmented_assignment");
  }

  // Whether every whole-word occurrence of `name` in the test text `t` is `name is None` or
  // `name is not None`.
  static bool only_none_tests(const std::string& t, const std::string& name) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; };
    for (size_t p = t.find(name); p != std::string::npos; p = t.find(name, p + 1)) {
      if ((p > 0 && word(t[p - 1])) || (p + name.size() < t.size() && word(t[p + name.size()]))) continue;
      std::string_view rest = std::string_view(t).substr(p + name.size());
      if (rest.rfind(" is None", 0) != 0 && rest.rfind(" is not None", 0) != 0) return false;
    }
    return true;
  }

  void collect_identifiers(TSNode n, std::unordered_set<std::string>& out, int depth) {
    if (ts_node_is_null(n) || depth > 64) return;
    if (is(n, "identifier")) {
      out.emplace(node_text(n, src_));
      return;
    }
    if (is(n, "attribute")) {  // `a.b.c` reads `a`
      collect_identifiers(field(n, "object"), out, depth + 1);
      return;
    }
    each_named(n, [&](TSNode k) { collect_identifiers(k, out, depth + 1); });
  }

  void emit(TSNode id, const std::string& name, int r, const ScopeInfo& where) {
    UnboundRead u;
    u.name = name;
    TSPoint p = ts_node_start_point(id);
    u.read_line = static_cast<int>(p.row) + 1;
    u.read_column = static_cast<int>(p.column) + 1;
    u.function = job_->name;
    u.scope_kind = job_->kind;
    if (r >= 0) {
      const Reason& rs = where.reasons[r];
      u.cause = rs.cause;
      u.branch_line = rs.line;
      u.branch_kind = rs.kind;
      u.bound_in = rs.bound_in;
      uint32_t at = ts_node_start_byte(id);
      u.unbound_path = (at >= rs.start && at < rs.end && !rs.inside_path.empty()) ? rs.inside_path
                                                                                    : rs.unbound_path;
      if (&where == info_ && rs.lits_known && at >= rs.end) guard_check(rs, at, u);
    } else {
      u.cause = "branch";
    }
    out_.push_back(std::move(u));
  }

 public:
  const std::unordered_set<std::string>* outer_names_ = nullptr;
  // Module-level constants bound to a list, tuple or set display (module_collections).
  ModuleCollections* module_collections_ = nullptr;
  bool every_read_ = true;
  bool lazy_annotations_ = false;  // `from __future__ import annotations`

 private:
  // Expression walk: reads in evaluation order; walrus binds; and/or/ternary are conditional.
  void expr(TSNode n, State& s) {
    if (ts_node_is_null(n) || !s.live) return;
    const char* t = ts_node_type(n);
    if (!std::strcmp(t, "identifier")) {
      read_name(n, s);
      return;
    }
    if (!std::strcmp(t, "attribute")) {
      expr(field(n, "object"), s);
      return;
    }
    if (!std::strcmp(t, "keyword_argument")) {
      expr(field(n, "value"), s);
      return;
    }
    if (!std::strcmp(t, "string_content") || !std::strcmp(t, "comment")) return;
    if (!std::strcmp(t, "named_expression")) {
      expr(field(n, "value"), s);
      TSNode nm = field(n, "name");
      if (is(nm, "identifier")) bind_id(nm, s);
      return;
    }
    if (!std::strcmp(t, "lambda")) {
      TSNode ps = field(n, "parameters");
      if (!ts_node_is_null(ps)) defaults(ps, s);
      nested(n, s, "lambda");
      return;
    }
    if (!std::strcmp(t, "boolean_operator")) {
      auto [yes, no] = cond(n, s);
      std::vector<Arm> arms{{std::move(yes), "", ""}, {std::move(no), "", ""}};
      s = join(arms, construct(n, "branch", "if"));
      return;
    }
    if (!std::strcmp(t, "conditional_expression")) {
      // children: body, condition, alternative
      TSNode a = ts_node_named_child(n, 0), c = ts_node_named_child(n, 1), b = ts_node_named_child(n, 2);
      auto [sa, sb] = cond(c, s);
      guards_.push_back({c, true});
      expr(a, sa);
      guards_.back().pos = false;
      expr(b, sb);
      guards_.pop_back();
      std::vector<Arm> arms{{sa, "`if`", "`" + short_text(c, src_) + "` holds"},
                            {sb, "`else`", "`" + short_text(c, src_) + "` does not hold"}};
      std::vector<std::vector<Lit>> lits{{{c, true}}, {{c, false}}};
      s = join(arms, construct(n, "branch", "if"), &lits);
      return;
    }
    if (!std::strcmp(t, "list_comprehension") || !std::strcmp(t, "set_comprehension") ||
        !std::strcmp(t, "dictionary_comprehension") || !std::strcmp(t, "generator_expression")) {
      comprehension(n, s);
      return;
    }
    each_named(n, [&](TSNode k) { expr(k, s); });
  }

  // Evaluates a condition; returns the states where it is true and where it is false
  // (walrus bindings on `and`/`or` paths, constant conditions).
  std::pair<State, State> cond(TSNode n, const State& in) {
    State s = in;
    if (ts_node_is_null(n) || !s.live) return {s, s};
    int k = constant_truth(n, src_);
    if (is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1)
      return cond(ts_node_named_child(n, 0), s);
    if (is(n, "not_operator")) {
      auto [y, f] = cond(field(n, "argument"), s);
      return {std::move(f), std::move(y)};
    }
    if (is(n, "boolean_operator")) {
      TSNode op = field(n, "operator");
      bool is_and = node_text(op, src_) == "and";
      TSNode left = field(n, "left"), right = field(n, "right");
      auto [ly, ln] = cond(left, s);
      Construct c = construct(n, "branch", "if");
      // The right operand runs where the left one decided nothing yet.
      guards_.push_back({left, is_and});
      auto [ry, rn] = cond(right, is_and ? ly : ln);
      guards_.pop_back();
      if (is_and) {
        std::vector<Arm> arms{{std::move(ln), "", ""}, {std::move(rn), "", ""}};
        std::vector<std::vector<Lit>> lits{{{left, false}}, {{left, true}, {right, false}}};
        return {std::move(ry), join(arms, c, &lits)};
      }
      std::vector<Arm> arms{{std::move(ly), "", ""}, {std::move(ry), "", ""}};
      std::vector<std::vector<Lit>> lits{{{left, true}}, {{left, false}, {right, true}}};
      return {join(arms, c, &lits), std::move(rn)};
    }
    expr(n, s);
    if (k == 1) return {s, State::dead()};
    if (k == 0) return {State::dead(), s};
    // Narrowing (as Pyright does): where `x` or `isinstance(x, T)` holds, x is bound
    // (Pyright does not narrow the unbound part away for `x is not None`).
    TSNode narrowed{};
    if (is(n, "identifier")) {
      narrowed = n;
    } else if (is(n, "call") && node_text(field(n, "function"), src_) == "isinstance") {
      TSNode a0 = ts_node_named_child(field(n, "arguments"), 0);
      if (is(a0, "identifier")) narrowed = a0;
    }
    State yes = s;
    if (!ts_node_is_null(narrowed) && yes.live) {
      const size_t* ip = find_index(node_text(narrowed, src_));
      if (ip && yes.get(*ip) == kMaybe) yes.set(*ip, kBound, -1);
    }
    return {std::move(yes), s};
  }

  void comprehension(TSNode n, State& s) {
    std::vector<TSNode> clauses;
    TSNode body = field(n, "body");
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (is(c, "for_in_clause") || is(c, "if_clause")) clauses.push_back(c);
    }
    std::vector<size_t> shadowed;
    bool first = true;
    State inner = s;
    State* cur = &s;
    for (TSNode c : clauses) {
      if (is(c, "for_in_clause")) {
        TSNode right = field(c, "right");
        // The first iterable is evaluated in the enclosing scope; the rest inside.
        for (TSNode r = right; !ts_node_is_null(r); r = ts_node_next_named_sibling(r)) {
          if (ts_node_start_byte(r) < ts_node_start_byte(right)) continue;
          expr(r, *cur);
        }
        if (first) {
          inner = s;
          cur = &inner;
          first = false;
        }
        shadow_targets(field(c, "left"), shadowed);
      } else {
        each_named(c, [&](TSNode k) { expr(k, *cur); });
      }
    }
    expr(body, *cur);
    for (size_t i : shadowed) --shadow_[i];
    if (cur == &inner) {
      std::vector<Arm> arms{{s, "", ""}, {inner, "", ""}};
      s = join(arms, construct(n, "loop", "for"));
    }
  }

  void shadow_targets(TSNode t, std::vector<size_t>& out) {
    if (ts_node_is_null(t)) return;
    if (is(t, "identifier")) {
      size_t i = index_of(node_text(t, src_));
      ++shadow_[i];
      out.push_back(i);
      return;
    }
    each_named(t, [&](TSNode k) { shadow_targets(k, out); });
  }

  // Defaults and annotations are evaluated where the function is defined.
  void defaults(TSNode params, State& s) {
    for (uint32_t i = 0; i < ts_node_named_child_count(params); ++i) {
      TSNode p = ts_node_named_child(params, i);
      if (is(p, "default_parameter") || is(p, "typed_default_parameter")) expr(field(p, "value"), s);
      if (!lazy_annotations_ && (is(p, "typed_parameter") || is(p, "typed_default_parameter")))
        expr(field(p, "type"), s);
    }
  }

  void bind_parameters(TSNode params, State& s) {
    if (ts_node_is_null(params)) return;
    each_named(params, [&](TSNode k) { bind_param(k, s); });
  }
  void bind_param(TSNode p, State& s) {
    if (is(p, "identifier")) {
      bind_id(p, s, 'p');
    } else if (is(p, "default_parameter") || is(p, "typed_default_parameter")) {
      bind_param(field(p, "name"), s);
    } else if (is(p, "type")) {
      return;
    } else {
      each_named(p, [&](TSNode k) { bind_param(k, s); });
    }
  }

  // Assignment targets: names bind; attribute/subscript targets read their objects.
  void bind_target(TSNode t, State& s) {
    if (ts_node_is_null(t)) return;
    const char* ty = ts_node_type(t);
    if (!std::strcmp(ty, "identifier")) {
      bind_id(t, s);
    } else if (!std::strcmp(ty, "attribute") || !std::strcmp(ty, "subscript")) {
      expr(t, s);
    } else {
      each_named(t, [&](TSNode k) { bind_target(k, s); });
    }
  }

  // ---- statements ----
  void block(TSNode b, State& s) {
    size_t mark = guards_.size();  // tests learnt inside the block (early exits, asserts) end with it
    each_named(b, [&](TSNode k) {
      if (!s.live) return;
      statement(k, s);
      note_exception_point(s);
    });
    guards_.resize(mark);
  }

  bool is_noreturn_call(TSNode call) {
    TSNode fn = field(call, "function");
    std::string_view f = node_text(fn, src_);
    if (noreturn_callees().count(f)) return true;
    if (is(fn, "identifier")) return nr_funcs_.count(std::string(f)) > 0;
    if (is(fn, "attribute")) {
      TSNode obj = field(fn, "object");
      std::string_view o = node_text(obj, src_);
      std::string_view m = node_text(field(fn, "attribute"), src_);
      if (o == "self" || o == "cls") return nr_methods_.count(std::string(m)) > 0;
      // argparse's ArgumentParser.error/exit never return; the receiver's type is unknown
      // here, so the receiver's name must say it is a parser.
      if ((m == "error" || m == "exit") && o.find("parser") != std::string_view::npos) return true;
    }
    return false;
  }

  static int constant_truth(TSNode c, std::string_view src) {
    if (ts_node_is_null(c)) return -1;
    if (is(c, "parenthesized_expression") && ts_node_named_child_count(c) == 1)
      return constant_truth(ts_node_named_child(c, 0), src);
    if (is(c, "not_operator")) {
      int v = constant_truth(field(c, "argument"), src);
      return v < 0 ? -1 : 1 - v;
    }
    std::string_view t = node_text(c, src);
    if (is(c, "true") || t == "TYPE_CHECKING" || t == "typing.TYPE_CHECKING") return 1;
    if (is(c, "false") || is(c, "none")) return 0;
    if (is(c, "integer")) return t == "0" ? 0 : 1;
    return -1;
  }

  void statement(TSNode n, State& s) {
    const char* t = ts_node_type(n);
    if (!std::strcmp(t, "expression_statement")) {
      for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
        TSNode c = ts_node_named_child(n, i);
        if (is(c, "assignment")) {
          assignment(c, s);
        } else if (is(c, "augmented_assignment")) {
          TSNode l = field(c, "left");
          expr(field(c, "right"), s);
          if (is(l, "identifier")) {
            read_name(l, s);
            bind_id(l, s);
          } else {
            expr(l, s);
          }
        } else {
          expr(c, s);
          if (is(c, "call") && is_noreturn_call(c)) {
            note_exception_point(s);
            s = State::dead();
          }
        }
      }
    } else if (!std::strcmp(t, "return_statement")) {
      saw_return_ = true;
      each_named(n, [&](TSNode k) { expr(k, s); });
      note_exception_point(s);
      s = State::dead();
    } else if (!std::strcmp(t, "raise_statement")) {
      each_named(n, [&](TSNode k) { expr(k, s); });
      note_exception_point(s);
      s = State::dead();
    } else if (!std::strcmp(t, "assert_statement")) {
      TSNode c = ts_node_named_child(n, 0);
      auto [y, f] = cond(c, s);
      note_exception_point(f);
      s = std::move(y);
      if (!ts_node_is_null(c)) guards_.push_back({c, true});  // holds for the rest of the block
    } else if (!std::strcmp(t, "break_statement") || !std::strcmp(t, "continue_statement")) {
      if (!loops_.empty()) {
        auto& v = t[0] == 'b' ? loops_.back()->breaks : loops_.back()->continues;
        v.push_back(s);
      }
      s = State::dead();
    } else if (!std::strcmp(t, "delete_statement")) {
      del_targets(n, s, n);
    } else if (!std::strcmp(t, "import_statement") || !std::strcmp(t, "import_from_statement")) {
      imports(n, s);
    } else if (!std::strcmp(t, "function_definition")) {
      function_def(n, s);
    } else if (!std::strcmp(t, "class_definition")) {
      class_def(n, s);
    } else if (!std::strcmp(t, "decorated_definition")) {
      for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
        TSNode c = ts_node_named_child(n, i);
        if (is(c, "decorator")) expr(c, s);
      }
      TSNode d = field(n, "definition");
      if (is(d, "function_definition")) function_def(d, s);
      else if (is(d, "class_definition")) class_def(d, s);
    } else if (!std::strcmp(t, "if_statement")) {
      if_stmt(n, s);
    } else if (!std::strcmp(t, "for_statement") || !std::strcmp(t, "while_statement")) {
      loop(n, s);
    } else if (!std::strcmp(t, "try_statement")) {
      try_stmt(n, s);
    } else if (!std::strcmp(t, "with_statement")) {
      with_stmt(n, s);
    } else if (!std::strcmp(t, "match_statement")) {
      match_stmt(n, s);
    } else if (!std::strcmp(t, "type_alias_statement")) {
      TSNode l = ts_node_named_child(n, 0);
      if (is(l, "type")) l = ts_node_named_child(l, 0);
      if (is(l, "identifier")) bind_id(l, s);
    } else if (!std::strcmp(t, "global_statement") || !std::strcmp(t, "nonlocal_statement") ||
               !std::strcmp(t, "pass_statement") || !std::strcmp(t, "future_import_statement") ||
               !std::strcmp(t, "comment")) {
    } else if (!std::strcmp(t, "block")) {
      block(n, s);
    } else {
      each_named(n, [&](TSNode k) { expr(k, s); });
    }
  }

  void assignment(TSNode a, State& s) {
    std::vector<TSNode> targets;
    TSNode cur = a;
    while (is(cur, "assignment")) {
      targets.push_back(field(cur, "left"));
      TSNode r = field(cur, "right");
      if (ts_node_is_null(r)) {
        // annotation only (`x: int`): nothing is bound; the annotation is evaluated
        if (!lazy_annotations_) expr(field(cur, "type"), s);
        return;
      }
      cur = r;
    }
    expr(cur, s);
    if (!lazy_annotations_) expr(field(a, "type"), s);
    for (TSNode t : targets) bind_target(t, s);
    // `B, T, H, BT = A.shape`: each plain name target stands for one item of a dotted name
    // (`A.shape[-1]`), counted from the end so that an assert written `A.shape[-1]` meets it.
    if (targets.size() == 1 && (is(targets[0], "pattern_list") || is(targets[0], "tuple_pattern")) &&
        (is(cur, "identifier") || Logic::dotted_name(cur))) {
      std::vector<TSNode> items;
      bool plain = true;
      each_named(targets[0], [&](TSNode k) {
        if (is(k, "comment")) return;
        plain = plain && is(k, "identifier");
        items.push_back(k);
      });
      if (plain) {
        const std::string value(node_text(cur, src_));
        // Two unpackings of one text into different counts: not known which holds where.
        auto [it, fresh] = unpack_arity_.emplace(value, items.size());
        if (!fresh && it->second != items.size()) it->second = 0;
        for (size_t k = 0; k < items.size(); ++k) {
          unpack_alias_[ts_node_start_byte(items[k])] = value + "[-" + std::to_string(items.size() - k) + "]";
          unpacked_names_.insert(node_text(items[k], src_));
        }
      }
    }
    // `flag = True` / `= None` / `= 0` / `= "x"`: the path knows the flag's truth.
    int v = constant_value(cur);
    if (v >= 0 && s.live)
      for (TSNode t : targets)
        if (is(t, "identifier"))
          if (const size_t* ip = find_index(node_text(t, src_))) s.remember(*ip, static_cast<uint8_t>(v));
  }

  // The first statement of block `b` (comments skipped); null when none.
  static TSNode first_statement(TSNode b) {
    for (uint32_t i = 0; !ts_node_is_null(b) && i < ts_node_named_child_count(b); ++i)
      if (TSNode k = ts_node_named_child(b, i); !is(k, "comment")) return k;
    return TSNode{};
  }

  // Whether statement `n` is `a = b = CONSTANT` (plain names; True, False, None, a number, a
  // string without interpolation): it binds and cannot raise.
  bool binds_constants(TSNode n) {
    if (!is(n, "expression_statement") || ts_node_named_child_count(n) != 1) return false;
    TSNode cur = ts_node_named_child(n, 0);
    if (!is(cur, "assignment")) return false;
    while (is(cur, "assignment")) {
      if (!is(field(cur, "left"), "identifier") || !ts_node_is_null(field(cur, "type"))) return false;
      cur = field(cur, "right");
    }
    return constant_value(cur) >= 0;
  }

  // 1 for a truthy constant (True, a non-zero number, a non-empty string), 0 for a falsy one
  // (False, 0, ""), 2 for None, -1 for anything else.
  int constant_value(TSNode v) {
    if (is(v, "true")) return 1;
    if (is(v, "false")) return 0;
    if (is(v, "none")) return 2;
    if (is(v, "integer") || is(v, "float")) {
      std::string_view t = node_text(v, src_);
      return t.find_first_not_of("0._xXoObB") == std::string_view::npos ? 0 : 1;
    }
    if (is(v, "string")) {
      bool content = false;
      for (uint32_t i = 0; i < ts_node_named_child_count(v); ++i) {
        TSNode k = ts_node_named_child(v, i);
        if (is(k, "interpolation")) return -1;
        content = content || is(k, "string_content") || is(k, "escape_sequence");
      }
      return content ? 1 : 0;
    }
    return -1;
  }

  // Appends the flag facts a path carries: `x` holds or not, and `x is None` holds or not.
  // (`at`: where the flags are known, the end of the construct whose arm they close.)
  void flag_lits(const State& st, std::vector<Lit>& out, uint32_t at) {
    for (const auto& [i, v] : st.known) {
      const std::string& nm = name_list_[i];
      out.push_back(Lit(nm, v == 1, nm, at));
      out.push_back(Lit(nm + " is None", v == 2, nm, at));
    }
  }

  // A flag known at `l.at` still holds at `read_at` when its name is not bound in between.
  bool flag_still_holds(const Lit& l, uint32_t read_at) const {
    auto b = info_->bindings.find(l.name);
    if (b == info_->bindings.end()) return true;
    for (auto [at, kind] : b->second)
      if (at >= l.at && at < read_at) return false;
    return true;
  }

  void del_targets(TSNode n, State& s, TSNode stmt) {
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (is(c, "identifier")) {
        read_name(c, s);
        std::string nm(node_text(c, src_));
        if (!s.live || declared_outer_.count(nm)) continue;
        size_t k = index_of(nm);
        Reason r;
        r.cause = "del";
        r.kind = "del";
        r.line = line_of(stmt);
        r.start = ts_node_start_byte(stmt);
        r.end = ts_node_end_byte(stmt);
        r.bound_in = "the code before the `del`";
        r.unbound_path = "`" + nm + "` is deleted at line " + std::to_string(line_of(stmt));
        info_->reasons.push_back(std::move(r));
        s.set(k, kUnbound, static_cast<int>(info_->reasons.size()) - 1);
      } else if (is(c, "expression_list") || is(c, "tuple") || is(c, "list") ||
                 is(c, "parenthesized_expression")) {
        del_targets(c, s, stmt);
      } else {
        expr(c, s);
      }
    }
  }

  void imports(TSNode n, State& s) {
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (is(c, "aliased_import")) {
        bind_id(field(c, "alias"), s, 'i');
      } else if (is(c, "dotted_name") &&
                 ts_node_start_byte(c) != ts_node_start_byte(field(n, "module_name"))) {
        TSNode first = ts_node_named_child(c, 0);
        if (is(n, "import_statement")) bind_id(first, s, 'i');
        else bind_id(ts_node_named_child(c, ts_node_named_child_count(c) - 1), s, 'i');
      }
    }
  }

  std::string qualified(TSNode def) {
    std::string nm(node_text(field(def, "name"), src_));
    if (job_->kind == "module") return nm;
    if (job_->kind == "class") return job_->name + "." + nm;
    return job_->name + ".<locals>." + nm;
  }

  void function_def(TSNode n, State& s) {
    TSNode ps = field(n, "parameters");
    if (!ts_node_is_null(ps)) defaults(ps, s);
    if (!lazy_annotations_) expr(field(n, "return_type"), s);
    bind_id(field(n, "name"), s, 'd');
    nested(n, s, "function");
  }

  void class_def(TSNode n, State& s) {
    TSNode sup = field(n, "superclasses");
    if (!ts_node_is_null(sup)) expr(sup, s);
    bind_id(field(n, "name"), s, 'd');
    nested(n, s, "class");
  }

  void if_stmt(TSNode n, State& s) {
    std::vector<Arm> arms;
    std::vector<std::vector<Lit>> lits;  // per arm: the tests that hold on it
    std::vector<std::string> conds;
    std::vector<Lit> failed;             // the earlier arms' conditions, failed
    Construct c = construct(n, "branch", "if");
    State cur = s;
    int elifs = 0;
    std::vector<TSNode> kids;  // one cursor pass: ts_node_named_child(n, i) costs O(i)
    TSTreeCursor kc = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&kc)) {
      do {
        TSNode k = ts_tree_cursor_current_node(&kc);
        if (!ts_node_is_named(k)) continue;
        kids.push_back(k);
        if (is(k, "elif_clause")) ++elifs;
      } while (ts_tree_cursor_goto_next_sibling(&kc));
    }
    ts_tree_cursor_delete(&kc);
    // Arm k's tests are the k - 1 earlier tests, failed: quadratic in the arms. A chain longer
    // than kMaxTestedArms keeps none (its reads are judged without them: never `guarded` by
    // them), so memory stays linear (20,000 `elif` arms once took 22 GB).
    const bool tested = elifs + 1 <= kMaxTestedArms;
    auto arm = [&](TSNode cn, TSNode body, const std::string& label) {
      if (tested) guards_.insert(guards_.end(), failed.begin(), failed.end());
      auto [taken, rest] = cond(cn, cur);
      std::string ct = "`" + short_text(cn, src_) + "`";
      if (taken.live) {
        std::vector<Lit> here;
        if (tested) {
          here = failed;
          here.push_back({cn, true});
        }
        guards_.push_back({cn, true});
        block(body, taken);
        guards_.pop_back();
        arms.push_back({std::move(taken), label, ct + " holds"});
        lits.push_back(std::move(here));
      }
      if (tested) guards_.resize(guards_.size() - failed.size());
      conds.push_back(ct);
      if (tested) failed.push_back({cn, false});
      cur = std::move(rest);
    };
    arm(field(n, "condition"), field(n, "consequence"), "`if`");
    bool has_else = false;
    for (TSNode a : kids) {
      if (is(a, "elif_clause")) {
        std::string label = "`elif`";
        if (elifs > 1) label += " (line " + std::to_string(line_of(a)) + ")";
        arm(field(a, "condition"), field(a, "consequence"), label);
      } else if (is(a, "else_clause")) {
        has_else = true;
        State taken = cur;
        guards_.insert(guards_.end(), failed.begin(), failed.end());
        block(field(a, "body"), taken);
        guards_.resize(guards_.size() - failed.size());
        arms.push_back({std::move(taken), "`else`", "the `else` arm runs"});
        lits.push_back(failed);
      }
    }
    if (!has_else) {
      std::string path;
      if (conds.size() == 1) path = conds[0] + " does not hold";
      else if (conds.size() == 2) path = "neither " + conds[0] + " nor " + conds[1] + " holds";
      else path = "none of " + join_words(conds, "and") + " holds";
      arms.push_back({cur, "", path});
      lits.push_back(failed);
    }
    s = join(arms, c, tested ? &lits : nullptr);
    // When one arm alone continues (the others return, raise, break…), its tests hold for the
    // rest of the enclosing block: `if not a: return` leaves `a` known.
    int live = -1, n_live = 0;
    for (size_t i = 0; i < arms.size(); ++i)
      if (arms[i].s.live) live = static_cast<int>(i), ++n_live;
    if (n_live == 1) guards_.insert(guards_.end(), lits[static_cast<size_t>(live)].begin(), lits[static_cast<size_t>(live)].end());
    // When several arms continue and another does not (`else: raise`), the tests of one of the
    // continuing arms hold: `if k == "a": … elif k == "b": … else: raise` leaves `k` one of
    // "a" and "b" for a later chain over the same values.
    if (tested && n_live >= 2 && static_cast<size_t>(n_live) < arms.size() && arms.size() <= kMaxDisjointArms) {
      Lit one;
      one.node = n;
      for (size_t i = 0; i < arms.size(); ++i)
        if (arms[i].s.live) one.any.push_back(lits[i]);
      if (std::none_of(one.any.begin(), one.any.end(), [](const auto& a) { return a.empty(); })) guards_.push_back(std::move(one));
    }
  }

  void loop(TSNode n, State& s) {
    bool is_for = is(n, "for_statement");
    Construct c = construct(n, "loop", is_for ? "for" : "while");
    c.plural = "";
    c.inside_path = "the first iteration reaches it before the loop body binds it";
    TSNode cnd = field(n, "condition");
    if (is_for) expr(field(n, "right"), s);
    State head = s;
    State exit_state = State::dead();
    LoopCtx ctx;
    for (int pass = 0; pass < 6; ++pass) {
      ctx = LoopCtx{};
      State at_head = head;
      State body = at_head;
      if (!is_for) {
        auto [y, f] = cond(cnd, head);
        body = std::move(y);
        at_head = std::move(f);
      }
      if (is_for) bind_target(field(n, "left"), body);
      loops_.push_back(&ctx);
      loop_ranges_.emplace_back(ts_node_start_byte(n), ts_node_end_byte(n));
      block(field(n, "body"), body);
      loop_ranges_.pop_back();
      loops_.pop_back();
      std::vector<Arm> arms{{s, "", "the loop body runs zero times"}, {body, "loop body", ""}};
      for (auto& cs : ctx.continues) arms.push_back({cs, "loop body", ""});
      State next = join(arms, c);
      exit_state = at_head;
      if (next.same(head) || pass == 5) break;
      head = std::move(next);
    }
    // `else` runs when the loop ends without `break`.
    TSNode els = field(n, "alternative");
    if (!ts_node_is_null(els)) block(field(els, "body"), exit_state);
    std::vector<Arm> arms{{exit_state, "", "the loop body runs zero times"}};
    for (auto& b : ctx.breaks) arms.push_back({b, "loop body", ""});
    s = join(arms, c);
  }

  std::string handler_label(TSNode h) {
    TSNode v = field(h, "value");
    if (ts_node_is_null(v)) {
      for (uint32_t i = 0; i < ts_node_named_child_count(h); ++i) {
        TSNode c = ts_node_named_child(h, i);
        if (!is(c, "block") && !is(c, "comment")) {
          v = c;
          break;
        }
      }
    }
    if (is(v, "as_pattern")) v = ts_node_named_child(v, 0);
    if (ts_node_is_null(v)) return "bare `except`";
    return "`except " + short_text(v, src_, 40) + "`";
  }

  void try_stmt(TSNode n, State& s) {
    Construct c = construct(n, "try", "try");
    c.plural = "";
    std::vector<TSNode> handlers;
    TSNode else_c{}, finally_c{};
    bool has_else = false, has_finally = false;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode h = ts_node_named_child(n, i);
      if (is(h, "except_clause") || is(h, "except_group_clause")) handlers.push_back(h);
      else if (is(h, "else_clause")) else_c = h, has_else = true;
      else if (is(h, "finally_clause")) finally_c = h, has_finally = true;
    }
    State fin_acc = State::dead();
    if (has_finally) catchers_.push_back(&fin_acc);
    State exc = State::dead();
    // An exception before the body's first statement is done: not when that statement binds
    // names to constants (`good = False` first, read in `finally`), which cannot raise.
    const bool entry_raises = !binds_constants(first_statement(field(n, "body")));
    if (entry_raises) merge_into(exc, s);
    catchers_.push_back(&exc);
    State body = s;
    block(field(n, "body"), body);
    catchers_.pop_back();
    if (has_finally) merge_into(fin_acc, exc);
    // Entry state of handlers: any point of the try body, attributed to the try.
    {
      std::vector<Arm> arms;
      if (entry_raises) arms.push_back({s, "", "an exception is raised in the `try` body before it is bound"});
      arms.push_back({exc, "`try` body", ""});
      exc = join(arms, c);
    }
    if (has_else) block(field(else_c, "body"), body);
    std::vector<Arm> arms{{body, has_else ? "`try` body and `else` clause" : "`try` body", "the `try` body completes"}};
    for (TSNode h : handlers) {
      State hs = exc;
      std::string label = handler_label(h);
      TSNode alias{};
      TSNode v = field(h, "value");
      TSNode al = field(h, "alias");
      if (!ts_node_is_null(al)) alias = al;
      else if (is(v, "as_pattern")) alias = field(v, "alias");
      if (ts_node_is_null(v)) {
        for (uint32_t i = 0; i < ts_node_named_child_count(h); ++i) {
          TSNode cc = ts_node_named_child(h, i);
          if (is(cc, "block")) break;
          if (is(cc, "as_pattern")) alias = field(cc, "alias");
          else if (ts_node_is_null(alias) && i > 0 && is(cc, "identifier")) alias = cc;
          expr(is(cc, "as_pattern") ? ts_node_named_child(cc, 0) : cc, hs);
        }
      } else {
        expr(is(v, "as_pattern") ? ts_node_named_child(v, 0) : v, hs);
      }
      if (is(alias, "as_pattern_target")) alias = ts_node_named_child(alias, 0);
      std::string alias_name;
      if (is(alias, "identifier")) {
        alias_name = node_text(alias, src_);
        bind_id(alias, hs);
      }
      for (uint32_t i = 0; i < ts_node_named_child_count(h); ++i) {
        TSNode cc = ts_node_named_child(h, i);
        if (is(cc, "block")) block(cc, hs);
      }
      if (!alias_name.empty() && hs.live && !declared_outer_.count(alias_name)) {
        Reason r;
        r.cause = "del";
        r.kind = "except";
        r.line = line_of(h);
        r.start = ts_node_start_byte(h);
        r.end = ts_node_end_byte(h);
        r.bound_in = "the " + label + " handler";
        r.unbound_path = "the " + label + " handler ends, which unbinds `" + alias_name + "`";
        info_->reasons.push_back(std::move(r));
        hs.set(index_of(alias_name), kUnbound, static_cast<int>(info_->reasons.size()) - 1);
      }
      arms.push_back({std::move(hs), label + " handler", "the " + label + " handler runs"});
    }
    if (has_finally) catchers_.pop_back();
    State normal = join(arms, c);
    if (!has_finally) {
      s = std::move(normal);
      return;
    }
    // finally: checked with every entry (normal and exceptional); continue with normal ones.
    State all = normal;
    {
      std::vector<Arm> fa{{normal, "`try` statement", ""},
                          {fin_acc, "", "an exception is raised before it is bound"}};
      all = join(fa, c);
    }
    TSNode fb{};
    for (uint32_t i = 0; i < ts_node_named_child_count(finally_c); ++i)
      if (is(ts_node_named_child(finally_c, i), "block")) fb = ts_node_named_child(finally_c, i);
    if (ts_node_is_null(fb)) {
      s = std::move(normal);
      return;
    }
    block(fb, all);
    bool saved = report_;
    report_ = false;
    block(fb, normal);
    report_ = saved;
    s = std::move(normal);
  }

  void with_stmt(TSNode n, State& s) {
    bool suppress = false;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode wc = ts_node_named_child(n, i);
      if (!is(wc, "with_clause")) continue;
      for (uint32_t j = 0; j < ts_node_named_child_count(wc); ++j) {
        TSNode item = ts_node_named_child(wc, j);
        if (!is(item, "with_item")) continue;
        TSNode v = field(item, "value");
        TSNode target{};
        if (is(v, "as_pattern")) {
          target = field(v, "alias");
          v = ts_node_named_child(v, 0);
        }
        if (is(v, "call")) {
          std::string_view f = node_text(field(v, "function"), src_);
          if (f == "suppress" || f == "contextlib.suppress") suppress = true;
        }
        expr(v, s);
        if (!ts_node_is_null(target)) {
          if (is(target, "as_pattern_target")) target = ts_node_named_child(target, 0);
          bind_target(target, s);
        }
      }
    }
    if (!suppress) {
      block(field(n, "body"), s);
      return;
    }
    Construct c = construct(n, "with", "with");
    c.plural = "";
    State acc = State::dead();
    merge_into(acc, s);
    catchers_.push_back(&acc);
    State body = s;
    block(field(n, "body"), body);
    catchers_.pop_back();
    std::vector<Arm> arms{{body, "`with` body", ""},
                          {acc, "", "an exception suppressed by the `with` leaves the body early"},
                          {s, "", "an exception suppressed by the `with` leaves the body early"}};
    s = join(arms, c);
  }

  void bind_pattern(TSNode p, State& s) {
    if (ts_node_is_null(p)) return;
    const char* t = ts_node_type(p);
    if (!std::strcmp(t, "dotted_name")) {
      if (ts_node_named_child_count(p) == 1) bind_id(ts_node_named_child(p, 0), s);
      return;
    }
    if (!std::strcmp(t, "identifier")) {
      bind_id(p, s);
      return;
    }
    if (!std::strcmp(t, "class_pattern")) {
      for (uint32_t i = 1; i < ts_node_named_child_count(p); ++i) bind_pattern(ts_node_named_child(p, i), s);
      return;
    }
    if (!std::strcmp(t, "keyword_pattern")) {
      for (uint32_t i = 1; i < ts_node_named_child_count(p); ++i) bind_pattern(ts_node_named_child(p, i), s);
      return;
    }
    if (!std::strcmp(t, "string") || !std::strcmp(t, "integer") || !std::strcmp(t, "float")) return;
    if (!std::strcmp(t, "dict_pattern")) {
      // keys are values, not captures
      for (uint32_t i = 0; i < ts_node_named_child_count(p); ++i) {
        TSNode c = ts_node_named_child(p, i);
        const char* fn = ts_node_field_name_for_child(p, i);
        if (fn && !std::strcmp(fn, "key")) continue;
        bind_pattern(c, s);
      }
      return;
    }
    each_named(p, [&](TSNode k) { bind_pattern(k, s); });
  }

  static bool irrefutable(TSNode cc) {
    // one case_pattern, no guard, whose content is `_` or a bare capture name
    int patterns = 0;
    TSNode only{};
    for (uint32_t i = 0; i < ts_node_named_child_count(cc); ++i) {
      TSNode c = ts_node_named_child(cc, i);
      if (is(c, "if_clause")) return false;
      if (is(c, "case_pattern")) {
        ++patterns;
        only = c;
      }
    }
    if (patterns != 1) return false;
    if (ts_node_named_child_count(only) == 0) return true;  // `_`
    if (ts_node_named_child_count(only) != 1) return false;
    TSNode c = ts_node_named_child(only, 0);
    if (is(c, "dotted_name") && ts_node_named_child_count(c) == 1) return true;
    if (is(c, "as_pattern")) {
      TSNode inner = ts_node_named_child(c, 0);
      return is(inner, "case_pattern") && ts_node_named_child_count(inner) == 0;
    }
    return false;
  }

  void match_stmt(TSNode n, State& s) {
    Construct c = construct(n, "match", "match");
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
      TSNode ch = ts_node_named_child(n, i);
      if (!is(ch, "block")) expr(ch, s);
    }
    TSNode body = field(n, "body");
    std::vector<Arm> arms;
    bool exhaustive = false;
    if (!ts_node_is_null(body)) {
      for (uint32_t i = 0; i < ts_node_named_child_count(body); ++i) {
        TSNode cc = ts_node_named_child(body, i);
        if (!is(cc, "case_clause")) continue;
        State cs = s;
        std::string pat;
        for (uint32_t j = 0; j < ts_node_named_child_count(cc); ++j) {
          TSNode p = ts_node_named_child(cc, j);
          if (is(p, "case_pattern")) {
            bind_pattern(p, cs);
            if (!pat.empty()) pat += ", ";
            pat += short_text(p, src_, 40);
          } else if (is(p, "if_clause")) {
            expr(p, cs);
          }
        }
        block(field(cc, "consequence"), cs);
        arms.push_back({std::move(cs), "`case " + pat + "`", "`case " + pat + "` matches"});
        if (irrefutable(cc)) {
          exhaustive = true;
          break;
        }
      }
    }
    if (!exhaustive) arms.push_back({s, "", "no `case` matches"});
    s = join(arms, c);
  }
};

void module_names(TSNode n, std::string_view src, std::unordered_set<std::string>& out) {
  // Names bound at module level (cheap over-approximation: assignment/def/class/import targets).
  each_named(n, [&](TSNode c) {
    if (is(c, "decorated_definition")) c = field(c, "definition");
    if (is(c, "function_definition") || is(c, "class_definition")) {
      out.emplace(node_text(field(c, "name"), src));
    } else if (is(c, "expression_statement")) {
      TSNode a0 = ts_node_named_child(c, 0);
      if (is(a0, "assignment") && is(field(a0, "left"), "identifier")) out.emplace(node_text(field(a0, "left"), src));
    } else if (is(c, "import_statement") || is(c, "import_from_statement")) {
      for (uint32_t j = 0; j < ts_node_named_child_count(c); ++j) {
        TSNode d = ts_node_named_child(c, j);
        if (is(d, "aliased_import")) out.emplace(node_text(field(d, "alias"), src));
        else if (is(d, "dotted_name") && ts_node_named_child_count(d) > 0)
          out.emplace(node_text(ts_node_named_child(d, is(c, "import_statement") ? 0 : ts_node_named_child_count(d) - 1), src));
      }
    } else if (is(c, "if_statement") || is(c, "try_statement") || is(c, "block") || is(c, "else_clause") ||
               is(c, "elif_clause") || is(c, "except_clause") || is(c, "finally_clause") || is(c, "with_statement") ||
               is(c, "for_statement")) {
      module_names(c, src, out);
    }
  });
}

// False when no path of a function with this text can end other than by reaching the end of its
// body or a `return`, read from the text alone. The Analyzer ends a path only at:
// - a `return` (a never-returning function has none);
// - a `raise`;
// - a call is_noreturn_call names: its callee's text is in the text (for `self.m`/`cls.m` the
//   name m, for `….error`/`….exit` the receiver's "parser");
// - a `while` whose condition is constantly true, or an `assert` of a false constant.
// A break or continue goes on after its loop. Without one of those words in the text, the
// Analyzer's answer is false: it is not run.
bool may_end_abnormally(std::string_view text, const NoReturnNames& known) {
  auto has = [&](std::string_view w) { return text.find(w) != std::string_view::npos; };
  if (has("raise") || has("while") || has("assert") || has("parser")) return true;
  for (std::string_view c : noreturn_callees())
    if (has(c)) return true;
  for (const auto* names : {&known.functions, &known.methods})
    for (const auto& n : *names)
      if (has(n)) return true;
  return false;
}

}  // namespace

bool unbound_tree_too_deep(TSNode root) {
  return !ts_node_is_null(root) && lang::deeper_than(root, kMaxUnboundTreeDepth);
}

std::vector<UnboundRead> find_unbound_reads(TSNode root, std::string_view source) {
  return find_unbound_reads(root, source, UnboundOptions{});
}

std::vector<UnboundRead> find_unbound_reads(TSNode root, std::string_view source, const UnboundOptions& options) {
  std::vector<UnboundRead> out;
  if (ts_node_is_null(root) || !is(root, "module")) return out;
  if (!options.depth_checked && lang::deeper_than(root, kMaxUnboundTreeDepth)) return out;

  // Functions that never return (a fixed point over the file, see noreturn.hpp).
  std::vector<UnboundRead> scratch;
  NoReturnNames nr = find_noreturn(root, source, [&](TSNode f, const NoReturnNames& known) {
    if (!may_end_abnormally(node_text(f, source), known)) return false;  // most candidates
    Analyzer a(source, scratch, known.functions, known.methods);
    ScopeJob job{f, std::string(node_text(field(f, "name"), source)), "function", {}};
    ScopeInfo info;
    a.run(job, info, nullptr, false);
    return !a.end_live() && !a.saw_return();
  });
  const auto& nr_funcs = nr.functions;
  const auto& nr_methods = nr.methods;

  std::unordered_set<std::string> module_level;
  module_names(root, source, module_level);
  ModuleCollections collections(root, source);

  bool lazy = false;
  each_named(root, [&](TSNode c) {
    if (is(c, "future_import_statement") && node_text(c, source).find("annotations") != std::string_view::npos)
      lazy = true;
  });
  std::deque<ScopeInfo> infos;
  std::vector<ScopeJob> jobs{{root, "<module>", "module", {}}};
  while (!jobs.empty()) {
    ScopeJob job = jobs.back();
    jobs.pop_back();
    std::vector<ScopeJob> nested;
    Analyzer a(source, out, nr_funcs, nr_methods);
    a.outer_names_ = &module_level;
    a.module_collections_ = &collections;
    a.every_read_ = options.every_read;
    a.lazy_annotations_ = lazy;
    bool broken = ts_node_has_error(job.node);
    if (broken) {
      std::vector<UnboundRead> discard;
      Analyzer quiet(source, discard, nr_funcs, nr_methods);
      quiet.run(job, infos.emplace_back(), &nested, false);
    } else {
      a.run(job, infos.emplace_back(), &nested, true);
    }
    for (auto it = nested.rbegin(); it != nested.rend(); ++it) jobs.push_back(*it);
  }
  std::sort(out.begin(), out.end(), [](const UnboundRead& x, const UnboundRead& y) {
    return std::tie(x.read_line, x.read_column, x.name) < std::tie(y.read_line, y.read_column, y.name);
  });
  return out;
}

}  // namespace review::analysis
