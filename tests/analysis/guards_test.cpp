// The guard solver on its own, from condition strings (no syntax tree).
#include "catch.hpp"
#include "runner/analysis/guards.hpp"

using review::analysis::Formula;
using review::analysis::GuardLogic;
using review::analysis::is_truth_wrapper;
using review::analysis::normalise_condition;

TEST_CASE("guards: normalise keeps one blank between words only") {
  CHECK(normalise_condition("f( a ,  b )") == "f(a,b)");
  CHECK(normalise_condition("x  is \\\n  None") == "x is None");
  CHECK(normalise_condition("") == "");
}

TEST_CASE("guards: a test and its negation contradict; unrelated tests do not") {
  GuardLogic g;
  CHECK(g.excludes(g.parse("a"), g.parse("not a")));
  CHECK_FALSE(g.excludes(g.parse("a"), g.parse("b")));
  CHECK_FALSE(g.excludes(g.parse("a"), g.parse("a")));
}

TEST_CASE("guards: or/and with usual precedence") {
  GuardLogic g;
  // held: a or b; the unbound path: neither a nor b.
  CHECK(g.excludes(g.parse("a or b"), g.parse("not a and not b")));
  // `a and b or c` is (a and b) or c: c alone satisfies it.
  CHECK_FALSE(g.excludes(g.parse("a and b or c"), g.parse("not a")));
  CHECK(g.excludes(g.parse("a and (b or c)"), g.parse("not a")));
  CHECK(g.contradictory({g.parse("a or b"), g.parse("not a"), g.parse("not b")}));
}

TEST_CASE("guards: negated comparisons share the positive atom") {
  GuardLogic g;
  CHECK(g.excludes(g.parse("x is not None"), g.parse("x is None")));
  CHECK(g.excludes(g.parse("not (x is None)"), g.parse("x  is  None")));
  CHECK(g.excludes(g.parse("mode != 'beam'"), g.parse("mode == 'beam'")));
  CHECK(g.excludes(g.parse("k not in table"), g.parse("k in table")));
  CHECK(g.atoms() == 3);
}

TEST_CASE("guards: one subject cannot equal two different literals") {
  GuardLogic g;
  CHECK(g.excludes(g.parse("mode == 'a'"), g.parse("mode == 'b'")));
  CHECK(g.excludes(g.parse("n == 1"), g.parse("n == 2")));
  CHECK_FALSE(g.excludes(g.parse("mode == 'a'"), g.parse("other == 'b'")));
  // Not literals: two names may be equal.
  CHECK_FALSE(g.excludes(g.parse("mode == A"), g.parse("mode == B")));
  auto [subject, value] = g.equality(g.parse("x.dtype == None").atom);
  CHECK(subject == "x.dtype");
  CHECK(value == "None");
}

TEST_CASE("guards: brackets and strings are not split") {
  GuardLogic g;
  Formula f = g.parse("f(a or b) and 'x and y' in s");
  REQUIRE(f.kind == Formula::And);
  REQUIRE(f.kids.size() == 2);
  CHECK(g.text(f.kids[0].atom) == "f(a or b)");
  CHECK(g.text(f.kids[1].atom) == "'x and y'in s");
  Formula c = g.parse("(a) == (b)");
  CHECK(c.kind == Formula::Atom);
  CHECK(g.text(c.atom) == "(a)==(b)");
}

TEST_CASE("guards: the atom limit makes the answer 'not decided'") {
  GuardLogic g;
  std::vector<Formula> fs;
  for (int i = 0; i < 13; ++i) fs.push_back(g.parse("a" + std::to_string(i)));
  fs.push_back(g.parse("not a0"));
  CHECK_FALSE(g.contradictory(fs));      // 13 atoms > 12
  CHECK(g.contradictory(fs, 13));
  CHECK_FALSE(g.contradictory({}));
}

TEST_CASE("guards: a truth wrapper with one argument is its argument") {
  CHECK(is_truth_wrapper("bool"));
  CHECK(is_truth_wrapper("const_expr"));
  CHECK(is_truth_wrapper("fx.expr.const_expr"));
  CHECK(is_truth_wrapper("tl.constexpr"));
  CHECK_FALSE(is_truth_wrapper("check"));
  CHECK_FALSE(is_truth_wrapper("f(x).constexpr"));
  GuardLogic g;
  CHECK(g.excludes(g.parse("const_expr(n > 1)"), g.parse("not (n > 1)")));
  CHECK(g.excludes(g.parse("fx.const_expr(not a)"), g.parse("a")));
  CHECK(g.excludes(g.parse("bool(x is None)"), g.parse("x is not None")));
  // Not one argument, a keyword argument, or a call that closes before the end: an atom.
  CHECK_FALSE(g.excludes(g.parse("bool(a, b)"), g.parse("not a")));
  CHECK_FALSE(g.excludes(g.parse("const_expr(x=a)"), g.parse("not a")));
  CHECK_FALSE(g.excludes(g.parse("check(a)"), g.parse("not a")));
  // `const_expr(a) == const_expr(b)` is a comparison of two calls, not the wrapper of `a) == (b`.
  CHECK(g.excludes(g.parse("const_expr(a) == const_expr(b)"), g.parse("const_expr(a) != const_expr(b)")));
  CHECK_FALSE(g.excludes(g.parse("const_expr(a) == const_expr(b)"), g.parse("not a")));
}

TEST_CASE("guards: condition_conjuncts gives one text for one invariant written two ways") {
  using review::analysis::condition_conjuncts;
  using V = std::vector<std::string>;
  CHECK(condition_conjuncts("x is not None") == V{"x is not None"});
  CHECK(condition_conjuncts("x is None", true) == V{"x is not None"});
  CHECK(condition_conjuncts("not (x is None)") == V{"x is not None"});
  CHECK(condition_conjuncts("n > 0") == V{"0 < n"});
  CHECK(condition_conjuncts("n <= 0", true) == V{"0 < n"});
  CHECK(condition_conjuncts("0 == n % 2") == condition_conjuncts("n%2 == 0"));
  CHECK(condition_conjuncts("a != b") == V{"a != b"});
  CHECK(condition_conjuncts("b == a", true) == V{"a != b"});
  // `and` splits; a negated `or` splits too (De Morgan); an `or` stays one part, sorted.
  CHECK(condition_conjuncts("k % 32 == 0 and n % 16 == 0") == V{"0 == k%32", "0 == n%16"});
  CHECK(condition_conjuncts("k % 32 != 0 or not ok", true) == V{"0 == k%32", "ok"});
  CHECK(condition_conjuncts("b or a") == V{"(a or b)"});
  CHECK(condition_conjuncts("mode not in ('a', 'b')", true) == V{"mode in (\"a\",\"b\")"});
  // C-like operators.
  CHECK(condition_conjuncts("x.is_contiguous() && !empty") == V{"not empty", "x.is_contiguous()"});
  CHECK(condition_conjuncts("a != b") != condition_conjuncts("a == b"));
  // A chained comparison stays one atom; blank input gives nothing.
  CHECK(condition_conjuncts("0 <= i < n") == V{"0<=i<n"});
  CHECK(condition_conjuncts("  ").empty());
}
