#include "runner/cli/progress.hpp"

namespace review::cli {

Progress::Progress(std::ostream& out, bool tty, std::size_t files_total, Options opts)
    : out_(out), tty_(tty), files_total_(files_total), opts_(std::move(opts)) {
  if (!opts_.now) opts_.now = [] { return Clock::now(); };
  start_ = last_ = opts_.now();
}

std::string Progress::line() const {
  std::string s = "progress: ";
  if (rule_total_ > 0) s += "rule " + std::to_string(rule_index_ + 1) + "/" + std::to_string(rule_total_) + " (" + rule_ + "), ";
  s += std::to_string(files_);
  if (files_total_ > 0) s += "/" + std::to_string(files_total_);
  s += files_ == 1 && files_total_ == 0 ? " file parsed" : " files parsed";
  auto secs = std::chrono::duration_cast<std::chrono::seconds>(opts_.now() - start_).count();
  s += ", " + std::to_string(secs / 60) + "m" + (secs % 60 < 10 ? "0" : "") + std::to_string(secs % 60) + "s";
  return s;
}

void Progress::maybe_print() {
  auto now = opts_.now();
  if (tty_) {
    if (now - start_ < opts_.quiet_for || (drawn_ && now - last_ < opts_.redraw)) return;
    out_ << "\r\x1b[K" << line() << std::flush;
    drawn_ = true;
  } else {
    if (now - last_ < opts_.every) return;
    out_ << line() << "\n" << std::flush;
  }
  last_ = now;
  printed_any_ = true;
}

void Progress::rule(const std::string& id, std::size_t index, std::size_t total) {
  std::lock_guard lock(mu_);
  rule_ = id;
  rule_index_ = index;
  rule_total_ = total;
  maybe_print();
}

void Progress::file_parsed() {
  std::lock_guard lock(mu_);
  ++files_;
  maybe_print();
}

void Progress::finish() {
  std::lock_guard lock(mu_);
  if (tty_ && drawn_) out_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
}

}  // namespace review::cli
