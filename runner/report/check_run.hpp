// `check-run`: the findings as one GitHub check run on the head commit, its summary the verdict
// card (`summary`). Published in `finish` through ReportOptions::publisher (publisher.hpp);
// when nothing reached the pull request (PublishResult::fall_back: the token may not write check
// runs, or the check run was never created) the findings go out as workflow commands (the
// `github` format) on the reporter's stream instead, so they are never lost. Every warning of
// the publisher goes to ReportOptions::warn. Never throws for a GitHub failure.
#pragma once

#include <iosfwd>
#include <memory>

#include "runner/report/reporter.hpp"

namespace review::report {

/// Returns a `check-run` reporter that publishes through `options.publisher` and falls back to
/// workflow commands on `out`. Throws std::invalid_argument when `options.publisher` is null.
std::unique_ptr<Reporter> make_check_run_reporter(std::ostream& out, const ReportOptions& options);

}  // namespace review::report
