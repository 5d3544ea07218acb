// Every load-time diagnostic, word for word, with its caret.
#include "catch.hpp"
#include "dsl/ruleset.hpp"
#include "memory_facts.hpp"

using namespace review::dsl;

namespace {

const char* const kTail = R"(
  problem "p {l.text}"
  impact "i"
  action "Author must fix it"
  example bad python "x"
})";

std::string diagnostics_of(const std::string& text, LoadOptions o = {}, const Resolver& res = nullptr) {
  auto r = load_ruleset("t.rules", text, testing::test_schema(), res, o);
  std::string out;
  for (const auto& d : r.diagnostics) out += format_diagnostic(d);
  return out;
}

std::string rule_with(const std::string& body) {
  return "rule X \"t\" {\n  " + body + kTail;
}

}  // namespace

TEST_CASE("checker: name and type errors, full text") {
  struct Row { std::string in; std::string want; };
  const Row rows[] = {
      {rule_with("for l in line(changed)"),
       "t.rules:2:12: error: unknown source `line`; did you mean `lines`?\n"
       "    for l in line(changed)\n"
       "             ^~~~\n"},
      {rule_with("for l in lines(changed) where l.txt == \"a\""),
       "t.rules:2:35: error: unknown field `txt` of `lines`; did you mean `text`?\n"
       "    for l in lines(changed) where l.txt == \"a\"\n"
       "                                    ^~~\n"},
      // two letters swapped are one edit
      {rule_with("for l in lines(changed) where l.cdoe == \"a\""),
       "t.rules:2:35: error: unknown field `cdoe` of `lines`; did you mean `code`?\n"
       "    for l in lines(changed) where l.cdoe == \"a\"\n"
       "                                    ^~~~\n"},
      {rule_with("for l in lines(changed) where m.text == \"a\""),
       "t.rules:2:33: error: unknown variable `m`; did you mean `l`?\n"
       "    for l in lines(changed) where m.text == \"a\"\n"
       "                                  ^\n"},
      {rule_with("for l in lines(changd)"),
       "t.rules:2:18: error: unknown scope `changd`; did you mean `changed`?\n"
       "    for l in lines(changd)\n"
       "                   ^~~~~~\n"},
      {rule_with("for l in lines(changed) where l.text == [\"a\"]"),
       "t.rules:2:40: error: cannot compare string with list\n"
       "    for l in lines(changed) where l.text == [\"a\"]\n"
       "                                         ^~\n"},
      {rule_with("for l in lines(changed) where l.line ~ /x/"),
       "t.rules:2:33: error: regex match needs a string on the left, got int\n"
       "    for l in lines(changed) where l.line ~ /x/\n"
       "                                  ^~~~~~\n"},
      {rule_with("for l in lines(changed) where l.text ~ /a(b/"),
       "t.rules:2:42: error: invalid regex: missing ): a(b\n"
       "    for l in lines(changed) where l.text ~ /a(b/\n"
       "                                           ^~~~~\n"},
      {rule_with("for l in lines(changed) where l.text ~ /(?P<if>x)/"),
       "t.rules:2:42: error: the regex's group `if` is named by a keyword of the rule language, so no condition or "
       "template could read it; rename the group\n"
       "    for l in lines(changed) where l.text ~ /(?P<if>x)/\n"
       "                                           ^~~~~~~~~~~\n"},
      {rule_with("for l in lines(changed) where l.text ~ \"a\""),
       "t.rules:2:42: error: the right side of `~` must be a /regex/ or a let that holds one\n"
       "    for l in lines(changed) where l.text ~ \"a\"\n"
       "                                           ^~~\n"},
      {rule_with("for l in lines(changed) where l.text ~ /{nope}/"),
       "t.rules:2:43: error: unknown variable `nope` in the regex hole `{nope}`\n"
       "    for l in lines(changed) where l.text ~ /{nope}/\n"
       "                                            ^~~~~~\n"},
      {rule_with("for l in lines(changed) where l.text ~ /{k.text}/"),
       "t.rules:2:43: error: unknown variable `k` in the regex hole `{k.text}`; did you mean `l`?\n"
       "    for l in lines(changed) where l.text ~ /{k.text}/\n"
       "                                            ^~~~~~~~\n"},
      {rule_with("for l in lines(changed) where l.text ~ /a\\/{l.txt}/"),
       "t.rules:2:49: error: unknown field `txt` of `lines`; did you mean `text`?\n"
       "    for l in lines(changed) where l.text ~ /a\\/{l.txt}/\n"
       "                                                  ^~~\n"},
      {rule_with("for l in lines(changed) where l.text ~ /{l.added}/"),
       "t.rules:2:43: error: the regex hole `{l.added}` must give a string or an integer, got bool\n"
       "    for l in lines(changed) where l.text ~ /{l.added}/\n"
       "                                            ^~~~~~~~~\n"},
      {rule_with("for l in lines(changed) where l.text ~ /{l.text.size}/"),
       "t.rules:2:51: error: `l.text` has no fields (it is a string)\n"
       "    for l in lines(changed) where l.text ~ /{l.text.size}/\n"
       "                                                    ^~~~\n"},
      {rule_with("for l in lines(changed) where l.line - l.text > 0"),
       "t.rules:2:40: error: `-` needs integers, got int and string\n"
       "    for l in lines(changed) where l.line - l.text > 0\n"
       "                                         ^\n"},
      {rule_with("for l in lines(changed) where l.text + 1 == \"a\""),
       "t.rules:2:40: error: `+` adds two integers or joins two strings, got string and int\n"
       "    for l in lines(changed) where l.text + 1 == \"a\"\n"
       "                                         ^\n"},
      {rule_with("for l in lines(changed) where l.line + 1 == \"a\""),
       "t.rules:2:44: error: cannot compare int with string\n"
       "    for l in lines(changed) where l.line + 1 == \"a\"\n"
       "                                             ^~\n"},
      {rule_with("for l in lines(changed) where l.added * 2 > 1"),
       "t.rules:2:41: error: `*` needs integers, got bool and int\n"
       "    for l in lines(changed) where l.added * 2 > 1\n"
       "                                          ^\n"},
      {rule_with("for l in lines(changed)\n  for k in l.text"),
       "t.rules:3:12: error: cannot iterate over a string: write a list or a fact source after `in`\n"
       "    for k in l.text\n"
       "             ^~~~~~\n"},
      {rule_with("for l in lines(changed)\n  for f in functions(changed) where exists k in f.parms"),
       "t.rules:3:51: error: unknown field `parms` of `functions`; did you mean `params`?\n"
       "    for f in functions(changed) where exists k in f.parms\n"
       "                                                    ^~~~~\n"},
      {rule_with("for l in lines(changed) where count(k in ls where k == 1) > 0"),
       "t.rules:2:44: error: unknown source or list `ls`; did you mean `l`?\n"
       "    for l in lines(changed) where count(k in ls where k == 1) > 0\n"
       "                                             ^~\n"},
      {rule_with("for l in lines(changed)\n  for k in [1, 2] where k ~ /x/"),
       "t.rules:3:25: error: regex match needs a string on the left, got int\n"
       "    for k in [1, 2] where k ~ /x/\n"
       "                          ^\n"},
      {rule_with("for l in lines(changed) where l.line not like \"a\""),
       "t.rules:2:33: error: `not like` needs a string on the left, got int\n"
       "    for l in lines(changed) where l.line not like \"a\"\n"
       "                                  ^~~~~~\n"},
      {rule_with("for l in lines(changed) where l.text not in 3"),
       "t.rules:2:47: error: `not in` needs a list or a string on the right, got int\n"
       "    for l in lines(changed) where l.text not in 3\n"
       "                                                ^\n"},
      {rule_with("for l in lines(changed) where lowr(l.text) == \"a\""),
       "t.rules:2:33: error: unknown function `lowr`; did you mean `lower`?\n"
       "    for l in lines(changed) where lowr(l.text) == \"a\"\n"
       "                                  ^~~~\n"},
      {rule_with("for l in lines(changed) where lower(l.line) == \"a\""),
       "t.rules:2:39: error: `lower` needs a string, got int\n"
       "    for l in lines(changed) where lower(l.line) == \"a\"\n"
       "                                        ^~~~~~\n"},
      {rule_with("for l in lines(changed) where len(l.text, 1) > 3"),
       "t.rules:2:33: error: `len` takes 1 argument, got 2\n"
       "    for l in lines(changed) where len(l.text, 1) > 3\n"
       "                                  ^~~\n"},
      {rule_with("for l in lines(changed) where len(l.added) > 3"),
       "t.rules:2:37: error: `len` needs a string or a list, got bool\n"
       "    for l in lines(changed) where len(l.added) > 3\n"
       "                                      ^~~~~~~\n"},
      {rule_with("for l in lines(changed) where len(l.text) == \"3\""),
       "t.rules:2:45: error: cannot compare int with string\n"
       "    for l in lines(changed) where len(l.text) == \"3\"\n"
       "                                              ^~\n"},
      {rule_with("for l in lines(changed) where l.text < 3"),
       "t.rules:2:40: error: `<` compares integers, got string\n"
       "    for l in lines(changed) where l.text < 3\n"
       "                                         ^\n"},
      {rule_with("for l in lines(changed) where l.line like \"a\""),
       "t.rules:2:33: error: `like` needs a string on the left, got int\n"
       "    for l in lines(changed) where l.line like \"a\"\n"
       "                                  ^~~~~~\n"},
      {rule_with("for l in lines(changed) where l.text in 3"),
       "t.rules:2:43: error: `in` needs a list or a string on the right, got int\n"
       "    for l in lines(changed) where l.text in 3\n"
       "                                            ^\n"},
      {rule_with("for l in lines(changed) where l.text.size == 1"),
       "t.rules:2:40: error: `l.text` has no fields (it is a string)\n"
       "    for l in lines(changed) where l.text.size == 1\n"
       "                                         ^~~~\n"},
      {rule_with("for l in lines(changed) where count(3) > 1"),
       "t.rules:2:39: error: count() needs a list or `X in SOURCE(SCOPE)`, got int\n"
       "    for l in lines(changed) where count(3) > 1\n"
       "                                        ^\n"},
      {rule_with("for l in lines(changed) where kind prf"),
       "t.rules:2:38: error: unknown kind `prf`; did you mean `perf`?\n"
       "    for l in lines(changed) where kind prf\n"
       "                                       ^~~\n"},
      {rule_with("for l in lines(changed) where /x/"),
       "t.rules:2:33: error: a regex can only stand on the right of `~` or `!~`\n"
       "    for l in lines(changed) where /x/\n"
       "                                  ^~~\n"},
      {rule_with("for l in lines(changed)\n  for p in pr(changed)"),
       "t.rules:3:15: error: `pr` takes no scope\n"
       "    for p in pr(changed)\n"
       "                ^~~~~~~\n"},
  };
  for (const auto& r : rows) {
    INFO(r.in);
    CHECK(diagnostics_of("kind perf \"p\" when pr.text ~ /x/\n" + r.in).substr(0) ==
          [&] {  // rows are written for a file starting at the rule: shift line numbers by one
            std::string w = r.want, out;
            size_t at = 0;
            while (true) {
              size_t p = w.find("t.rules:", at);
              if (p == std::string::npos) { out += w.substr(at); break; }
              size_t c = w.find(':', p + 8);
              out += w.substr(at, p + 8 - at) + std::to_string(std::stoi(w.substr(p + 8, c - p - 8)) + 1);
              at = c;
            }
            return out;
          }());
  }
}

TEST_CASE("checker: rule lints") {
  SECTION("red-finding gate") {
    CHECK(diagnostics_of("rule X \"t\" {\n  severity block\n  problem \"something is off\"\n  impact \"i\"\n"
                         "  action \"Author must fix it\"\n  example bad python \"x\"\n}") ==
          "t.rules:3:11: error: a blocking finding must name its concrete trigger: the `problem` of block rule `X` "
          "has no {hole} that uses a captured value or a fact field\n"
          "    problem \"something is off\"\n"
          "            ^~~~~~~~~~~~~~~~~~\n");
    CHECK(diagnostics_of("rule X \"t\" {\n  severity block\n  for l in lines where l.text ~ /(?P<w>x)/\n"
                         "  problem \"{w}\"\n  impact \"i\"\n  action \"Author must fix it\"\n  example bad python \"x\"\n}") == "");
    // the run-time half of the gate, decided at load time: an inferred finding never blocks
    CHECK(diagnostics_of("rule X \"t\" {\n  severity block\n  evidence inferred\n  for l in lines where l.text ~ /(?P<w>x)/\n"
                         "  problem \"{w}\"\n  impact \"i\"\n  action \"Author must fix it\"\n  example bad python \"x\"\n}") ==
          "t.rules:1:6: error: block rule `X` has `evidence inferred`: an inferred finding is at most a warning (the "
          "red-finding gate); make it `severity warn`, or verify its evidence\n"
          "  rule X \"t\" {\n"
          "       ^\n");
  }
  SECTION("action prefix, default and configured") {
    std::string r = "rule X \"t\" {\n  problem \"p\"\n  impact \"i\"\n  action \"Fix it\"\n  example bad python \"x\"\n}";
    CHECK(diagnostics_of(r) ==
          "t.rules:4:10: error: `action` must start with a verb phrase addressed to a person: \"Author must\", "
          "\"Author should\", \"Reviewer should ask\" or \"Reviewer should\"\n"
          "    action \"Fix it\"\n"
          "           ^~~~~~~~\n");
    LoadOptions o;
    o.action_prefixes = {"Fix"};
    CHECK(diagnostics_of(r, o) == "");
  }
  SECTION("missing templates, duplicate clauses, bad example warning and strict") {
    std::string r = "rule X \"t\" {\n  severity warn\n  severity note\n}";
    CHECK(diagnostics_of(r) ==
          "t.rules:3:12: error: duplicate `severity` in rule `X`\n"
          "    severity note\n"
          "             ^~~~\n"
          "t.rules:1:6: error: rule `X` has no `problem`\n"
          "  rule X \"t\" {\n"
          "       ^\n"
          "t.rules:1:6: error: rule `X` has no `impact`\n"
          "  rule X \"t\" {\n"
          "       ^\n"
          "t.rules:1:6: error: rule `X` has no `action`\n"
          "  rule X \"t\" {\n"
          "       ^\n"
          "t.rules:1:6: warning: rule `X` has no `bad` example\n"
          "  rule X \"t\" {\n"
          "       ^\n");
    std::string ok = "rule X \"t\" {\n  problem \"p\"\n  impact \"i\"\n  action \"Author must\"\n}";
    auto loose = load_ruleset("t.rules", ok, testing::test_schema(), nullptr, {});
    CHECK(loose.ok());
    LoadOptions strict;
    strict.strict = true;
    auto r2 = load_ruleset("t.rules", ok, testing::test_schema(), nullptr, strict);
    CHECK_FALSE(r2.ok());
    CHECK(format_diagnostic(r2.diagnostics.at(0)) == "t.rules:1:6: error: rule `X` has no `bad` example\n  rule X \"t\" {\n       ^\n");
  }
  SECTION("duplicate ids across used files, and use errors") {
    std::string body = " \"t\" {\n  problem \"p\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n}\n";
    Resolver res = [&](const std::string& use, const std::string&) -> std::optional<std::pair<std::string, std::string>> {
      if (use == "other.rules") return std::make_pair(std::string("other.rules"), "use \"t.rules\"\nrule X" + body);
      if (use == "t.rules") return std::make_pair(std::string("t.rules"), std::string("rule X") + body);
      return std::nullopt;
    };
    CHECK(diagnostics_of("use \"other.rules\"\nuse \"missing.rules\"\nrule X" + body, {}, res) ==
          "t.rules:2:5: error: cannot find `missing.rules` (looked beside t.rules and in the shipped rulesets)\n"
          "  use \"missing.rules\"\n"
          "      ^~~~~~~~~~~~~~~\n"
          "other.rules:2:6: error: duplicate rule id `X` (first declared at t.rules:3:6)\n"
          "  rule X \"t\" {\n"
          "       ^\n");
  }
  SECTION("findings cycles") {
    std::string r =
        "rule A \"a\" {\n  tags \"ta\"\n  when count(findings(\"tb\")) > 0\n  problem \"p\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n}\n"
        "rule B \"b\" {\n  tags \"tb\"\n  when count(findings(\"ta\")) > 0\n  problem \"p\"\n  impact \"i\"\n  action \"Author must\"\n  example bad text \"x\"\n}\n";
    CHECK(diagnostics_of(r) ==
          "t.rules:3:14: error: rules read each other's findings in a cycle: A -> B -> A\n"
          "    when count(findings(\"tb\")) > 0\n"
          "               ^~~~~~~~\n");
  }
  SECTION("kinds used before declaration, duplicate lets, bad let scopes") {
    CHECK(diagnostics_of("kind a \"a\" when kind b\nkind b \"b\" when true\nlet x = 1\nlet x = 2\n") ==
          "t.rules:4:5: error: duplicate let `x`\n"
          "  let x = 2\n"
          "      ^\n"
          "t.rules:1:22: error: kind `b` is used before it is declared\n"
          "  kind a \"a\" when kind b\n"
          "                       ^\n");
  }
}

TEST_CASE("format_diagnostic: long lines are windowed, tabs kept") {
  Diagnostic d;
  d.file = "f";
  d.line = 1;
  d.column = 3;
  d.source_line = "\tx = 1";
  d.message = "m";
  CHECK(format_diagnostic(d) == "f:1:3: error: m\n  \tx = 1\n  \t ^\n");
  d.source_line = std::string(1000, 'a');
  d.column = 500;
  std::string out = format_diagnostic(d);
  CHECK(out.find("\n  ...") != std::string::npos);
  CHECK(out.size() < 400);
}

TEST_CASE("checker: an example in a language outside LoadOptions::example_languages is an error, with a suggestion") {
  const std::string text = "rule X \"t\" {\n  for l in lines(changed)\n  problem \"p\"\n  impact \"i\"\n"
                           "  action \"Author must fix it\"\n  example bad pythn \"x  # <- X\"\n}";
  LoadOptions o;
  o.example_languages = {"python", "cpp", "diff", "pr"};
  CHECK(diagnostics_of(text, o) ==
        "t.rules:6:15: error: unknown example language `pythn`; did you mean `python`? (known: python, cpp, diff, pr)\n"
        "    example bad pythn \"x  # <- X\"\n"
        "                ^~~~~\n");
  // Without the list (a review), languages are not checked.
  CHECK(diagnostics_of(text).empty());
  // Every listed language loads.
  for (const char* lang : {"python", "cpp", "diff", "pr"}) {
    INFO(lang);
    std::string ok = text;
    ok.replace(ok.find("pythn"), 5, lang);
    CHECK(diagnostics_of(ok, o).empty());
  }
}

TEST_CASE("checker: `let NAME = repo` — a scope; its pin regex must compile and have a group") {
  // A repository let is a scope (no error) and, as a value, its name.
  CHECK(diagnostics_of("let lib = repo \"pins.txt\" /lib @ (?P<rev>\\w+)/\n" +
                       rule_with("for l in lines(lib) where l.text != lib")) == "");
  CHECK(diagnostics_of("let lib = repo\n" + rule_with("for l in lines(lib)")) == "");
  CHECK(diagnostics_of("let lib = repo \"pins.txt\" /lib @ \\w+/\n" + rule_with("for l in lines(lib)")) ==
        "t.rules:1:27: error: the pin regex needs a group: `(?P<rev>…)` (or a first group) is the pinned revision\n"
        "  let lib = repo \"pins.txt\" /lib @ \\w+/\n"
        "                            ^~~~~~~~~~~\n");
  CHECK(diagnostics_of("let lib = repo \"pins.txt\" /lib (/\n" + rule_with("for l in lines(lib)")).find("bad pin regex") !=
        std::string::npos);
}

TEST_CASE("checker: `also` bodies — errors at their position, names bound per body, templates required") {
  // `l` and the capture `c` belong to the main body; `w`, captured by the rule's `when`, is seen by
  // every body; the `also` body lacks its `action`; its own `for` variable does not leak back.
  std::string r = "rule X \"t\" {\n"
                  "  when pr.title ~ /(?P<w>\\w+)/\n"
                  "  for l in lines where l.text ~ /(?P<c>x)/\n"
                  "  problem \"p {l.text} {c} {w}\"\n"
                  "  impact \"i\"\n"
                  "  action \"Author must fix it\"\n"
                  "  example bad python \"x\"\n"
                  "  also \"other place\" {\n"
                  "    for m in lines where l.text == \"a\"\n"
                  "    problem \"q {m.text} {c} {w}\"\n"
                  "    impact \"i\"\n"
                  "  }\n"
                  "}\n";
  std::string d = diagnostics_of(r);
  CHECK(d ==
        "t.rules:9:26: error: unknown variable `l`; did you mean `w`?\n"
        "      for m in lines where l.text == \"a\"\n"
        "                           ^\n"
        "t.rules:10:26: error: unknown variable `c`; did you mean `w`?\n"
        "      problem \"q {m.text} {c} {w}\"\n"
        "                           ^\n"
        "t.rules:8:8: error: `also \"other place\"` of rule `X` has no `action`\n"
        "    also \"other place\" {\n"
        "         ^~~~~~~~~~~~~\n");
  // an `also` body's own lints: action prefix, the red-finding gate with its own severity, labels
  std::string lints = "rule X \"t\" {\n"
                      "  problem \"p\"\n  impact \"i\"\n  action \"Author must\"\n  example bad python \"x\"\n"
                      "  also \"a\" {\n    severity block\n    problem \"q\"\n    impact \"i\"\n    action \"Fix it\"\n  }\n"
                      "  also \"a\" {\n    problem \"q\"\n    impact \"i\"\n    action \"Author must\"\n  }\n"
                      "  also \"\" {\n    problem \"q\"\n    impact \"i\"\n    action \"Author must\"\n    impact \"j\"\n  }\n"
                      "}\n";
  CHECK(diagnostics_of(lints) ==
        "t.rules:8:13: error: a blocking finding must name its concrete trigger: the `problem` of block `also \"a\"` "
        "of rule `X` has no {hole} that uses a captured value or a fact field\n"
        "      problem \"q\"\n"
        "              ^~~\n"
        "t.rules:10:12: error: `action` must start with a verb phrase addressed to a person: \"Author must\", "
        "\"Author should\", \"Reviewer should ask\" or \"Reviewer should\"\n"
        "      action \"Fix it\"\n"
        "             ^~~~~~~~\n"
        "t.rules:12:8: error: duplicate `also` label \"a\" in rule `X` (first at line 6)\n"
        "    also \"a\" {\n"
        "         ^~~\n"
        "t.rules:17:8: error: an `also` body needs a label: it tells its findings from the rule's main body's\n"
        "    also \"\" {\n"
        "         ^~\n"
        "t.rules:21:5: error: duplicate `impact` in `also \"\"` of rule `X`\n"
        "      impact \"j\"\n"
        "      ^~~~~~\n");
}
