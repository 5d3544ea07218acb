#include "runner/cli/output.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "runner/cli/atomic_file.hpp"
#include "runner/report/escape.hpp"

namespace review::cli {
namespace {

class Output final : public report::Reporter {
 public:
  Output(OutputSpec spec, std::ostream& out, const report::ReportOptions& options, std::vector<std::string> hidden)
      : spec_(std::move(spec)), out_(out), hidden_(std::move(hidden)), sink_(nullptr),
        inner_(report::make_reporter(spec_.format, sink_, options)) {}

  void begin(const report::RunInfo& run) override {
    open();
    // A file that cannot be made fails now, before any output is written, so the others can
    // record the exit code the run will have (3).
    if (!to_stdout() && !file_) throw std::runtime_error(open_error_);
    guard([&] { inner_->begin(shown(run)); });
  }
  void add(const dsl::Finding& finding) override {
    guard([&] { inner_->add(finding); });
  }
  void finish(const report::RunInfo& run) override {
    open();
    guard([&] { inner_->finish(shown(run)); });
    sink_.flush();
    if (to_stdout()) {
      // Workflow commands only where the `github` format means them (runner/cli/guard.hpp).
      // Neutralising works line by line, so the spool is copied out one line at a time.
      bool raw = spec_.format == "github";
      auto emit = [&](std::string_view line) {
        if (raw) out_ << line;
        else out_ << report::neutralise_workflow_commands(line);
      };
      if (!spool_) {
        emit(memory_.str());
      } else {
        std::string e;
        if (!spool_->replay(emit, e))
          throw std::runtime_error("the " + spec_.format + " output failed: its temporary file: " + e);
      }
      // The reason now, before another output's file calls change errno.
      out_.flush();
      if (!out_) throw std::runtime_error(stdout_write_error(errno));
      return;
    }
    if (!file_) throw std::runtime_error(open_error_);
    std::string e;
    if (!file_->commit(e)) throw std::runtime_error(e);
  }

 private:
  bool to_stdout() const { return spec_.path.empty() || spec_.path == "-"; }
  // Points sink_ at where the bytes go, once: a temporary file, never memory. The output's file
  // itself, renamed into place at finish, or for standard output an unnamed spool copied out at
  // finish (an in-memory buffer only when no temporary file can be made).
  void open() {
    if (opened_) return;
    opened_ = true;
    if (to_stdout()) {
      spool_ = Spool::create();
      sink_.rdbuf(spool_ ? spool_->stream().rdbuf() : memory_.rdbuf());
    } else {
      file_ = AtomicFile::create(spec_.path, open_error_);
      if (file_) sink_.rdbuf(file_->stream().rdbuf());
    }
  }
  report::RunInfo shown(const report::RunInfo& run) const {
    report::RunInfo r = run;
    std::erase_if(r.notes, [&](const std::string& n) {
      return std::find(hidden_.begin(), hidden_.end(), n) != hidden_.end();
    });
    return r;
  }
  template <class F>
  void guard(F&& call) {
    try {
      call();
    } catch (const std::exception& e) {
      throw std::runtime_error("the " + spec_.format + " output failed: " + e.what());
    }
  }

  OutputSpec spec_;
  std::ostream& out_;
  std::vector<std::string> hidden_;
  bool opened_ = false;
  std::ostream sink_;                  ///< what the format writes to: the file, the spool or memory_
  std::unique_ptr<AtomicFile> file_;   ///< the output's file (path set)
  std::string open_error_;             ///< why file_ could not be made
  std::unique_ptr<Spool> spool_;       ///< standard output's bytes until finish
  std::ostringstream memory_;          ///< standard output's bytes when no spool could be made
  std::unique_ptr<report::Reporter> inner_;
};

}  // namespace

std::string stdout_write_error(int err) {
  return std::string(kStdoutWriteError) + " (" + std::strerror(err ? err : EIO) +
         "); the review's result is unknown to whoever reads it";
}

std::unique_ptr<report::Reporter> make_output(const OutputSpec& spec, std::ostream& out,
                                              const report::ReportOptions& options,
                                              std::vector<std::string> hidden_notes) {
  return std::make_unique<Output>(spec, out, options, std::move(hidden_notes));
}

}  // namespace review::cli
