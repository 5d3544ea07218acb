// The Python extraction's measure of its tree's depth (Builder::deepest), which spares the
// unbound analysis a second walk of the tree for its depth limit; and lang::depth_below.
#include "catch.hpp"
#include "analysis/parse_helpers.hpp"
#include "runner/lang/extract.hpp"
#include "runner/lang/model.hpp"
#include "runner/lang/python/unbound.hpp"
#include "runner/lang/tree.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace {

// The depth of the deepest node below `n` (0 for a leaf), every node counted, named or not: a
// plain recursion over ts_node_child, not the cursor walk of lang::depth_below it checks (the
// trees here are a few hundred levels at most).
int true_depth(TSNode n) {
  int deepest = 0;
  for (uint32_t i = 0, k = ts_node_child_count(n); i < k; ++i) deepest = std::max(deepest, 1 + true_depth(ts_node_child(n, i)));
  return deepest;
}

std::string nested_sum(int terms) {
  std::string s = "total = a0";
  for (int i = 1; i < terms; ++i) s += " + a" + std::to_string(i);
  return s + "\n";
}

}  // namespace

TEST_CASE("python extraction: the depth it measures is the tree's, strings and comments included") {
  std::vector<std::string> sources = {
      "",
      "x = 1\n",
      "# only a comment\n",
      "s = 'a\\n\\t\\x41'\n",                                  // escape sequences below string_content
      "f = f\"{a!r:>{w}} and {b['k'] + c(d)}\\n\"\n",          // interpolations, nested
      "g = f'{f\"{x}\"}'\n",                                   // an f-string inside an f-string
      "def f(a, *, b=[[[[1]]]]):\n    '''doc\\n'''\n    return {k: (v,) for k, v in a if v}  # tail\n",
      "class C:\n    @property\n    def p(self) -> 'C':\n        return lambda x: x if x else (yield)\n",
      "if a:\n    pass\nelif b:\n    x = [i async for i in y]\nelse:\n    raise E from None\n",
      "if a is not b and c not in d:\n    pass\n",                  // anonymous nodes with leaves below
      nested_sum(40),
      "x = " + std::string(60, '(') + "1" + std::string(60, ')') + "\n",
      "s = (" + std::string(30, '[') + "'\\n'" + std::string(30, ']') + ")\n",
      "def broken(:\n    x = 'unterminated\n",  // syntax errors
  };
  for (const auto& src : sources) {
    Parsed p(src, tree_sitter_python());
    review::lang::SourceModel m;
    review::lang::set_text(m, src);
    review::lang::detail::Builder b(m, src);
    review::lang::detail::extract_python(p.root(), b);
    INFO(src);
    CHECK(b.deepest <= review::lang::detail::kMaxDepth);  // no node of these trees is out of the walk's reach
    CHECK(b.deepest == true_depth(p.root()));
    CHECK(review::lang::depth_below(p.root()) == true_depth(p.root()));
    CHECK(review::lang::depth_below(p.root(), 3) == std::min(true_depth(p.root()), 4));  // stops past 3
  }
}

TEST_CASE("python model: a tree over the unbound analysis's depth limit is caught with or without the extraction's measure") {
  // around the limit: the sum's left-nested additions put its first term about `terms` deep
  int deep_ones = 0, shallow_ones = 0;
  for (int terms : {480, 490, 495, 496, 497, 498, 499, 500, 501, 502, 505, 510, 900}) {
    std::string src = "def f(c):\n    if c:\n        y = 1\n    print(y)\n    " + nested_sum(terms);
    Parsed p(src, tree_sitter_python());
    const bool deep = review::lang::deeper_than(p.root(), review::analysis::kMaxUnboundTreeDepth);
    auto m = review::lang::analyze_file("k.py", src);
    INFO("terms " << terms);
    CHECK((m->analysis_note().find("nests deeper than") != std::string::npos) == deep);
    CHECK(m->unbound_reads().empty() == deep);  // `y` is reported exactly when the analysis ran
    (deep ? deep_ones : shallow_ones)++;
  }
  CHECK(deep_ones >= 3);  // the sizes straddle the limit
  CHECK(shallow_ones >= 3);
}
