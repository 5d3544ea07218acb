#include "runner/cli/output.hpp"

#include <algorithm>
#include <exception>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "runner/report/escape.hpp"

namespace review::cli {
namespace {

class Output final : public report::Reporter {
 public:
  Output(OutputSpec spec, std::ostream& out, const report::ReportOptions& options, std::vector<std::string> hidden)
      : spec_(std::move(spec)), out_(out), hidden_(std::move(hidden)),
        inner_(report::make_reporter(spec_.format, buffer_, options)) {}

  void begin(const report::RunInfo& run) override {
    guard([&] { inner_->begin(shown(run)); });
  }
  void add(const dsl::Finding& finding) override {
    guard([&] { inner_->add(finding); });
  }
  void finish(const report::RunInfo& run) override {
    guard([&] { inner_->finish(shown(run)); });
    if (spec_.path.empty() || spec_.path == "-") {
      // Workflow commands only where the `github` format means them (runner/cli/guard.hpp).
      out_ << (spec_.format == "github" ? buffer_.str() : report::neutralise_workflow_commands(buffer_.str()));
      return;
    }
    std::string e;
    if (!write_file_atomically(spec_.path, buffer_.str(), e)) throw std::runtime_error(e);
  }

 private:
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
  std::ostringstream buffer_;
  std::unique_ptr<report::Reporter> inner_;
};

}  // namespace

std::unique_ptr<report::Reporter> make_output(const OutputSpec& spec, std::ostream& out,
                                              const report::ReportOptions& options,
                                              std::vector<std::string> hidden_notes) {
  return std::make_unique<Output>(spec, out, options, std::move(hidden_notes));
}

}  // namespace review::cli
