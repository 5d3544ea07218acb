#include <string>
#include <vector>

#include <tao/pegtl/contrib/analyze.hpp>

#include "catch.hpp"
#include "dsl/grammar.hpp"
#include "dsl/parser.hpp"
#include "dsl/regex.hpp"
#include "dsl/template.hpp"

using namespace review::dsl;

namespace {
std::string dump_expr(const std::string& text) {
  std::vector<Diagnostic> d;
  auto e = parse_expression(text, "e", d);
  if (!e) return d.empty() ? "<null>" : "ERR " + std::to_string(d[0].column) + ": " + d[0].message;
  return ast::dump(*e);
}
std::string first_error(const std::string& text) {
  auto r = parse_ruleset(text, "t.rules");
  if (r.diagnostics.empty()) return "<ok>";
  const auto& d = r.diagnostics[0];
  return std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message;
}
}  // namespace

TEST_CASE("parser: expression AST dumps") {
  struct Row { const char* in; const char* want; };
  const Row rows[] = {
      {"a", "a"},
      {"u.read.line", "u.read.line"},
      {"1 == 2", "(== 1 2)"},
      {"-3 < x", "(< -3 x)"},
      {"\"s\" != 'x'", "ERR 8: expected a value after the operator"},
      {"a and b and c", "(and a b c)"},
      {"a or b and c", "(or a (and b c))"},
      {"a and b or c", "(or (and a b) c)"},
      {"not a and b", "(and (not a) b)"},
      {"not (a or b)", "(not (or a b))"},
      {"l.text ~ /(?i)to\\/do/", "(~ l.text /(?i)to/do/)"},
      {"l.text !~ /x/", "(!~ l.text /x/)"},
      {"f.path like \"atom/**\"", "(like f.path \"atom/**\")"},
      {"x in [1, 2, \"a\"]", "(in x [1 2 \"a\"])"},
      {"[]", "[]"},
      {"true or false", "(or true false)"},
      {"count(l in lines(changed) where l.added) >= 3", "(>= (count l lines(changed) l.added) 3)"},
      {"count(findings(\"ai-sign\")) >= 3", "(>= (count (findings \"ai-sign\")) 3)"},
      {"count(f in findings(\"t\"))", "(count f findings(\"t\"))"},
      {"count(xs)", "(count xs)"},
      {"exists s in statements(a.file) where s.code ~ /del/", "(exists s statements(a.file) (~ s.code /del/))"},
      {"exists f in files(\"a/**\", \"b/*.py\")", "(exists f files(\"a/**\" \"b/*.py\"))"},
      {"exists f in files(base)", "(exists f files(base))"},
      {"exists f in files(repo)", "(exists f files(repo))"},
      {"exists f in files(serving)", "(exists f files(serving))"},
      {"exists f in files", "(exists f files)"},
      {"kind perf and pr.text ~ /x/", "(and (kind perf) (~ pr.text /x/))"},
      {"a ==", "ERR 5: expected a value after the operator"},
      {"(a", "ERR 3: expected `)` to close the parenthesis"},
      {"[a, b", "ERR 6: expected `,` or `]` in the list"},
      {"a.", "ERR 3: expected a field name after `.`"},
      {"count(", "ERR 7: expected `X in SOURCE(SCOPE)`, `X in LIST where ...` or a list inside count()"},
      {"exists in", "ERR 8: expected a variable name, found `in`"},
      {"exists x of", "ERR 10: expected `in` after the variable, found `of`"},
      {"exists x in 3", "ERR 13: expected a fact source, as in lines(changed), or a list, as in f.params, found `3`"},
      // list domains: field chains, [lists], bare names (a source or a list, decided by the checker)
      {"exists k in f.params where k ~ /^dtype$/", "(exists k f.params (~ k /^dtype$/))"},
      {"count(p in f.params where p != \"self\") > 2", "(> (count p f.params (!= p \"self\")) 2)"},
      {"count(p in names where p == 1)", "(count p names (== p 1))"},
      {"count(p in [1, 2])", "(count p [1 2])"},
      {"exists c in u.read.calls", "(exists c u.read.calls)"},
      {"count(x in xs)", "(count (in x xs))"},
      {"exists k in f.", "ERR 15: expected a field name after `.`"},
      {"exists x in lines(3)", "ERR 19: expected a scope: changed, base, repo, a glob list or a let name, found `3`"},
      {"exists x in lines(changed", "ERR 26: expected `)` after the scope"},
      {"findings(x)", "ERR 10: expected a tag string, as in findings(\"ai-sign\"), found `x`"},
      {"kind 3", "ERR 6: expected a kind name after `kind`, found `3`"},
      {"a or", "ERR 5: expected an expression after `or`"},
      {"not", "ERR 4: expected an expression"},
      {"\"abc", "ERR 5: unterminated string: expected `\"` before the end of the line"},
      {"x ~ /abc", "ERR 9: unterminated regex: expected `/` before the end of the line"},
      {"99999999999999999999", "ERR 1: integer literal out of range"},
      // built-in functions
      {"lower(f.name) == \"x\"", "(== (lower() f.name) \"x\")"},
      {"len(f.params) - 1 > len(\"ab\")", "(> (- (len() f.params) 1) (len() \"ab\"))"},
      {"f()", "(f())"},
      {"lower(a, b", "ERR 11: expected `,` or `)` in the function call"},
      // negated membership and glob
      {"k not in [\"a\", \"b\"]", "(not in k [\"a\" \"b\"])"},
      {"f.path not  like \"atom/**\" and x", "(and (not like f.path \"atom/**\") x)"},
      {"a and not b in c", "(and a (not (in b c)))"},
      {"not a not in b", "(not (not in a b))"},
      {"a not", "ERR 3: unexpected text after the expression"},
      {"a not in", "ERR 9: expected a value after the operator"},
      // arithmetic: `*` over `+ -`, left-associative, below comparisons
      {"x.line >= u.branch.line - 3", "(>= x.line (- u.branch.line 3))"},
      {"a + b * c - d", "(- (+ a (* b c)) d)"},
      {"a - b - c", "(- (- a b) c)"},
      {"a-1", "(- a 1)"},
      {"3 - -3", "(- 3 -3)"},
      {"(a + b) * 2", "(* (+ a b) 2)"},
      {"\"a\" + l.text == \"ab\"", "(== (+ \"a\" l.text) \"ab\")"},
      {"count(xs) * 2 > n + 1", "(> (* (count xs) 2) (+ n 1))"},
      {"a +", "ERR 4: expected a value after `+` or `-`"},
      {"a * ", "ERR 5: expected a value after `*`"},
      {"a < b -", "ERR 8: expected a value after `+` or `-`"},
  };
  for (const auto& r : rows) {
    INFO(r.in);
    CHECK(dump_expr(r.in) == r.want);
  }
}

TEST_CASE("parser: declaration syntax errors, one message table") {
  struct Row { const char* in; const char* want; };
  const Row rows[] = {
      {"rule", "1:5: expected a rule id"},
      {"rule X", "1:7: expected a title string"},
      {"rule X \"t\"", "1:11: expected `{` after the rule title"},
      {"rule X \"t\" {", "1:6: the file ends inside rule `X`: its closing `}` is missing"},
      {"rule X \"t\" { for at in lines }", "1:18: expected a variable name after `for`; `at` is a keyword of the rule language, pick another name"},
      {"rule X \"t\" { 42 }", "1:14: expected a rule clause (severity, evidence, tags, when, for, where, unless, at, problem, impact, action, help, example, also) or `}`, found `42`"},
      {"rule X \"t\" { also { } }", "1:19: expected a label string after `also`, as in also \"consumer repository\" {"},
      {"rule X \"t\" { also \"l\" for }", "1:23: expected `{` after the `also` label, found `for`"},
      {"rule X \"t\" { also \"l\" { tags \"a\" } }", "1:25: expected a clause of the `also` body (severity, evidence, for, where, unless, at, problem, impact, action) or `}`, found `tags`"},
      {"rule X \"t\" { also \"l\" { also \"m\" { } } }", "1:25: expected a clause of the `also` body (severity, evidence, for, where, unless, at, problem, impact, action) or `}`"},
      {"rule X \"t\" {\n also \"l\" { severity high } }", "2:22: expected `block`, `warn` or `note`, found `high`"},
      {"rule X \"t\" {\n also \"l\" {\n  for x", "3:8: expected `in` after the variable"},
      {"rule X \"t\" {\n also \"l\" {\n", "1:6: the file ends inside rule `X`: its closing `}` is missing"},
      {"rule X \"t\" { severity high }", "1:23: expected `block`, `warn` or `note`, found `high`"},
      {"rule X \"t\" { evidence maybe }", "1:23: expected `verified` or `inferred`, found `maybe`"},
      // a word close to one the message quotes (a typo, a transposition) is named
      {"rule X \"t\" { severity wran }", "1:23: expected `block`, `warn` or `note`, found `wran`; did you mean `warn`?"},
      {"rule X \"t\" { example god python \"x\" }", "1:22: expected `bad`, `good`, `todo-bad` or `todo-good`, found `god`; did you mean `good`?"},
      {"rule X \"t\" { tags }", "1:19: expected a tag string"},
      {"rule X \"t\" { for in }", "1:18: expected a variable name after `for`; `in` is a keyword of the rule language, pick another name"},
      {"rule X \"t\" { for x of }", "1:20: expected `in` after the variable, found `of`"},
      {"rule X \"t\" { problem 3 }", "1:22: expected a string, found `3`"},
      {"rule X \"t\" { example ugly python \"x\" }", "1:22: expected `bad`, `good`, `todo-bad` or `todo-good`, found `ugly`"},
      {"rule X \"t\" { example bad \"x\" }", "1:26: expected a language name (python, cpp, diff, ...)"},
      {"rule X \"t\" { example bad python }", "1:33: expected the example code as a string"},
      {"rule X \"t\" { help \"\"\"abc }", "1:27: unterminated triple-quoted string: expected `\"\"\"`"},
      {"ruleset", "1:8: expected a name"},
      {"ruleset a", "1:10: expected a title string"},
      {"ruleset a \"t\" { version x }", "1:25: expected a version number, found `x`"},
      {"ruleset a \"t\" { tests 3 }", "1:23: expected a glob string, found `3`"},
      {"ruleset a \"t\" { foo }", "1:17: expected `version`, `tests` or `}` in the ruleset block, found `foo`"},
      {"use 3", "1:5: expected a file name string after `use`, found `3`"},
      {"let", "1:4: expected a name after `let`"},
      {"let x", "1:6: expected `=` after the let name"},
      {"let x =", "1:8: expected a value: strings, a [list], a /regex/, an integer or `repo`"},
      {"let x = repo \"pins.txt\"", "1:24: expected a /regex/ after the file: its group `rev` (else group 1) is the pinned revision"},
      {"tier x", "1:6: expected a tier number, found `x`"},
      {"tier 1", "1:7: expected a tier label string"},
      {"tier 1 \"l\"", "1:11: expected `{` after the tier label"},
      {"tier 1 \"l\" { \"a\" blast }", "1:24: expected a string"},
      {"tier 1 \"l\" { x }", "1:14: expected a glob string or `}` in the tier block, found `x`"},
      {"kind", "1:5: expected a kind name"},
      {"kind perf \"p\" pr.text", "1:15: expected `when` and a condition, found `pr`"},
      {"kind perf \"p\" when", "1:19: expected an expression"},
      {"bogus", "1:1: expected a declaration: ruleset, use, let, tier, kind or rule, found `bogus`"},
  };
  for (const auto& r : rows) {
    INFO(r.in);
    CHECK(first_error(r.in) == r.want);
  }
}

TEST_CASE("parser: `also` bodies of a rule") {
  auto r = parse_ruleset(R"(rule B5b "removed parameter still passed" {
  severity block
  tags "api"
  when kind perf
  for c in calls where c.added
  problem "main {c.callee}"
  impact "i"
  action "Author must"
  also "consumer repository" {
    for u in calls(aiter) where u.callee == "f"
    unless u.added
    at u
    problem "consumer {u.callee}"; impact "ci"; action "Author should"
  }
  example bad python "x"
  also "warned" { severity warn  evidence inferred  problem "p" impact "i" action "Author must" }
}
)", "t.rules");
  REQUIRE(r.diagnostics.empty());
  REQUIRE(r.file.rules.size() == 1);
  const ast::Rule& rule = r.file.rules[0];
  CHECK(rule.label.empty());
  REQUIRE(rule.fors.size() == 1);  // the `also` clauses did not leak into the main body
  CHECK(rule.fors[0].var == "c");
  CHECK(rule.unlesses.empty());
  CHECK_FALSE(rule.at);
  CHECK(rule.problem.raw == "main {c.callee}");
  CHECK(rule.examples.size() == 1);
  REQUIRE(rule.alsos.size() == 2);
  const ast::Rule& a = rule.alsos[0];
  CHECK(a.label == "consumer repository");
  CHECK(a.label_span.line == 9);
  CHECK(a.label_span.column == 8);
  CHECK(a.label_span.length == 21);
  // inherited from the rule: id, title, tags, severity, evidence; not `when`
  CHECK(a.id == "B5b");
  CHECK(a.title == "removed parameter still passed");
  CHECK(a.tags == std::vector<std::string>{"api"});
  CHECK(a.severity == "block");
  CHECK(a.evidence == "verified");
  CHECK_FALSE(a.when);
  REQUIRE(a.fors.size() == 1);
  CHECK(a.fors[0].var == "u");
  CHECK(a.unlesses.size() == 1);
  CHECK(a.at);
  CHECK(a.problem.raw == "consumer {u.callee}");
  CHECK(a.problem.parts.size() == 2);
  CHECK(a.action.raw == "Author should");
  // the block's own severity and evidence win
  CHECK(rule.alsos[1].label == "warned");
  CHECK(rule.alsos[1].severity == "warn");
  CHECK(rule.alsos[1].evidence == "inferred");
  CHECK(ast::dump(rule).find(" (also \"consumer repository\" sev=block ev=verified tags=api for=u:calls(aiter) "
                             "where=(== u.callee \"f\") unless=u.added at=u problem=\"consumer {u.callee}\")") !=
        std::string::npos);
}

TEST_CASE("parser: a duplicate clause inside `also` is its own, not the rule's") {
  auto r = parse_ruleset("rule X \"t\" {\n problem \"a\"\n also \"l\" {\n  problem \"b\"\n  at x\n  at y\n }\n}\n", "t.rules");
  REQUIRE(r.diagnostics.empty());
  REQUIRE(r.file.rules.size() == 1);
  CHECK(r.file.rules[0].duplicate_clauses.empty());
  REQUIRE(r.file.rules[0].alsos.size() == 1);
  const auto& d = r.file.rules[0].alsos[0].duplicate_clauses;
  REQUIRE(d.size() == 1);
  CHECK(d[0].first == "at");
  CHECK(d[0].second.line == 6);
}

TEST_CASE("parser: several syntax errors per run, resuming at the next declaration") {
  auto r = parse_ruleset("rule A \"a\" {\n  severity high\n}\nlet x = 1\nrule B {\n}\nrule C \"c\" { }\n", "t.rules");
  REQUIRE(r.diagnostics.size() == 2);
  CHECK(r.diagnostics[0].line == 2);
  CHECK(r.diagnostics[1].line == 5);
  CHECK(r.diagnostics[1].message == "expected a title string");
  REQUIRE(r.file.rules.size() == 1);
  CHECK(r.file.rules[0].id == "C");
  CHECK(r.file.lets.size() == 1);
}

TEST_CASE("parser: rule AST dump") {
  auto r = parse_ruleset(R"(
rule F1 "weight kept" {
  severity warn; evidence inferred
  tags "mem", "ai-sign"
  when kind perf
  for a in assignments(changed) where a.added
      and a.target ~ /^self\.(?P<orig>\w+?)_(?P<variant>shuffled)$/
  for s in statements(a.file)
  where s.line > a.line
  unless exists d in statements(a.file) where d.code ~ /del\s+self\.{orig}\b/
  problem "`self.{orig}_{variant}` kept in {a.function}"
  impact "x"
  action "Author must free it"
  example bad python """
    x = 1
  """
}
)", "t.rules");
  REQUIRE(r.diagnostics.empty());
  REQUIRE(r.file.rules.size() == 1);
  CHECK(ast::dump(r.file.rules[0]) ==
        "(rule F1 sev=warn ev=inferred tags=mem,ai-sign when=(kind perf) "
        "for=a:assignments(changed) where=(and a.added (~ a.target /^self\\.(?P<orig>\\w+?)_(?P<variant>shuffled)$/)) "
        "for=s:statements(a.file) where=(> s.line a.line) "
        "unless=(exists d statements(a.file) (~ d.code /del\\s+self\\.{orig}\\b/)) "
        "problem=\"`self.{orig}_{variant}` kept in {a.function}\" examples=1)");
  const auto& t = r.file.rules[0].problem;
  REQUIRE(t.parts.size() == 6);
  CHECK(t.parts[1].text == "orig");
  CHECK(t.parts[1].hole != nullptr);
  CHECK(t.parts[2].text == "_");
  CHECK(r.file.rules[0].examples[0].code == "x = 1");
}

TEST_CASE("parser: declarations") {
  auto r = parse_ruleset(R"(ruleset atom "ATOM review" { version 2; tests "tests/**", "**/test_*.py" }
use "common.rules"
let serving = "atom/entrypoints/**", "atom/model_engine/**"
let one = "x"
let n = 3
let re = /(?i)perf/
let l = ["a", 1]
tier 1 "every pass" {
  "atom/config.py" blast "all models" fails "wrong config"
  "atom/x.py"
}
kind perf "performance change" when pr.text ~ re
let aiter = repo "docker/Dockerfile" /ARG AITER_COMMIT=(?P<rev>\w+)/
let atom = repo
)", "t.rules");
  REQUIRE(r.diagnostics.empty());
  const auto& f = r.file;
  CHECK(f.ruleset_name == "atom");
  CHECK(f.ruleset_title == "ATOM review");
  CHECK(f.version == 2);
  CHECK(f.test_globs == std::vector<std::string>{"tests/**", "**/test_*.py"});
  REQUIRE(f.uses.size() == 1);
  CHECK(f.uses[0].path == "common.rules");
  REQUIRE(f.lets.size() == 7);
  CHECK_FALSE(f.lets[0].repo);
  CHECK(f.lets[5].repo);
  CHECK(f.lets[5].pin_file == "docker/Dockerfile");
  REQUIRE(f.lets[5].pin);
  CHECK(f.lets[5].pin->text == "ARG AITER_COMMIT=(?P<rev>\\w+)");
  CHECK(ast::dump(*f.lets[5].value) == "\"aiter\"");  // as a value: its name
  CHECK(f.lets[6].repo);
  CHECK(f.lets[6].pin_file.empty());
  CHECK_FALSE(f.lets[6].pin);
  CHECK(ast::dump(*f.lets[0].value) == "[\"atom/entrypoints/**\" \"atom/model_engine/**\"]");
  CHECK(ast::dump(*f.lets[1].value) == "\"x\"");
  CHECK(ast::dump(*f.lets[2].value) == "3");
  CHECK(ast::dump(*f.lets[3].value) == "/(?i)perf/");
  CHECK(ast::dump(*f.lets[4].value) == "[\"a\" 1]");
  REQUIRE(f.tiers.size() == 1);
  CHECK(f.tiers[0].entries.size() == 2);
  CHECK(f.tiers[0].entries[0].blast == "all models");
  CHECK(f.tiers[0].entries[0].fails == "wrong config");
  REQUIRE(f.kinds.size() == 1);
  CHECK(ast::dump(*f.kinds[0].when) == "(~ pr.text re)");
}

TEST_CASE("parser: hostile input never crashes") {
  SECTION("10,000-deep parentheses") {
    std::string s = "rule X \"t\" { when " + std::string(10000, '(') + "a" + std::string(10000, ')') + " }";
    auto r = parse_ruleset(s, "t.rules");
    REQUIRE(!r.diagnostics.empty());
    CHECK(r.diagnostics[0].message == "expression nested too deeply (more than 64 levels)");
  }
  SECTION("10,000-deep lists and nots") {
    std::string s = "rule X \"t\" { when " + std::string(10000, '[') + " }";
    CHECK(parse_ruleset(s, "t.rules").diagnostics[0].message == "expression nested too deeply (more than 64 levels)");
    std::string n = "rule X \"t\" { when ";
    for (int i = 0; i < 10000; ++i) n += "not ";
    CHECK(parse_ruleset(n + "a }", "t.rules").diagnostics[0].message == "expression nested too deeply (more than 64 levels)");
  }
  SECTION("10,000 chained `+`") {
    std::string s = "rule X \"t\" { when 1";
    for (int i = 0; i < 10000; ++i) s += "+1";
    CHECK(parse_ruleset(s + " > 0 }", "t.rules").diagnostics[0].message ==
          "expression nested too deeply (more than 64 levels)");
    std::string ok = "1";
    for (int i = 0; i < 60; ++i) ok += "+1";
    std::vector<Diagnostic> d;
    CHECK(parse_expression(ok, "e", d) != nullptr);
  }
  SECTION("a 1 MB line of `and`") {
    std::string s = "rule X \"t\" { when a";
    while (s.size() < (1u << 20)) s += " and a";
    s += " }";
    auto r = parse_ruleset(s, "t.rules");
    CHECK(r.diagnostics.empty());
    REQUIRE(r.file.rules.size() == 1);
    CHECK(r.file.rules[0].when->kids.size() > 100000);
  }
  SECTION("unterminated string at the end") {
    CHECK(first_error("rule X \"t\" { problem \"abc") == "1:26: unterminated string: expected `\"` before the end of the line");
  }
  SECTION("invalid UTF-8") {
    auto r = parse_ruleset("rule X \"t\xff\" {}", "t.rules");
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].column == 10);
    CHECK(r.diagnostics[0].message == "invalid UTF-8 (byte 0xff); rulesets must be UTF-8 text");
  }
  SECTION("NUL bytes and binary junk") {
    std::string s("rule \0\x01\x02", 8);
    CHECK(!parse_ruleset(s, "t.rules").diagnostics.empty());
  }
}

TEST_CASE("parser: for over a list-valued field") {
  auto r = parse_ruleset("rule X \"t\" {\n for c in calls\n for k in c.kwarg_names where k ~ /^dtype$/\n for n in names\n}", "t.rules");
  REQUIRE(r.diagnostics.empty());
  REQUIRE(r.file.rules.size() == 1);
  std::string d = ast::dump(r.file.rules[0]);
  CHECK(d.find("for=c:calls for=k:c.kwarg_names where=(~ k /^dtype$/) for=n:names ") != std::string::npos);
  CHECK(r.file.rules[0].fors[0].domain.bare);
  CHECK_FALSE(r.file.rules[0].fors[1].domain.bare);
}

TEST_CASE("template helpers") {
  CHECK(dedent("\n    a\n      b\n    c\n  ") == "a\n  b\nc");
  CHECK(decode_string_literal("\"a\\\"b\\n\"") == "a\"b\n");
  CHECK(decode_regex_literal("/a\\/b\\d/") == "a/b\\d");
  auto holes = regex_holes("\\bdel\\s+self\\.{orig}\\b\\d{3,4}\\p{Greek}{x_1}");
  REQUIRE(holes.size() == 2);
  CHECK(holes[0].name == "orig");
  CHECK(holes[1].name == "x_1");
  CHECK(holes[1].length == 5);
  // field chains; `{a.}`, `{a-b}`, `\{x}` and `{2}` are not holes
  holes = regex_holes("{h.name}\\({u.read.line}{a.}{a-b}\\{x}a{2}");
  REQUIRE(holes.size() == 2);
  CHECK(holes[0].text() == "h.name");
  CHECK(holes[0].path == std::vector<std::string>{"name"});
  CHECK(holes[0].length == 8);
  CHECK(holes[1].offset == 10);
  CHECK(holes[1].name == "u");
  CHECK(holes[1].path == std::vector<std::string>{"read", "line"});
}

TEST_CASE("regex instances: quoted values, bounded cache") {
  std::string err;
  auto re = compile_regex("^{h.name}\\(", err);
  REQUIRE(re);
  auto dotted = re->instance({"get.x"});
  REQUIRE(dotted);
  CHECK(dotted->pattern() == "^get\\.x\\(");
  CHECK(regex_search(*dotted, "get.x(1)", nullptr));
  CHECK_FALSE(regex_search(*dotted, "getax(1)", nullptr));
  CHECK(re->instance({"get.x"}) == dotted);  // cached by the inserted values
  for (int i = 0; i < 1100; ++i) re->instance({"v" + std::to_string(i)});
  CHECK(re->cached_instances() == kMaxRegexInstances);
  CHECK(regex_search(*dotted, "get.x(", nullptr));  // still valid after eviction
  CHECK(re->instance({"get.x"}) != dotted);         // evicted, compiled anew
  re->clear_instances();
  CHECK(re->cached_instances() == 0);
  CHECK(regex_search(*dotted, "get.x(", nullptr));  // a holder keeps its instance
  CHECK(re->instance({"v1"}) != nullptr);
  CHECK(re->cached_instances() == 1);
  // the cache key tells apart value lists that a separator alone would join the same way
  auto two = compile_regex("^{a}{b}=", err);
  REQUIRE(two);
  auto first = two->instance({"a:b", "c"});
  auto second = two->instance({"a", "b:c"});
  REQUIRE(first);
  REQUIRE(second);
  CHECK(regex_search(*first, "a:bc=", nullptr));
  CHECK_FALSE(regex_search(*second, "a:bc=", nullptr));
  CHECK(regex_search(*second, "ab:c=", nullptr));
}

TEST_CASE("grammar: analyze<> finds no infinite loops or left recursion") {
  CHECK(tao::pegtl::analyze<grammar::file>() == 0);
  CHECK(tao::pegtl::analyze<grammar::expr_only>() == 0);
}

TEST_CASE("template_outline: holes read as the field path they show, escaped braces as braces") {
  struct Row {
    const char* raw;
    const char* want;
  };
  const Row rows[] = {
      {"`{f.path}` is a Tier-1 file (line {l.line})", "`\u2039f.path\u203a` is a Tier-1 file (line \u2039l.line\u203a)"},
      {"`find_package({pkg})` at `{c.file}:{c.line}`", "`find_package(\u2039pkg\u203a)` at `\u2039c.file\u203a:\u2039c.line\u203a`"},
      {"({trim(c.argtext)})", "(\u2039c.argtext\u203a)"},
      {"line {a.line - 1} of {len(c.args)} args", "line \u2039a.line\u203a of \u2039c.args\u203a args"},
      {"{a.line} and {k.line} of {c.a.file}", "\u2039a.line\u203a and \u2039k.line\u203a of \u2039c.a.file\u203a"},
      {"{f.path}. Then {x.}", "\u2039f.path\u203a. Then \u2039x\u203a"},
      {"`{expr}{expr2}{expr3}` by {a}-{b}", "`\u2039expr\u203a` by \u2039a\u203a-\u2039b\u203a"},
      {"{{{a}}}{b}", "{\u2039a\u203a}\u2039b\u203a"},
      {"a set {{x}} and {1}", "a set {x} and \u2039\u2026\u203a"},
      {"quoted {join(xs, \"}\")} end", "quoted \u2039xs\u203a end"},
      {"no holes", "no holes"},
      {"unterminated {f.path", "unterminated {f.path"},
      {"", ""},
  };
  for (const auto& r : rows) {
    INFO(r.raw);
    CHECK(template_outline(r.raw) == r.want);
  }
}
