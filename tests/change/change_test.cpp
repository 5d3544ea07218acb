#include "runner/change/change.hpp"
#include "runner/change/diff_parser.hpp"

#include "catch.hpp"

using namespace review::change;

TEST_CASE("status_name: every status") {
  CHECK(status_name(FileStatus::Added) == "added");
  CHECK(status_name(FileStatus::Modified) == "modified");
  CHECK(status_name(FileStatus::Deleted) == "deleted");
  CHECK(status_name(FileStatus::Renamed) == "renamed");
  CHECK(status_name(FileStatus::Copied) == "copied");
}

TEST_CASE("Change::find: by head path") {
  Change c;
  c.files.resize(2);
  c.files[0].path = "a.py";
  c.files[1].path = "b/new.py";
  c.files[1].old_path = "b/old.py";
  CHECK(c.find("b/new.py") == &c.files[1]);
  CHECK(c.find("b/old.py") == nullptr);
  CHECK(c.find("") == nullptr);
}

TEST_CASE("ChangedFile::head_line_of: unchanged, removed and shifted lines") {
  // base 1..12 -> head: line 3 replaced by two lines, lines 7-8 deleted, a line added after 11.
  auto files = parse_unified_diff(
      "--- a/f.py\n+++ b/f.py\n"
      "@@ -2,3 +2,4 @@\n ctx2\n-old3\n+new3\n+new3b\n ctx4\n"
      "@@ -7,2 +7,0 @@\n-old7\n-old8\n"
      "@@ -11,0 +11,1 @@\n+new11\n",
      "t.diff");
  REQUIRE(files.size() == 1);
  const ChangedFile& f = files[0];
  CHECK(f.head_line_of(0) == 0);
  CHECK(f.head_line_of(1) == 1);   // before every hunk
  CHECK(f.head_line_of(2) == 2);   // context in a hunk
  CHECK(f.head_line_of(3) == 3);   // removed: the first head line after it (here its replacement)
  CHECK(f.head_line_of(4) == 5);
  CHECK(f.head_line_of(5) == 6);   // shifted by +1
  CHECK(f.head_line_of(7) == 8);   // pure deletion: after head line 7 (new_start 7, count 0)
  CHECK(f.head_line_of(8) == 8);
  CHECK(f.head_line_of(9) == 8);   // shifted by +1 - 2
  CHECK(f.head_line_of(11) == 10); // the insertion after base 11 comes later
  CHECK(f.head_line_of(12) == 12); // shifted by +1 - 2 + 1
}
