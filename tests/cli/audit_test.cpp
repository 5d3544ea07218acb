// End-to-end tests of audit mode (--all) and sharding (--shard I/N) on a small git repository
// made in a temp folder: exact notes, error texts, and shards that add up to the unsharded run.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "cli/cli_util.hpp"
#include "change/test_util.hpp"
#include "runner/change/shard.hpp"
#include "runner/cli/review.hpp"

namespace {

namespace fs = std::filesystem;
using review::change::test::TempRepo;
const std::string kMini = std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/cli/mini.rules";

review::change::ProcessResult runner(const std::string& cwd, std::vector<std::string> args) {
  return review::cli::test::run_runner(cwd, args);
}

using review::cli::test::slurp;

/// "RULE file:line" of every finding of a JSON report.
std::multiset<std::string> finding_keys(const nlohmann::json& j) {
  std::multiset<std::string> keys;
  for (const auto& f : j["findings"])
    keys.insert(f["rule_id"].get<std::string>() + " " + (f["file"].is_string() ? f["file"].get<std::string>() : "") +
                ":" + std::to_string(f["line"].get<int>()));
  return keys;
}

/// A repository with one old commit and a head that edits one file: twelve files in all, each with
/// a print (PRINT1, block) and some with a TODO (TODO1, warn), plus the tier-1 file (TIER1).
struct AuditRepo : TempRepo {
  AuditRepo() {
    write("atom/config.py", "x = 1  # TODO: drop\n");
    for (int i = 0; i < 10; ++i)
      write("pkg" + std::to_string(i % 3) + "/m" + std::to_string(i) + ".py",
            "def f():\n    print(\"" + std::to_string(i) + "\")\n" + (i % 2 ? "# TODO: later\n" : ""));
    write("logo.bin", std::string("\0\1\2", 3));
    commit("one");
    write("pkg0/m0.py", "def f():\n    print(\"0\")\n    print(\"again\")\n");
    commit("two");
  }
};

}  // namespace

TEST_CASE("audit mode: --all reviews every file of HEAD as added; notes say so") {
  AuditRepo repo;
  auto r = runner(repo.str(), {"-r", kMini, "--all", "--format", "json", "--fail-on", "never"});
  CHECK(r.exit_code == 0);
  const std::string head = review::change::test::git(repo.str(), {"rev-parse", "HEAD"});
  // what is reviewed first, then what of it is left out
  CHECK(r.err == "note: reviewing every file of " + head.substr(0, 12) + " (audit mode): 12 files\n"
                 "note: logo.bin: not analysed (binary file)\n"
                 "note: audit mode: 1 pull-request finding of TITLE1 left out (an audit has no pull request to judge)\n"
                 "note: the verdict is BLOCK (11 blocking findings), yet the exit code is 0 because fail-on is "
                 "`never` (--fail-on, or fail-on: in the configuration); with the default, `block`, the job would "
                 "fail\n");
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["head_sha"] == head);
  // the reports carry the change's notes and the audit's own
  CHECK(j["notes"] == nlohmann::json::array({"logo.bin: not analysed (binary file)",
                                             "audit mode: 1 pull-request finding of TITLE1 left out (an audit has no pull request to judge)"}));
  auto keys = finding_keys(j);
  CHECK(keys.count("PRINT1 pkg0/m0.py:2") == 1);
  CHECK(keys.count("PRINT1 pkg0/m0.py:3") == 1);
  CHECK(keys.count("TODO1 atom/config.py:1") == 1);
  CHECK(keys.count("TIER1 atom/config.py:0") == 1);
  CHECK(keys.count("TITLE1 :0") == 0);  // no pull request, so no finding about its title
  CHECK(keys.size() == 11 + 6 + 1);  // 11 prints, 6 TODOs, the tier-1 file

  // Without --all only the head commit's change is reviewed (its message is the title: TITLE1 is quiet).
  auto pr = runner(repo.str(), {"-r", kMini, "--base", "HEAD~1", "--format", "json", "--fail-on", "never"});
  CHECK(finding_keys(nlohmann::json::parse(pr.out)) == std::multiset<std::string>{"PRINT1 pkg0/m0.py:3"});
  auto untitled = runner(repo.str(), {"-r", kMini, "--base", "HEAD~1", "--title", "", "--format", "json", "--fail-on", "never"});
  CHECK(finding_keys(nlohmann::json::parse(untitled.out)) ==
        std::multiset<std::string>{"PRINT1 pkg0/m0.py:3", "TITLE1 :0"});
}

TEST_CASE("audit mode: pr.audit is true in an audit only, and a rule about what a change adds skips it") {
  AuditRepo repo;
  const std::string rules = repo.str() + "/../audit-field.rules";
  std::ofstream(rules) << R"(ruleset af "pr.audit" { version 1 }
rule NEWPRINT "new print" {
  when not pr.audit
  for c in calls(changed) where c.added and c.callee == "print"
  problem "a new print at line {c.line}"
  impact "i"
  action "Author must drop it"
  example bad python "print(1)  # <- NEWPRINT"
}
rule AUDITED "audit" {
  when pr.audit
  for f in files(changed) where f.path == "atom/config.py"
  problem "audited"
  impact "i"
  action "Reviewer should read it"
  example bad text "x"
}
)";
  auto audit = runner(repo.str(), {"-r", rules, "--all", "--format", "json", "--fail-on", "never"});
  REQUIRE(audit.exit_code == 0);
  auto aj = nlohmann::json::parse(audit.out);
  CHECK(finding_keys(aj) == std::multiset<std::string>{"AUDITED atom/config.py:0"});
  // the rule that did not run is named, on the terminal and in the reports, so that its silence
  // is not read as a clean result
  const std::string not_run =
      "audit mode: 1 rule did not run, as its `when` condition needs a pull request (its text, or a change to judge "
      "against its base): NEWPRINT";
  CHECK(audit.err.find("note: " + not_run + "\n") != std::string::npos);
  CHECK(std::count(aj["notes"].begin(), aj["notes"].end(), not_run) == 1);
  // the text report on the same terminal does not print it a second time
  auto text = runner(repo.str(), {"-r", rules, "--all", "--fail-on", "never"});
  INFO(text.out << text.err);
  CHECK(text.out.find(not_run) == std::string::npos);
  CHECK(text.err.find(not_run) != std::string::npos);
  auto pr = runner(repo.str(), {"-r", rules, "--base", "HEAD~1", "--format", "json", "--fail-on", "never"});
  REQUIRE(pr.exit_code == 0);
  CHECK(finding_keys(nlohmann::json::parse(pr.out)) == std::multiset<std::string>{"NEWPRINT pkg0/m0.py:3"});
  fs::remove(rules);
}

TEST_CASE("audit mode: --all with --work-tree reads the work tree, untracked files included") {
  AuditRepo repo;
  repo.write("new.py", "print(\"untracked\")\n");
  auto r = runner(repo.str(), {"-r", kMini, "--all", "--work-tree", "--rule", "PRINT1", "--format", "json",
                               "--fail-on", "never"});
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("note: reviewing every file of the work tree (audit mode): 13 files\n") != std::string::npos);
  CHECK(finding_keys(nlohmann::json::parse(r.out)).count("PRINT1 new.py:1") == 1);
}

TEST_CASE("audit mode, sharding and the work tree: usage errors (exit 2) in one line of our own") {
  AuditRepo repo;
  struct Row {
    std::vector<std::string> args;
    std::string err;
  };
  const Row rows[] = {
      {{"--all", "--base", "HEAD~1"}, "runner: --all reviews every file of the head; it cannot be combined with --base\n"},
      {{"--all", "--diff", "x.diff"}, "runner: --all reviews every file of the head; it cannot be combined with --diff\n"},
      {{"--all", "--base-dir", "a", "--head-dir", "b"},
       "runner: --all reviews every file of the head; it cannot be combined with --base-dir\n"},
      {{"--all", "--head-dir", "b"}, "runner: --all reviews every file of the head; it cannot be combined with --head-dir\n"},
      {{"--all", "--event", "e.json"}, "runner: --all reviews every file of the head; it cannot be combined with --event\n"},
      {{"--work-tree", "--head", "HEAD"},
       "runner: --work-tree reviews the work tree as the head; it cannot be combined with --head (drop one of the two)\n"},
      {{"--base", "HEAD~1", "--head", "HEAD", "--work-tree"},
       "runner: --work-tree reviews the work tree as the head; it cannot be combined with --head (drop one of the two)\n"},
      {{"--work-tree", "--diff", "x.diff"},
       "runner: --work-tree reviews the work tree as the head; it cannot be combined with --diff (drop one of the two)\n"},
      {{"--all", "--shard", "0/4"}, "runner: --shard 0/4: the shard number must be between 1 and the count, 4\n"},
      {{"--all", "--shard", "5/4"}, "runner: --shard 5/4: the shard number must be between 1 and the count, 4\n"},
      {{"--all", "--shard", "1/0"}, "runner: --shard 1/0: the shard count must be at least 1\n"},
      {{"--all", "--shard", "x"},
       "runner: --shard wants I/N, a shard number and a shard count such as 2/4 (got \"x\")\n"},
  };
  for (const Row& row : rows) {
    std::vector<std::string> args = {"-r", kMini};
    args.insert(args.end(), row.args.begin(), row.args.end());
    std::string line;
    for (const auto& a : row.args) line += a + " ";
    INFO(line);
    auto r = runner(repo.str(), args);
    CHECK(r.exit_code == 2);
    CHECK(r.err == row.err);
    CHECK(r.out.empty());
  }
}

TEST_CASE("sharding: shards 1..N of --all partition the files and add up to the unsharded findings") {
  AuditRepo repo;
  auto whole = runner(repo.str(), {"-r", kMini, "--all", "--format", "json", "--fail-on", "never"});
  const auto all_keys = finding_keys(nlohmann::json::parse(whole.out));
  const int n = 3;
  std::multiset<std::string> united;
  std::set<std::string> files_seen;
  int files_total = 0;
  for (int i = 1; i <= n; ++i) {
    const std::string shard = std::to_string(i) + "/" + std::to_string(n);
    INFO("shard " << shard);
    auto r = runner(repo.str(), {"-r", kMini, "--all", "--shard", shard, "--format", "json", "--fail-on", "never"});
    REQUIRE(r.exit_code == 0);
    // the shard's own note: how many of the 12 files it kept
    const std::string prefix = "note: shard " + shard + ": ";
    auto at = r.err.find(prefix);
    REQUIRE(at != std::string::npos);
    files_total += std::stoi(r.err.substr(at + prefix.size()));
    CHECK(r.err.find("of 12 changed files\n", at) != std::string::npos);
    // logo.bin's skip note only in the shard that owns it
    CHECK((r.err.find("logo.bin: not analysed") != std::string::npos) ==
          (review::change::shard_of("logo.bin", n) == i));
    for (const auto& k : finding_keys(nlohmann::json::parse(r.out))) {
      united.insert(k);
      std::string file = k.substr(k.find(' ') + 1);
      file = file.substr(0, file.rfind(':'));
      CHECK(!file.empty());  // an audit has no pull-request findings
      CHECK(review::change::shard_of(file, n) == i);
      files_seen.insert(file);
    }
  }
  CHECK(files_total == 12);
  CHECK(united == all_keys);  // no finding lost, none twice
  CHECK(files_seen.size() == 11);  // the 11 Python files with findings
}

TEST_CASE("sharding: --shard in pull-request mode splits the changed files only") {
  AuditRepo repo;
  for (int i = 0; i < 10; ++i)
    repo.write("pkg" + std::to_string(i % 3) + "/m" + std::to_string(i) + ".py", "print(\"changed\")\n");
  repo.commit("three");
  // An empty title: the pull-request finding (TITLE1) belongs to shard 1 only.
  auto whole = runner(repo.str(), {"-r", kMini, "--base", "HEAD~1", "--title", "", "--format", "json", "--fail-on", "never"});
  const auto all_keys = finding_keys(nlohmann::json::parse(whole.out));
  CHECK(all_keys.size() == 11);  // ten prints and the title
  std::multiset<std::string> united;
  for (int i = 1; i <= 2; ++i) {
    auto r = runner(repo.str(), {"-r", kMini, "--base", "HEAD~1", "--title", "", "--shard", std::to_string(i) + "/2",
                                 "--format", "json", "--fail-on", "never"});
    for (const auto& k : finding_keys(nlohmann::json::parse(r.out))) united.insert(k);
  }
  CHECK(united == all_keys);
}

TEST_CASE("sharding: runner merge joins the SARIF files of two shards into the unsharded run's results") {
  AuditRepo repo;
  const fs::path dir = repo.path / ".out";
  fs::create_directories(dir);
  const std::string a = (dir / "1.sarif").string(), b = (dir / "2.sarif").string(), m = (dir / "m.sarif").string(),
                    w = (dir / "whole.sarif").string();
  REQUIRE(runner(repo.str(), {"-r", kMini, "--all", "--fail-on", "never", "--format", "sarif=" + w}).exit_code == 0);
  REQUIRE(runner(repo.str(), {"-r", kMini, "--all", "--shard", "1/2", "--fail-on", "never", "--format", "sarif=" + a})
              .exit_code == 0);
  REQUIRE(runner(repo.str(), {"-r", kMini, "--all", "--shard", "2/2", "--fail-on", "never", "--format", "sarif=" + b})
              .exit_code == 0);
  auto r = runner(repo.str(), {"merge", a, b, "-o", m});
  REQUIRE(r.exit_code == 0);
  auto merged = nlohmann::json::parse(slurp(m));
  auto one = nlohmann::json::parse(slurp(w));
  REQUIRE(merged["runs"].size() == 1);  // same tool, same category
  CHECK(merged["runs"][0]["automationDetails"] == one["runs"][0]["automationDetails"]);
  const auto& results = merged["runs"][0]["results"];
  CHECK(results.size() == one["runs"][0]["results"].size());
  CHECK(results.size() == 18);  // every finding of an audit has a file
  // An audit has no pull-request findings; merge keeps the first run's properties.
  CHECK(merged["runs"][0]["properties"]["pullRequestFindings"] == one["runs"][0]["properties"]["pullRequestFindings"]);
  CHECK(merged["runs"][0]["properties"].value("pullRequestFindings", nlohmann::json::array()).empty());
  std::multiset<std::string> got, want;
  auto key = [](const nlohmann::json& res) {
    return res["ruleId"].get<std::string>() + " " + res.value("/partialFingerprints"_json_pointer, nlohmann::json()).dump();
  };
  for (const auto& res : results) {
    got.insert(key(res));
    CHECK(merged["runs"][0]["tool"]["driver"]["rules"][res["ruleIndex"].get<int>()]["id"] == res["ruleId"]);
  }
  for (const auto& res : one["runs"][0]["results"]) want.insert(key(res));
  CHECK(got == want);
}

TEST_CASE("audit mode: after 20 skipped-file notes, one line counts the rest") {
  TempRepo repo;
  repo.write("a.py", "x = 1\n");
  for (int i = 10; i < 35; ++i) repo.write("bin/f" + std::to_string(i) + ".bin", std::string("\0\1", 2));
  repo.commit("one");
  auto r = runner(repo.str(), {"-r", kMini, "--all", "--rule", "PRINT1"});
  CHECK(r.exit_code == 0);
  const std::string head = review::change::test::git(repo.str(), {"rev-parse", "HEAD"});
  std::string want = "note: reviewing every file of " + head.substr(0, 12) + " (audit mode): 26 files\n";
  for (int i = 10; i < 30; ++i) want += "note: bin/f" + std::to_string(i) + ".bin: not analysed (binary file)\n";
  want += "note: … and 5 more files not analysed (binary, or over the size limit)\n";
  CHECK(r.err.substr(0, want.size()) == want);
}

TEST_CASE("fail closed: a file skipped for its size makes the review incomplete (exit 4, named everywhere)") {
  TempRepo repo;
  repo.write("small.py", "print(1)\n");
  repo.write("big.py", "x = 1\n" + std::string(4000, '#') + "\n");
  repo.commit("one");
  fs::path sarif = fs::path(repo.str()) / "out.sarif";
  auto r = runner(repo.str(), {"-r", kMini, "--all", "--max-file-size", "1000", "--fail-on", "never", "--sarif", sarif.string(),
                               "--format", "text"});
  CHECK(r.exit_code == 4);
  CHECK(r.err.find("incomplete: big.py was not reviewed (") != std::string::npos);
  CHECK(r.out.find("incomplete: big.py was not reviewed (") != std::string::npos);
  CHECK(r.out.find("(INCOMPLETE: 1 rule or file not reviewed)") != std::string::npos);
  auto j = nlohmann::json::parse(slurp(sarif));
  const auto& inv = j["runs"][0]["invocations"][0];
  CHECK(inv["executionSuccessful"] == false);
  CHECK(inv["exitCode"] == 4);
  bool named = false;
  for (const auto& n : inv["toolExecutionNotifications"])
    named = named || n["message"]["text"].get<std::string>().find("big.py") != std::string::npos;
  CHECK(named);

  // the user can opt out of the exit code; the outputs still say what was missed
  auto ok = runner(repo.str(), {"-r", kMini, "--all", "--max-file-size", "1000", "--fail-on", "never", "--allow-incomplete",
                                "--sarif", sarif.string()});
  CHECK(ok.exit_code == 0);
  CHECK(nlohmann::json::parse(slurp(sarif))["runs"][0]["invocations"][0]["executionSuccessful"] == false);

  // a complete review of the same tree exits 0 and is a successful execution
  auto full = runner(repo.str(), {"-r", kMini, "--all", "--fail-on", "never", "--sarif", sarif.string()});
  CHECK(full.exit_code == 0);
  CHECK(full.err.find("incomplete") == std::string::npos);
  CHECK(nlohmann::json::parse(slurp(sarif))["runs"][0]["invocations"][0]["executionSuccessful"] == true);
}

TEST_CASE("--jobs: every output is byte for byte the same with 1, 2 and 4 parser threads") {
  // More files than one parse batch of a thread, with functions, calls, classes and clones, read
  // by the shipped atom ruleset (repo-wide, per-file and cross-file sources) and the mini one.
  TempRepo repo;
  for (int i = 0; i < 40; ++i) {
    std::string body = "import torch\nfrom aiter.ops import kern" + std::to_string(i % 4) + "\n\nclass M" +
                       std::to_string(i) + "(Base):\n    def forward(self, x, scale: int = -1):\n";
    for (int k = 0; k < 8; ++k)
      body += "        y" + std::to_string(k) + " = kern" + std::to_string(i % 4) + "(x, block=" + std::to_string(k) +
              ")\n";
    body += "        print(y0)\n        return torch.empty(4)\n";
    repo.write("atom/models/m" + std::to_string(i) + ".py", body);
  }
  repo.write("csrc/k.cu", "__global__ void k(float* o, int n) {\n  if (n > 4096) { o[0] = 1; }\n}\n");
  repo.commit("one");
  std::string first;
  for (const char* jobs : {"1", "2", "4"}) {
    INFO("--jobs " << jobs);
    std::string out = "out-" + std::string(jobs);
    auto r = runner(repo.str(), {"-r", "atom", "-r", kMini, "--all", "--jobs", jobs, "--fail-on", "never",
                                 "--allow-incomplete", "--format", "sarif=" + out + ".sarif", "--format",
                                 "json=" + out + ".json", "--format", "text=" + out + ".txt"});
    CHECK(r.exit_code == 0);
    std::string all = slurp(repo.path / (out + ".sarif")) + slurp(repo.path / (out + ".json")) +
                      slurp(repo.path / (out + ".txt")) + r.out;
    CHECK(all.size() > 1000);
    if (first.empty()) first = all;
    else CHECK(all == first);
  }
}

TEST_CASE("sharding: eight shards merged are the unsharded SARIF results byte for byte, once sorted") {
  // Files of every kind the atom ruleset reads (functions, calls, classes, clones, a kernel file)
  // spread over enough paths that every one of the 8 shards gets some.
  TempRepo repo;
  for (int i = 0; i < 48; ++i) {
    std::string body = "import torch\nfrom aiter.ops import kern" + std::to_string(i % 4) + "\n\nclass M" +
                       std::to_string(i) + "(Base):\n    def forward(self, x, scale: int = -1):\n";
    for (int k = 0; k < 6; ++k)
      body += "        y" + std::to_string(k) + " = kern" + std::to_string(i % 4) + "(x, block=" + std::to_string(k) +
              ")\n";
    body += "        print(y0)  # TODO: drop\n        return torch.empty(4)\n";
    repo.write("atom/pkg" + std::to_string(i % 5) + "/m" + std::to_string(i) + ".py", body);
  }
  repo.write("atom/config.py", "x = 1  # TODO: drop\n");
  repo.write("csrc/k.cu", "__global__ void k(float* o, int n) {\n  if (n > 4096) { o[0] = 1; }\n}\n");
  repo.commit("one");
  const std::vector<std::string> rules = {"-r", "atom", "-r", kMini, "--all", "--fail-on", "never", "--allow-incomplete"};
  auto run = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = rules;
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = runner(repo.str(), args);
    REQUIRE(r.exit_code == 0);
  };
  run({"--format", "sarif=whole.sarif"});
  std::vector<std::string> parts;
  std::set<int> shards_with_results;
  const int n = 8;
  for (int i = 1; i <= n; ++i) {
    parts.push_back("s" + std::to_string(i) + ".sarif");
    run({"--shard", std::to_string(i) + "/" + std::to_string(n), "--format", "sarif=" + parts.back()});
    if (!nlohmann::json::parse(slurp(repo.path / parts.back()))["runs"][0]["results"].empty())
      shards_with_results.insert(i);
  }
  CHECK(shards_with_results.size() >= 6);  // the split is real, not one shard doing all the work
  std::vector<std::string> args = {"merge"};
  // in reverse order: the merge must not depend on the order of its inputs
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) args.push_back(*it);
  args.insert(args.end(), {"-o", "merged.sarif"});
  REQUIRE(runner(repo.str(), args).exit_code == 0);
  auto merged = nlohmann::json::parse(slurp(repo.path / "merged.sarif"));
  auto whole = nlohmann::json::parse(slurp(repo.path / "whole.sarif"));
  REQUIRE(merged["runs"].size() == 1);
  // Each result as bytes, with its rule's id in place of the index (a merge renumbers rules).
  auto sorted_results = [](const nlohmann::json& sarif_run) {
    std::vector<std::string> out;
    for (auto res : sarif_run["results"]) {
      res["ruleIndex"] = sarif_run["tool"]["driver"]["rules"][res["ruleIndex"].get<int>()]["id"];
      out.push_back(res.dump());
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  auto want = sorted_results(whole["runs"][0]);
  CHECK(want.size() > 100);
  CHECK(sorted_results(merged["runs"][0]) == want);
  CHECK(merged["runs"][0]["properties"]["verdict"] == whole["runs"][0]["properties"]["verdict"]);
}

TEST_CASE("sharding: a rule that joins facts across changed files finds the same in shards as unsharded") {
  // Each `use` file is paired with the `def` file that defines its name; the two files of a pair
  // fall in different shards for some N. A shard that evaluated only its own files lost them.
  TempRepo repo;
  for (int i = 0; i < 8; ++i) {
    repo.write("defs/d" + std::to_string(i) + ".py", "NAME_" + std::to_string(i) + " = 1\n");
    repo.write("uses/u" + std::to_string(i) + ".py", "print(NAME_" + std::to_string(i) + ")\n");
  }
  repo.write("join.rules", R"RULES(ruleset join "join" { version 1 }
rule JOIN1 "a use of a name another changed file defines" {
  for u in lines(changed) where u.code ~ /print\((?P<name>NAME_\d+)\)/
  for d in lines(changed) where d.file != u.file and d.code ~ /^{name} = /
  problem "`{u.file}` reads `{name}` from `{d.file}`"
  impact "the two files change together"
  action "Author should review them together"
  example bad python "print(NAME_9)"
}
)RULES");
  repo.commit("pairs");
  const std::string rules = repo.str() + "/join.rules";
  auto whole = runner(repo.str(), {"-r", rules, "--all", "--format", "json", "--fail-on", "never"});
  const auto all_keys = finding_keys(nlohmann::json::parse(whole.out));
  REQUIRE(all_keys.size() == 8);
  for (int n = 2; n <= 4; ++n) {
    std::multiset<std::string> united;
    for (int i = 1; i <= n; ++i) {
      auto r = runner(repo.str(), {"-r", rules, "--all", "--shard", std::to_string(i) + "/" + std::to_string(n),
                                   "--format", "json", "--fail-on", "never"});
      INFO(r.err);
      for (const auto& k : finding_keys(nlohmann::json::parse(r.out))) united.insert(k);
    }
    CHECK(united == all_keys);
  }
}

TEST_CASE("--timings: CPU by source and by rule, and where memory peaked, on stderr after the outputs") {
  AuditRepo repo;
  auto plain = runner(repo.str(), {"-r", kMini, "--all", "--format", "json", "--fail-on", "never"});
  auto timed = runner(repo.str(), {"-r", kMini, "--all", "--format", "json", "--fail-on", "never", "--timings"});
  CHECK(timed.exit_code == plain.exit_code);
  // the outputs are the same; the figures go to stderr
  CHECK(timed.out == plain.out);
  CHECK(timed.err.find("timings: CPU ") != std::string::npos);
  // PRINT1 is listed, or counted among the rules too quick to list
  CHECK((timed.err.find("timings: rule   PRINT1 ") != std::string::npos ||
         timed.err.find(" more rules or kinds, each under 0.01 s\n") != std::string::npos));
  // the memory line comes last: "timings: memory peak N MiB, reached while rule R ran (...); no
  // later step went higher: it is the whole run's peak" (or "; the whole run's peak P MiB (outside
  // the rules: …)"), naming a rule or kind of the run
  const std::string head = "timings: memory peak ";
  auto at = timed.err.rfind(head);
  REQUIRE(at != std::string::npos);
  std::string line = timed.err.substr(at);
  INFO(line);
  REQUIRE(line.find('\n') == line.size() - 1);
  auto during = line.find(", reached while ");
  REQUIRE(during != std::string::npos);
  std::string who = line.substr(during + 16, line.find(" ran", during + 16) - during - 16);  // "rule X" or "kind X"
  REQUIRE(who.size() > 5);
  // the rule named there is listed, however quick it was
  CHECK(timed.err.find("timings: " + who.substr(0, 4) + "   " + who.substr(5) + " ") != std::string::npos);
  CHECK(timed.err.find(" before filters\n") != std::string::npos);
  CHECK((line.find("; no later step went higher: it is the whole run's peak\n") != std::string::npos ||
         line.find("; the whole run's peak ") != std::string::npos));
  CHECK(plain.err.find("timings:") == std::string::npos);
}

TEST_CASE("--timings: rules and kinds in order of their own work plus the sources they built") {
  review::dsl::EvalTimings t;
  // a kind that built every file's facts costs seconds while its own work is nothing
  t.rules.push_back({"R-OWN", 0.50, 0.00, 3, 1000});
  t.rules.push_back({"kind builds", 0.00, 2.25, 0, 2000});
  t.rules.push_back({"R-BOTH", 0.30, 0.40, 1, 1500});
  t.rules.push_back({"R-FAST", 0.001, 0.002, 0, 1500});
  t.sources = {{"lines", 2.25}, {"calls", 0.40}, {"pr", 0.0}};
  std::ostringstream err;
  review::cli::print_timings(t, err);
  const std::string s = err.str();
  INFO(s);
  auto kind = s.find("timings: kind   builds ");
  auto both = s.find("timings: rule   R-BOTH ");
  auto own = s.find("timings: rule   R-OWN ");
  REQUIRE(kind != std::string::npos);
  REQUIRE(both != std::string::npos);
  REQUIRE(own != std::string::npos);
  CHECK(kind < both);
  CHECK(both < own);
  CHECK(s.find("timings: source lines ") < s.find("timings: source calls "));
  // what would print as 0.00 s is counted, not listed
  CHECK(s.find("R-FAST") == std::string::npos);
  CHECK(s.find("timings: 1 more rules or kinds, each under 0.01 s\n") != std::string::npos);
  CHECK(s.find("timings: source pr ") == std::string::npos);
  CHECK(s.find("timings: 1 more sources, each under 0.01 s\n") != std::string::npos);
  CHECK(s.find("timings: memory peak 2.0 MiB, reached while kind builds ran") != std::string::npos);
}
