// Hostile checkouts: output files and policy files reached through symbolic links, and shipped
// ruleset names shadowed by files of the repository (issue 14, items 1, 2, 4/5).
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "cli/cli_util.hpp"
#include "runner/cli/atomic_file.hpp"
#include "runner/cli/policy.hpp"
#include "runner/cli/review.hpp"

namespace {

namespace fs = std::filesystem;
using review::cli::test::run_runner;
using review::cli::test::slurp;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "review-security.XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("write_file_atomically never writes through a planted temporary-file link") {
  TempDir t;
  write(t.path / "victim.sh", "echo original\n");
  // The old temporary name was "<out>.tmp.<pid>": plant links for it (and a range around it).
  for (int pid = ::getpid() - 5; pid <= ::getpid() + 5; ++pid)
    fs::create_symlink(t.path / "victim.sh", t.path / ("review.sarif.tmp." + std::to_string(pid)));
  std::string error;
  CHECK(review::cli::write_file_atomically((t.path / "review.sarif").string(), "{\"$(id)\": 1}\n", error));
  CHECK(error.empty());
  CHECK(slurp(t.path / "victim.sh") == "echo original\n");
  CHECK(slurp(t.path / "review.sarif") == "{\"$(id)\": 1}\n");
  // No temporary file is left behind.
  int files = 0;
  for (const auto& e : fs::directory_iterator(t.path))
    if (!fs::is_symlink(e.symlink_status())) ++files;
  CHECK(files == 2);
}

TEST_CASE("write_file_atomically refuses an output path that is a symbolic link") {
  TempDir t;
  write(t.path / "victim.sh", "echo original\n");
  fs::create_symlink(t.path / "victim.sh", t.path / "review.sarif");
  std::string error;
  CHECK_FALSE(review::cli::write_file_atomically((t.path / "review.sarif").string(), "x", error));
  CHECK(error.find("symbolic link") != std::string::npos);
  CHECK(slurp(t.path / "victim.sh") == "echo original\n");
  CHECK(fs::is_symlink(fs::symlink_status(t.path / "review.sarif")));
}

TEST_CASE("the runner refuses a --sarif path that is a symbolic link, and exits 3") {
  TempDir t;
  write(t.path / "repo/a.py", "x = 1\n");
  write(t.path / "base/a.py", "x = 0\n");
  write(t.path / "victim", "keep\n");
  fs::create_symlink(t.path / "victim", t.path / "repo/out.sarif");
  auto r = run_runner(t.path.string(), {"--ruleset", std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli/mini.rules",
                                        "--base-dir", "base", "--head-dir", "repo", "--sarif", "repo/out.sarif"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("symbolic link") != std::string::npos);
  CHECK(slurp(t.path / "victim") == "keep\n");
}

TEST_CASE("a ruleset or config that is a link out of the repository is refused, never printed") {
  TempDir t;
  write(t.path / "secret.txt", "ruleset TOKEN=hunter2 {\n");
  write(t.path / "repo/a.py", "x = 1\n");
  write(t.path / "base/a.py", "x = 0\n");
  fs::create_symlink(t.path / "secret.txt", t.path / "repo/team.rules");
  fs::create_symlink(t.path / "secret.txt", t.path / "repo/review.yml");
  auto r = run_runner((t.path / "repo").string(), {"--ruleset", "./team.rules", "--base-dir", "../base", "--head-dir", "."});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("symbolic link") != std::string::npos);
  CHECK(r.err.find("hunter2") == std::string::npos);
  auto c = run_runner((t.path / "repo").string(),
                      {"--ruleset", "atom", "--config", "review.yml", "--base-dir", "../base", "--head-dir", "."});
  CHECK(c.exit_code == 3);
  CHECK(c.err.find("symbolic link") != std::string::npos);
  CHECK(c.err.find("hunter2") == std::string::npos);
  // A link that stays inside the repository is fine.
  write(t.path / "repo/rules/real.rules", slurp(std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli/mini.rules"));
  fs::create_symlink("rules/real.rules", t.path / "repo/inside.rules");
  auto ok = run_runner((t.path / "repo").string(), {"--ruleset", "./inside.rules", "--base-dir", "../base", "--head-dir", "."});
  CHECK(ok.exit_code == 0);
}

TEST_CASE("a shipped ruleset name is never shadowed by a file of that name") {
  TempDir t;
  write(t.path / "repo/a.py", "x = 1\n");
  write(t.path / "base/a.py", "x = 0\n");
  write(t.path / "repo/atom", "not a ruleset at all\n");
  auto r = run_runner((t.path / "repo").string(), {"--ruleset", "atom", "--base-dir", "../base", "--head-dir", "."});
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("not a ruleset") == std::string::npos);
  // Named as a path, the file is the ruleset (and fails to load).
  auto p = run_runner((t.path / "repo").string(), {"--ruleset", "./atom", "--base-dir", "../base", "--head-dir", "."});
  CHECK(p.exit_code == 2);
}

TEST_CASE("--policy-from reads the config and rulesets from a revision, and reports the change's edits") {
  TempDir t;
  fs::path repo = t.path / "repo";
  auto git = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"git", "-C", repo.string(), "-c", "user.email=t@example.invalid", "-c", "user.name=t"});
    auto r = review::change::run_process(args);
    REQUIRE(r.exit_code == 0);
    return r.out;
  };
  write(repo / "k.py", "def f():\n    return 1\n");
  write(repo / ".github/review.yml", "fail-on: block\n");
  write(repo / "rules/team.rules", slurp(std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli/mini.rules"));
  git({"init", "-q", "-b", "main"});
  git({"add", "."});
  git({"commit", "-qm", "base"});
  std::string base = git({"rev-parse", "HEAD"});
  base.pop_back();
  write(repo / "k.py", "def f():\n    print(\"x\")\n    return 1\n");
  write(repo / ".github/review.yml", "severity: {PRINT1: \"off\"}\nexclude: [\"**\"]\n");
  git({"commit", "-qam", "pr"});
  std::vector<std::string> args = {"--ruleset", "rules/team.rules", "--config", ".github/review.yml", "--base", base,
                                   "--head", "HEAD", "--format", "json"};
  // Without --policy-from the pull request's own config turns the block off.
  auto open = run_runner(repo.string(), args);
  CHECK(open.exit_code == 0);
  args.insert(args.end(), {"--policy-from", base});
  auto r = run_runner(repo.string(), args);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("\"rule_id\": \"PRINT1\"") != std::string::npos);
  CHECK(r.out.find("this pull request edits the review policy (.github/review.yml)") != std::string::npos);
  // A ruleset that exists only in the change cannot review it.
  write(repo / "rules/new.rules", slurp(std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli/mini.rules"));
  auto n = run_runner(repo.string(), {"--ruleset", "rules/new.rules", "--base", base, "--head", "HEAD",
                                      "--policy-from", base});
  CHECK(n.exit_code == 2);
  CHECK(n.err.find("cannot review it") != std::string::npos);
}

TEST_CASE("file names cannot forge workflow commands in the step log") {
  TempDir t;
  const std::vector<std::string> names = {"::stop-commands::TOKEN/a.py", "x\n::error file=README.md,title=Looks good::LGTM.py",
                                          "y\r::warning::cr.py", "##[error]old.py"};
  for (const auto& n : names) {
    write(t.path / "base" / "keep.py", "x = 0\n");
    write(t.path / "head" / n, "def f():\n    print(\"x\")  # TODO: ::error::in a comment\n");
  }
  for (const auto& fmt : {"text", "summary", "json"}) {
    auto r = run_runner(t.path.string(), {"--ruleset", std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli/mini.rules",
                                          "--base-dir", "base", "--head-dir", "head", "--format", fmt, "--title",
                                          "::error::title\n##[error]x"});
    INFO(fmt << "\nstdout:\n" << r.out << "\nstderr:\n" << r.err);
    CHECK(r.exit_code == 1);
    for (const std::string* s : {&r.out, &r.err}) {
      std::istringstream in(*s);
      std::string line;
      while (std::getline(in, line)) {
        INFO(line);
        std::size_t first = line.find_first_not_of(" \t");
        CHECK((first == std::string::npos || line.compare(first, 2, "::") != 0));
        CHECK(line.find("##[") == std::string::npos);
        CHECK(line.find('\r') == std::string::npos);
      }
    }
  }
  // The `github` format still writes its own workflow commands.
  auto g = run_runner(t.path.string(), {"--ruleset", std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli/mini.rules",
                                        "--base-dir", "base", "--head-dir", "head", "--format", "github"});
  CHECK(g.out.rfind("::", 0) == 0);
}

TEST_CASE("standard output that cannot be written is exit 3 with a message") {
  if (!fs::exists("/dev/full")) return;
  TempDir t;
  write(t.path / "base/a.py", "x = 0\n");
  write(t.path / "head/a.py", "x = 1\n");
  std::string cmd = "cd '" + t.path.string() + "' && '" REVIEW_RUNNER_PATH "' --ruleset '" + std::string(REVIEW_SOURCE_DIR) +
                    "/tests/fixtures/cli/mini.rules' --base-dir base --head-dir head --format json > /dev/full 2> err.txt";
  int rc = std::system(cmd.c_str());
  CHECK(WEXITSTATUS(rc) == 3);
  CHECK(slurp(t.path / "err.txt").find("cannot write the report to standard output") != std::string::npos);
  // With a file output as well, written after it: the reason is still standard output's (the
  // file's calls had changed errno), said once.
  // (The bundled example's JSON is larger than what `head` takes, so the pipe closes mid-write.)
  const std::string ex = std::string(REVIEW_SOURCE_DIR) + "/examples/pr";
  std::string both = "cd '" + t.path.string() + "' && '" REVIEW_RUNNER_PATH "' --ruleset atom --base-dir '" + ex +
                     "/base' --head-dir '" + ex + "/head' -q --format json --format sarif=o.sarif 2> err2.txt"
                     " | head -c 10 > /dev/null";
  std::system(both.c_str());
  std::string err2 = slurp(t.path / "err2.txt");
  const std::string said = "runner: cannot write the report to standard output (Broken pipe); the review's result is "
                           "unknown to whoever reads it\n";
  INFO(err2);
  CHECK(err2 == said);
  // A closed pipe: no death by SIGPIPE, the same clear exit.
  std::string pipe = "cd '" + t.path.string() + "' && { sleep 1; '" REVIEW_RUNNER_PATH "' --ruleset '" + std::string(REVIEW_SOURCE_DIR) +
                     "/tests/fixtures/cli/mini.rules' --base-dir base --head-dir head --format json 2>/dev/null; echo $? > rc.txt; } | true";
  std::system(pipe.c_str());
  std::string code = slurp(t.path / "rc.txt");
  CHECK(code == "3\n");  // the reader is gone a second before the runner writes
}

namespace {
const char* kUnboundRules = R"(ruleset u "u" {
  version 1
}
rule U1 "possibly unbound" {
  severity warn
  for u in unbound_reads(changed) where u.added
  problem "`{u.name}` may be unbound at line {u.line}"
  impact "a NameError at run time"
  action "Author should bind it on every path"
}
)";
}  // namespace

TEST_CASE("a file too deep for the unbound analysis is reported as not analysed, never clean") {
  TempDir t;
  write(t.path / "u.rules", kUnboundRules);
  write(t.path / "base/k.py", "x = 0\n");
  std::string sum = "total = a0";
  for (int i = 1; i < 600; ++i) sum += " + a" + std::to_string(i);
  write(t.path / "head/k.py", "def f(c):\n    if c:\n        y = 1\n    print(y)\n    " + sum + "\n");
  auto r = run_runner(t.path.string(), {"--ruleset", "./u.rules", "--base-dir", "base", "--head-dir", "head",
                                        "--format", "json"});
  INFO(r.err);
  CHECK(r.err.find("k.py: not analysed (unbound variables: the syntax tree nests deeper than 500 levels") !=
        std::string::npos);
  CHECK(r.out.find("incomplete review: k.py: not analysed (unbound variables") != std::string::npos);
}

TEST_CASE("20,000 elif arms are analysed in linear memory") {
  TempDir t;
  write(t.path / "u.rules", kUnboundRules);
  write(t.path / "base/k.py", "x = 0\n");
  std::string src = "def f(x):\n    if x == 0:\n        y = 0\n";
  for (int i = 1; i < 20000; ++i) src += "    elif x == " + std::to_string(i) + ":\n        y = " + std::to_string(i) + "\n";
  src += "    return y\n";
  write(t.path / "head/k.py", src);
  // Under a 2 GB address-space ceiling (the quadratic version needed 22 GB and was killed).
  std::string cmd = "cd '" + t.path.string() + "' && ulimit -v 2000000 && '" REVIEW_RUNNER_PATH
                    "' --ruleset ./u.rules --base-dir base --head-dir head --format json > out.json 2> err.txt";
  auto t0 = std::chrono::steady_clock::now();
  int rc = std::system(cmd.c_str());
  auto s = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - t0).count();
  INFO(slurp(t.path / "err.txt"));
  CHECK(WEXITSTATUS(rc) == 0);
  CHECK(slurp(t.path / "out.json").find("\"rule_id\": \"U1\"") != std::string::npos);  // `y` may be unbound
  CHECK(s < 60);
}

TEST_CASE("--max-file-size holds with --diff and two folders; a diff over --max-diff-size is refused") {
  TempDir t;
  const std::string rules = std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli/mini.rules";
  std::string big = "def f():\n";
  for (int i = 0; i < 40; ++i) big += "    print(\"padding padding padding\")\n";
  write(t.path / "base/k.py", "x = 0\n");
  write(t.path / "head/k.py", big);
  auto folders = run_runner(t.path.string(), {"--ruleset", rules, "--base-dir", "base", "--head-dir", "head",
                                              "--max-file-size", "200"});
  CHECK(folders.err.find("k.py: not analysed (diff larger than 200 bytes)") != std::string::npos);
  std::string diff = "--- a/k.py\n+++ b/k.py\n@@ -1 +1,41 @@\n-x = 0\n";
  std::istringstream lines(big);
  for (std::string l; std::getline(lines, l);) diff += "+" + l + "\n";
  write(t.path / "pr.diff", diff);
  auto d = run_runner(t.path.string(), {"--ruleset", rules, "--diff", "pr.diff", "--max-file-size", "200"});
  CHECK(d.err.find("k.py: not analysed (diff larger than 200 bytes)") != std::string::npos);
  auto refused = run_runner(t.path.string(), {"--ruleset", rules, "--diff", "pr.diff", "--max-diff-size", "500"});
  CHECK(refused.exit_code == 3);
  CHECK(refused.err.find("pr.diff: the diff is larger than 500 bytes") != std::string::npos);
}

TEST_CASE("two-folder mode reads a symbolic link as a link, never the file it points to") {
  TempDir t;
  write(t.path / "outside/secret.py", "def f():\n    print(\"SECRET_VALUE\")\n");
  write(t.path / "base/a.py", "x = 0\n");
  write(t.path / "head/a.py", "x = 1\n");
  fs::create_symlink(t.path / "outside/secret.py", t.path / "head/leak.py");
  auto r = run_runner(t.path.string(), {"--ruleset", std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli/mini.rules",
                                        "--base-dir", "base", "--head-dir", "head", "--filter", "all", "--format", "json"});
  INFO(r.out << r.err);
  CHECK(r.out.find("SECRET_VALUE") == std::string::npos);
  CHECK(r.err.find("SECRET_VALUE") == std::string::npos);
}

TEST_CASE("work-tree mode reads a symbolic link as a link, never the file it points to") {
  TempDir t;
  write(t.path / "outside/secret.py", "def f():\n    print(\"SECRET_VALUE\")\n");
  write(t.path / "repo/a.py", "x = 0\n");
  std::string git = "cd '" + (t.path / "repo").string() + "' && git init -q -b main && git -c user.email=t@e.invalid "
                    "-c user.name=t add . && git -c user.email=t@e.invalid -c user.name=t commit -qm base";
  REQUIRE(std::system(git.c_str()) == 0);
  write(t.path / "repo/a.py", "x = 1\n");
  fs::create_symlink(t.path / "outside/secret.py", t.path / "repo/leak.py");  // untracked, in the work tree
  auto r = run_runner((t.path / "repo").string(),
                      {"--ruleset", std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli/mini.rules", "--work-tree",
                       "--base", "HEAD", "--filter", "all", "--format", "json"});
  INFO(r.out << r.err);
  CHECK(r.exit_code != 2);
  CHECK(r.out.find("SECRET_VALUE") == std::string::npos);
  CHECK(r.err.find("SECRET_VALUE") == std::string::npos);
  CHECK(r.out.find("\"rule_id\": \"PRINT1\"") == std::string::npos);  // the print() behind the link is no code
}

TEST_CASE("a rule stopped by its budget makes the review incomplete, the same way on every run") {
  TempDir t;
  write(t.path / "slow.rules", R"(ruleset s "s" {
  version 1
}
rule SLOW "a join that cannot finish in 1 ms" {
  severity block
  for a in lines(changed)
  for b in lines(changed) where a.line * b.line == 0 - 1
  problem "line {a.line} and line {b.line}"
  impact "i"
  action "Author should look"
}
rule FAST "print" {
  severity warn
  for c in calls(changed) where c.added and c.callee == "print"
  problem "`{c.text}` at line {c.line}"
  impact "i"
  action "Author should log instead"
}
)");
  write(t.path / "base/k.py", "x = 0\n");
  std::string src;
  for (int i = 0; i < 3000; ++i) src += "v" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  write(t.path / "head/k.py", src + "print(1)\n");
  // Six runs on a budget the rule cannot meet: always incomplete (exit 4), never LGTM.
  for (int run = 0; run < 6; ++run) {
    auto r = run_runner(t.path.string(), {"--ruleset", "./slow.rules", "--base-dir", "base", "--head-dir", "head",
                                          "--rule-budget-ms", "1", "--format", "json"});
    INFO(run << ": " << r.err);
    CHECK(r.exit_code == 4);
    CHECK(r.out.find("rule SLOW stopped by its time budget of 1 ms") != std::string::npos);
    CHECK(r.out.find("\"rule_id\": \"FAST\"") != std::string::npos);  // the other rule still reports
  }
  auto allowed = run_runner(t.path.string(), {"--ruleset", "./slow.rules", "--base-dir", "base", "--head-dir", "head",
                                              "--rule-budget-ms", "1", "--fail-on", "warn", "--allow-incomplete"});
  CHECK(allowed.exit_code == 1);  // the findings' own exit code
}

TEST_CASE("a baseline that is a link out of the repository is refused, never printed") {
  TempDir t;
  write(t.path / "secret.txt", "TOKEN=hunter2\n");
  write(t.path / "repo/a.py", "x = 1\n");
  write(t.path / "base/a.py", "x = 0\n");
  fs::create_symlink(t.path / "secret.txt", t.path / "repo/baseline.txt");
  auto r = run_runner((t.path / "repo").string(),
                      {"--ruleset", std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli/mini.rules", "--baseline",
                       "baseline.txt", "--base-dir", "../base", "--head-dir", "."});
  INFO(r.err);
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("symbolic link") != std::string::npos);
  CHECK(r.err.find("hunter2") == std::string::npos);
  CHECK(r.out.find("hunter2") == std::string::npos);
}
