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
