#include "runner/report/summary.hpp"

#include "catch.hpp"
#include "fixture.hpp"

using namespace review::report;
using namespace review::report::testing;

TEST_CASE("summary for a clean local run drops the findings section") {
  CHECK(render("summary", {}, RunInfo{}) == "## Review\n\n\xE2\x9C\x85 LGTM\n");
}

TEST_CASE("summary stays under its size cap and counts what it left out") {
  std::vector<Finding> v;
  for (int i = 1; i <= 50; ++i)
    v.push_back(make_finding("R", "T", Severity::Warn, Evidence::Verified, "a.py", i, 0, std::string(100, 'x'), "", ""));
  ReportOptions opt;
  opt.summary_max_bytes = 2000;
  RunInfo run;
  run.cut_by_limits = 3;
  std::string out = render("summary", v, run, opt);
  CHECK(out.size() <= 2000);
  CHECK(out.find("more findings are not shown here (size limit)._\n") != std::string::npos);
  CHECK(out.find("_3 more findings were cut by limits._\n") != std::string::npos);
  CHECK(out.find("</details>\n") != std::string::npos);
}

TEST_CASE("summary with a tiny cap still ends within it") {
  ReportOptions opt;
  opt.summary_max_bytes = 40;
  std::string out = render("summary", testing::fixed_findings(), testing::fixed_run(), opt);
  CHECK(out.size() <= 40);
  opt.summary_max_bytes = 0;
  CHECK(render("summary", testing::fixed_findings(), testing::fixed_run(), opt).empty());
}

TEST_CASE("summary groups concerns by sub-area, lists strengths apart, and markdown is the same card") {
  std::vector<Finding> v;
  auto make = [](const char* id, Severity sev, std::vector<std::string> tags, const char* problem) {
    Finding f;
    f.rule_id = id;
    f.rule_title = id;
    f.severity = sev;
    f.tags = std::move(tags);
    f.problem = problem;
    f.impact = "i";
    f.action = "Author should a";
    f.file = "f.cpp";
    f.line = 1;
    return f;
  };
  v.push_back(make("N1", Severity::Note, {"build"}, "note in build"));
  v.push_back(make("W1", Severity::Warn, {"packaging", "user-visible"}, "warn in packaging"));
  v.push_back(make("W2", Severity::Warn, {}, "untagged warn"));
  v.push_back(make("S1", Severity::Note, {"strength", "ci"}, "a failure path is tested"));
  v.push_back(make("H1", Severity::Note, {"<b>x</b>"}, "hostile tag"));
  RunInfo run;
  std::string out = render("summary", v, run);
  CHECK(out.find("NEEDS WORK \xE2\x80\x94 no blocking concern, 2 warnings, 2 notes, 1 strength.") != std::string::npos);
  // blocking first ("None."), then areas: with warnings first, "other" last; then strengths, then passes
  size_t b = out.find("### Blocking concerns\n\nNone.\n"), n = out.find("### Non-blocking concerns and questions"),
         pk = out.find("#### packaging (1)"), bu = out.find("#### build (1)"), ot = out.find("#### other (1)"),
         st = out.find("### Strengths\n\n- \xE2\x9C\x85 a failure path is tested (f.cpp:1)"),
         dp = out.find("### Recommended deeper passes\n\n- **packaging**: 1 warning\n");
  REQUIRE(b != std::string::npos);
  REQUIRE(n != std::string::npos);
  REQUIRE(pk != std::string::npos);
  REQUIRE(bu != std::string::npos);
  REQUIRE(ot != std::string::npos);
  REQUIRE(st != std::string::npos);
  REQUIRE(dp != std::string::npos);
  CHECK(b < n);
  CHECK(n < pk);
  CHECK(pk < bu);
  CHECK(bu < ot);
  CHECK(ot < st);
  CHECK(st < dp);
  // the strength is not listed as a concern, and a tag is escaped like any other text
  CHECK(out.find("- \xF0\x9F\x93\x9D a failure path") == std::string::npos);
  CHECK(out.find("#### &lt;b&gt;x&lt;/b&gt; (1)") != std::string::npos);
  CHECK(out.find("<b>") == std::string::npos);
  // `markdown` writes the same review report as the step summary
  CHECK(render("markdown", v, run) == out);
  // the text report counts as the card does: the strength apart from the notes
  std::string text = render("text", v, run);
  CHECK(text.find("0 block, 2 warn, 2 note, 1 strength \xE2\x80\x94 NEEDS WORK") != std::string::npos);
  // with the ruleset's rules known, areas follow the order in which its rules first carry the tags
  review::dsl::RuleMeta r1, r2;
  r1.id = "N1";
  r1.tags = {"build"};
  r2.id = "W1";
  r2.tags = {"packaging"};
  run.rules = {r1, r2};
  std::string ordered = render("summary", v, run);
  REQUIRE(ordered.find("#### build (1)") != std::string::npos);
  CHECK(ordered.find("#### build (1)") < ordered.find("#### packaging (1)"));
  CHECK(ordered.find("#### packaging (1)") < ordered.find("#### other (1)"));
}
