// One output of `runner review` (--format FMT[=FILE]) as a reporter, so the CLI drives every
// output, files and GitHub alike, through one report::FanOut.
//
// The format's reporter (report::make_reporter) renders into a temporary file, never into memory
// (atomic_file.hpp): the output's file, renamed into place at `finish`, or for standard output an
// unnamed spool copied out at `finish`, where workflow commands are neutralised unless the format
// is `github` (guard.hpp). A failure is thrown as one sentence that the CLI prints after
// "runner: " and that makes the exit code 3.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runner/cli/review.hpp"
#include "runner/report/reporter.hpp"

namespace review::cli {

/// Returns the message for standard output that could not take the report: "cannot write the
/// report to standard output (REASON); the review's result is unknown to whoever reads it", the
/// reason being strerror(err), or EIO's when `err` is 0.
std::string stdout_write_error(int err);
/// How stdout_write_error's message begins.
inline constexpr std::string_view kStdoutWriteError = "cannot write the report to standard output";

/// Returns a reporter for `spec`: its file when `spec.path` is set and not "-", else `out`.
/// `hidden_notes` are left out of RunInfo::notes for this output (the text on standard output
/// does not repeat the change's notes already printed on stderr). Throws std::invalid_argument
/// for an unknown format (make_reporter's message). Its `finish` throws std::runtime_error with
/// "the FMT output failed: WHAT" when the format fails (nothing is written then), with the
/// write error ("cannot write PATH: …") when the file cannot be written, and with
/// stdout_write_error when standard output cannot take the report. Its `begin` throws the error
/// of a file that cannot be made (its folder is missing, it is a folder or a symbolic link), so
/// a FanOut records that failure before any output is written.
std::unique_ptr<report::Reporter> make_output(const OutputSpec& spec, std::ostream& out,
                                              const report::ReportOptions& options,
                                              std::vector<std::string> hidden_notes = {});

}  // namespace review::cli
