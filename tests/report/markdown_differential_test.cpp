// Differential test of the verdict card's escaping against cmark-gfm, the reference implementation
// of GitHub's Markdown (`cmark-gfm --unsafe -e autolink -e table`: raw HTML passed through, as the
// strongest renderer an attacker could hope for). Thousands of generated hostile strings go into
// every place of the card that a pull request controls (title, kinds, file names, messages,
// notes, rule titles); the rendered HTML may contain only the elements the card itself writes,
// only links to the repository, no mention, and the card's structure (one heading, one bullet per
// finding) must survive. Skipped with a message when cmark-gfm is not installed (scripts/setup
// installs it; CI has it).
#include <algorithm>
#include <cstdlib>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "runner/change/process.hpp"
#include "runner/report/reporter.hpp"

using namespace review::report;
using review::dsl::Evidence;
using review::dsl::Finding;
using review::dsl::Severity;

namespace {

const std::vector<std::string> kPieces = {
    "<img src=x onerror=alert(1)>", "<h1>LGTM</h1>", "<details>", "</details>", "<summary>", "<script>", "</p>",
    "<!--", "-->", "<a href=\"https://evil\">", "<", ">", "&lt;img&gt;", "&#60;b&#62;", "&amp;", "www.x.io",
    "WWW.x.io", "http://e.io", "https://e.io/a_b", "ftp://e", "mailto:a@b.io", "xmpp:a@b.io", "a@b.io", "@octocat",
    "@org/team", " @", "`", "``", "```", "`<b>x</b>`", "\\", "\\`", "*", "**", "_", "__", "~", "~~", "[x](http://e)",
    "![i](x)", "[x]: http://e", "|", "||", "\n", "\r\n", "\r", "\n\n- ", "\n# ", "\n> ", "\n```\n", "\n<div>",
    "\n    ", "\t", " ", "::", "##[", "#", "- ", "1. ", "$(id)", "{x}", "(", ")", "x", "LGTM", "\xE2\x80\x8B",
    "\xC2\x85", "\xFF", "\xE2\x80\xAE", ":/", "<https://e.io>", "<a@b.io>", "javascript:alert(1)", "=", "---",
    "<span>", "</span>", "%0A", "\x1b[31m"};

std::string hostile(std::mt19937& rng) {
  std::uniform_int_distribution<std::size_t> pick(0, kPieces.size() - 1), count(1, 7);
  std::string s;
  for (std::size_t n = count(rng); n > 0; --n) s += kPieces[pick(rng)];
  return s;
}

std::string render_gfm(const std::string& markdown) {
  review::change::ProcessOptions o;
  o.input = markdown;
  auto r = review::change::run_process({"cmark-gfm", "--unsafe", "-e", "autolink", "-e", "table"}, o);
  REQUIRE(r.exit_code == 0);
  return r.out;
}

bool have_cmark_gfm() {
  try {
    return review::change::run_process({"cmark-gfm", "--version"}).exit_code == 0;
  } catch (...) {
    return false;
  }
}

}  // namespace

TEST_CASE("the verdict card renders no HTML element, link or mention from pull-request text (cmark-gfm)",
          "[report][security]") {
  if (!have_cmark_gfm()) {
    if (std::getenv("CI")) FAIL("cmark-gfm is not installed (scripts/setup installs it)");
    WARN("skipped: cmark-gfm is not installed (apt-get install cmark-gfm, or scripts/setup)");
    return;
  }
  const std::set<std::string> allowed = {"h2", "h3", "h4", "p",  "strong", "em", "ul", "li", "a",  "code", "details",
                                         "summary", "table", "thead", "tbody", "tr", "th", "td"};
  const std::string repo = "https://github.com/o/r";
  const std::regex tag("<(/?)([A-Za-z][A-Za-z0-9-]*)");
  const std::regex href("<a href=\"([^\"]*)\"");
  std::mt19937 rng(14);
  int strings = 0;
  for (int card = 0; card < 150; ++card) {
    RunInfo run;
    run.pr.number = 7;
    run.pr.title = hostile(rng);
    run.repository_uri = repo;
    run.head_sha = "0123456789abcdef0123456789abcdef01234567";
    run.kinds.emplace_back(hostile(rng), hostile(rng));
    run.notes.push_back(hostile(rng));
    std::vector<Finding> findings;
    const int n = 6;
    for (int i = 0; i < n; ++i) {
      Finding f;
      f.rule_id = hostile(rng);
      f.rule_title = hostile(rng);
      f.severity = i % 2 ? Severity::Warn : Severity::Block;
      f.file = i == 0 ? std::string() : hostile(rng);
      f.line = i;
      f.problem = hostile(rng);
      f.impact = hostile(rng);
      f.action = hostile(rng);
      findings.push_back(f);
    }
    Finding s = findings.back();  // a suppression the change adds is listed in the card too
    s.suppressed = s.suppressed_by_change = true;
    s.suppression_reason = hostile(rng);
    s.file = hostile(rng);
    s.line = 3;
    findings.push_back(s);
    strings += 4 + 7 * n + 4;
    ReportOptions opt;
    opt.summary_title = "ATOM";
    std::string md = render("summary", run, findings, opt);
    std::string html = render_gfm(md);
    INFO("card:\n" << md << "\nhtml:\n" << html);
    int h2 = 0, li = 0, details_open = 0, details_close = 0;
    for (auto it = std::sregex_iterator(html.begin(), html.end(), tag); it != std::sregex_iterator(); ++it) {
      std::string name = (*it)[2];
      std::transform(name.begin(), name.end(), name.begin(), ::tolower);
      INFO("element <" << name << ">");
      CHECK(allowed.count(name) == 1);
      bool close = (*it)[1] == "/";
      if (name == "h2" && !close) ++h2;
      if (name == "li" && !close) ++li;
      if (name == "details") (close ? details_close : details_open)++;
    }
    CHECK(h2 == 1);
    // One bullet per unsuppressed finding, one per note, one for the suppressed-by-change list,
    // one deeper pass ("blocking concerns": the untagged warnings are "other", which has none).
    CHECK(li == n + 1 + 1 + 1);
    CHECK(details_open == details_close);
    for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator(); ++it)
      CHECK(std::string((*it)[1]).rfind(repo + "/blob/", 0) == 0);
    // No mention: an '@' directly followed by a name character, outside tags and code (GitHub
    // makes no mention inside code).
    std::string text = std::regex_replace(html, std::regex("<code>[^<]*</code>"), "");
    text = std::regex_replace(text, std::regex("<[^>]*>"), "");
    CHECK_FALSE(std::regex_search(text, std::regex("@[A-Za-z0-9_-]")));
    CHECK(html.find("BLOCK") != std::string::npos);
  }
  CHECK(strings > 7000);
}
