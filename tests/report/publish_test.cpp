// The check run and the sticky comment are reporters of the one table (make_reporter), driven
// through FanOut like the file formats: a recorder stands in for GitHub.
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "catch.hpp"
#include "fixture.hpp"
#include "runner/report/publisher.hpp"
#include "runner/report/reporter.hpp"

using namespace review::report;
using namespace review::report::testing;

namespace {

class Recorder final : public Publisher {
 public:
  PublishResult check_run_answer, comment_answer;
  std::vector<std::string> calls;
  std::size_t findings_seen = 0;
  std::string card;
  PublishResult check_run(FindingsView findings, const std::string& c) override {
    calls.push_back("check-run");
    findings_seen = findings.size();
    card = c;
    return check_run_answer;
  }
  PublishResult comment(const std::string& ruleset, long long number, const std::string& c) override {
    calls.push_back("comment " + ruleset + " #" + std::to_string(number));
    card = c;
    return comment_answer;
  }
};

class FailsAtFinish final : public Reporter {
 public:
  void add(const Finding&) override {}
  void finish(const RunInfo&) override { throw std::runtime_error("cannot write out.sarif: disk full"); }
};

}  // namespace

TEST_CASE("the check run and the comment are reporters of the table; one failing reporter stops neither") {
  auto rec = std::make_shared<Recorder>();
  std::vector<std::string> warnings;
  ReportOptions o;
  o.publisher = rec;
  o.warn = [&warnings](std::string_view w) { warnings.emplace_back(w); };
  std::ostringstream stdout_, json;
  FanOut fan;
  fan.add_reporter("sarif", std::make_unique<FailsAtFinish>());
  fan.add_reporter("check-run", make_reporter("check-run", stdout_, o));
  fan.add_reporter("comment", make_reporter("comment", stdout_, o));
  fan.add_reporter("json", make_reporter("json", json, o));
  RunInfo run = fixed_run();
  run.pr.number = 12;
  run.rulesets = {"atom"};
  auto findings = fixed_findings();
  fan.begin(run);
  for (const auto& f : findings) fan.add(f);
  fan.finish(run);
  CHECK(fan.errors() == std::vector<std::string>{"sarif: cannot write out.sarif: disk full"});
  CHECK(rec->calls == std::vector<std::string>{"check-run", "comment atom #12"});
  CHECK(rec->findings_seen == findings.size());
  CHECK(rec->card == render("summary", run, findings, o));       // the verdict card, the same for both
  CHECK(json.str().find("\"verdict\"") != std::string::npos);    // the output after them still written
  CHECK(stdout_.str().empty());                                  // published: no workflow commands
  CHECK(warnings.empty());
}

TEST_CASE("a check run that reached nobody falls back to workflow commands and says so once") {
  auto rec = std::make_shared<Recorder>();
  rec->check_run_answer = {true, "the token cannot write check runs; falling back to workflow annotations"};
  std::vector<std::string> warnings;
  ReportOptions o;
  o.publisher = rec;
  o.warn = [&warnings](std::string_view w) { warnings.emplace_back(w); };
  std::ostringstream out;
  auto r = make_reporter("check-run", out, o);
  RunInfo run = fixed_run();
  auto findings = fixed_findings();
  r->begin(run);
  for (const auto& f : findings) r->add(f);
  r->finish(run);
  CHECK(out.str() == render("github", run, findings, o));
  CHECK(warnings == std::vector<std::string>{"the token cannot write check runs; falling back to workflow annotations"});
}

TEST_CASE("the comment needs a pull-request number; a failed one warns and never throws") {
  auto rec = std::make_shared<Recorder>();
  rec->comment_answer = {false, "the verdict comment was not written: HTTP 500"};
  std::vector<std::string> warnings;
  ReportOptions o;
  o.publisher = rec;
  o.warn = [&warnings](std::string_view w) { warnings.emplace_back(w); };
  std::ostringstream out;
  RunInfo run = fixed_run();
  run.pr.number = 0;
  CHECK(render("comment", run, fixed_findings(), o).empty());
  CHECK(rec->calls.empty());
  run.pr.number = 3;
  run.rulesets.clear();
  CHECK(render("comment", run, fixed_findings(), o).empty());
  CHECK(rec->calls == std::vector<std::string>{"comment review #3"});
  CHECK(warnings == std::vector<std::string>{"no pull-request number known; the sticky comment was skipped",
                                             "the verdict comment was not written: HTTP 500"});
}

TEST_CASE("the GitHub outputs are not file formats and need a publisher") {
  for (const auto& f : report_formats()) {
    CHECK(f != "check-run");
    CHECK(f != "comment");
  }
  CHECK(publish_formats() == std::vector<std::string>{"check-run", "comment"});
  std::ostringstream out;
  CHECK_THROWS_AS(make_reporter("check-run", out, {}), std::invalid_argument);
  CHECK_THROWS_AS(make_reporter("comment", out, {}), std::invalid_argument);
}
