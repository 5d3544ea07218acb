// Every format rendered from the one fixed list of findings (fixture.hpp), compared byte for byte
// with tests/fixtures/report/findings.<ext>. Regenerate with UPDATE_GOLDEN=1, never by hand.
#include "catch.hpp"
#include "fixture.hpp"

using namespace review::report;
using namespace review::report::testing;

TEST_CASE("golden output per format") {
  struct Row {
    const char* format;
    const char* golden;
  };
  const Row rows[] = {{"text", "findings.txt"},   {"json", "findings.json"},     {"sarif", "findings.sarif"},
                      {"github", "findings.github"}, {"summary", "findings.md"},
                      {"rdjson", "findings.rdjson"}, {"codeclimate", "findings.codeclimate.json"}};
  ReportOptions opt;
  opt.source = head_source();
  opt.summary_title = "ATOM";
  for (const auto& row : rows) {
    SECTION(row.format) { check_golden(row.golden, render(row.format, fixed_findings(), fixed_run(), opt)); }
  }
}

TEST_CASE("text output in colour") {
  ReportOptions opt;
  opt.source = head_source();
  opt.color = true;
  check_golden("findings.color.txt", render("text", fixed_findings(), fixed_run(), opt));
}
