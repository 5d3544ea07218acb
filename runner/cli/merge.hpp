// `runner merge`: joins SARIF 2.1.0 files (for example from `--shard I/N` runs of one ruleset)
// into one file. Runs of the same tool and automationDetails.id become one run: rules are
// united by id (first description wins) and every result's ruleIndex is renumbered; a result
// equal to one already merged (rule, fingerprints, locations, message) is kept once; the run's
// `properties.verdict` becomes the worst of the inputs' ("block" > "needs-work" > "lgtm") and
// `properties.pullRequestFindings` the union, whatever order the files are given in.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace review::cli {

/// Merges `inputs` and writes the result to `output` ("" = `out`). Returns 0, or 3 when an input
/// is unreadable or not SARIF (the message names the file and the JSON position).
int merge_sarif_files(const std::vector<std::string>& inputs, const std::string& output, std::ostream& out,
                      std::ostream& err);

}  // namespace review::cli
