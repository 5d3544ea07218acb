// report::Publisher over the GitHub REST API: the check run (check_run.hpp) and the sticky
// comment (comment.hpp) of one run, through one Client (one run budget for both). It turns their
// outcomes into the lines the user reads:
//   check run refused (403/404)       "the token cannot write check runs; falling back to workflow annotations" (fall_back)
//   check run never created (5xx, 422) "check run not published (<failure>); falling back to workflow annotations" (fall_back)
//   a later annotation batch failed   "check run not published: <failure>"
//   comment refused or failed          "the verdict comment was not written: <failure>"
//   comment written with a doubt       CommentResult::warning
//
//   github::PublisherOptions po;  po.client.token = token;  po.repo = "o/r";  po.head_sha = sha;
//   options.publisher = github::make_publisher(std::move(po));   // then make_reporter("check-run", …)
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "dsl/finding.hpp"
#include "runner/github/client.hpp"
#include "runner/github/comment.hpp"
#include "runner/report/publisher.hpp"

namespace review::github {

struct PublisherOptions {
  ClientOptions client;                            ///< API URL, token, budgets, log
  std::string repo;                                ///< "owner/name"
  std::string head_sha;                            ///< the commit the check run is on
  std::string check_run_name = "review";           ///< the check run's name (--check-run)
  std::optional<review::dsl::Severity> fail_on;    ///< check_run_conclusion()'s threshold
  StickyOptions sticky;                            ///< the comment's scope, owner, GraphQL URL
};

/// Returns a publisher for `options`; `transport` replaces libcurl (tests). Does not contact the
/// network until a reporter publishes. Never throws apart from std::bad_alloc.
std::shared_ptr<report::Publisher> make_publisher(PublisherOptions options,
                                                  std::unique_ptr<Transport> transport = nullptr);

}  // namespace review::github
