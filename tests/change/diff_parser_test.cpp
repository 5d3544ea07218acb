#include "runner/change/diff_parser.hpp"

#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "change/test_util.hpp"

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"  // table rows omit trailing fields

using namespace review::change;
using review::change::test::read_fixture;

namespace {

struct WantFile {
  std::string path, old_path;
  FileStatus status;
  std::set<int> added, removed;
  int hunks = 0;
  int similarity = 0;
  std::string old_mode, new_mode;
  bool binary = false, submodule = false;
  std::string skip_reason;  // non-empty = skipped
};

template <class Set>
std::string show(const Set& s) {
  std::string out;
  for (int v : s) out += std::to_string(v) + " ";
  return out;
}

}  // namespace

TEST_CASE("parse_unified_diff: one fixture per diff shape") {
  using S = FileStatus;
  struct Row {
    const char* fixture;
    std::vector<WantFile> files;
  };
  const std::vector<Row> rows = {
      {"modified.diff", {{"pkg/mod.py", "pkg/mod.py", S::Modified, {2, 3}, {2}, 1}}},
      {"rename_only.diff", {{"new/name.py", "old/name.py", S::Renamed, {}, {}, 0, 100}}},
      {"rename_old_git.diff", {{"after.c", "before.c", S::Renamed, {}, {}, 0, 95}}},
      {"rename_with_edit.diff", {{"lib/b.py", "lib/a.py", S::Renamed, {3}, {3}, 1, 87}}},
      {"copy.diff", {{"conf/extra.yaml", "conf/base.yaml", S::Copied, {3}, {}, 1, 90}}},
      {"no_newline_at_eof.diff", {{"eol.txt", "eol.txt", S::Modified, {1, 2}, {1}, 1}}},
      {"crlf.diff", {{"win.txt", "win.txt", S::Modified, {2}, {2}, 1}}},
      {"quoted_non_ascii_path.diff",
       {{"dir/caf\xc3\xa9 x.py", "dir/caf\xc3\xa9 x.py", S::Modified, {2}, {}, 1}}},
      {"quoted_rename.diff", {{"plain.txt", "tab\there.txt", S::Renamed, {}, {}, 0, 100}}},
      {"binary.diff",
       {{"img/logo.png", "img/logo.png", S::Modified, {}, {}, 0, 0, "", "", true, false,
         "binary file"}}},
      {"binary_added.diff",
       {{"data/blob.bin", "", S::Added, {}, {}, 0, 0, "", "100644", true, false, "binary file"}}},
      {"git_binary_patch.diff",
       {{"blob.bin", "blob.bin", S::Modified, {}, {}, 0, 0, "", "", true, false, "binary file"},
        {"after.txt", "after.txt", S::Modified, {1}, {1}, 1}}},
      {"mode_change.diff",
       {{"run.sh", "run.sh", S::Modified, {}, {}, 0, 0, "100644", "100755"}}},
      {"mode_change_with_edit.diff",
       {{"run.sh", "run.sh", S::Modified, {2}, {2}, 1, 0, "100644", "100755"}}},
      {"submodule.diff",
       {{"third_party/lib", "third_party/lib", S::Modified, {1}, {1}, 1, 0, "", "", false, true}}},
      {"submodule_added.diff",
       {{"ext/dep", "", S::Added, {1}, {}, 1, 0, "", "160000", false, true}}},
      {"new_empty_file.diff", {{"pkg/__init__.py", "", S::Added, {}, {}, 0, 0, "", "100644"}}},
      {"new_file.diff", {{"tools/new.py", "", S::Added, {1, 2, 3}, {}, 1, 0, "", "100755"}}},
      {"deleted_file.diff",
       {{"gone.txt", "gone.txt", S::Deleted, {}, {1, 2, 3}, 1, 0, "100644", ""}}},
      {"deleted_empty_file.diff",
       {{"empty.cfg", "empty.cfg", S::Deleted, {}, {}, 0, 0, "100644", ""}}},
      {"many_hunks.diff", {{"src/big.cpp", "src/big.cpp", S::Modified, {6, 41, 42}, {21, 41}, 3}}},
      {"two_files.diff",
       {{"a.txt", "a.txt", S::Modified, {1}, {1}, 1}, {"b.txt", "b.txt", S::Modified, {6, 7}, {}, 1}}},
      {"plain_diff_u.diff",
       {{"config.ini", "config.ini", S::Modified, {2}, {2}, 1},
        {"extra.ini", "", S::Added, {1}, {}, 1}}},
      {"format_patch.diff", {{"fix.py", "fix.py", S::Modified, {1}, {1}, 1}}},
      {"empty_context_line.diff", {{"gap.py", "gap.py", S::Modified, {3}, {3}, 1}}},
  };
  for (const Row& row : rows) {
    INFO("fixture " << row.fixture);
    std::vector<ChangedFile> got = parse_unified_diff(read_fixture(row.fixture), row.fixture);
    REQUIRE(got.size() == row.files.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      const ChangedFile& g = got[i];
      const WantFile& w = row.files[i];
      INFO("file " << i << " " << g.path);
      CHECK(g.path == w.path);
      CHECK(g.old_path == w.old_path);
      CHECK(status_name(g.status) == status_name(w.status));
      CHECK(show(g.added_lines) == show(w.added));
      CHECK(show(g.removed_lines) == show(w.removed));
      CHECK(g.added_count == static_cast<int>(w.added.size()));
      CHECK(g.removed_count == static_cast<int>(w.removed.size()));
      CHECK(static_cast<int>(g.hunks.size()) == w.hunks);
      CHECK(g.similarity == w.similarity);
      CHECK(g.old_mode == w.old_mode);
      CHECK(g.new_mode == w.new_mode);
      CHECK(g.binary == w.binary);
      CHECK(g.submodule == w.submodule);
      CHECK(g.skipped == !w.skip_reason.empty());
      CHECK(g.skip_reason == w.skip_reason);
    }
  }
}

TEST_CASE("parse_unified_diff: hunk lines carry kinds, numbers, text and markers") {
  SECTION("no newline at end of file") {
    auto files = parse_unified_diff(read_fixture("no_newline_at_eof.diff"), "x");
    const auto& l = files.at(0).hunks.at(0).lines;
    REQUIRE(l.size() == 3);
    CHECK((l[0].kind == LineKind::Removed && l[0].old_line == 1 && l[0].new_line == 0));
    CHECK(l[0].text == "no eol");
    CHECK(l[0].no_newline_at_eof);
    CHECK((l[1].kind == LineKind::Added && l[1].new_line == 1 && !l[1].no_newline_at_eof));
    CHECK((l[2].text == "now" && l[2].new_line == 2 && l[2].no_newline_at_eof));
  }
  SECTION("CR is dropped from every line") {
    auto files = parse_unified_diff(read_fixture("crlf.diff"), "x");
    const auto& l = files.at(0).hunks.at(0).lines;
    REQUIRE(l.size() == 3);
    CHECK(l[0].text == "a");
    CHECK(l[1].text == "b");
    CHECK(l[2].text == "B");
    CHECK(files[0].path == "win.txt");
  }
  SECTION("sections and starts of many hunks") {
    auto files = parse_unified_diff(read_fixture("many_hunks.diff"), "x");
    const auto& h = files.at(0).hunks;
    REQUIRE(h.size() == 3);
    CHECK(h[0].section == "namespace demo {");
    CHECK(h[1].section == "int c() {");
    CHECK(h[2].section == "int f(int x,");
    CHECK((h[1].old_start == 20 && h[1].old_count == 6 && h[1].new_start == 21 && h[1].new_count == 5));
    const DiffLine& ctx = h[2].lines.back();
    CHECK((ctx.kind == LineKind::Context && ctx.old_line == 42 && ctx.new_line == 43 && ctx.text == "}"));
  }
  SECTION("an empty line inside a hunk is an empty context line") {
    auto files = parse_unified_diff(read_fixture("empty_context_line.diff"), "x");
    const DiffLine& l = files.at(0).hunks.at(0).lines.at(1);
    CHECK((l.kind == LineKind::Context && l.text.empty() && l.old_line == 2 && l.new_line == 2));
  }
}

TEST_CASE("parse_unified_diff: errors name the position, what was expected and what was found") {
  struct Row {
    const char* fixture;
    const char* where;
    const char* message;
  };
  const Row rows[] = {
      {"combined_refused.diff", "combined_refused.diff:1",
       "combined diff (of a merge commit) is not supported: \"diff --cc merged.py\"; diff against "
       "one parent instead (git diff PARENT COMMIT)"},
      {"combined_hunk_refused.diff", "combined_hunk_refused.diff:4",
       "combined diff (of a merge commit) is not supported: \"@@@ -1,1 -1,1 +1,1 @@@\"; diff "
       "against one parent instead (git diff PARENT COMMIT)"},
      {"truncated_hunk.diff", "truncated_hunk.diff:9",
       "hunk at line 5 ends early: its header \"@@ -1,4 +1,5 @@\" says 4 base and 5 head lines, "
       "found 2 and 3"},
      {"hunk_too_long.diff", "hunk_too_long.diff:9",
       "hunk at line 5 has more lines than its header \"@@ -1,2 +1,2 @@\" says (2 base, 2 head)"},
      {"missing_hunk_header.diff", "missing_hunk_header.diff:5",
       "hunk header expected, got \" context without header\""},
      {"missing_plus_line.diff", "missing_plus_line.diff:4",
       "\"+++\" line expected after \"--- a/x.py\", got \"@@ -1 +1 @@\""},
      {"malformed_hunk_header.diff", "malformed_hunk_header.diff:5",
       "malformed hunk header \"@@ -1,two +1 @@\": expected \"@@ -START,COUNT +START,COUNT @@\""},
      {"hunk_without_file.diff", "hunk_without_file.diff:1",
       "file header (\"diff --git\" or \"--- \") expected before hunk header, got \"@@ -1 +1 @@\""},
  };
  for (const Row& r : rows) {
    INFO("fixture " << r.fixture);
    try {
      parse_unified_diff(read_fixture(r.fixture), r.fixture);
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK(e.where == r.where);
      CHECK(e.message == r.message);
    }
  }
}

TEST_CASE("parse_unified_diff: long and hostile text in errors is cut and escaped") {
  std::string line = " " + std::string(100, 'x') + std::string("\0\x1b", 2);
  std::string diff = "--- a/f\n+++ b/f\n" + line + "\n";
  try {
    parse_unified_diff(diff, "d");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.where == "d:3");
    CHECK(e.message == "hunk header expected, got \" " + std::string(59, 'x') + "…\"");
  }
  CHECK(excerpt(std::string("a\0b\x7f", 4)) == "a\\x00b\\x7f");
  CHECK(excerpt("\xc3\xa9\xc3\xa9", 3) == "\xc3\xa9…");  // never cuts inside a UTF-8 sequence
}

TEST_CASE("parse_unified_diff: files over the size limit are skipped with their counts") {
  std::string diff = "diff --git a/big.txt b/big.txt\n--- a/big.txt\n+++ b/big.txt\n@@ -0,0 +1,3 @@\n";
  diff += "+" + std::string(40, 'a') + "\n+" + std::string(40, 'b') + "\n+c\n";
  DiffOptions opts;
  opts.max_file_bytes = 50;
  auto files = parse_unified_diff(diff, "d", opts);
  REQUIRE(files.size() == 1);
  CHECK(files[0].skipped);
  CHECK(files[0].skip_reason == "diff larger than 50 bytes");
  CHECK(files[0].added_count == 3);
  CHECK(files[0].hunks.empty());
  CHECK(files[0].added_lines.empty());
}

TEST_CASE("unquote_c_path: git's C quoting") {
  CHECK(unquote_c_path("\"dir/caf\\303\\251 x.py\"") == "dir/caf\xc3\xa9 x.py");
  CHECK(unquote_c_path("\"a\\\"b\\\\c\\td\"") == "a\"b\\c\td");
  CHECK(unquote_c_path("plain name") == "plain name");
  CHECK(unquote_c_path("\"bad\\q\"") == "bad\\q");
}

TEST_CASE("parse_unified_diff: hostile input never crashes") {
  SECTION("every prefix of every fixture parses or raises InputError") {
    const char* names[] = {"many_hunks.diff", "git_binary_patch.diff", "quoted_non_ascii_path.diff",
                           "plain_diff_u.diff", "format_patch.diff", "no_newline_at_eof.diff",
                           "crlf.diff", "combined_refused.diff", "submodule.diff", "copy.diff"};
    int errors = 0, parsed = 0;
    for (const char* n : names) {
      std::string text = read_fixture(n);
      for (std::size_t cut = 0; cut <= text.size(); ++cut) {
        try {
          parse_unified_diff(std::string_view(text).substr(0, cut), n);
          ++parsed;
        } catch (const InputError&) {
          ++errors;
        }
      }
    }
    CHECK(errors > 0);
    CHECK(parsed > 0);
  }
  SECTION("NUL bytes, invalid UTF-8 and a huge line") {
    static const char head[] = "--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n-\xff\xfe\0x\n+";
    std::string diff = std::string(head, sizeof head - 1) +
                       std::string(3'000'000, 'y') + "\n+\x80\n";
    REQUIRE(diff.find('\0') != std::string::npos);
    auto files = parse_unified_diff(diff, "d");
    REQUIRE(files.size() == 1);
    CHECK(files[0].skipped);
    CHECK(files[0].added_count == 2);
    CHECK(files[0].removed_count == 1);
  }
  SECTION("a million hunks") {
    std::string diff = "--- a/f\n+++ b/f\n";
    diff.reserve(30'000'000);
    for (int i = 1; i <= 1'000'000; ++i) {
      std::string n = std::to_string(i);
      diff += "@@ -" + n + " +" + n + " @@\n-a\n+b\n";
    }
    DiffOptions opts;
    opts.max_file_bytes = std::size_t{64} * 1024 * 1024;
    auto files = parse_unified_diff(diff, "d", opts);
    REQUIRE(files.size() == 1);
    CHECK(files[0].hunks.size() == 1'000'000);
    CHECK(files[0].added_count == 1'000'000);
    CHECK(*files[0].added_lines.rbegin() == 1'000'000);
  }
  SECTION("hunk numbers beyond the limit are refused") {
    try {
      parse_unified_diff("--- a/f\n+++ b/f\n@@ -99999999999 +1 @@\n", "d");
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK(e.where == "d:3");
    }
  }
}

TEST_CASE("parse_unified_diff: file names outside the repository are refused at their header") {
  const std::pair<const char*, const char*> rows[] = {
      {"diff --git a/../../etc/passwd b/../../etc/passwd\n--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ -1 +1 @@\n-a\n+b\n",
       "the file name \"../../etc/passwd\" has a \"..\" component; a diff names files inside the repository, relative to its top"},
      {"--- a//etc/passwd\n+++ b//etc/passwd\n@@ -1 +1 @@\n-a\n+b\n",
       "the file name \"/etc/passwd\" has an absolute path; a diff names files inside the repository, relative to its top"},
      {"diff --git a/x/./y b/x/./y\n--- a/x/./y\n+++ b/x/./y\n@@ -1 +1 @@\n-a\n+b\n",
       "the file name \"x/./y\" has a \".\" component; a diff names files inside the repository, relative to its top"},
      {"diff --git a/ok.py b/sub/../../up.py\nrename from ok.py\nrename to sub/../../up.py\n",
       "the file name \"sub/../../up.py\" has a \"..\" component; a diff names files inside the repository, relative to its top"},
  };
  for (const auto& [text, message] : rows) {
    INFO(text);
    try {
      parse_unified_diff(text, "pr.diff");
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK(e.where == "pr.diff:1");
      CHECK(e.message == message);
    }
  }
  // A name with dots that is not a component stays fine.
  auto ok = parse_unified_diff("--- a/x..y/.hidden\n+++ b/x..y/.hidden\n@@ -1 +1 @@\n-a\n+b\n", "pr.diff");
  REQUIRE(ok.size() == 1);
  CHECK(ok[0].path == "x..y/.hidden");
}
