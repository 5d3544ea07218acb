#include "runner/report/reporter.hpp"

#include <sstream>
#include <stdexcept>

#include "catch.hpp"
#include "fixture.hpp"

using namespace review::report;
using namespace review::report::testing;

TEST_CASE("make_reporter knows every format and names them on error") {
  CHECK(report_formats() == std::vector<std::string>{"text", "json", "sarif", "github", "summary", "markdown", "rdjson", "codeclimate", "baseline"});
  std::ostringstream out;
  for (const auto& f : report_formats()) CHECK(make_reporter(f, out, {}) != nullptr);
  try {
    make_reporter("xml", out, {});
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "unknown format 'xml' (valid: text, json, sarif, github, summary, markdown, rdjson, codeclimate, baseline)");
  }
}

namespace {
class Throwing final : public Reporter {
 public:
  explicit Throwing(int* calls) : calls_(calls) {}
  void add(const Finding&) override {
    ++*calls_;
    throw std::runtime_error("disk full");
  }
  void finish(const RunInfo&) override { ++*calls_; }

 private:
  int* calls_;
};
}  // namespace

TEST_CASE("FanOut isolates a failing reporter") {
  std::ostringstream a, b;
  int calls = 0;
  FanOut fan;
  fan.add_reporter("json", make_reporter("json", a, {}));
  fan.add_reporter("broken", std::make_unique<Throwing>(&calls));
  fan.add_reporter("github", make_reporter("github", b, {}));
  auto run = fixed_run();
  fan.begin(run);
  const auto findings = fixed_findings();  // reporters keep their addresses until finish
  for (const auto& f : findings) fan.add(f);
  fan.finish(run);
  CHECK(fan.errors() == std::vector<std::string>{"broken: disk full"});
  CHECK(calls == 1);  // skipped after its first failure
  CHECK(a.str().find("\"schema\": \"review-action/findings@1\"") != std::string::npos);
  CHECK(b.str().rfind("::error file=atom/model.py", 0) == 0);
}

TEST_CASE("verdict ignores suppressed findings and notes") {
  auto f = [](Severity s, bool suppressed) {
    Finding x = make_finding("R", "T", s, Evidence::Verified, "a", 1, 0, "p", "i", "a");
    x.suppressed = suppressed;
    return x;
  };
  struct Row {
    std::vector<Finding> in;
    Verdict v;
  };
  const Row rows[] = {
      {{}, Verdict::Lgtm},
      {{f(Severity::Note, false)}, Verdict::Lgtm},
      {{f(Severity::Block, true), f(Severity::Note, false)}, Verdict::Lgtm},
      {{f(Severity::Block, true), f(Severity::Warn, false)}, Verdict::NeedsWork},
      {{f(Severity::Warn, false), f(Severity::Block, false)}, Verdict::Block},
  };
  for (const auto& r : rows) CHECK(verdict_of(r.in) == r.v);
  CHECK(verdict_name(Verdict::NeedsWork) == "needs-work");
  CHECK(verdict_label(Verdict::NeedsWork) == "NEEDS WORK");
}

TEST_CASE("text closing line per verdict") {
  CHECK(render("text", {}, RunInfo{}) == "0 block, 0 warn, 0 note \xE2\x80\x94 LGTM\n");
  auto w = make_finding("R", "T", Severity::Warn, Evidence::Inferred, "a.py", 0, 0, "p", "", "");
  CHECK(render("text", {w}, RunInfo{}) == "a.py: warn[R]: p [inferred]\n\n0 block, 1 warn, 0 note \xE2\x80\x94 NEEDS WORK\n");
  // an empty change is not a pass: the line says nothing was reviewed and how to compare more
  RunInfo empty;
  empty.changed_files = 0;
  CHECK(render("text", {}, empty) ==
        "0 block, 0 warn, 0 note \xE2\x80\x94 LGTM (nothing reviewed: the change has no files; pick what to compare "
        "with --base REV, or --all for every file)\n");
  RunInfo one;
  one.changed_files = 1;
  CHECK(render("text", {}, one) == "0 block, 0 warn, 0 note \xE2\x80\x94 LGTM\n");
}

TEST_CASE("text code frame from the snippet alone and for long lines") {
  auto f = make_finding("R", "T", Severity::Note, Evidence::Verified, "a.py", 120, 3, "p", "", "");
  f.snippet = "x = 1";
  CHECK(render("text", {f}, RunInfo{}) ==
        "a.py:120:3: note[R]: p [verified]\n"
        "    120 | x = 1\n"
        "        |   ^\n"
        "\n0 block, 0 warn, 1 note \xE2\x80\x94 LGTM\n");
  f.snippet = std::string(300, 'a') + "XYZ" + std::string(300, 'b');
  f.line = 1;
  f.column = 301;
  std::string out = render("text", {f}, RunInfo{});
  std::string shown = "\xE2\x80\xA6" + std::string(80, 'a') + "XYZ" + std::string(77, 'b') + "\xE2\x80\xA6";
  CHECK(out.find("    1 | " + shown + "\n      |  " + std::string(80, ' ') + "^\n") != std::string::npos);
}
