// The literal prefilter of the rule language's regexes (dsl::literal_needs): what it needs of a
// pattern, and, on random patterns and texts, that it never turns away a text RE2 matches.
#include <random>
#include <string>
#include <vector>

#include <re2/re2.h>

#include "catch.hpp"
#include "dsl/regex.hpp"

using namespace review::dsl;

namespace {

/// The needs as text: alternatives joined by " | ", needs by " & ", a hole as {name}.
std::string describe(const std::string& pattern) {
  auto holes = regex_holes(pattern);
  LiteralNeeds n = literal_needs(pattern, holes);
  std::string out;
  for (size_t a = 0; a < n.any.size(); ++a) {
    if (a) out += " | ";
    for (size_t k = 0; k < n.any[a].size(); ++k) {
      if (k) out += " & ";
      const auto& need = n.any[a][k];
      out += need.hole >= 0 ? "{" + holes[static_cast<size_t>(need.hole)].text() + "}" : "\"" + need.text + "\"";
    }
  }
  return out;
}

/// `pattern` with each hole replaced by its value, quoted (as CompiledRegex::instance does).
std::string instance(const std::string& pattern, const std::vector<RegexHole>& holes, const std::vector<std::string>& values) {
  std::string out;
  size_t at = 0;
  for (size_t i = 0; i < holes.size(); ++i) {
    out.append(pattern, at, holes[i].offset - at);
    out += re2::RE2::QuoteMeta(values[i]);
    at = holes[i].offset + holes[i].length;
  }
  out.append(pattern, at, std::string::npos);
  return out;
}

}  // namespace

TEST_CASE("regex needs: literal runs, holes, alternatives and groups") {
  CHECK(describe("^\\s*except\\s+(ImportError|ModuleNotFoundError)\\b") == "\"except\"");
  CHECK(describe("\\bassert\\b.*\\b{val}\\b|\\braise\\b") == "\"assert\" & {val} | \"raise\"");
  // a hole every alternative of a group needs is needed; one only some need is not
  CHECK(describe("(\\b{s}\\s*:\\s*int64|(int64_t|long)\\s+{s}\\b)") == "{s}");
  CHECK(describe("(a{x}b|{y})c\\.d") == "\"c.d\"");
  // escaped punctuation is literal; a class, `.`, an anchor or `\\b` ends a run
  CHECK(describe("sys\\.path\\.(insert|append)\\(") == "\"sys.path.\"");
  CHECK(describe("ab[cd]ef.gh\\bij") == "\"ab\" & \"ef\" & \"gh\" & \"ij\"");
  // quantifiers: optional atoms are dropped, a repeated one ends its run
  CHECK(describe("abc?de*fg") == "\"ab\" & \"fg\"");
  CHECK(describe("ab+cd{2}ef{0,3}gh") == "\"ab\" & \"cd\" & \"gh\"");
  CHECK(describe("x(zz)*qq") == "\"qq\"");
  // a quantified hole: with an empty value the quantifier falls on the atom before it
  CHECK(describe("(?:ab){k}{0,1}cd").empty());
  CHECK(describe("x{w}?yy").empty());
  CHECK(describe("(?P<name>foo)bar(?:baz)") == "\"foo\" & \"bar\" & \"baz\"");
  // nothing needed: an alternative without literals, case-insensitivity, \Q, single characters
  CHECK(describe("abc|\\d+").empty());
  CHECK(describe("(?i)foo").empty());
  CHECK(describe("a(?i:foo)").empty());
  CHECK(describe("\\Qa.b\\E").empty());
  CHECK(describe("[^\\s\"']").empty());
  CHECK(describe("a.b").empty());
  // a `{` that is no repetition is literal; classes with brackets inside read to their end
  CHECK(describe("x{,2}y") == "\"x{,2}y\"");
  CHECK(describe("[]a]bc[[:alpha:]]de") == "\"bc\" & \"de\"");
}

TEST_CASE("regex needs: a text RE2 matches always passes the prefilter (random patterns)") {
  // Patterns built from literal runs, escaped punctuation, classes, holes, groups, alternatives,
  // quantifiers and anchors; texts built from the same pieces. The prefilter may let a text
  // through that RE2 then rejects, never the other way round.
  std::mt19937 g(20261203);
  auto n = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
  const std::vector<std::string> lits = {"ab", "cd", "x", "if", "a.b", "(", ")", "self", "=", " ", "_1"};
  const std::vector<std::string> values = {"ab", "x", "", "a.b", "(", "cd ", "zz"};
  std::function<std::string(int)> piece = [&](int depth) -> std::string {
    switch (n(0, depth > 2 ? 5 : 8)) {
      case 0: return "ab";
      case 1: return "cd";
      case 2: return "\\.";
      case 3: return "[a-c]";
      case 4: return n(0, 1) ? "{h}" : "{k}";
      case 5: return n(0, 1) ? "\\s*" : "^";
      case 6: return "(" + piece(depth + 1) + piece(depth + 1) + "|" + piece(depth + 1) + ")";
      case 7: return "(?:" + piece(depth + 1) + ")";
      default: return "(?P<g" + std::to_string(n(0, 99)) + ">" + piece(depth + 1) + ")";
    }
  };
  const std::vector<std::string> quants = {"", "", "", "?", "*", "+", "{2}", "{0,1}", "{1,3}"};
  size_t matched = 0, turned_away = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string pattern;
    int alts = n(1, 3);
    for (int a = 0; a < alts; ++a) {
      if (a) pattern += "|";
      for (int k = 0, m = n(1, 4); k < m; ++k) {
        std::string p = piece(0);
        std::string q = quants[static_cast<size_t>(n(0, static_cast<int>(quants.size()) - 1))];
        if (!q.empty() && (p == "^" || p == "\\s*")) q.clear();
        pattern += p + q;
      }
    }
    auto holes = regex_holes(pattern);
    LiteralNeeds needs = literal_needs(pattern, holes);
    for (int v = 0; v < 4; ++v) {
      std::vector<std::string> hv;
      for (const auto& h : holes) hv.push_back(h.name == "h" ? values[static_cast<size_t>(v)] : values[static_cast<size_t>(v + 2)]);
      re2::RE2 re(instance(pattern, holes, hv), re2::RE2::Quiet);
      if (!re.ok()) continue;
      for (int t = 0; t < 12; ++t) {
        std::string text;
        for (int k = 0, m = n(0, 8); k < m; ++k)
          text += n(0, 3) ? lits[static_cast<size_t>(n(0, static_cast<int>(lits.size()) - 1))] : hv.empty() ? "" : hv[0];
        bool hit = re2::RE2::PartialMatch(text, re);
        bool pass = needs.passes(text, hv);
        INFO("pattern /" << pattern << "/ instance /" << re.pattern() << "/ text \"" << text << "\"");
        if (hit) CHECK(pass);
        matched += hit;
        turned_away += !pass;
      }
    }
  }
  // the comparison must have seen matches, and the prefilter must have turned texts away
  CHECK(matched > 1000);
  CHECK(turned_away > 1000);
}
