// End-to-end tests of `also` bodies (docs/rule-language.md): one rule, several query bodies,
// findings unioned under the rule's id, each with its body's label.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "cli/cli_util.hpp"

namespace {

namespace fs = std::filesystem;
using review::cli::test::run_runner;
using review::cli::test::slurp;
const std::string kFixtures = std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli";

/// A scratch folder removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("review-also-" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string& rel, const std::string& text) const {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel, std::ios::binary) << text;
  }
};

}  // namespace

TEST_CASE("also: a `bad` example's marker is satisfied by the `also` body alone") {
  auto t = run_runner(kFixtures, {"test", "also.rules"});
  INFO(t.out << t.err);
  CHECK(t.exit_code == 0);
  CHECK(t.out == "3 passed, 0 failed, 0 skipped\n");

  // The same ruleset without its `also` block: the breakpoint-only example no longer fires.
  std::string text = slurp(kFixtures + "/also.rules");
  size_t a = text.find("  also \"breakpoint\" {");
  size_t b = text.find("  }\n", a);
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  TempDir dir;
  dir.write("main_only.rules", text.substr(0, a) + text.substr(b + 4));
  auto f = run_runner(dir.path.string(), {"test", "main_only.rules"});
  INFO(f.out << f.err);
  CHECK(f.exit_code == 1);
  CHECK(f.out.find("1 passed, 2 failed, 0 skipped\n") != std::string::npos);
}

TEST_CASE("also: a review reports both bodies' findings under the rule id, each with its label") {
  TempDir dir;
  dir.write("base/lib.py", "def f():\n    return 1\n");
  dir.write("head/lib.py", "def f():\n    print(\"hi\")\n    breakpoint()\n    return 1\n");
  auto r = run_runner(dir.path.string(), {"-r", kFixtures + "/also.rules", "--base-dir", "base", "--head-dir", "head",
                                          "--format", "json", "--format", "sarif=out.sarif", "--fail-on", "never"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["findings"].size() == 2);
  std::map<int, nlohmann::json> by_line;
  for (const auto& f : j["findings"]) by_line[f["line"].get<int>()] = f;
  REQUIRE(by_line.count(2));
  REQUIRE(by_line.count(3));
  CHECK(by_line[2]["rule_id"] == "DEBUG1");
  CHECK_FALSE(by_line[2].contains("label"));  // the main body
  CHECK(by_line[2]["severity"] == "warn");
  CHECK(by_line[3]["rule_id"] == "DEBUG1");
  CHECK(by_line[3]["label"] == "breakpoint");
  CHECK(by_line[3]["severity"] == "block");  // the body's own severity
  CHECK(by_line[3]["action"] == "Author must remove the breakpoint");
  CHECK(j["rules"].size() == 1);

  auto s = nlohmann::json::parse(slurp(dir.path / "out.sarif"));
  const auto& run = s["runs"][0];
  REQUIRE(run["tool"]["driver"]["rules"].size() == 1);  // each rule once, however many bodies
  CHECK(run["tool"]["driver"]["rules"][0]["id"] == "DEBUG1");
  REQUIRE(run["results"].size() == 2);
  std::set<std::string> labels;
  for (const auto& res : run["results"]) {
    CHECK(res["ruleId"] == "DEBUG1");
    CHECK(res["ruleIndex"] == 0);
    labels.insert(res["properties"].value("label", std::string("(main)")));
  }
  CHECK(labels == std::set<std::string>{"(main)", "breakpoint"});
}

TEST_CASE("also: explain lists each `also` body with its severity and problem") {
  auto e = run_runner(kFixtures, {"explain", "DEBUG1", "-r", "also.rules"});
  INFO(e.err);
  CHECK(e.exit_code == 0);
  CHECK(e.out.find("problem: `{c.text}` prints from library code at line {c.line}\n") != std::string::npos);
  CHECK(e.out.find("\nalso \"breakpoint\" (block): `{c.text}` at line {c.line} stops the program in the debugger\n") !=
        std::string::npos);
}

TEST_CASE("also: explain --plan prints every body's plan; check points into the `also` block") {
  auto e = run_runner(kFixtures, {"explain", "DEBUG1", "-r", "also.rules", "--plan"});
  INFO(e.err);
  CHECK(e.exit_code == 0);
  CHECK(e.out ==
        "plan DEBUG1\n"
        "  for c in calls(changed): index calls(changed) by .callee = \"print\"\n"
        "    check c.added\n"
        "    check (== c.callee \"print\")\n"
        "also \"breakpoint\"\n"
        "  for c in calls(changed): index calls(changed) by .callee = \"breakpoint\"\n"
        "    check c.added\n"
        "    check (== c.callee \"breakpoint\")\n");

  TempDir dir;
  dir.write("bad.rules",
            "rule X \"t\" {\n"
            "  for c in calls(changed) where c.added\n"
            "  problem \"p {c.text}\"\n  impact \"i\"\n  action \"Author must\"\n"
            "  example bad python \"print(1)  # <- X\"\n"
            "  also \"other\" {\n"
            "    for d in calls(changed) where c.added\n"
            "    problem \"q\"\n"
            "  }\n"
            "}\n");
  auto c = run_runner(dir.path.string(), {"check", "bad.rules"});
  CHECK(c.exit_code == 2);
  CHECK(c.err.find("bad.rules:8:35: error: unknown variable `c`; did you mean `d`?\n") != std::string::npos);
  CHECK(c.err.find("bad.rules:7:8: error: `also \"other\"` of rule `X` has no `impact`\n") != std::string::npos);
  CHECK(c.err.find("bad.rules:7:8: error: `also \"other\"` of rule `X` has no `action`\n") != std::string::npos);
}

TEST_CASE("severity if: the first condition that holds sets a finding's severity; the rest keep the rule's") {
  TempDir dir;
  dir.write("base/lib.py", "def f():\n    return 1\n");
  const std::string body = "def f():\n    print(\"hi\")\n    breakpoint()\n    return 1\n";
  for (const char* p : {"head/lib.py", "head/tests/test_lib.py", "head/tests/test_lib_debug.py"}) dir.write(p, body);
  auto r = run_runner(dir.path.string(), {"-r", kFixtures + "/severity_if.rules", "--base-dir", "base", "--head-dir",
                                          "head", "--format", "json", "--fail-on", "never"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto j = nlohmann::json::parse(r.out);
  std::map<std::pair<std::string, int>, std::string> sev;
  for (const auto& f : j["findings"]) sev[{f["file"].get<std::string>(), f["line"].get<int>()}] = f["severity"];
  CHECK(sev[{"lib.py", 2}] == "block");                     // no condition holds: the rule's
  CHECK(sev[{"tests/test_lib.py", 2}] == "warn");           // test code
  CHECK(sev[{"tests/test_lib_debug.py", 2}] == "note");     // both hold: the first clause
  // the `also` body keeps the rule's unconditional severity: the clauses are the main body's
  CHECK(sev[{"lib.py", 3}] == "block");
  CHECK(sev[{"tests/test_lib.py", 3}] == "block");
  CHECK(sev.size() == 6);
  CHECK(j["verdict"] == "block");

  // `runner explain` lists the clauses with their conditions as written
  auto e = run_runner(kFixtures, {"explain", "DEBUG2", "-r", "severity_if.rules"});
  INFO(e.out << e.err);
  CHECK(e.exit_code == 0);
  CHECK(e.out.find("severity note for a finding where (first that holds): c.file ~ /_debug\\.py$/\n") != std::string::npos);
  CHECK(e.out.find("severity warn for a finding where (first that holds): exists t in files(changed) where t.path == c.file "
                   "and t.is_test\n") != std::string::npos);
}

TEST_CASE("severity if: a clause with no condition, or naming what the body does not bind, is an error with a position") {
  TempDir dir;
  const std::string head =
      "ruleset s \"S\" {\n  version 1\n}\nrule X1 \"x\" {\n  severity block\n";
  const std::string tail =
      "  for c in calls(changed) where c.added\n  problem \"`{c.text}`\"\n  impact \"i\"\n  action \"Author must fix\"\n}\n";
  // `runner check` on NAME holding TEXT fails with MESSAGE at NAME:LINE
  auto rejected = [&](const std::string& name, const std::string& text, int line, const std::string& message) {
    dir.write(name, text);
    auto r = run_runner(dir.path.string(), {"check", name});
    INFO(name << "\n" << r.out << r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.err.find(name + ":" + std::to_string(line) + ":") != std::string::npos);
    CHECK(r.err.find(message) != std::string::npos);
  };
  rejected("missing.rules", head + "  severity warn if\n" + tail, 7, "expected a condition after `if`");
  rejected("unbound.rules", head + "  severity warn if z.is_test\n" + tail, 6, "`z`");

  // an `also` body's own clauses are listed under it by `runner explain`
  dir.write("also_if.rules", head + tail.substr(0, tail.size() - 2) +
                                 "  also \"bp\" {\n    severity note if c.added\n    for c in calls(changed) where c.callee == \"breakpoint\"\n"
                                 "    problem \"`{c.text}`\"\n    impact \"i\"\n    action \"Author must drop it\"\n  }\n}\n");
  auto x = run_runner(dir.path.string(), {"explain", "X1", "-r", "also_if.rules"});
  INFO(x.out << x.err);
  CHECK(x.exit_code == 0);
  CHECK(x.out.find("also \"bp\" (block): `{c.text}`\n  severity note for a finding where (first that holds): c.added\n") !=
        std::string::npos);

  rejected("inferred.rules",
           "ruleset s \"S\" {\n  version 1\n}\nrule X1 \"x\" {\n  severity warn\n  evidence inferred\n"
           "  severity block if c.added\n" + tail,
           7, "red-finding gate");
}
