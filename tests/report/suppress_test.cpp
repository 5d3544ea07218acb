#include "runner/report/suppress.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "catch.hpp"
#include "fixture.hpp"
#include "runner/change/memory.hpp"
#include "runner/report/fingerprint.hpp"

using namespace review::report;
using namespace review::report::testing;

TEST_CASE("parse_ignore_comment forms") {
  struct Row {
    const char* line;
    std::vector<std::string> ids;
    const char* reason;
  };
  const Row rows[] = {
      {"x = f()  # review: ignore[D1b] zeroed by the caller", {"D1b"}, "zeroed by the caller"},
      {"int a;  // review: ignore[B5a, B5b,B5a] ABI", {"B5a", "B5b"}, "ABI"},
      {"<!-- review: ignore[P1] numbers in #12 -->", {"P1"}, "numbers in #12"},
      {"#review: ignore[D2]", {"D2"}, ""},
      {"s = '#'  # review: ignore[C1]   \r", {"C1"}, ""},
  };
  for (const auto& r : rows) {
    INFO(r.line);
    auto c = parse_ignore_comment(r.line);
    REQUIRE(c.has_value());
    CHECK(c->ids == r.ids);
    CHECK(c->reason == r.reason);
  }
  for (const char* none : {"x = 1", "# review: ignore[] why", "# review: ignore[D1b why", "review: ignore[D1b] x",
                           "# review ignore[D1b] x"}) {
    INFO(none);
    CHECK_FALSE(parse_ignore_comment(none).has_value());
  }
}

TEST_CASE("inline suppressions on the line or the line above") {
  std::map<std::string, std::string> files = {
      {"a.py", "x = 1  # review: ignore[R1] fine here\n"
               "# review: ignore[R2,R3]\n"
               "y = 2\n"
               "z = 3\n"}};
  SourceLookup src = [&](const std::string& p) -> std::optional<std::string> {
    auto it = files.find(p);
    return it == files.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  auto f = [](std::string id, std::string file, int line) {
    return make_finding(std::move(id), "T", Severity::Block, Evidence::Verified, std::move(file), line, 0, "p", "i", "a");
  };
  std::vector<Finding> v = {f("R1", "a.py", 1), f("R1", "a.py", 2), f("R2", "a.py", 3), f("R3", "a.py", 3),
                            f("R2", "a.py", 4), f("R2", "b.py", 1), f("R2", "", 0)};
  auto warnings = apply_inline_suppressions(v, src);
  std::vector<bool> got;
  for (const auto& x : v) got.push_back(x.suppressed);
  // R1 on line 2 stays: the ignore comment on line 1 trails code, so it covers line 1 only.
  CHECK(got == std::vector<bool>{true, false, true, true, false, false, false});
  CHECK(v[0].suppression_kind == "inSource");
  CHECK(v[0].suppression_reason == "fine here");
  CHECK(warnings == std::vector<std::string>{"a.py:2: ignore comment has no reason; say why the finding does not apply"});
  CHECK(verdict_of(v) == Verdict::Block);  // the two unsuppressed ones still count
}

TEST_CASE("baseline round trip suppresses as external") {
  auto findings = fixed_findings();
  std::ostringstream out;
  write_baseline(out, findings);
  std::istringstream in(out.str());
  auto base = read_baseline(in, "base.json");
  CHECK(base.size() == 4);  // the suppressed finding is not written
  auto again = fixed_findings();
  CHECK(apply_baseline(again, base) == 4);
  for (const auto& f : again) {
    CHECK(f.suppressed);
    if (f.rule_id != "D9") CHECK(f.suppression_kind == "external");
  }
  CHECK(verdict_of(again) == Verdict::Lgtm);
}

TEST_CASE("read_baseline errors") {
  auto err = [](const std::string& text) {
    std::istringstream in(text);
    try {
      read_baseline(in, "b.json");
    } catch (const review::change::InputError& e) {
      return e.where + ": " + e.message;
    }
    return std::string("no error");
  };
  CHECK(err("{\"a\":1}") == "b.json: expected a JSON array of fingerprint strings");
  CHECK(err("[1]") == "b.json: expected a JSON array of fingerprint strings");
  CHECK(err("[").rfind("b.json: not valid JSON: ", 0) == 0);
  CHECK(err("[1e400]").rfind("b.json: not valid JSON: ", 0) == 0);  // out_of_range, not parse_error
}

TEST_CASE("unknown_ignore_ids: a file added whole is read unless it cannot hold an ignore comment") {
  // Counts the head texts asked (an audit reads every file of the tree for this).
  struct Counting final : review::change::MemoryContent {
    std::map<std::string, int> reads;
    std::optional<std::string> head(const std::string& path) override {
      ++reads[path];
      return MemoryContent::head(path);
    }
  };
  auto content = std::make_shared<Counting>();
  content->head_texts_ = {{"a.py", "x = 1\ny = 2  # review: ignore[NOPE] reason\n"}, {"b.py", "z = 3\n"}};
  review::change::Change change;
  for (const char* path : {"a.py", "b.py"}) {
    review::change::ChangedFile f;
    f.path = path;
    f.status = review::change::FileStatus::Added;
    review::change::Hunk h;
    h.new_start = 1;
    h.new_count = path == std::string("a.py") ? 2 : 1;
    h.elided = true;
    f.hunks.push_back(h);
    change.files.push_back(f);
  }
  change.content = content;
  const std::vector<std::string> nope{"a.py:2: `review: ignore[NOPE]` names no rule of the loaded rulesets (it suppresses nothing)"};
  CHECK(unknown_ignore_ids(change, {"R1"}) == nope);
  CHECK(content->reads == std::map<std::string, int>{{"a.py", 1}, {"b.py", 1}});
  // a file that cannot hold one of the two words is not read; one that may is read as before
  InlineOptions o;
  std::vector<std::pair<std::string, std::string>> asked;
  o.may_hold = [&](const std::string& path, std::string_view word) {
    asked.emplace_back(path, std::string(word));
    return path == "a.py";
  };
  content->reads.clear();
  CHECK(unknown_ignore_ids(change, {"R1"}, o) == nope);
  CHECK(content->reads == std::map<std::string, int>{{"a.py", 1}});
  CHECK(std::count(asked.begin(), asked.end(), std::make_pair(std::string("b.py"), std::string("review"))) == 1);
  // a wrong answer is trusted: the comment is then missed (the words are what an ignore comment holds)
  o.may_hold = [](const std::string&, std::string_view word) { return word != "ignore"; };
  CHECK(unknown_ignore_ids(change, {"R1"}, o).empty());
}
