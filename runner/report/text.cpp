#include "runner/report/text.hpp"

#include <map>
#include <optional>
#include <ostream>

#include "runner/report/escape.hpp"
#include "runner/report/fingerprint.hpp"
#include "runner/report/summary.hpp"

namespace review::report {

using review::dsl::Finding;
using review::dsl::Severity;

namespace {

constexpr std::size_t kFrameWidth = 160;  ///< bytes of a code line shown around the column

class TextReporter final : public Reporter {
 public:
  TextReporter(std::ostream& out, ReportOptions options) : out_(out), opt_(std::move(options)) {}

  void add(const Finding& f) override {
    if (f.suppressed) {
      ++counts_.suppressed;
      return;
    }
    if (f.pre_existing) {  // also on the base: counted, not shown (the card lists them)
      ++counts_.pre_existing;
      return;
    }
    if (is_strength(f)) ++strengths_;  // as the card counts them: apart from the notes
    else if (f.severity == Severity::Block) ++counts_.block;
    else if (f.severity == Severity::Warn) ++counts_.warn;
    else ++counts_.note;

    std::string where = f.file.empty() ? "(pull request)" : terminal_safe(f.file);
    if (!f.file.empty() && f.line > 0) {
      where += ":" + std::to_string(f.line);
      if (f.column > 0) where += ":" + std::to_string(f.column);
    }
    out_ << paint("1", where + ":") << ' ' << paint(sev_colour(f.severity), std::string(severity_name(f.severity)))
         << '[' << terminal_safe(f.rule_id) << "]: " << terminal_safe(f.problem) << " ["
         << evidence_name(f.evidence) << "]\n";
    if (!f.impact.empty()) out_ << "    impact: " << terminal_safe(f.impact) << '\n';
    if (!f.action.empty()) out_ << "    action: " << terminal_safe(f.action) << '\n';
    frame(f);
  }

  void finish(const RunInfo& run) override {
    Verdict v = counts_.block ? Verdict::Block : counts_.warn ? Verdict::NeedsWork : Verdict::Lgtm;
    std::string line = std::to_string(counts_.block) + " block, " + std::to_string(counts_.warn) +
                       " warn, " + std::to_string(counts_.note) + " note";
    if (strengths_) line += ", " + std::to_string(strengths_) + (strengths_ == 1 ? " strength" : " strengths");
    if (counts_.suppressed) line += ", " + std::to_string(counts_.suppressed) + " suppressed";
    if (counts_.pre_existing) line += ", " + std::to_string(counts_.pre_existing) + " pre-existing";
    if (counts_.block || counts_.warn || counts_.note || strengths_) out_ << '\n';
    for (const auto& n : run.notes) out_ << paint("1;36", "note") << ": " << terminal_safe(n) << '\n';
    for (const auto& g : run.incomplete) out_ << paint("1;31", "incomplete") << ": " << terminal_safe(g) << '\n';
    if (!run.kinds.empty()) {  // the change's kinds, as the verdict card lists them
      std::string kinds;
      for (const auto& k : run.kinds) kinds.append(kinds.empty() ? "" : ", ").append(kind_label(k));
      out_ << paint("1;36", "kinds") << ": " << terminal_safe(kinds) << '\n';
    }
    out_ << line << " \xE2\x80\x94 "
         << paint(v == Verdict::Block ? "1;31" : v == Verdict::NeedsWork ? "1;33" : "1;32",
                  std::string(verdict_label(v)));
    if (run.changed_files == 0)
      out_ << " (nothing reviewed: the change has no files; pick what to compare with --base REV, or --all "
              "for every file)";
    if (!run.incomplete.empty())
      out_ << paint("1;31", " (INCOMPLETE: " + std::to_string(run.incomplete.size()) +
                                (run.incomplete.size() == 1 ? " rule or file" : " rules or files") + " not reviewed)");
    out_ << '\n';
  }

 private:
  static const char* sev_colour(Severity s) {
    return s == Severity::Block ? "1;31" : s == Severity::Warn ? "1;33" : "1;36";
  }

  std::string paint(const char* sgr, const std::string& s) const {
    if (!opt_.color) return s;
    return std::string("\x1b[") + sgr + "m" + s + "\x1b[0m";
  }

  const std::optional<LineIndex>& text_of(const std::string& path) {
    auto it = sources_.find(path);
    if (it == sources_.end()) {
      auto t = opt_.source ? opt_.source(path) : std::nullopt;
      it = sources_.emplace(path, t ? std::optional<LineIndex>(LineIndex(std::move(*t))) : std::nullopt).first;
    }
    return it->second;
  }

  void frame(const Finding& f) {
    if (f.file.empty() || f.line < 1) return;
    const auto& text = text_of(f.file);
    std::string main = text ? text->line(f.line) : f.snippet;
    if (main.empty() && !text && f.snippet.empty()) return;
    if (text && main.empty() && !f.snippet.empty()) main = f.snippet;

    // Window of kFrameWidth bytes around the column (0-based byte offset `col`).
    std::size_t col = f.column > 0 ? static_cast<std::size_t>(f.column - 1) : main.find_first_not_of(" \t");
    if (col == std::string::npos || col > main.size()) col = 0;
    std::size_t start = 0;
    if (main.size() > kFrameWidth && col > kFrameWidth / 2) start = col - kFrameWidth / 2;
    while (start > 0 && start < main.size() && (static_cast<unsigned char>(main[start]) & 0xC0) == 0x80) --start;

    int width = static_cast<int>(std::to_string(f.line + 1).size());
    auto gutter = [&](int n) {
      std::string g = n > 0 ? std::to_string(n) : "";
      return std::string(4 + width - g.size(), ' ') + g + " | ";
    };
    auto show = [&](const std::string& l, std::size_t from) {
      std::string body = (from > 0 ? "\xE2\x80\xA6" : "") + truncate_utf8(std::string_view(l).substr(std::min(from, l.size())), kFrameWidth);
      return terminal_safe(body);
    };
    if (text && f.line > 1) out_ << gutter(f.line - 1) << show(text->line(f.line - 1), 0) << '\n';
    out_ << gutter(f.line) << show(main, start) << '\n';
    // Caret: the shown prefix with every character blanked (tabs kept so alignment holds).
    std::string prefix = (start > 0 ? std::string(" ") : std::string());
    std::string_view before = std::string_view(main).substr(start, col - start);
    for (std::size_t i = 0; i < before.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(before[i]);
      if ((c & 0xC0) == 0x80) continue;
      prefix += c == '\t' ? '\t' : ' ';
    }
    out_ << gutter(0) << prefix << paint("1;32", "^") << '\n';
    if (text) {
      // Only print the next line when the file has one.
      if (static_cast<std::size_t>(f.line) < text->count()) out_ << gutter(f.line + 1) << show(text->line(f.line + 1), 0) << '\n';
    }
  }

  std::ostream& out_;
  ReportOptions opt_;
  Counts counts_;
  int strengths_ = 0;  // findings of rules tagged kStrengthTag, not in counts_
  std::map<std::string, std::optional<LineIndex>> sources_;
};

}  // namespace

std::unique_ptr<Reporter> make_text_reporter(std::ostream& out, const ReportOptions& options) {
  return std::make_unique<TextReporter>(out, options);
}

}  // namespace review::report
