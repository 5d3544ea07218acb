// End-to-end tests of the `runner` executable: exact output, exit codes and error text.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "cli/cli_util.hpp"
#include "runner/change/process.hpp"
#include "runner/cli/config.hpp"

namespace {

namespace fs = std::filesystem;
const std::string kFixtures = std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli";

review::change::ProcessResult runner(std::vector<std::string> args, const std::string& input = {}) {
  return review::cli::test::run_runner(kFixtures, args, input);
}

using review::cli::test::slurp;

}  // namespace

TEST_CASE("review of two folders: exact text output and exit code 1 on a block finding") {
  auto r = runner({"--ruleset", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--color", "never"});
  CHECK(r.exit_code == 1);
  CHECK(r.err == "note: reviewing base -> head: 2 changed files\n");  // what was compared
  CHECK(r.out ==
        "(pull request): note[TITLE1]: the pull request has no title [verified]\n"
        "    impact: reviewers cannot tell what it does\n"
        "    action: Author should write a title\n"
        "atom/config.py: note[TIER1]: `atom/config.py` runs for every model [verified]\n"
        "    impact: a mistake here shows up as a wrong kernel path\n"
        "    action: Reviewer should ask for a full forward-pass run\n"
        "atom/config.py:2: warn[TODO1]: line 2 of `atom/config.py` adds a TODO [verified]\n"
        "    impact: unfinished work ships unnoticed\n"
        "    action: Author should resolve the TODO or open an issue for it\n"
        "    1 | x = 1\n"
        "    2 | y = 2  # TODO: drop\n"
        "      | ^\n"
        "atom/lib.py:2:5: block[PRINT1]: `print(\"debug\")` prints from library code at line 2 [verified]\n"
        "    impact: output floods the logs of every user\n"
        "    action: Author must use the logger instead of print\n"
        "    1 | def f():\n"
        "    2 |     print(\"debug\")\n"
        "      |     ^\n"
        "    3 |     return 1\n"
        "\n"
        "1 block, 1 warn, 2 note — BLOCK\n");
}

TEST_CASE("--fail-on decides the exit code") {
  auto never = runner({"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--fail-on", "never"});
  CHECK(never.exit_code == 0);
  // a BLOCK verdict that exits 0 says why
  CHECK(never.err.find("note: the verdict is BLOCK (1 blocking finding), yet the exit code is 0 because fail-on is "
                       "`never`") != std::string::npos);
  auto no_block = runner({"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--fail-on", "never",
                          "--exclude-rule", "PRINT1"});
  CHECK(no_block.exit_code == 0);
  CHECK(no_block.err.find("verdict is BLOCK") == std::string::npos);
  CHECK(runner({"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--fail-on", "block", "--rule", "TODO1"})
            .exit_code == 0);
  CHECK(runner({"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--fail-on", "warn", "--rule", "TODO1"})
            .exit_code == 1);
}

TEST_CASE("--exclude-rule turns a rule off; an unknown id is an error") {
  auto all = runner({"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--color", "never"});
  REQUIRE(all.out.find("[PRINT1]") != std::string::npos);
  auto off = runner({"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--color", "never", "--exclude-rule", "PRINT1"});
  CHECK(off.out.find("[PRINT1]") == std::string::npos);
  CHECK(off.out.find("[TODO1]") != std::string::npos);
  CHECK(off.exit_code == 0);  // PRINT1 was the only block
  auto typo = runner({"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--exclude-rule", "PRINT9"});
  CHECK(typo.exit_code == 2);
  CHECK(typo.err.find("--exclude-rule names rule `PRINT9`, which no loaded ruleset has") != std::string::npos);
}

TEST_CASE("--title sets pull-request metadata; --format json=FILE and --sarif FILE write files") {
  fs::path dir = fs::temp_directory_path() / ("review-cli-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto json_path = (dir / "out.json").string();
  auto sarif_path = (dir / "out.sarif").string();
  auto r = runner({"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--title", "Add debug output",
                   "--format", "json=" + json_path, "--sarif", sarif_path, "--fail-on", "never"});
  CHECK(r.exit_code == 0);
  auto j = nlohmann::json::parse(slurp(json_path));
  CHECK(j["verdict"] == "block");
  std::vector<std::string> rules;
  for (const auto& f : j["findings"]) rules.push_back(f["rule_id"].get<std::string>());
  CHECK(rules == std::vector<std::string>{"TIER1", "TODO1", "PRINT1"});
  auto s = nlohmann::json::parse(slurp(sarif_path));
  CHECK(s["version"] == "2.1.0");
  CHECK(s["runs"][0]["results"].size() == 3);
  CHECK(s["runs"][0]["tool"]["driver"]["rules"].size() == 4);
  // text still went to stdout (the --sarif shorthand keeps the default text output)
  CHECK(r.out.find("block[PRINT1]") != std::string::npos);
  // each file is named on stderr; standard output is not
  CHECK(r.err.find("note: wrote the json report to " + json_path + "\n") != std::string::npos);
  CHECK(r.err.find("note: wrote the sarif report to " + sarif_path + "\n") != std::string::npos);
  CHECK(r.err.find("report to -") == std::string::npos);
  CHECK(r.err.find("text report") == std::string::npos);
  // --quiet: no notes
  auto q = runner({"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--quiet", "--format",
                   "json=" + json_path, "--fail-on", "never"});
  CHECK(q.exit_code == 0);
  CHECK(q.err.find("wrote") == std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("runner merge joins SARIF runs of one tool and category") {
  fs::path dir = fs::temp_directory_path() / ("review-merge-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto a = (dir / "a.sarif").string(), b = (dir / "b.sarif").string(), m = (dir / "m.sarif").string();
  runner({"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--rule", "TODO1", "--format", "sarif=" + a});
  runner({"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--rule", "PRINT1", "--format", "sarif=" + b});
  auto r = runner({"merge", a, b, "-o", m});
  CHECK(r.exit_code == 0);
  auto s = nlohmann::json::parse(slurp(m));
  REQUIRE(s["runs"].size() == 1);
  const auto& results = s["runs"][0]["results"];
  REQUIRE(results.size() == 2);
  for (const auto& res : results)
    CHECK(s["runs"][0]["tool"]["driver"]["rules"][res["ruleIndex"].get<int>()]["id"] == res["ruleId"]);
  auto bad = runner({"merge", "mini.rules"});
  CHECK(bad.exit_code == 3);
  CHECK(bad.err.rfind("mini.rules:byte ", 0) == 0);
  fs::remove_all(dir);
}

TEST_CASE("runner merge: the worst verdict wins whatever the order; a result twice is kept once") {
  fs::path dir = fs::temp_directory_path() / ("review-merge-v-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto run = [](const char* verdict, nlohmann::json results, nlohmann::json pr) {
    return nlohmann::json{{"version", "2.1.0"},
                          {"runs", {{{"tool", {{"driver", {{"name", "review-action"}, {"rules", nlohmann::json::array()}}}}},
                                     {"automationDetails", {{"id", "review-action/x/"}}},
                                     {"properties", {{"verdict", verdict}, {"pullRequestFindings", pr}}},
                                     {"results", results}}}}};
  };
  nlohmann::json res = {{"ruleId", "R"}, {"message", {{"text", "m"}}}, {"partialFingerprints", {{"k", "1"}}}};
  auto quiet = (dir / "quiet.sarif").string(), loud = (dir / "loud.sarif").string();
  std::ofstream(quiet) << run("lgtm", nlohmann::json::array(), {"title"}).dump();
  auto twin = (dir / "twin.sarif").string();  // another shard that reported the same finding
  std::ofstream(loud) << run("block", {res}, {"title", "body"}).dump();
  std::ofstream(twin) << run("needs-work", {res}, {"body"}).dump();
  for (const auto& order : {std::vector<std::string>{quiet, loud, twin}, std::vector<std::string>{twin, loud, quiet},
                            std::vector<std::string>{loud, quiet, twin}}) {
    auto m = (dir / "m.sarif").string();
    auto r = runner({"merge", order[0], order[1], order[2], "-o", m});
    REQUIRE(r.exit_code == 0);
    auto s = nlohmann::json::parse(slurp(m));
    REQUIRE(s["runs"].size() == 1);
    CHECK(s["runs"][0]["properties"]["verdict"] == "block");
    CHECK(s["runs"][0]["properties"]["pullRequestFindings"].size() == 2);
    CHECK(s["runs"][0]["results"].size() == 1);
  }
  fs::remove_all(dir);
}

TEST_CASE("runner merge: wrong JSON types and huge numbers are input errors (3), not internal errors") {
  fs::path dir = fs::temp_directory_path() / ("review-merge-bad-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  struct Row {
    const char* text;
    const char* message;
  };
  const Row rows[] = {
      {R"({"version": 5, "runs": []})", ": not a SARIF 2.1.0 log (no \"version\": \"2.1.0\" with a \"runs\" array)\n"},
      {R"({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "t", "rules": [1]}}, "results": [{"ruleId": "x"}]}]})",
       ": not a SARIF 2.1.0 log (a field has the wrong type)\n"},
      {R"({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "t"}}, "results": [{"ruleId": 1e400}]}]})",
       ": not JSON (a number too large to read)\n"},
  };
  for (const auto& row : rows) {
    INFO(row.text);
    const auto f = (dir / "x.sarif").string();
    std::ofstream(f) << row.text;
    auto r = runner({"merge", f, f, "-o", (dir / "m.sarif").string()});
    CHECK(r.exit_code == 3);
    CHECK(r.err == f + row.message);
  }
  fs::remove_all(dir);
}

TEST_CASE("errors: usage (2), ruleset (2), input (3), each with a clear message") {
  struct Row {
    std::vector<std::string> args;
    int code;
    std::string err_start;
    bool whole = false;  ///< err_start is the whole of stderr
  };
  const Row rows[] = {
      {{"--base-dir", "base", "--head-dir", "head"}, 2, "runner: no ruleset given; pass --ruleset NAME"},
      {{"-r", "nosuch.rules", "--base-dir", "base", "--head-dir", "head"}, 2,
       "nosuch.rules: error: no ruleset file of that name, and no shipped ruleset called that"},
      {{"-r", "atomm", "--base-dir", "base", "--head-dir", "head"}, 2,
       "atomm: error: no ruleset file of that name, and no shipped ruleset called that (shipped: atom, ops); "
       "did you mean `atom`?\n", true},
      // a near miss of a ruleset file beside it
      {{"-r", "mni.rules", "--base-dir", "base", "--head-dir", "head"}, 2,
       "mni.rules: error: no ruleset file of that name, and no shipped ruleset called that (shipped: atom, ops); "
       "did you mean `mini.rules`?\n", true},
      {{"-r", "bad.rules", "--base-dir", "base", "--head-dir", "head"}, 2,
       "bad.rules:3:35: error: unknown field `nosuchfield` of `lines`\n"
       "    for l in lines(changed) where l.nosuchfield\n"
       "                                    ^~~~~~~~~~~\n"},
      {{"-r", "mini.rules", "--diff", "bad.diff"}, 3, "bad.diff:7: hunk at line 4 ends early"},
      {{"-r", "mini.rules", "--diff", "missing.diff"}, 3, "--diff missing.diff: cannot read"},
      // an input error names the option that gave the path, and says when it does not exist
      {{"-r", "mini.rules", "--base-dir", "bse", "--head-dir", "head"}, 3, "--base-dir bse: no such folder\n", true},
      {{"-r", "mini.rules", "--base-dir", "base", "--head-dir", "mini.rules"}, 3, "--head-dir mini.rules: not a folder\n", true},
      {{"-r", "mini.rules", "--base-dir", "base"}, 2, "runner: --base-dir and --head-dir go together"},
      {{"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--format", "xml"}, 2,
       "runner: unknown format \"xml\"; use one of: text json sarif github summary"},
      {{"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--format", "jsn=out.json"}, 2,
       "runner: unknown format \"jsn\"; use one of: text json sarif github summary markdown rdjson codeclimate "
       "baseline; did you mean `json`?\n", true},
      {{"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--config", "typo.yml"}, 3,
       "typo.yml:2:1: unknown key `fail_on`; did you mean `fail-on`?"},
      {{"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--pr", "missing.json"}, 3, "--pr missing.json: cannot read"},
      {{"--fail-on", "sometimes"}, 2, "--fail-on: takes block, warn, note or never, not `sometimes`\n"},
      {{"--fail-on", "blocker"}, 2, "--fail-on: takes block, warn, note or never, not `blocker`; did you mean `block`?\n"},
      {{"--color", "nver"}, 2, "--color: takes auto, always or never, not `nver`; did you mean `never`?\n"},
      // a rule id no loaded ruleset has would turn the check green: usage error, with a hint
      {{"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--rule", "print1"}, 2,
       "runner: --rule names rule `print1`, which no loaded ruleset has; did you mean `PRINT1`? (`runner list` and "
       "`runner explain ID` show the rules)\n", true},
      {{"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--rule", "NOPE"}, 2,
       "runner: --rule names rule `NOPE`, which no loaded ruleset has (`runner list` and `runner explain ID` show the "
       "rules)\n", true},
      {{"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--config", "unknown_rule.yml"}, 2,
       "runner: the configuration's `severity:` names rule `TODO2`, which no loaded ruleset has; did you mean `TODO1`? "
       "(`runner list` and `runner explain ID` show the rules)\n", true},
      // a mistyped long option gets the closest one of its (sub)command
      {{"--rulset", "x"}, 2,
       "runner: unknown option --rulset; did you mean --ruleset?\nRun with --help for more information.\n", true},
      {{"check", "--strcit=1", "x.rules"}, 2,
       "runner: unknown option --strcit; did you mean --strict?\nRun with --help for more information.\n", true},
      {{"--zzzzzz"}, 2, "The following argument was not expected: --zzzzzz\nRun with --help for more information.\n", true},
      {{"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--fail-on", "never", "--format",
        "sarif=/nonexistent/dir/x.sarif"},
       3, "note: reviewing base -> head: 2 changed files\n"
          "runner: cannot write /nonexistent/dir/x.sarif: the folder /nonexistent/dir does not exist\n"},
  };
  for (const auto& row : rows) {
    std::string line;
    for (const auto& a : row.args) line += a + " ";
    INFO(line);
    auto r = runner(row.args);
    CHECK(r.exit_code == row.code);
    CHECK(r.err.substr(0, row.err_start.size()) == row.err_start);
    if (row.whole) CHECK(r.err == row.err_start);
  }
}

TEST_CASE("configuration: excludes, severity overrides and fail-on from .github/review.yml") {
  auto r = runner({"-r", "mini.rules", "--base-dir", "base", "--head-dir", "head", "--config", "review.yml"});
  // lib.py (the block finding) is excluded; TODO1 is lowered to note; fail-on warn finds nothing at warn.
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("PRINT1") == std::string::npos);
  CHECK(r.out.find("note[TODO1]") != std::string::npos);
  CHECK(r.out.find("0 block, 0 warn, 3 note") != std::string::npos);
}

TEST_CASE("check, test, explain, sources and list") {
  auto c = runner({"check", "--strict", "mini.rules", "bad.rules"});
  CHECK(c.exit_code == 2);
  CHECK(c.out == "mini.rules: ok, 4 rules, 0 warning(s)\nbad.rules: 2 error(s), 0 warning(s)\n");
  CHECK(c.err.find("bad.rules:2:6: error: rule `X1` has no `bad` example") != std::string::npos);

  auto t = runner({"test", "mini.rules"});
  CHECK(t.exit_code == 0);
  CHECK(t.out == "8 passed, 0 failed, 0 skipped\n");
  // -r names a ruleset as it does for a review
  auto tr = runner({"test", "-r", "mini.rules"});
  CHECK(tr.exit_code == 0);
  CHECK(tr.out == t.out);
  auto cr = runner({"check", "--strict", "-r", "mini.rules", "-r", "bad.rules"});
  CHECK(cr.exit_code == 2);
  CHECK(cr.out == c.out);
  for (const char* cmd : {"test", "check"}) {
    auto none = runner({cmd});
    CHECK(none.exit_code == 2);
    CHECK(none.err == std::string("runner ") + cmd + ": no ruleset given; pass a ruleset file or shipped name, e.g. `runner " +
                          cmd + " team.rules` or `runner " + cmd + " -r atom`\n");
  }

  auto e = runner({"explain", "PRINT1", "-r", "mini.rules"});
  CHECK(e.exit_code == 0);
  CHECK(e.out.rfind("PRINT1 — print left in library code\n  severity: block, evidence: verified\n", 0) == 0);
  CHECK(e.out.find("example bad python:\n    def f():\n        print(\"hi\")   # <- PRINT1\n") != std::string::npos);
  auto missing = runner({"explain", "PRINTX", "-r", "mini.rules"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err == "runner: no rule `PRINTX` in mini.rules; did you mean `PRINT1`?\n");
  // a ruleset that does not load: its errors, then why the rule cannot be shown (not "no rule")
  auto broken = runner({"explain", "X1", "-r", "bad.rules"});
  CHECK(broken.exit_code == 2);
  CHECK(broken.err.find("bad.rules:3:35: error: unknown field `nosuchfield` of `lines`") != std::string::npos);
  CHECK(broken.err.find("runner: cannot show rule `X1`: bad.rules did not load (the errors above)") != std::string::npos);
  CHECK(broken.err.find("no rule") == std::string::npos);
  // without -r only the shipped rulesets are searched: the message says how to name one's own
  auto unshipped = runner({"explain", "PRINT1"});
  CHECK(unshipped.exit_code == 2);
  CHECK(unshipped.err.find("for a rule of your own, add `-r FILE`") != std::string::npos);

  auto s = runner({"sources"});
  CHECK(s.exit_code == 0);
  CHECK(s.out.find("unbound_reads(scope)") != std::string::npos);
  CHECK(s.out.find("pr — ") != std::string::npos);
}

TEST_CASE("a ruleset as a folder: the entry file has the folder's name, parts resolve by relative path") {
  // The folder itself, or its entry file, loads the parts it `use`s (one nested two deep).
  for (const std::string arg : {"folder", "folder/", "folder/folder.rules"}) {
    auto c = runner({"check", "--strict", arg});
    INFO(arg << ": " << c.err);
    CHECK(c.exit_code == 0);
    CHECK(c.out.find(": ok, 2 rules, 0 warning(s)\n") != std::string::npos);
  }
  auto t = runner({"test", "folder"});
  CHECK(t.exit_code == 0);
  CHECK(t.out == "4 passed, 0 failed, 0 skipped\n");
  // A folder with no entry file of its name is not a ruleset.
  auto none = runner({"check", "folder/sections"});
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("no ruleset file of that name") != std::string::npos);
  // `runner list` names rulesets only: no part of a folder ruleset, no path.
  auto l = runner({"list"});
  CHECK(l.exit_code == 0);
  std::istringstream in(l.out);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    CHECK(line.substr(0, line.find(' ')).find('/') == std::string::npos);
    CHECK(line.find("does not load") == std::string::npos);
  }
  CHECK(n >= 1);
}

TEST_CASE("hostile input: a diff on stdin with invalid UTF-8 and a NUL byte fails cleanly") {
  std::string diff = "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-\xff\xfe\n+a\0b\n";
  auto r = runner({"-r", "mini.rules", "--diff", "-"}, diff);
  CHECK((r.exit_code == 0 || r.exit_code == 3));
  CHECK(r.err.find("internal error") == std::string::npos);
}

TEST_CASE("hostile files: deep nesting and odd declarators never crash the runner") {
  fs::path dir = fs::temp_directory_path() / ("review-hostile-" + std::to_string(::getpid()));
  fs::create_directories(dir / "base");
  fs::create_directories(dir / "head");
  {
    std::ofstream(dir / "head" / "t.cpp") << "template <typename T> T& tmpl(T& x) { return x; }\n"
                                          << std::string(5000, '(') << std::string(5000, ')') << "\n";
    std::ofstream(dir / "head" / "nest.py") << "x = " << std::string(10000, '[') << std::string(10000, ']') << "\n";
    std::string deep = "def f(x):\n";
    for (int i = 0; i < 400; ++i) deep += std::string(i + 1, ' ') + "if x == " + std::to_string(i) + ":\n";
    deep += std::string(401, ' ') + "y = 1\n return y\n";
    std::ofstream(dir / "head" / "deep.py") << deep;
    std::ofstream(dir / "head" / "CMakeLists.txt") << "if(" << std::string(3000, '(') << "\n";
    std::ofstream(dir / "head" / "bin.py") << std::string("a\0b\xff\xfe\n", 6);
  }
  auto r = runner({"-r", "mini.rules", "--base-dir", (dir / "base").string(), "--head-dir", (dir / "head").string(),
                   "--fail-on", "never"});
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("internal error") == std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("--filter added keeps a finding in an unchanged file that the change triggers") {
  auto r = runner({"-r", "cross/cross.rules", "--base-dir", "cross/base", "--head-dir", "cross/head", "--color",
                   "never", "--fail-on", "never"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("b.py:2:1: warn[CROSS1]: `a.g(1, y=2)` calls `g`, whose signature changed at a.py:1 [verified]\n", 0) == 0);
  // --filter context keeps only findings inside the diff's hunks, and b.py is not in the diff.
  auto ctx = runner({"-r", "cross/cross.rules", "--base-dir", "cross/base", "--head-dir", "cross/head", "--color",
                     "never", "--fail-on", "never", "--filter", "context"});
  CHECK(ctx.out.find("CROSS1") == std::string::npos);
}
