#include "runner/report/comment.hpp"

#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "runner/report/publisher.hpp"

namespace review::report {
namespace {

class CommentReporter final : public Reporter {
 public:
  explicit CommentReporter(ReportOptions options) : options_(std::move(options)) {}
  void add(const review::dsl::Finding& finding) override { findings_.push_back(&finding); }
  void finish(const RunInfo& run) override {
    try {
      publish(run);
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("the comment output failed: ") + e.what());
    }
  }

 private:
  void publish(const RunInfo& run) {
    if (run.pr.number == 0) {
      if (options_.warn) options_.warn("no pull-request number known; the sticky comment was skipped");
      return;
    }
    ReportOptions card_options = options_;
    card_options.color = false;
    std::string card = render("summary", run, findings_, card_options);
    std::string name = run.rulesets.empty() ? "review" : run.rulesets.front();
    PublishResult r = options_.publisher->comment(name, run.pr.number, card);
    if (!r.warning.empty() && options_.warn) options_.warn(r.warning);
  }

  ReportOptions options_;
  std::vector<const review::dsl::Finding*> findings_;  // the caller's findings (Reporter::add)
};

}  // namespace

std::unique_ptr<Reporter> make_comment_reporter(std::ostream&, const ReportOptions& options) {
  if (!options.publisher) throw std::invalid_argument("the comment output needs a GitHub publisher (a token and a repository)");
  return std::make_unique<CommentReporter>(options);
}

}  // namespace review::report
