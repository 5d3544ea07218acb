// A line filter for the runner's own streams in a CI log: every line written through it is
// passed through report::neutralise_workflow_commands, so a file name or message that starts
// with `::` (or holds `##[`) can never become a workflow command in the step log. The `github`
// format's deliberate workflow commands are written around it (run_review writes them raw).
#pragma once

#include <ostream>
#include <streambuf>
#include <string>

#include "runner/report/escape.hpp"

namespace review::cli {

class CommandGuard final : public std::streambuf {
 public:
  /// Filters into `target` (not owned; must outlive this).
  explicit CommandGuard(std::streambuf* target) : target_(target) {}
  ~CommandGuard() override { sync(); }

 protected:
  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    line_ += traits_type::to_char_type(ch);
    if (ch == '\n') return emit() ? ch : traits_type::eof();
    return ch;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    for (std::streamsize i = 0; i < n; ++i)
      if (traits_type::eq_int_type(overflow(traits_type::to_int_type(s[i])), traits_type::eof())) return i;
    return n;
  }
  int sync() override { return emit() && target_->pubsync() == 0 ? 0 : -1; }

 private:
  bool emit() {
    if (line_.empty()) return true;
    std::string safe = report::neutralise_workflow_commands(line_);
    line_.clear();
    return target_->sputn(safe.data(), static_cast<std::streamsize>(safe.size())) ==
           static_cast<std::streamsize>(safe.size());
  }
  std::streambuf* target_;
  std::string line_;
};

}  // namespace review::cli
