#include "runner/change/memory.hpp"

#include "catch.hpp"

using namespace review::change;

TEST_CASE("make_snippet_change: every line is added") {
  Change c = make_snippet_change("ex/a.py", "x = 1\ny = 2\nz = 3");
  REQUIRE(c.files.size() == 1);
  const ChangedFile& f = c.files[0];
  CHECK(f.path == "ex/a.py");
  CHECK(f.status == FileStatus::Added);
  CHECK(f.added_lines == std::set<int>{1, 2, 3});
  CHECK(f.added_count == 3);
  REQUIRE(f.hunks.size() == 1);
  CHECK((f.hunks[0].new_start == 1 && f.hunks[0].new_count == 3 && f.hunks[0].old_count == 0));
  CHECK(f.hunks[0].lines[2].text == "z = 3");
  CHECK(f.hunks[0].lines[2].no_newline_at_eof);
  CHECK(!f.hunks[0].lines[1].no_newline_at_eof);
  CHECK(c.content->head("ex/a.py") == std::optional<std::string>("x = 1\ny = 2\nz = 3"));
  CHECK(c.content->base("ex/a.py") == std::nullopt);
  CHECK(c.content->head_files() == std::vector<std::string>{"ex/a.py"});
  CHECK(c.find("ex/a.py") == &c.files[0]);
  CHECK(c.find("other.py") == nullptr);

  Change empty = make_snippet_change("e.py", "");
  CHECK(empty.files.at(0).hunks.empty());
  CHECK(empty.files.at(0).added_count == 0);
}

TEST_CASE("make_patch_change: applies a diff to given base texts") {
  const std::string diff =
      "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,3 @@\n import os\n+import re\n x = 1\n"
      "diff --git a/n.py b/n.py\nnew file mode 100644\n--- /dev/null\n+++ b/n.py\n@@ -0,0 +1 @@\n+print(1)\n"
      "diff --git a/gone.py b/gone.py\ndeleted file mode 100644\n--- a/gone.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n";
  Change c = make_patch_change(diff, {{"m.py", "import os\nx = 1\n"}, {"keep.py", "k\n"}});
  REQUIRE(c.files.size() == 3);
  CHECK(c.content->head("m.py") == std::optional<std::string>("import os\nimport re\nx = 1\n"));
  CHECK(c.content->base("m.py") == std::optional<std::string>("import os\nx = 1\n"));
  CHECK(c.content->head("n.py") == std::optional<std::string>("print(1)\n"));
  CHECK(c.content->base("n.py") == std::nullopt);
  CHECK(c.content->head("gone.py") == std::nullopt);
  CHECK(c.content->base("gone.py") == std::optional<std::string>("bye\n"));
  CHECK(c.content->head("keep.py") == std::optional<std::string>("k\n"));
  CHECK(c.content->head_files() == std::vector<std::string>{"keep.py", "m.py", "n.py"});
}

TEST_CASE("make_patch_change: an empty base by default, errors when the diff needs more") {
  Change c = make_patch_change("--- a/x.py\n+++ b/x.py\n@@ -0,0 +1,2 @@\n+a\n+b\n");
  CHECK(c.content->head("x.py") == std::optional<std::string>("a\nb\n"));
  try {
    make_patch_change("--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n", {}, "example");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.where == "example: x.py");
    CHECK(e.message == "line 1: expected \"a\", found the end of the text (0 lines)");
  }
}
