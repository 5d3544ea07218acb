// End-to-end tests of the everyday habits of a local run, on small git repositories made in a
// temp folder: the head commit's message as title and body, --pr revisions, a file that is not a
// diff, one stdout format, --quiet, text to a file, duplicate rule ids, .github/review.yml found
// by default (and read from the base with --policy-from), and --help with defaults.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "change/test_util.hpp"
#include "cli/cli_util.hpp"

namespace {

namespace fs = std::filesystem;
using review::change::test::TempDir;
using review::change::test::TempRepo;
using review::cli::test::slurp;
const std::string kMini = std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli/mini.rules";

review::change::ProcessResult runner(const std::string& cwd, std::vector<std::string> args) {
  return review::cli::test::run_runner(cwd, args);
}

std::set<std::string> rule_ids(const std::string& json_text) {
  std::set<std::string> ids;
  const auto doc = nlohmann::json::parse(json_text);
  for (const auto& f : doc["findings"]) ids.insert(f["rule_id"].get<std::string>());
  return ids;
}

std::string trimmed(std::string s) {
  s.erase(s.find_last_not_of("\n") + 1);
  return s;
}

/// base: lib.py; head: a print added, with a real commit message; the work tree adds a TODO.
struct HabitsRepo : TempRepo {
  std::string base, head;
  HabitsRepo() {
    write("lib.py", "def f(x):\n    return x\n");
    base = trimmed(commit("base"));
    write("lib.py", "def f(x):\n    print(x)\n    return x\n");
    head = trimmed(commit("Trace the argument of f\n\nPrints x so the kernel's input shows in the log."));
    write("lib.py", "def f(x):\n    print(x)\n    return x  # TODO: later\n");
  }
};

}  // namespace

TEST_CASE("a review of two revisions takes the head commit's message as title and body; --title wins") {
  HabitsRepo repo;
  auto r = runner(repo.str(), {"-r", kMini, "--base", repo.base, "--head", repo.head, "--format", "json"});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  auto j = nlohmann::json::parse(r.out);
  CHECK(rule_ids(r.out) == std::set<std::string>{"PRINT1"});  // TITLE1 (empty title) does not fire
  const std::string note = "the pull-request title and body are the head commit's message (" + repo.head.substr(0, 12) +
                           "); --title and --body set them";
  CHECK(r.err.find("note: " + note + "\n") != std::string::npos);
  // The note is in the report too, not only on the terminal.
  bool in_report = false;
  for (const auto& n : j["notes"]) in_report = in_report || n == note;
  CHECK(in_report);
  // --title wins over the commit's subject; the body still comes from the commit.
  auto t = runner(repo.str(), {"-r", kMini, "--base", repo.base, "--head", repo.head, "--format", "json", "--title", ""});
  CHECK(rule_ids(t.out) == std::set<std::string>{"PRINT1", "TITLE1"});
  CHECK(t.err.find("note: the pull-request body is the head commit's message") != std::string::npos);
  // Both given: nothing comes from the commit, and nothing is claimed.
  auto both = runner(repo.str(), {"-r", kMini, "--base", repo.base, "--head", repo.head, "--format", "json", "--title",
                                  "", "--body", "b"});
  CHECK(rule_ids(both.out) == std::set<std::string>{"PRINT1", "TITLE1"});
  CHECK(both.err.find("head commit's message") == std::string::npos);
  // The work tree has no commit message to use: nothing is claimed.
  auto w = runner(repo.str(), {"-r", kMini, "--base", repo.base, "--work-tree", "--format", "json"});
  CHECK(w.err.find("head commit's message") == std::string::npos);
  CHECK(rule_ids(w.out) == std::set<std::string>{"PRINT1", "TODO1", "TITLE1"});
}

TEST_CASE("--pr: baseRefOid and headRefOid are the revisions reviewed; --base/--head win") {
  HabitsRepo repo;
  TempDir elsewhere;
  const std::string pr = (elsewhere.path / "pr.json").string();
  std::ofstream(pr) << "{\"number\": 3, \"title\": \"Trace f\", \"body\": \"why\", \"baseRefOid\": \"" << repo.base
                    << "\", \"headRefOid\": \"" << repo.head << "\"}";
  auto r = runner(repo.str(), {"-r", kMini, "--pr", pr, "--format", "json"});
  INFO(r.err);
  CHECK(r.exit_code == 1);
  // The head commit's print, not the work tree's TODO.
  CHECK(rule_ids(r.out) == std::set<std::string>{"PRINT1"});
  CHECK(r.err.find("note: reviewing " + repo.base.substr(0, 12) + ".." + repo.head.substr(0, 12) + ": 1 changed file\n") !=
        std::string::npos);
  // The title came from --pr: the commit message is not claimed.
  CHECK(r.err.find("head commit's message") == std::string::npos);
  // --base/--head given: they are reviewed, not the pull request's revisions (base..base is empty).
  auto own = runner(repo.str(), {"-r", kMini, "--pr", pr, "--base", repo.base, "--head", repo.base, "--format", "json"});
  CHECK(own.exit_code == 0);
  CHECK(rule_ids(own.out).empty());
}

TEST_CASE("a file that is not a diff is an input error (3); an empty diff is an empty change") {
  HabitsRepo repo;
  repo.write("x.diff", "hello\n");
  auto r = runner(repo.str(), {"-r", kMini, "--diff", "x.diff"});
  CHECK(r.exit_code == 3);
  CHECK(r.out.empty());
  CHECK(r.err == "--diff x.diff: not a unified diff: no `diff --git`, `--- a/…` and `+++ b/…` or `@@` line; pass the output "
                 "of `git diff`, `gh pr diff` or `git format-patch`\n");
  auto stdin_run = review::cli::test::run_runner(repo.str(), {"-r", kMini, "--diff", "-"}, "just some words\n");
  CHECK(stdin_run.exit_code == 3);
  CHECK(stdin_run.err.rfind("<stdin>: not a unified diff", 0) == 0);
  repo.write("empty.diff", "\n");
  auto e = runner(repo.str(), {"-r", kMini, "--diff", "empty.diff"});
  CHECK(e.exit_code == 0);
  CHECK(e.err.find("note: reviewing the diff empty.diff: 0 changed files") != std::string::npos);
}

TEST_CASE("outputs: one format on stdout at most; text=FILE keeps the terminal quiet; --quiet") {
  HabitsRepo repo;
  const std::vector<std::string> rev = {"-r", kMini, "--base", repo.base, "--head", repo.head};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> args = rev;
    args.insert(args.end(), more.begin(), more.end());
    return runner(repo.str(), args);
  };
  auto two = with({"--format", "sarif", "--format", "json"});
  CHECK(two.exit_code == 2);
  CHECK(two.out.empty());
  CHECK(two.err == "runner: --format sarif and --format json would both write to standard output; give all but one a "
                   "file (--format FORMAT=FILE)\n");
  auto dash = with({"--format", "json=-", "--format", "text"});
  CHECK(dash.exit_code == 2);
  // One on stdout and one in a file is fine.
  auto one = with({"--format", "json", "--format", "sarif=" + (repo.path / "r.sarif").string()});
  CHECK(one.exit_code == 1);
  CHECK(rule_ids(one.out) == std::set<std::string>{"PRINT1"});
  CHECK(fs::exists(repo.path / "r.sarif"));
  auto to_file = with({"--format", "text=" + (repo.path / "review.txt").string()});
  CHECK(to_file.exit_code == 1);
  CHECK(to_file.out.empty());
  CHECK(slurp(repo.path / "review.txt").find("PRINT1") != std::string::npos);
  auto loud = with({});
  CHECK(loud.out.find("PRINT1") != std::string::npos);
  CHECK(loud.err.find("note: ") != std::string::npos);
  auto quiet = with({"--quiet"});
  CHECK(quiet.exit_code == 1);  // the verdict still decides the exit code
  CHECK(quiet.out.empty());
  CHECK(quiet.err.empty());
  auto quiet_json = with({"-q", "--format", "json"});
  CHECK(rule_ids(quiet_json.out) == std::set<std::string>{"PRINT1"});
  CHECK(quiet_json.err.empty());
  // Warnings still print under --quiet.
  auto warned = with({"-q", "--rule", "PRINT2"});
  CHECK(warned.exit_code == 2);
  CHECK(warned.err.find("PRINT2") != std::string::npos);
}

TEST_CASE("a rule id defined by two loaded rulesets is a load error naming both files") {
  HabitsRepo repo;
  TempDir elsewhere;
  const std::string copy = (elsewhere.path / "copy.rules").string();
  std::ofstream(copy) << slurp(kMini);
  auto r = runner(repo.str(), {"-r", kMini, "-r", copy, "--base", repo.base, "--head", repo.head});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find(copy + ":11: error: rule id `TODO1` is also defined at " + kMini +
                   ":11; rule ids must be unique across the loaded rulesets") != std::string::npos);
  CHECK(r.err.find("rule id `PRINT1` is also defined at") != std::string::npos);
  // The same file twice is the same mistake.
  auto twice = runner(repo.str(), {"-r", kMini, "-r", kMini, "--base", repo.base, "--head", repo.head});
  CHECK(twice.exit_code == 2);
}

TEST_CASE(".github/review.yml at the repository root is read by default, with a note") {
  HabitsRepo repo;
  repo.write(".github/review.yml", "rulesets: [\"" + kMini + "\"]\nfail-on: never\n");
  fs::create_directories(repo.path / "sub");
  // From a subfolder of the repository: the root's configuration, its rulesets and fail-on.
  auto r = runner((repo.path / "sub").string(), {"--base", repo.base, "--head", repo.head});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("note: using the configuration " + (repo.path / ".github" / "review.yml").string() +
                   " (--config FILE or --no-config to change)\n") != std::string::npos);
  CHECK(r.out.find("PRINT1") != std::string::npos);
  auto root = runner(repo.str(), {"--base", repo.base, "--head", repo.head});
  CHECK(root.exit_code == 0);
  CHECK(root.err.find("note: using the configuration .github/review.yml (") != std::string::npos);
  // --repo names the repository from outside it.
  TempDir elsewhere;
  auto outside = runner(elsewhere.str(), {"--repo", repo.str(), "--base", repo.base, "--head", repo.head});
  CHECK(outside.exit_code == 0);
  CHECK(outside.err.find("note: using the configuration") != std::string::npos);
  auto none = runner(repo.str(), {"--no-config", "--base", repo.base, "--head", repo.head});
  CHECK(none.exit_code == 2);
  CHECK(none.err.rfind("runner: no ruleset given", 0) == 0);
  auto quiet = runner(repo.str(), {"-q", "--base", repo.base, "--head", repo.head});
  CHECK(quiet.exit_code == 0);
  CHECK(quiet.err.empty());
}

TEST_CASE("the default .github/review.yml obeys the trust boundary: with --policy-from it is the base's") {
  // base: a configuration that keeps the block; head: the pull request turns it off and prints.
  TempRepo repo;
  repo.write("lib.py", "def f(x):\n    return x\n");
  repo.write(".github/review.yml", "rulesets: [\"" + kMini + "\"]\n");
  std::string base = trimmed(repo.commit("base"));
  repo.write("lib.py", "def f(x):\n    print(x)\n    return x\n");
  repo.write(".github/review.yml", "rulesets: [\"" + kMini + "\"]\nfail-on: never\n");
  std::string head = trimmed(repo.commit("Quiet the review"));
  // Without --policy-from (a local run) the work tree's configuration is the policy.
  auto local = runner(repo.str(), {"--base", base, "--head", head});
  CHECK(local.exit_code == 0);
  // With it, the base's: the block stands, and the edit is reported.
  auto pr = runner(repo.str(), {"--policy-from", base, "--base", base, "--head", head, "--format", "json"});
  INFO(pr.err);
  CHECK(pr.exit_code == 1);
  CHECK(pr.err.find("note: using the configuration .github/review.yml of " + base) != std::string::npos);
  CHECK(rule_ids(pr.out) == std::set<std::string>{"PRINT1", "review-policy-edit"});

  // A pull request that adds the file where the base has none: it is not read, and the addition
  // is reported as an edit of the policy.
  TempRepo fresh;
  fresh.write("lib.py", "def f(x):\n    return x\n");
  std::string b = trimmed(fresh.commit("base"));
  fresh.write("lib.py", "def f(x):\n    print(x)\n    return x\n");
  fresh.write(".github/review.yml", "rulesets: [\"" + kMini + "\"]\nfail-on: never\n");
  std::string h = trimmed(fresh.commit("Add a lenient policy"));
  auto added = runner(fresh.str(), {"--policy-from", b, "--base", b, "--head", h, "-r", kMini, "--format", "json"});
  INFO(added.err);
  CHECK(added.exit_code == 1);
  CHECK(added.err.find("using the configuration") == std::string::npos);
  CHECK(rule_ids(added.out) == std::set<std::string>{"PRINT1", "review-policy-edit"});
}

TEST_CASE("--help shows the default of every option that takes a value") {
  auto r = runner(".", {"--help"});
  REQUIRE(r.exit_code == 0);
  // Join each option's description (CLI11 puts it on the next line after a long name).
  std::vector<std::string> options;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("  -", 0) == 0) options.push_back(line);
    else if (!options.empty() && line.rfind("                ", 0) == 0) options.back() += line;
    else if (line.empty() || line.back() == ':') options.emplace_back();
  }
  int with_value = 0;
  for (const auto& o : options) {
    if (o.empty() || o.find("--help") != std::string::npos) continue;
    // "  --name TYPE  description": a value-taking option has a TYPE word after its names.
    std::istringstream words(o);
    std::string names, type;
    words >> names >> type;
    type = type.substr(0, type.find(':'));  // "TEXT:{block,warn}" -> "TEXT"
    bool takes_value = !type.empty() && std::isupper(static_cast<unsigned char>(type[0])) &&
                       type.find_first_of("abcdefghijklmnopqrstuvwxyz") == std::string::npos;
    if (!takes_value) continue;
    ++with_value;
    INFO(o);
    CHECK(o.find("default: ") != std::string::npos);
  }
  CHECK(with_value > 25);
  CHECK(r.out.find("-q,--quiet") != std::string::npos);
  CHECK(r.out.find("--no-config") != std::string::npos);
  // one blank line between the option groups, as everywhere else in the help (CLI11 writes two)
  CHECK(r.out.find("\n\nInput:\n") != std::string::npos);
  CHECK(r.out.find("\n\n\n") == std::string::npos);
  auto sub = runner(".", {"explain", "--help"});
  REQUIRE(sub.exit_code == 0);
  CHECK(sub.out.find("\n\n\n") == std::string::npos);
  // descriptions wrapped at 100 columns, their next lines under their first
  std::istringstream lines(r.out);
  for (std::string l; std::getline(lines, l);) {
    INFO(l);
    CHECK(l.size() <= 100);
  }
  CHECK(r.out.find("\n                              ") != std::string::npos);
}
