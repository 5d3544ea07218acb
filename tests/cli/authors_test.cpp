// End-to-end tests of what rule authors use: `runner test`'s marker rules and example languages,
// `runner facts`, and the warning for an ignore comment that names no loaded rule.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "change/test_util.hpp"
#include "cli/cli_util.hpp"
#include "runner/cli/examples.hpp"

namespace {

namespace fs = std::filesystem;
using review::change::test::TempDir;
using review::change::test::TempRepo;
using review::change::test::write_file;
const std::string kMini = std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli/mini.rules";

review::change::ProcessResult runner(const std::string& cwd, std::vector<std::string> args) {
  return review::cli::test::run_runner(cwd, args);
}

std::string rule(const std::string& id, const std::string& examples) {
  return "rule " + id + " \"print\" {\n  severity warn\n  for c in calls(changed) where c.callee == \"print\"\n"
         "  problem \"a print\"\n  impact \"noise\"\n  action \"Author should remove it\"\n" + examples + "}\n";
}

}  // namespace

TEST_CASE("example markers: every `# <- ID` and `// <- ID` with its line, `any` included") {
  auto m = review::cli::example_markers("a\nx = 1  # <- D1, D2\ny  // <- any\n# <- T-TIER  (why)\n");
  const std::vector<std::pair<int, std::string>> want = {{2, "D1"}, {2, "D2"}, {3, "any"}, {4, "T-TIER"}};
  CHECK(m == want);
  CHECK(review::cli::example_markers("no marker # <-\nnor this #<- X\n").empty());
  CHECK(review::cli::example_markers("Some text <!-- <- OPS-RFC-1 -->\n") ==
        std::vector<std::pair<int, std::string>>{{1, "OPS-RFC-1"}});
  CHECK(review::cli::example_marker_lines("a\nreturn out  # <- D1b\nb // <- F1, D1b\nc # <- D1bx\nd # <- D1b\n", "D1b") ==
        std::vector<int>{2, 3, 5});
}

TEST_CASE("runner explain shows a rule's first bad and good example and counts the rest; --examples shows all") {
  TempDir dir;
  write_file(dir.path / "r.rules",
             rule("P1", "  example bad python \"\"\"\n    print(1)  # <- P1\n  \"\"\"\n"
                        "  example bad python \"\"\"\n    print(2)  # <- P1\n  \"\"\"\n"
                        "  example good python \"\"\"\n    log(3)\n  \"\"\"\n"
                        "  example todo-bad python \"\"\"\n    out = print\n  \"\"\"\n"));
  auto some = runner(dir.str(), {"explain", "P1", "-r", "r.rules"});
  INFO(some.out << some.err);
  CHECK(some.exit_code == 0);
  CHECK(some.out.find("print(1)") != std::string::npos);
  CHECK(some.out.find("log(3)") != std::string::npos);
  CHECK(some.out.find("print(2)") == std::string::npos);
  CHECK(some.out.find("out = print") == std::string::npos);
  CHECK(some.out.find("\n2 more examples: runner explain P1 --examples\n") != std::string::npos);
  auto all = runner(dir.str(), {"explain", "P1", "-r", "r.rules", "--examples"});
  for (const char* code : {"print(1)", "print(2)", "log(3)", "out = print"}) CHECK(all.out.find(code) != std::string::npos);
  CHECK(all.out.find("more example") == std::string::npos);
}

TEST_CASE("runner explain shows a rule's `when` as written, without the comment lines after it") {
  TempDir dir;
  write_file(dir.path / "r.rules",
             "rule W1 \"w\" {\n  when not pr.audit and\n      pr.body ~ /#+ test/\n  # why: a comment line\n"
             "  problem \"p\"\n  impact \"i\"\n  action \"Author should act\"\n  example bad text \"x\"\n}\n" +
             rule("P1", ""));
  auto r = runner(dir.str(), {"explain", "W1", "-r", "r.rules"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("\n  runs only when: not pr.audit and pr.body ~ /#+ test/\n") != std::string::npos);
  auto p = runner(dir.str(), {"explain", "P1", "-r", "r.rules"});
  CHECK(p.out.find("runs only when") == std::string::npos);
}

TEST_CASE("runner test: a ruleset whose rules hold no example is no pass") {
  TempDir dir;
  write_file(dir.path / "none.rules", rule("P1", ""));
  auto r = runner(dir.str(), {"test", "none.rules"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out == "0 passed, 0 failed, 0 skipped\n");
  CHECK(r.err.find("runner: no example ran, so nothing was tested") != std::string::npos);
}

TEST_CASE("runner test: a bad example must mark its lines or say `any`; a marker must name its own rule") {
  TempDir dir;
  write_file(dir.path / "r.rules",
             rule("P1", "  example bad python \"\"\"\n    x = 1\n    print(x)\n  \"\"\"\n") +             // no marker
             rule("P2", "  example bad python \"\"\"\n    print(x)  # <- P1\n  \"\"\"\n") +            // another rule
             rule("P3", "  example bad python \"\"\"\n    x = 1\n    print(x)  # <- P3\n  \"\"\"\n") +  // ok
             rule("P4", "  example bad python \"\"\"\n    # <- any\n    print(x)\n  \"\"\"\n") +          // ok
             rule("P5", "  example bad python \"\"\"\n    # <- any\n    x = 1\n  \"\"\"\n"));             // any, silent
  auto r = runner(dir.str(), {"test", "r.rules"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("FAIL P1 bad python #1 (r.rules:7): a bad example must mark the lines it fires on (`# <- P1`) or "
                   "say `# <- any`\n") != std::string::npos);
  CHECK(r.out.find("FAIL P2 bad python #1 (r.rules:18): line 1 marks `P1`, not `P2`; a marker names the rule of its "
                   "example (or says `any`)\n") != std::string::npos);
  CHECK(r.out.find("FAIL P5 bad python #1 (r.rules:50): expected a finding, got none\n") != std::string::npos);
  CHECK(r.out.find("P3") == std::string::npos);
  CHECK(r.out.find("P4") == std::string::npos);
  CHECK(r.out.find("2 passed, 3 failed, 0 skipped") != std::string::npos);
}

TEST_CASE("runner check and runner test: an unknown example language is a load error with its position") {
  TempDir dir;
  write_file(dir.path / "lang.rules", rule("L1", "  example bad pythn \"print(x)  # <- L1\"\n"));
  auto c = runner(dir.str(), {"check", "lang.rules"});
  CHECK(c.exit_code == 2);
  CHECK(c.err.find("lang.rules:7:15: error: unknown example language `pythn`; did you mean `python`? (known: python, "
                   "cpp, hip, cuda, cmake, markdown, md, text, diff, pr)") != std::string::npos);
  auto t = runner(dir.str(), {"test", "lang.rules"});
  CHECK(t.exit_code == 2);
  CHECK(t.err.find("lang.rules:7:15: error: unknown example language `pythn`") != std::string::npos);
  // Every language of the table runs as an example (none fails obscurely).
  for (const auto& lang : review::cli::example_languages()) {
    INFO(lang);
    write_file(dir.path / "ok.rules", rule("L2", "  example good " + lang + " \"\"\"\n    hello\n  \"\"\"\n"));
    auto ok = runner(dir.str(), {"test", "ok.rules"});
    CHECK(ok.exit_code == 0);
  }
}

TEST_CASE("runner facts: the facts of one file, with the field names of runner sources") {
  TempDir dir;
  write_file(dir.path / "k.py", "def f(x):\n    if x:\n        y = 1\n    return y\n");
  auto r = runner(dir.str(), {"facts", "k.py", "--source", "functions"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("functions       k.py:1-4", 0) == 0);
  CHECK(r.out.find("name=\"f\"") != std::string::npos);
  CHECK(r.out.find("\nlines ") == std::string::npos);  // --source: only that source
  auto j = runner(dir.str(), {"facts", "k.py", "--json"});
  CHECK(j.exit_code == 0);
  auto doc = nlohmann::json::parse(j.out);
  CHECK(doc["file"] == "k.py");
  bool unbound = false, lines = false;
  for (const auto& f : doc["facts"]) {
    if (f["source"] == "unbound_reads" && f["line"] == 4) unbound = true;
    if (f["source"] == "lines" && f["line"] == 1 && f["fields"]["text"] == "def f(x):") lines = true;
  }
  CHECK(unbound);
  CHECK(lines);
  // Every field name shown is one `runner sources` lists.
  auto sources = runner(dir.str(), {"sources"}).out;
  for (const auto& f : doc["facts"])
    for (const auto& [name, value] : f["fields"].items()) {
      INFO(f["source"].get<std::string>() << "." << name);
      CHECK(sources.find("    " + name + " ") != std::string::npos);
    }
  auto bad = runner(dir.str(), {"facts", "k.py", "--source", "function"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err == "runner: no fact source `function` answers for a file; did you mean `functions`? (`runner sources` "
                   "lists them)\n");
  auto missing = runner(dir.str(), {"facts", "nope.py"});
  CHECK(missing.exit_code == 3);
  CHECK(missing.err == "nope.py: cannot read the file\n");
  auto folder = runner(dir.str(), {"facts", dir.str()});
  CHECK(folder.exit_code == 3);
  CHECK(folder.err == dir.str() + ": is a folder; name one file\n");
}

TEST_CASE("an ignore comment naming no loaded rule is a warning with a suggestion") {
  TempRepo repo;
  repo.write("lib.py", "x = 1\n");
  std::string base = repo.commit("base");
  base.erase(base.find_last_not_of("\n") + 1);
  repo.write("lib.py", "x = 1\nprint(x)  # review: ignore[PRINT2] debugging aid\ns = \"# review: ignore[NOPE1] in a string\"\n");
  auto r = runner(repo.str(), {"-r", kMini, "--base", base, "--work-tree", "--format", "json"});
  INFO(r.err);
  CHECK(r.err.find("warning: lib.py:2: `review: ignore[PRINT2]` names no rule of the loaded rulesets; did you mean "
                   "`PRINT1`? (it suppresses nothing)\n") != std::string::npos);
  CHECK(r.err.find("NOPE1") == std::string::npos);  // a string literal is not a comment
  CHECK(r.exit_code == 1);  // PRINT1 still fires: the typo suppressed nothing
  // A known id gives no warning.
  repo.write("lib.py", "x = 1\nprint(x)  # review: ignore[PRINT1] debugging aid\n");
  auto ok = runner(repo.str(), {"-r", kMini, "--base", base, "--work-tree", "--format", "json"});
  CHECK(ok.err.find("names no rule") == std::string::npos);
  CHECK(ok.exit_code == 0);
  // An audit (--all) reads the added lines from the head commit's text, not from the hunks
  // (Hunk::elided): the same warning, on a line past the first, in a file with CRLF endings.
  repo.write("lib.py", "x = 1\r\nprint(x)  # review: ignore[PRINT2] debugging aid\r\ny = 2\r\n");
  repo.commit("crlf");
  auto audit = runner(repo.str(), {"-r", kMini, "--all", "--format", "json"});
  INFO(audit.err);
  CHECK(audit.err.find("warning: lib.py:2: `review: ignore[PRINT2]` names no rule of the loaded rulesets; did you "
                       "mean `PRINT1`? (it suppresses nothing)\n") != std::string::npos);
  CHECK(audit.exit_code == 1);
}
