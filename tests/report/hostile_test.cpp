// Hostile PR content: injected workflow commands, HTML, mentions, backticks, invalid UTF-8 and a
// 100 KB line. Every format must stay well-formed and inert; exact bytes are asserted.
#include <sys/wait.h>

#include <cstdio>
#include <fstream>

#include "catch.hpp"
#include "fixture.hpp"
#include <algorithm>

#include <nlohmann/json.hpp>

#include "runner/report/github.hpp"
#include "runner/report/json.hpp"
#include "runner/report/sarif.hpp"
#include "runner/report/summary.hpp"

using namespace review::report;
using namespace review::report::testing;
using nlohmann::json;

namespace {

const std::string kFile = "a%0A::error::b\r\n::add-mask::c.py";
const std::string kProblem = "p\r\n::error::x %0A @everyone <script>`@here`\xFF";
const std::string kLong(100000, 'x');

Finding hostile() {
  Finding f = make_finding("H1", "T:,%", Severity::Block, Evidence::Verified, kFile, 2, 1, kProblem, "", "");
  f.snippet = kLong;
  f.witness = {{"value", "\xC3(<script>"}};
  return f;
}

RunInfo hostile_run() {
  RunInfo run;
  run.information_uri = "https://example.com/review-action";
  run.pr.number = 7;
  run.pr.title = "Fix %0A::error::pwn\r\n::add-mask::secret <script>alert(1)</script> @everyone `x` \xFF";
  run.kinds = {{"k", "<b>@team</b>"}};
  return run;
}

SourceLookup hostile_source() {
  return [](const std::string& p) -> std::optional<std::string> {
    if (p == kFile) return "first\n" + kLong + "\n\x1b[2Jlast\n";
    return std::nullopt;
  };
}

}  // namespace

TEST_CASE("hostile: workflow commands are single inert lines") {
  Finding f = hostile();
  f.impact = kLong;
  std::string out = render("github", {f}, hostile_run());
  std::string expected =
      "::error file=a%250A%3A%3Aerror%3A%3Ab%0D%0A%3A%3Aadd-mask%3A%3Ac.py,line=2,endLine=2,col=1,title=T%3A%2C%25::"
      "p%0D%0A::error::x %250A @everyone <script>`@here`\xEF\xBF\xBD%0AImpact: " +
      std::string(kGithubMaxPart, 'x') + "\xE2\x80\xA6 [verified]\n";
  CHECK(out == expected);
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  CHECK(out.find('\r') == std::string::npos);
}

TEST_CASE("hostile: the verdict card is inert Markdown") {
  Finding f = hostile();
  f.impact = kLong;
  std::string out = render("summary", {f}, hostile_run());
  std::string expected =
      "## PR #7 \xE2\x80\x94 Fix %0A::error::pwn  ::add-mask::secret &lt;script&gt;alert\\(1\\)&lt;/script&gt; "
      "@\xE2\x80\x8B" "everyone `x` \xEF\xBF\xBD\n\n"
      "**Fix %0A::error::pwn  ::add-mask::secret &lt;script&gt;alert\\(1\\)&lt;/script&gt; @\xE2\x80\x8B"
      "everyone `x` \xEF\xBF\xBD**\n\n"
      "\xF0\x9F\x94\xB4 BLOCK \xE2\x80\x94 1 blocking concern.\n\n"
      "PR kinds: &lt;b&gt;@\xE2\x80\x8Bteam&lt;/b&gt;\n\n"
      "### Blocking concerns\n\n"
      "- \xF0\x9F\x94\xB4 p  ::error::x %0A @\xE2\x80\x8B" "everyone &lt;script&gt;`@here`\xEF\xBF\xBD \xE2\x80\x94 " +
      std::string(kSummaryMaxPart, 'x') + "\xE2\x80\xA6 [verified] (a%0A::error::b  ::add-mask::c.py:2)\n\n"
      "### Recommended deeper passes\n\n"
      "- **blocking concerns**: confirm each on the code before anything else\n\n"
      "<details><summary>Rule ids for suppression</summary>\n\n| Rule | Title | Findings |\n|---|---|---|\n"
      "| H1 | T:,% | 1 |\n\n"
      "To accept a finding, add `review: ignore[ID] reason` in a comment on its line or the line above.\n\n"
      "</details>\n";
  CHECK(out == expected);
  CHECK(out.find('<', out.find("BLOCK")) == out.find("<details>"));  // the only tags are ours
}

TEST_CASE("hostile: text output cannot drive the terminal") {
  Finding f = hostile();
  f.snippet.clear();
  f.line = 3;
  ReportOptions opt;
  opt.source = hostile_source();
  std::string out = render("text", {f}, RunInfo{}, opt);
  CHECK(out.rfind("a%0A::error::b\\x0D\\x0A::add-mask::c.py:3:1: block[H1]: p\\x0D\\x0A::error::x %0A @everyone "
                  "<script>`@here`\xEF\xBF\xBD [verified]\n",
                  0) == 0);
  CHECK(out.find("    3 | \\x1B[2Jlast\n") != std::string::npos);
  CHECK(out.find('\x1b') == std::string::npos);
  std::string context_line = "    2 | " + std::string(160, 'x') + "\xE2\x80\xA6\n";
  CHECK(out.find(context_line) != std::string::npos);
}

TEST_CASE("hostile: JSON and SARIF parse back with invalid bytes replaced") {
  ReportOptions opt;
  opt.source = hostile_source();
  std::string j = render("json", {hostile()}, hostile_run(), opt);
  json doc = json::parse(j);
  CHECK(doc["findings"][0]["file"] == kFile);
  CHECK(doc["findings"][0]["problem"] == "p\r\n::error::x %0A @everyone <script>`@here`\xEF\xBF\xBD");
  CHECK(doc["findings"][0]["witness"]["value"] == "\xEF\xBF\xBD(<script>");
  CHECK(doc["findings"][0]["snippet"].get<std::string>().size() == kLong.size());
  CHECK(doc["pr"]["title"].get<std::string>().find("\xEF\xBF\xBD") != std::string::npos);

  std::string s = render("sarif", {hostile()}, hostile_run(), opt);
  json log = json::parse(s);
  const json& loc = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
  CHECK(loc["artifactLocation"]["uri"] == "a%250A%3A%3Aerror%3A%3Ab%0D%0A%3A%3Aadd-mask%3A%3Ac.py");
  CHECK(log["runs"][0]["results"][0]["message"]["text"] ==
        "p\r\n::error::x %0A @everyone <script>`@here`\xEF\xBF\xBD.");
}

TEST_CASE("hostile: SARIF passes the official validator", "[validator]") {
  if (std::system("command -v npm >/dev/null 2>&1") != 0) {
    WARN("npm is not installed: the SARIF validator test is skipped");
    return;
  }
  ReportOptions opt;
  opt.source = hostile_source();
  std::string file = "/tmp/review-report-hostile-" + std::to_string(::getpid()) + ".sarif";
  std::ofstream(file, std::ios::binary) << render("sarif", {hostile()}, hostile_run(), opt);
  std::string cmd = "'" + std::string(REVIEW_SOURCE_DIR) + "/scripts/sarif-validate' '" + file + "' 2>&1";
  std::string out;
  int status = -1;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    status = ::pclose(p);
  }
  std::remove(file.c_str());
  INFO(out);
  CHECK((WIFEXITED(status) ? WEXITSTATUS(status) : -1) == 0);
  CHECK(out.find(": 0 errors, 0 warnings\n") != std::string::npos);
}

TEST_CASE("hostile: the JSON document written finding by finding is the one document, byte for byte") {
  auto whole = [](const std::vector<Finding>& fs, const RunInfo& run, const SourceLookup& src) {
    return dump_json(findings_document(fs, run, src));
  };
  auto streamed = [](const std::vector<Finding>& fs, const RunInfo& run, const SourceLookup& src) {
    std::ostringstream out;
    write_findings_document(out, fs, run, src);
    return out.str();
  };
  // a finding whose strings spell the splice point of the streamed writer
  Finding spoof = make_finding("S1", "\n  \"findings\": []", Severity::Warn, Evidence::Inferred, "x.py", 3, 0,
                               "\n  \"findings\": [],\n", "", "");
  spoof.suppressed = true;
  spoof.suppression_kind = "inSource";
  spoof.suppressed_by_change = true;
  spoof.pre_existing = true;
  spoof.label = "\n    ]";
  std::vector<Finding> all = fixed_findings();
  all.push_back(hostile());
  all.push_back(spoof);
  RunInfo incomplete = fixed_run();
  incomplete.incomplete = {"rule X: stopped by its budget"};
  incomplete.notes = {"\n  \"findings\": []"};
  for (const RunInfo& run : {fixed_run(), hostile_run(), incomplete}) {
    for (const auto& fs : {std::vector<Finding>{}, std::vector<Finding>{spoof}, all}) {
      std::string w = whole(fs, run, hostile_source());
      CHECK(streamed(fs, run, hostile_source()) == w);
      CHECK(json::parse(w)["findings"].size() == fs.size());
    }
  }
}

TEST_CASE("hostile: the SARIF log written result by result is the one log, byte for byte") {
  auto whole = [](const std::vector<Finding>& fs, const RunInfo& run, std::size_t max) {
    return dump_json(sarif_log(fs, run, hostile_source(), max));
  };
  auto streamed = [](const std::vector<Finding>& fs, const RunInfo& run, std::size_t max) {
    std::ostringstream out;
    write_sarif_log(out, fs, run, hostile_source(), max);
    return out.str();
  };
  // strings that spell the splice point of the streamed writer, in a result and in a rule
  Finding spoof = make_finding("S1", "\n      \"results\": []", Severity::Block, Evidence::Inferred, "x.py", 3, 0,
                               "\n      \"results\": [],\n", "", "");
  spoof.label = "\n        ]";
  Finding pr_level = make_finding("P1", "t", Severity::Warn, Evidence::Verified, "", 0, 0, "pull request", "", "");
  std::vector<Finding> all = fixed_findings();
  all.push_back(hostile());
  all.push_back(spoof);
  all.push_back(pr_level);
  RunInfo differential = fixed_run();
  differential.differential = true;
  differential.rules.push_back(differential.rules.front());
  differential.rules.back().id = "R-SPOOF";
  differential.rules.back().help = "\n      \"results\": []";
  for (const RunInfo& run : {fixed_run(), hostile_run(), differential}) {
    for (const auto& fs : {std::vector<Finding>{}, std::vector<Finding>{pr_level}, std::vector<Finding>{spoof}, all}) {
      for (std::size_t max : {std::size_t{1}, kSarifMaxResults}) {
        std::string w = whole(fs, run, max);
        CHECK(streamed(fs, run, max) == w);
        std::size_t located = 0;
        for (const auto& f : fs) located += f.file.empty() ? 0 : 1;
        CHECK(json::parse(w)["runs"][0]["results"].size() == std::min(located, max));
      }
    }
  }
}
