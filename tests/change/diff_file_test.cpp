#include "runner/change/diff_file.hpp"

#include "catch.hpp"
#include "change/test_util.hpp"

using namespace review::change;
using namespace review::change::test;

TEST_CASE("load_diff_change: without a repository only hunks are known") {
  Change c = load_diff_change(fixture_path("two_files.diff"), std::nullopt);
  CHECK(c.hunks_only);
  REQUIRE(c.files.size() == 2);
  CHECK(c.content->head("a.txt") == std::nullopt);
  CHECK(c.content->base("a.txt") == std::nullopt);
  CHECK(c.content->head_files().empty());
  CHECK(c.notes == std::vector<std::string>{
                       "no repository given: only the diff's hunk lines are known, not the full files (--repo DIR reads them from "
                       "DIR's --head, default HEAD, when the diff is of that revision)"});
}

TEST_CASE("load_diff_change: with a repository, base texts are the head with the patch reversed") {
  TempRepo repo;
  repo.write("m.py", "import os\nx = 1\n");
  repo.write("old.py", "keep\n");
  repo.write("gone.py", "bye\n");
  repo.write("same.py", "untouched\n");
  std::string base = repo.commit("base");
  repo.write("m.py", "import os\nimport re\nx = 1\n");
  git(repo.str(), {"mv", "old.py", "new.py"});
  git(repo.str(), {"rm", "-q", "gone.py"});
  repo.write("added.py", "fresh\n");
  std::string head = repo.commit("head");
  std::string diff = run_process({"git", "-C", repo.str(), "diff", "-M", base, head}).out;
  TempDir tmp;
  write_file(tmp.path / "pr.diff", diff);

  Change c = load_diff_change((tmp.path / "pr.diff").string(), repo.str(), "HEAD");
  CHECK(!c.hunks_only);
  CHECK(c.pr.head_sha == head);
  REQUIRE(c.files.size() == 4);
  CHECK(c.notes.empty());
  CHECK(c.content->head("m.py") == std::optional<std::string>("import os\nimport re\nx = 1\n"));
  CHECK(c.content->base("m.py") == std::optional<std::string>("import os\nx = 1\n"));
  CHECK(c.content->base("old.py") == std::optional<std::string>("keep\n"));
  CHECK(c.content->base("new.py") == std::nullopt);
  CHECK(c.content->base("gone.py") == std::optional<std::string>("bye\n"));
  CHECK(c.content->base("added.py") == std::nullopt);
  CHECK(c.content->base("same.py") == std::optional<std::string>("untouched\n"));

  // The repository at the base revision does not hold the patch's head: bases are unknown.
  Change wrong = load_diff_change((tmp.path / "pr.diff").string(), repo.str(), base);
  CHECK(wrong.content->base("m.py") == std::nullopt);
  REQUIRE(!wrong.notes.empty());
  CHECK(wrong.notes[0] ==
        "m.py: the patch does not match the head revision (line 2: expected \"import re\", found "
        "\"x = 1\"); its base text is unknown");
}

TEST_CASE("load_diff_change: errors") {
  try {
    load_diff_change("/no/such/file.diff", std::nullopt);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.where == "/no/such/file.diff");
    CHECK(e.message == "cannot read: No such file or directory");
  }
  try {
    load_diff_change(fixture_path("truncated_hunk.diff"), std::nullopt);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.where == fixture_path("truncated_hunk.diff") + ":9");
  }
}
