#include "runner/report/reporter.hpp"

#include <sstream>

#include <exception>
#include <stdexcept>

#include "runner/report/check_run.hpp"
#include "runner/report/codeclimate.hpp"
#include "runner/report/comment.hpp"
#include "runner/report/github.hpp"
#include "runner/report/json.hpp"
#include "runner/report/rdjson.hpp"
#include "runner/report/sarif.hpp"
#include "runner/report/summary.hpp"
#include "runner/report/suppress.hpp"
#include "runner/report/text.hpp"

namespace review::report {

using review::dsl::Finding;
using review::dsl::Severity;

Reporter::~Reporter() = default;
Publisher::~Publisher() = default;

namespace {

using Factory = std::unique_ptr<Reporter> (*)(std::ostream&, const ReportOptions&);

// Where a reporter's output goes: a stream (a file or standard output), or GitHub through
// ReportOptions::publisher.
enum class Destination { Stream, GitHub };

struct FormatRow {
  const char* name;
  Factory make;
  Destination destination;
};

// The one table of reporters. Adding one = one file + one row.
constexpr FormatRow kFormats[] = {
    {"text", &make_text_reporter, Destination::Stream},
    {"json", &make_json_reporter, Destination::Stream},
    {"sarif", &make_sarif_reporter, Destination::Stream},
    {"github", &make_github_reporter, Destination::Stream},  // workflow commands (annotations)
    {"summary", &make_summary_reporter, Destination::Stream},
    {"markdown", &make_summary_reporter, Destination::Stream},  // the same review report, meant for a file next to the RFC
    {"rdjson", &make_rdjson_reporter, Destination::Stream},
    {"codeclimate", &make_codeclimate_reporter, Destination::Stream},
    {"baseline", &make_baseline_reporter, Destination::Stream},  // fingerprints for a later --baseline
    {"check-run", &make_check_run_reporter, Destination::GitHub},
    {"comment", &make_comment_reporter, Destination::GitHub},
};

std::vector<std::string> names_of(Destination d) {
  std::vector<std::string> v;
  for (const auto& row : kFormats)
    if (row.destination == d) v.emplace_back(row.name);
  return v;
}

}  // namespace

const std::vector<std::string>& report_formats() {
  static const std::vector<std::string> names = names_of(Destination::Stream);
  return names;
}

const std::vector<std::string>& publish_formats() {
  static const std::vector<std::string> names = names_of(Destination::GitHub);
  return names;
}

std::unique_ptr<Reporter> make_reporter(std::string_view format, std::ostream& out,
                                        const ReportOptions& options) {
  for (const auto& row : kFormats)
    if (format == row.name) return row.make(out, options);
  std::string valid;
  for (const auto& n : report_formats()) valid += (valid.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown format '" + std::string(format) + "' (valid: " + valid + ")");
}

std::string render(std::string_view format, const RunInfo& run, FindingsView findings,
                   const ReportOptions& options) {
  std::ostringstream out;
  auto rep = make_reporter(format, out, options);
  rep->begin(run);
  for (const auto& f : findings) rep->add(f);
  rep->finish(run);
  return out.str();
}

void FanOut::add_reporter(std::string name, std::unique_ptr<Reporter> reporter) {
  slots_.push_back(Slot{std::move(name), std::move(reporter), false});
}

template <class F>
void FanOut::each(F&& call) {
  for (Slot& s : slots_) {
    if (s.failed) continue;
    try {
      call(*s.reporter);
    } catch (const std::exception& e) {
      s.failed = true;
      errors_.push_back(s.name + ": " + e.what());
      failures_.push_back({s.name, e.what()});
    } catch (...) {
      s.failed = true;
      errors_.push_back(s.name + ": unknown error");
      failures_.push_back({s.name, "unknown error"});
    }
  }
}

void FanOut::begin(const RunInfo& run) {
  each([&](Reporter& r) { r.begin(run); });
}
void FanOut::add(const Finding& finding) {
  each([&](Reporter& r) { r.add(finding); });
}
void FanOut::finish(const RunInfo& run) {
  each([&](Reporter& r) { r.finish(run); });
}

Verdict verdict_of(FindingsView findings) {
  Verdict v = Verdict::Lgtm;
  for (const Finding& f : findings) {
    if (f.suppressed || f.pre_existing) continue;
    if (f.severity == Severity::Block) return Verdict::Block;
    if (f.severity == Severity::Warn) v = Verdict::NeedsWork;
  }
  return v;
}

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Block: return "block";
    case Verdict::NeedsWork: return "needs-work";
    case Verdict::Lgtm: return "lgtm";
  }
  return "lgtm";
}

std::string_view verdict_label(Verdict v) {
  switch (v) {
    case Verdict::Block: return "BLOCK";
    case Verdict::NeedsWork: return "NEEDS WORK";
    case Verdict::Lgtm: return "LGTM";
  }
  return "LGTM";
}

Counts count_findings(FindingsView findings) {
  Counts c;
  for (const Finding& f : findings) {
    if (f.suppressed) ++c.suppressed;
    else if (f.pre_existing) ++c.pre_existing;
    else if (f.severity == Severity::Block) ++c.block;
    else if (f.severity == Severity::Warn) ++c.warn;
    else ++c.note;
  }
  return c;
}

}  // namespace review::report
