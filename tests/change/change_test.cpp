#include "runner/change/change.hpp"
#include "runner/change/diff_parser.hpp"

#include <random>
#include <set>
#include <vector>

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

TEST_CASE("Change::find: files added, removed or renamed after a find, copies, duplicates") {
  Change c;
  c.files.resize(2);
  c.files[0].path = "a.py";
  c.files[1].path = "b.py";
  REQUIRE(c.find("b.py") == &c.files[1]);
  c.files.emplace_back().path = "c.py";  // added after the index was built
  CHECK(c.find("c.py") == &c.files[2]);
  CHECK(c.find("b.py") == &c.files[1]);
  c.files.erase(c.files.begin());  // removed: every position moves
  CHECK(c.find("a.py") == nullptr);
  CHECK(c.find("b.py") == &c.files[0]);
  c.files[0].path = "d.py";  // edited in place: the hit is checked, so the old name misses
  CHECK(c.find("b.py") == nullptr);
  CHECK(c.find("d.py") == &c.files[0]);
  Change copy = c;  // a copy answers from its own files
  CHECK(copy.find("c.py") == &copy.files[1]);
  copy.files.emplace_back().path = "c.py";  // the same path twice: the first, as a scan finds
  CHECK(copy.find("c.py") == &copy.files[1]);
  CHECK(c.find("c.py") == &c.files[1]);
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

TEST_CASE("LineSet: the same answers as std::set<int> on random inserts, as runs") {
  std::mt19937 rng(11);
  for (int round = 0; round < 200; ++round) {
    LineSet s;
    std::set<int> want;
    int range = 1 + static_cast<int>(rng() % 60);
    int n = static_cast<int>(rng() % 80);
    bool ascending = round % 3 == 0;  // the diff parser's order
    for (int i = 0; i < n; ++i) {
      int line = ascending ? i + 1 + static_cast<int>(rng() % 3) * i : 1 + static_cast<int>(rng() % range);
      CHECK(s.insert(line) == want.insert(line).second);
    }
    REQUIRE(s.size() == want.size());
    CHECK(s.empty() == want.empty());
    CHECK(s == want);
    CHECK(std::vector<int>(s.begin(), s.end()) == std::vector<int>(want.begin(), want.end()));
    CHECK(std::vector<int>(s.rbegin(), s.rend()) == std::vector<int>(want.rbegin(), want.rend()));
    for (int line = -1; line <= range * 4 + 2; ++line) {
      CHECK(s.count(line) == want.count(line));
      auto a = s.lower_bound(line);
      auto b = want.lower_bound(line);
      REQUIRE((a == s.end()) == (b == want.end()));
      if (b != want.end()) CHECK(*a == *b);
    }
    // runs: ascending, neither overlapping nor touching, and covering exactly the lines
    std::size_t covered = 0;
    for (std::size_t i = 0; i < s.runs().size(); ++i) {
      auto [first, last] = s.runs()[i];
      CHECK(first <= last);
      if (i > 0) CHECK(s.runs()[i - 1].second + 1 < first);
      covered += static_cast<std::size_t>(last - first + 1);
    }
    CHECK(covered == want.size());
  }
  LineSet whole;
  for (int line = 1; line <= 100000; ++line) whole.insert(line);
  CHECK(whole.runs().size() == 1);  // a file added whole is one run
  CHECK(whole.size() == 100000);
  whole.clear();
  CHECK(whole.empty());
  CHECK(whole.begin() == whole.end());
  CHECK((LineSet{3, 1, 2, 7} == std::set<int>{1, 2, 3, 7}));
}
