#include "runner/report/check_run.hpp"

#include <exception>
#include <ostream>
#include <string>
#include <stdexcept>
#include <utility>
#include <vector>

#include "runner/report/github.hpp"
#include "runner/report/publisher.hpp"
#include "runner/report/summary.hpp"

namespace review::report {
namespace {

class CheckRunReporter final : public Reporter {
 public:
  CheckRunReporter(std::ostream& out, ReportOptions options) : out_(out), options_(std::move(options)) {}
  void add(const review::dsl::Finding& finding) override { findings_.push_back(&finding); }
  void finish(const RunInfo& run) override {
    try {
      publish(run);
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("the check-run output failed: ") + e.what());
    }
  }

 private:
  void publish(const RunInfo& run) {
    ReportOptions card_options = options_;
    card_options.color = false;
    std::string card = render("summary", run, findings_, card_options);
    PublishResult r = options_.publisher->check_run(findings_, card);
    if (!r.warning.empty() && options_.warn) options_.warn(r.warning);
    if (r.fall_back) out_ << render("github", run, findings_, card_options);
  }

  std::ostream& out_;
  ReportOptions options_;
  std::vector<const review::dsl::Finding*> findings_;  // the caller's findings (Reporter::add)
};

}  // namespace

std::unique_ptr<Reporter> make_check_run_reporter(std::ostream& out, const ReportOptions& options) {
  if (!options.publisher) throw std::invalid_argument("the check-run output needs a GitHub publisher (a token and a repository)");
  return std::make_unique<CheckRunReporter>(out, options);
}

}  // namespace review::report
