// Differential review end to end on two-commit repositories: a finding the base already has is
// pre-existing (SARIF baselineState "unchanged", not in the verdict or the exit code); one the
// change introduces still blocks.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "catch.hpp"
#include "change/test_util.hpp"
#include "cli/cli_util.hpp"

namespace {

using review::change::test::TempRepo;
using review::cli::test::slurp;

// A possibly-unbound read (`v` is bound only when `flag` holds), committed in the base.
const std::string kBase =
    "def pick(flag, y):\n"
    "    if flag:\n"
    "        v = 1\n"
    "    x = y + 2\n"
    "    return v + x\n";

nlohmann::json sarif_results(const std::string& path) {
  return nlohmann::json::parse(slurp(path))["runs"][0]["results"];
}

}  // namespace

TEST_CASE("differential: a finding the base already has does not block; one the change makes does") {
  TempRepo repo;
  repo.write("pkg/sel.py", kBase);
  repo.commit("base");
  // The change edits another line of the same function: the unbound read is not new.
  std::string head = kBase;
  head.replace(head.find("y + 2"), 5, "y + 3");
  repo.write("pkg/sel.py", head);
  repo.commit("edit");
  std::string sarif = repo.str() + "/out.sarif";
  auto r = review::cli::test::run_runner(repo.str(), {"-r", "atom", "--base", "HEAD~1", "--head", "HEAD",
                                                      "--format", "sarif=" + sarif, "--format", "text"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  auto results = sarif_results(sarif);
  int unchanged = 0;
  for (const auto& res : results) {
    CHECK(res["baselineState"].is_string());
    if (res["baselineState"] == "unchanged") {
      ++unchanged;
      CHECK(res["locations"][0]["physicalLocation"]["region"]["startLine"] == 5);
    }
  }
  CHECK(unchanged >= 1);
  CHECK(r.out.find("pre-existing") != std::string::npos);
  CHECK(r.out.find("LGTM") != std::string::npos);

  // Without the base comparison the same run blocks (what the issue reported).
  auto old = review::cli::test::run_runner(repo.str(), {"-r", "atom", "--base", "HEAD~1", "--head", "HEAD",
                                                        "--no-differential", "--format", "sarif=" + sarif});
  CHECK(old.exit_code == 1);
  for (const auto& res : sarif_results(sarif)) CHECK_FALSE(res.contains("baselineState"));

  // A change that removes the binding the base had introduces the unbound read: it blocks, "new".
  TempRepo bad;
  std::string safe = kBase;
  safe.insert(safe.find("    if flag:"), "    v = 0\n");
  bad.write("pkg/sel.py", safe);
  bad.commit("base");
  bad.write("pkg/sel.py", head);
  bad.commit("drop the default, edit x");
  auto b = review::cli::test::run_runner(bad.str(), {"-r", "atom", "--base", "HEAD~1", "--head", "HEAD",
                                                     "--format", "sarif=" + sarif});
  INFO(b.out << b.err);
  CHECK(b.exit_code == 1);
  int fresh = 0;
  for (const auto& res : sarif_results(sarif)) {
    CHECK(res["baselineState"] == "new");
    if (res["ruleId"] == "D1b") ++fresh;
  }
  CHECK(fresh == 1);
}
