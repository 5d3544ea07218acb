#include "runner/change/patch.hpp"

#include "catch.hpp"
#include "runner/change/diff_parser.hpp"

using namespace review::change;

namespace {
ChangedFile one(const std::string& diff) { return parse_unified_diff(diff, "d").at(0); }
}  // namespace

TEST_CASE("apply_patch: forward and reverse are inverse on a table of cases") {
  struct Row {
    const char* name;
    std::string base, head, diff;
  };
  const Row rows[] = {
      {"middle edit", "a\nb\nc\nd\n", "a\nB\nc\nd\n",
       "--- a/f\n+++ b/f\n@@ -2 +2 @@\n-b\n+B\n"},
      {"insert at top", "x\ny\n", "new\nx\ny\n", "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+new\n"},
      {"insert after line 2", "x\ny\nz\n", "x\ny\nadd\nz\n",
       "--- a/f\n+++ b/f\n@@ -2,0 +3 @@\n+add\n"},
      {"delete all", "x\ny\n", "", "--- a/f\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n"},
      {"add eof newline", "a\nb", "a\nb\n",
       "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
      {"drop eof newline", "a\nb\n", "a\nb",
       "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n"},
      {"context without eof newline", "a\nb", "A\nb",
       "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n\\ No newline at end of file\n"},
      {"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2x\n3\n4\n5\n6\n7\n8\n9\n",
       "--- a/f\n+++ b/f\n@@ -2 +2 @@\n-2\n+2x\n@@ -8,0 +9 @@\n+9\n"},
      {"CRLF text keeps its CRs", "a\r\nb\r\nc\r\n", "a\r\nB\nc\r\n",
       "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\r\n"},
  };
  for (const Row& r : rows) {
    INFO(r.name);
    ChangedFile f = one(r.diff);
    CHECK(apply_patch(r.base, f, PatchDirection::Forward, "f") == r.head);
    if (std::string(r.name) != "CRLF text keeps its CRs")
      CHECK(apply_patch(r.head, f, PatchDirection::Reverse, "f") == r.base);
  }
}

TEST_CASE("apply_patch: a text that does not match raises with the line") {
  ChangedFile f = one("--- a/f\n+++ b/f\n@@ -2 +2 @@\n-b\n+B\n");
  try {
    apply_patch("a\nzzz\n", f, PatchDirection::Forward, "f.py");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.where == "f.py");
    CHECK(e.message == "line 2: expected \"b\", found \"zzz\"");
  }
  try {
    apply_patch("a\n", f, PatchDirection::Forward, "f.py");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.message == "line 2: expected \"b\", found the end of the text (1 lines)");
  }
  try {
    apply_patch("a\n", one("--- a/f\n+++ b/f\n@@ -5 +5 @@\n-b\n+B\n"), PatchDirection::Forward, "f.py");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.message == "hunk \"@@ -5,1 +5,1 @@\" does not fit: the text has only 1 lines");
  }
  try {
    apply_patch("a\nb\n", f, PatchDirection::Reverse, "f.py");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.message == "line 2: expected \"B\", found \"b\"");
  }
}
