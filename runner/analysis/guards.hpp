// Guard logic: propositional formulas over condition texts and a satisfiability check, for
// deciding whether the tests that hold at a point rule out the paths of an earlier construct
// ("`if a: x = 1` … `if a: use(x)`"). Language-neutral: atoms are whitespace-normalised
// condition texts; a front end builds formulas from its own syntax tree (see
// runner/lang/python/unbound.cpp) or from strings through GuardLogic::parse.
//
//   GuardLogic g;
//   Formula held = g.parse("mode == 'beam' or x is not None");
//   Formula path = g.parse("mode != 'beam' and x is None");
//   g.contradictory({held, path});   // true
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace review::analysis {

/// A propositional formula whose atoms are indices into one GuardLogic's atom table.
struct Formula {
  enum Kind { Atom, Not, And, Or } kind = Atom;
  int atom = -1;               ///< for Atom
  std::vector<Formula> kids;   ///< one for Not, two or more for And/Or
};

/// One flag per byte of `t`: true where the byte is outside every bracket ((), [], {}) and
/// every string literal ('...' or "...", backslash escapes honoured), and is not itself a bracket
/// or a quote. A closing bracket without its opener does not take the depth below 0. For
/// finding the top-level `,` of an argument list or the `:` that ends an `if` header. Never throws.
std::vector<bool> top_level(std::string_view t);

/// `t` with whitespace (and backslash line continuations) removed, except one blank kept
/// between two word characters: `f( a )` -> `f(a)`, `x  is   None` -> `x is None`.
std::string normalise_condition(std::string_view t);

/// True when a call to `callee` (its text as written, e.g. `const_expr` or `fx.const_expr`) has
/// the truth value of its one argument: `bool`, and the compile-time markers of the kernel DSLs
/// (`const_expr`, `constexpr`, with or without a module prefix), which specialise a kernel on the
/// test they wrap (`if const_expr(n > 1):` takes the same branch as `if n > 1:`). A guard built
/// from `bool(x)` or `const_expr(x)` is therefore the guard `x`.
bool is_truth_wrapper(std::string_view callee);

/// The conjuncts of a condition that must hold, each in one canonical text, so that the same
/// invariant written two ways compares equal: `assert x is not None` and `if x is None: raise`
/// (passed with `negated` = true) both give {"x is not None"}. The text is parsed as
/// GuardLogic::parse does (Python syntax: `not`, `and`, `or`, parentheses, truth wrappers,
/// comparisons); C-like `&&`, `||` and `!` (not before `=`) outside strings and brackets are
/// read as `and`, `or` and `not` first (`!` then binds like Python's `not`, so `!a == b` reads
/// as `!(a == b)`: C's precedence is not modelled). Canonical form:
///   - negations pushed inwards (De Morgan; `not not x` is x), a negated comparison written with
///     the opposite operator (`not a < b` -> `b <= a`, `not x is None` -> `x is not None`,
///     `not a == b` -> `a != b`, `not x in y` -> `x not in y`); any other negated atom `not x`;
///   - `>` and `>=` turned round to `<` and `<=` (`n > 0` -> `0 < n`); the two operands of `==`
///     and `!=` in sorted byte order (`0 == n % 2` -> `n%2 == 0`);
///   - a top-level `and` split into conjuncts; an `or` (or an `and` inside one) kept as one
///     conjunct, its operands sorted and joined by " or " / " and " in parentheses;
///   - operand texts whitespace-normalised (normalise_condition), `'` quotes of a plain string
///     operand turned into `"`.
/// Returns the conjuncts sorted and without duplicates; empty for an empty or blank `cond`.
/// Chained comparisons (`0 <= i < n`) stay one atom. Never throws.
std::vector<std::string> condition_conjuncts(std::string_view cond, bool negated = false);

/// An atom table and the operations on formulas over it. Not thread-safe; cheap to create.
class GuardLogic {
 public:
  /// The atom of condition text `text` after normalise_condition; equal texts share one atom.
  Formula atom(std::string_view text);
  /// The comparison `l op r` (texts as written). `is not`, `!=` and `not in` yield the negation
  /// of the atom for `is`, `==` and `in`, so `x is not None` and `not (x is None)` agree; any
  /// other operator yields the atom `l op r`.
  Formula comparison(std::string_view l, std::string_view op, std::string_view r);
  static Formula negate(Formula f);
  /// Conjunction / disjunction of `fs` (one formula: itself; none: not allowed, returns an
  /// atom-less And/Or that evaluates to true/false).
  static Formula all_of(std::vector<Formula> fs);
  static Formula any_of(std::vector<Formula> fs);

  /// Parses a condition written in Python syntax: `not`, `and`, `or` (usual precedence),
  /// parentheses, a call of a truth wrapper with one argument (is_truth_wrapper: `const_expr(x)`
  /// is parsed as `x`), and comparisons (`==`, `!=`, `is`, `is not`, `in`, `not in`, `<`, …) between
  /// operands; anything else is one atom. Brackets and string quotes are respected when
  /// splitting. Never throws; an empty text is the atom "".
  Formula parse(std::string_view text);

  /// Number of atoms made so far.
  int atoms() const { return static_cast<int>(text_.size()); }
  /// The normalised text of `atom` (0 <= atom < atoms()).
  const std::string& text(int atom) const { return text_[static_cast<size_t>(atom)]; }
  /// An atom `v == literal` split into (v, literal); ("", "") for any other atom. Literals:
  /// strings in one kind of quotes, numbers, None, True, False.
  std::pair<std::string, std::string> equality(int atom) const;
  /// The left side of an atom `v == literal`, "" for any other atom.
  std::string subject(int atom) const { return equality(atom).first; }
  /// Pairs of atoms of `use` that cannot both hold: `v == A` and `v == B` with one left side
  /// and two different literals.
  std::vector<std::pair<int, int>> exclusive_pairs(const std::vector<int>& use) const;
  /// Adds the atoms `f` uses to `out`.
  static void atoms_of(const Formula& f, std::set<int>& out);

  /// True when the conjunction of `fs` has no assignment of the atoms in `use` that satisfies
  /// it (exclusive pairs never both true). Every atom of `fs` must be in `use`, `use` must not be
  /// empty and hold at most 31 atoms: 2^|use| assignments are enumerated.
  bool unsat(const std::vector<const Formula*>& fs, const std::vector<int>& use) const;
  /// unsat over all the atoms `fs` use; false when they use none or more than `max_atoms`.
  bool contradictory(const std::vector<Formula>& fs, int max_atoms = 12) const;
  /// True when `held` rules out `other` (held ∧ other is contradictory).
  bool excludes(const Formula& held, const Formula& other, int max_atoms = 12) const {
    return contradictory({held, other}, max_atoms);
  }

 private:
  static bool eval(const Formula& f, uint32_t bits, const std::vector<int>& slot);
  static bool is_literal(const std::string& t);

  std::unordered_map<std::string, int> names_;
  std::vector<std::string> text_;  // atom texts by index
};

}  // namespace review::analysis
