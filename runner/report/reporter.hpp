// Reporters: project the neutral `review::dsl::Finding` (dsl/finding.hpp) into one output format.
//
// Reporters never evaluate rules. Every format is one file in runner/report/ behind the one
// `Reporter` interface below; `make_reporter` is the one table that names them. Call order:
// `begin(run)` once, `add(f)` once per finding (any order; `f` stays alive until `finish`
// returns), `finish(run)` once. Streaming formats write in `add`; aggregate formats (json,
// sarif, github, summary, text's closing line) write in `finish`. Output goes to an injected
// `std::ostream` that the caller owns and keeps alive.
//
//   std::ostringstream out;
//   auto r = make_reporter("sarif", out, ReportOptions{});
//   r->begin(run);
//   for (const Finding& f : findings) r->add(f);
//   r->finish(run);                                   // `out` now holds one SARIF log
//
// Formats and their limits are described in docs/output-formats.md.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dsl/finding.hpp"
#include "runner/change/change.hpp"
#include "runner/report/publisher.hpp"

namespace review::report {

/// What a reporter knows about the run besides the findings. Every field may be empty.
struct RunInfo {
  std::string tool_version;                    ///< semantic version, "0.1.0"
  std::string information_uri;                 ///< tool home page (SARIF tool.driver.informationUri)
  std::vector<std::string> rulesets;           ///< names of the rulesets that ran, in load order
  std::string category;                        ///< overrides SARIF automationDetails.id when set
  std::vector<review::dsl::RuleMeta> rules;    ///< every rule of the rulesets (SARIF driver.rules)
  review::change::PrMeta pr;                   ///< number/title/url for the verdict card
  std::string repository_uri;                  ///< "https://github.com/owner/name" (provenance, links)
  std::string head_sha;                        ///< head revision (provenance, links)
  std::vector<std::pair<std::string, std::string>> kinds;  ///< detected PR kinds: (name, label)
  std::vector<std::string> notes;              ///< user-facing notes (tier notes, skipped files)
  std::vector<std::string> diagnostics;        ///< internal problems of the run (not findings)
  /// Why the review is incomplete, one sentence each naming the rule or file: a rule stopped by
  /// its time budget, a file skipped for its size or one the parser gave up on. Non-empty: the
  /// text and card say INCOMPLETE and list them, SARIF sets executionSuccessful false with one
  /// toolExecutionNotification each, and the exit code is 4 unless --allow-incomplete.
  std::vector<std::string> incomplete;
  int exit_code = 0;                           ///< the exit code the runner will return (0-4)
  int cut_by_limits = 0;                       ///< findings dropped before reporting by run limits
  std::string filter;                          ///< "added", "context", "file" or "all"
  /// Files in the change under review; 0: nothing was reviewed (the text report says so beside
  /// its verdict, so an empty comparison is not taken for a pass). -1: not known.
  long changed_files = -1;
  /// The run compared findings with the base (differential review): SARIF results carry
  /// baselineState "new" or "unchanged" (Finding::pre_existing).
  bool differential = false;
};

/// One output format. Implementations are `final` and live one per file in runner/report/.
/// Copying is disabled: a reporter owns buffered state and refers to its stream.
class Reporter {
 public:
  Reporter() = default;
  Reporter(const Reporter&) = delete;
  Reporter& operator=(const Reporter&) = delete;
  virtual ~Reporter();
  /// Called once before any finding.
  virtual void begin(const RunInfo&) {}
  /// Called once per finding, suppressed ones included (formats decide whether to show them).
  /// The caller keeps `finding` alive and unchanged until `finish` returns: aggregate formats
  /// keep its address, not a copy (FindingsView).
  virtual void add(const review::dsl::Finding& finding) = 0;
  /// Called once after the last finding; aggregate formats write everything here.
  virtual void finish(const RunInfo& run) = 0;
};

/// Returns the head text of a repository-relative path, or nullopt when unknown. Used for code
/// frames, inline suppressions and fingerprints when `Finding::snippet` is empty.
using SourceLookup = std::function<std::optional<std::string>(const std::string& path)>;

struct ReportOptions {
  bool color = false;          ///< ANSI colour in `text` (the CLI decides: TTY, NO_COLOR, --color)
  SourceLookup source;         ///< head text for code frames; may be empty
  std::string summary_title;   ///< card heading prefix ("ATOM" → "## ATOM PR #12 — title")
  std::size_t summary_max_bytes = 1024 * 1024;  ///< verdict card cap (GITHUB_STEP_SUMMARY: 1 MiB)
  /// Where `check-run` and `comment` publish (publisher.hpp; runner/github/publisher.hpp makes
  /// the GitHub one); null = those two cannot be made.
  std::shared_ptr<Publisher> publisher;
  /// Receives each warning line a reporter has for the user, without a prefix ("the token cannot
  /// write check runs; …"); empty = warnings are dropped.
  std::function<void(std::string_view)> warn;
};

/// Returns a new reporter for `format` writing to `out`: a stream format ("text", "json",
/// "sarif", "github", "summary", "markdown", "rdjson", "codeclimate") or a GitHub output
/// ("check-run", "comment"; they publish through `options.publisher` and throw
/// std::invalid_argument when it is null). Throws std::invalid_argument("unknown format 'x'
/// (valid: text, json, sarif, github, summary, markdown, rdjson, codeclimate)") for any other name.
std::unique_ptr<Reporter> make_reporter(std::string_view format, std::ostream& out,
                                        const ReportOptions& options);

/// Renders `findings` of `run` in `format` to a string: make_reporter, then begin, add for each
/// finding, finish. Throws what make_reporter or the reporter throws.
std::string render(std::string_view format, const RunInfo& run, FindingsView findings,
                   const ReportOptions& options);

/// Returns the stream formats accepted by `make_reporter` (those --format FMT[=FILE] takes), in
/// documentation order.
const std::vector<std::string>& report_formats();

/// Returns the GitHub outputs accepted by `make_reporter` ("check-run", "comment"): they need
/// ReportOptions::publisher and write to their stream only to fall back.
const std::vector<std::string>& publish_formats();

/// Fans every call out to several reporters and isolates their failures: a reporter that throws
/// is recorded in `errors()` ("sarif: <what>") and `failures()` and skipped from then on; the
/// others go on. `runner review` drives every output (files, standard output, check run, sticky
/// comment) through one FanOut.
class FanOut final : public Reporter {
 public:
  /// One reporter that threw: the name it was added under and the exception's what().
  struct Failure {
    std::string reporter;
    std::string message;
  };
  /// Adds `reporter` under `name` (used in error messages). `reporter` must not be null.
  void add_reporter(std::string name, std::unique_ptr<Reporter> reporter);
  void begin(const RunInfo& run) override;
  void add(const review::dsl::Finding& finding) override;
  void finish(const RunInfo& run) override;
  /// Returns one "name: message" line per reporter that failed, in the order they failed.
  const std::vector<std::string>& errors() const { return errors_; }
  /// The same failures, name and message apart, in the order they failed.
  const std::vector<Failure>& failures() const { return failures_; }

 private:
  struct Slot {
    std::string name;
    std::unique_ptr<Reporter> reporter;
    bool failed = false;
  };
  template <class F>
  void each(F&& call);
  std::vector<Slot> slots_;
  std::vector<std::string> errors_;
  std::vector<Failure> failures_;
};

/// The verdict of RULES.md §4.1 (V-CARD).
enum class Verdict { Lgtm, NeedsWork, Block };

/// Returns Block when an unsuppressed `block` finding exists, NeedsWork when an unsuppressed
/// `warn` finding exists, Lgtm otherwise. Suppressed and pre-existing findings and notes never
/// change it.
/// (G-RED lowering happens in the evaluator, before findings reach reporters.)
Verdict verdict_of(FindingsView findings);

/// "lgtm", "needs-work", "block" (JSON, SARIF properties).
std::string_view verdict_name(Verdict v);
/// "LGTM", "NEEDS WORK", "BLOCK" (text, card).
std::string_view verdict_label(Verdict v);

/// How the text report and the card name a detected kind (RunInfo::kinds: name, label): its
/// label, or its name when the label is empty.
inline const std::string& kind_label(const std::pair<std::string, std::string>& kind) {
  return kind.second.empty() ? kind.first : kind.second;
}

/// Counts of the findings that count (not suppressed, not pre-existing) per severity, of
/// suppressed ones, and of unsuppressed pre-existing ones.
struct Counts {
  int block = 0, warn = 0, note = 0, suppressed = 0, pre_existing = 0;
};
Counts count_findings(FindingsView findings);

}  // namespace review::report
