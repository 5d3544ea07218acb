// `comment`: the verdict card (`summary`) as the sticky comment of the pull request, one per
// ruleset (the first of RunInfo::rulesets, "review" when none), written in `finish` through
// ReportOptions::publisher (publisher.hpp). A run without a pull-request number
// (RunInfo::pr.number == 0) writes nothing and warns "no pull-request number known; the sticky
// comment was skipped". Every warning goes to ReportOptions::warn; the stream is not written.
// Never throws for a GitHub failure.
#pragma once

#include <iosfwd>
#include <memory>

#include "runner/report/reporter.hpp"

namespace review::report {

/// Returns a `comment` reporter that publishes through `options.publisher`. Throws
/// std::invalid_argument when `options.publisher` is null.
std::unique_ptr<Reporter> make_comment_reporter(std::ostream& out, const ReportOptions& options);

}  // namespace review::report
