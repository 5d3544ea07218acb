#include "runner/github/publisher.hpp"

#include <utility>

#include "runner/github/check_run.hpp"

namespace review::github {
namespace {

class GitHubPublisher final : public report::Publisher {
 public:
  GitHubPublisher(PublisherOptions options, std::unique_ptr<Transport> transport)
      : options_(std::move(options)), client_(options_.client, std::move(transport)) {}

  report::PublishResult check_run(report::FindingsView findings, const std::string& card) override {
    auto r = publish_check_run(client_, options_.repo, options_.head_sha, options_.check_run_name, findings, card, "",
                               options_.fail_on);
    report::PublishResult out;
    if (r.outcome == CheckRunOutcome::NoPermission) {
      out.fall_back = true;
      out.warning = "the token cannot write check runs; falling back to workflow annotations";
    } else if (r.outcome == CheckRunOutcome::Failed && r.check_run_id == 0) {
      // Never created (5xx or no answer after the retries, 422): the findings would not reach
      // the pull request at all, so they go out as workflow annotations, as on a 403.
      out.fall_back = true;
      out.warning = "check run not published (" + r.message + "); falling back to workflow annotations";
    } else if (r.outcome == CheckRunOutcome::Failed) {
      out.warning = "check run not published: " + r.message;
    }
    return out;
  }

  report::PublishResult comment(const std::string& ruleset, long long number, const std::string& card) override {
    auto r = upsert_sticky_comment(client_, options_.repo, number, ruleset, card, options_.sticky);
    report::PublishResult out;
    if (r.outcome == CommentOutcome::NoPermission || r.outcome == CommentOutcome::Failed)
      out.warning = "the verdict comment was not written: " + r.message;
    else
      out.warning = r.warning;
    return out;
  }

 private:
  PublisherOptions options_;
  Client client_;
};

}  // namespace

std::shared_ptr<report::Publisher> make_publisher(PublisherOptions options, std::unique_ptr<Transport> transport) {
  return std::make_shared<GitHubPublisher>(std::move(options), std::move(transport));
}

}  // namespace review::github
