// Progress of long runs (audits) on stderr: on a terminal, one line rewritten in place (rule
// i/N and its id, files parsed); elsewhere (CI logs) at most one line per minute. Short runs print
// nothing: the first line comes after `quiet_for` on a terminal and after `every` elsewhere.
//
//   Progress p(std::cerr, isatty(2));
//   p.rule("T-TIER", 3, 80);  p.file_parsed();  ...  p.finish();
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>

namespace review::cli {

struct ProgressOptions {
  std::chrono::milliseconds quiet_for{1000};   ///< terminal: nothing before this much time
  std::chrono::milliseconds redraw{100};       ///< terminal: at most one redraw per this
  std::chrono::milliseconds every{60000};      ///< not a terminal: at most one line per this
  std::function<std::chrono::steady_clock::time_point()> now;  ///< for tests; empty = steady_clock::now
};

class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  using Options = ProgressOptions;

  /// `tty`: whether `out` is a terminal (lines are redrawn with "\r" and cleared at finish).
  /// `files_total`: files the run reviews (0 = unknown; then only the count parsed is shown).
  Progress(std::ostream& out, bool tty, std::size_t files_total = 0, Options opts = {});

  /// Rule `id` (0-based `index` of `total`) starts. Thread-safe.
  void rule(const std::string& id, std::size_t index, std::size_t total);
  /// One more file was parsed. Thread-safe (parser threads call it).
  void file_parsed();
  /// Ends the progress display: clears a terminal line that was drawn. Idempotent.
  void finish();

 private:
  void maybe_print();  // with mu_ held
  std::string line() const;

  std::ostream& out_;
  bool tty_;
  std::size_t files_total_;
  Options opts_;
  std::mutex mu_;
  Clock::time_point start_, last_;
  bool drawn_ = false, printed_any_ = false;
  std::string rule_;
  std::size_t rule_index_ = 0, rule_total_ = 0, files_ = 0;
};

}  // namespace review::cli
