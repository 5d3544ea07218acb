#include "runner/report/filter.hpp"

#include "catch.hpp"
#include "fixture.hpp"

using namespace review::report;
using namespace review::report::testing;

namespace {
review::change::Change sample_change() {
  review::change::Change c;
  review::change::ChangedFile f;
  f.path = "a.py";
  review::change::Hunk h;
  h.new_start = 10;
  h.new_count = 5;  // head lines 10-14
  f.hunks.push_back(h);
  f.added_lines = {11, 12};
  c.files.push_back(f);
  return c;
}

Finding at(std::string file, int line, std::string id = "X1") {
  return make_finding(std::move(id), "T", Severity::Warn, Evidence::Verified, std::move(file), line, 0, "p", "i", "a");
}

std::vector<std::string> where(const std::vector<Finding>& v) {
  std::vector<std::string> out;
  for (const auto& f : v) out.push_back(f.file + ":" + std::to_string(f.line));
  return out;
}
}  // namespace

TEST_CASE("apply_filter modes") {
  auto change = sample_change();
  auto q = diff_query(change);
  std::vector<Finding> all = {at("a.py", 11), at("a.py", 13), at("a.py", 20), at("a.py", 0), at("", 0),
                              at("b.py", 11), at("b.py", 0)};
  using V = std::vector<std::string>;
  CHECK(where(apply_filter(all, FilterMode::Added, q)) == V{"a.py:11", "a.py:0", ":0", "b.py:0"});
  CHECK(where(apply_filter(all, FilterMode::Context, q)) == V{"a.py:11", "a.py:13", "a.py:0", ":0", "b.py:0"});
  CHECK(where(apply_filter(all, FilterMode::File, q)) == V{"a.py:11", "a.py:13", "a.py:20", "a.py:0", ":0"});
  CHECK(apply_filter(all, FilterMode::All, q).size() == all.size());
  CHECK(where(apply_filter(all, FilterMode::Added, DiffQuery{})) == V{"a.py:0", ":0", "b.py:0"});
}

TEST_CASE("filter mode names round-trip") {
  for (const char* n : {"added", "context", "file", "all"}) CHECK(filter_mode_name(*parse_filter_mode(n)) == n);
  CHECK_FALSE(parse_filter_mode("diff_context").has_value());
}

TEST_CASE("sort_and_dedup orders by location and drops duplicates") {
  Finding dup_suppressed = at("a.py", 3);
  dup_suppressed.suppressed = true;
  Finding dup_visible = at("a.py", 3);
  dup_visible.column = 7;  // same rule, file, line and problem: a duplicate
  std::vector<Finding> v = {at("b.py", 1), dup_suppressed, at("", 0), dup_visible, at("a.py", 3, "Y2")};
  auto out = sort_and_dedup(v);
  REQUIRE(where(out) == std::vector<std::string>{":0", "a.py:3", "a.py:3", "b.py:1"});
  CHECK(out[1].rule_id == "X1");
  CHECK_FALSE(out[1].suppressed);
  CHECK(out[2].rule_id == "Y2");
}

TEST_CASE("severity_less puts block before warn before note") {
  Finding n = at("a.py", 1), w = at("z.py", 9), b = at("m.py", 5);
  n.severity = Severity::Note;
  b.severity = Severity::Block;
  std::vector<Finding> v = {n, w, b};
  std::sort(v.begin(), v.end(), severity_less);
  CHECK(where(v) == std::vector<std::string>{"m.py:5", "z.py:9", "a.py:1"});
}

TEST_CASE("apply_filter: Added keeps a finding the change touches although its line is unchanged") {
  auto change = sample_change();
  auto q = diff_query(change);
  Finding touched = at("a.py", 20);
  touched.touches_change = true;
  std::vector<Finding> all = {at("a.py", 20), touched};
  using V = std::vector<std::string>;
  auto kept = apply_filter(all, FilterMode::Added, q);
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].touches_change);
  // Context mode is about hunks only: line 20 is outside every hunk.
  CHECK(where(apply_filter(all, FilterMode::Context, q)) == V{});
}
