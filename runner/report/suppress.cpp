#include "runner/report/suppress.hpp"

#include <algorithm>
#include <istream>
#include <map>
#include <optional>
#include <string_view>
#include <ostream>

#include <nlohmann/json.hpp>

#include "dsl/diagnostic.hpp"
#include "runner/report/fingerprint.hpp"

namespace review::report {

using review::dsl::Finding;

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

/// What an ignore comment holds right after its opener and blanks.
constexpr std::string_view kPrefix = "review: ignore[";

/// Tries to parse "review: ignore[...] reason" right after a comment opener at `rest`.
std::optional<IgnoreComment> parse_after_opener(std::string_view rest, bool html) {
  rest = trim(rest);
  if (rest.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  rest.remove_prefix(kPrefix.size());
  std::size_t close = rest.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  IgnoreComment c;
  std::string_view ids = rest.substr(0, close);
  while (!ids.empty()) {
    std::size_t comma = ids.find(',');
    std::string id(trim(ids.substr(0, comma)));
    if (!id.empty() && std::find(c.ids.begin(), c.ids.end(), id) == c.ids.end()) c.ids.push_back(id);
    if (comma == std::string_view::npos) break;
    ids.remove_prefix(comma + 1);
  }
  if (c.ids.empty()) return std::nullopt;
  std::string_view reason = rest.substr(close + 1);
  if (html) {
    std::size_t end = reason.find("-->");
    if (end != std::string_view::npos) reason = reason.substr(0, end);
  }
  c.reason = std::string(trim(reason));
  return c;
}

}  // namespace

std::optional<IgnoreComment> parse_ignore_comment(std::string_view line) {
  // Every ignore comment holds its prefix verbatim (parse_after_opener): most lines are
  // rejected by one search instead of a comment-opener test at each position.
  if (line.find(kPrefix) == std::string_view::npos) return std::nullopt;
  for (std::size_t pos = 0; pos < line.size(); ++pos) {
    std::optional<IgnoreComment> c;
    if (line[pos] == '#') c = parse_after_opener(line.substr(pos + 1), false);
    else if (line.substr(pos, 2) == "//") c = parse_after_opener(line.substr(pos + 2), false);
    else if (line.substr(pos, 4) == "<!--") c = parse_after_opener(line.substr(pos + 4), true);
    if (c) return c;
  }
  return std::nullopt;
}

std::vector<std::string> apply_inline_suppressions(std::vector<Finding>& findings,
                                                   const SourceLookup& source, const InlineOptions& options) {
  std::vector<std::string> warnings;
  if (!source) return warnings;
  std::map<std::string, std::optional<LineIndex>> texts;
  std::map<std::pair<std::string, int>, bool> warned;
  for (Finding& f : findings) {
    if (f.suppressed || f.file.empty() || f.line < 1) continue;
    auto it = texts.find(f.file);
    if (it == texts.end()) {
      auto t = source(f.file);
      it = texts.emplace(f.file, t ? std::optional<LineIndex>(LineIndex(std::move(*t))) : std::nullopt).first;
    }
    if (!it->second) continue;
    for (int line : {f.line, f.line - 1}) {
      if (line < 1) continue;
      std::string text = it->second->line(line);
      // A line whose whole text holds no ignore comment has none in its comments either (they
      // are part of its text): skip it before asking for the comment, which may parse the file.
      if (!parse_ignore_comment(text)) continue;
      // Only comments count: with the language's comment facts, an ignore comment's syntax
      // written inside a string literal is not one.
      std::optional<std::string> comment = options.comment ? options.comment(f.file, line) : std::nullopt;
      if (comment) {
        if (comment->empty()) continue;
        if (line != f.line && text.find_first_not_of(" \t") != text.find(comment->substr(0, 2))) continue;
        text = *comment;
      }
      // The line above counts only when it is a comment on its own: a trailing ignore comment
      // belongs to the code on its own line, not to the next one.
      if (line != f.line && !comment) {
        size_t first = text.find_first_not_of(" \t");
        if (first == std::string::npos ||
            !(text.compare(first, 1, "#") == 0 || text.compare(first, 2, "//") == 0 || text.compare(first, 4, "<!--") == 0))
          continue;
      }
      auto c = parse_ignore_comment(text);
      if (!c || std::find(c->ids.begin(), c->ids.end(), f.rule_id) == c->ids.end()) continue;
      bool added = options.added && options.added(f.file, line);
      if (added && !options.honour_added) {
        if (!warned[{f.file, -line}]) {
          warned[{f.file, -line}] = true;
          warnings.push_back(f.file + ":" + std::to_string(line) +
                             ": ignore comment added by this change was not honoured (inline-suppressions: base-only)");
        }
        break;
      }
      f.suppressed = true;
      f.suppressed_by_change = added;
      f.suppression_kind = "inSource";
      f.suppression_reason = c->reason;
      if (c->reason.empty() && !warned[{f.file, line}]) {
        warned[{f.file, line}] = true;
        warnings.push_back(f.file + ":" + std::to_string(line) +
                           ": ignore comment has no reason; say why the finding does not apply");
      }
      break;
    }
  }
  return warnings;
}

std::set<std::string> read_baseline(std::istream& in, const std::string& name) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {  // parse_error; out_of_range for 1e400
    throw review::change::InputError{name, std::string("not valid JSON: ") + e.what()};
  }
  if (!j.is_array()) throw review::change::InputError{name, "expected a JSON array of fingerprint strings"};
  std::set<std::string> out;
  for (const auto& e : j) {
    if (!e.is_string()) throw review::change::InputError{name, "expected a JSON array of fingerprint strings"};
    out.insert(e.get<std::string>());
  }
  return out;
}

void write_baseline(std::ostream& out, FindingsView findings, const SourceLookup& source) {
  auto prints = fingerprints(findings, source);
  std::set<std::string> keep;
  for (std::size_t i = 0; i < findings.size(); ++i)
    if (!findings[i].suppressed) keep.insert(prints[i]);
  nlohmann::json j = nlohmann::json::array();
  for (const auto& p : keep) j.push_back(p);
  out << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

namespace {

class BaselineReporter final : public Reporter {
 public:
  BaselineReporter(std::ostream& out, SourceLookup source) : out_(out), source_(std::move(source)) {}
  void add(const Finding& finding) override { findings_.push_back(&finding); }
  void finish(const RunInfo&) override { write_baseline(out_, findings_, source_); }

 private:
  std::ostream& out_;
  SourceLookup source_;
  std::vector<const Finding*> findings_;  // the caller's findings (Reporter::add)
};

}  // namespace

std::unique_ptr<Reporter> make_baseline_reporter(std::ostream& out, const ReportOptions& options) {
  return std::make_unique<BaselineReporter>(out, options.source);
}

int apply_baseline(std::vector<Finding>& findings, const std::set<std::string>& baseline,
                   const SourceLookup& source) {
  auto prints = fingerprints(findings, source);
  int n = 0;
  for (std::size_t i = 0; i < findings.size(); ++i) {
    Finding& f = findings[i];
    if (f.suppressed || baseline.count(prints[i]) == 0) continue;
    f.suppressed = true;
    f.suppression_kind = "external";
    f.suppression_reason = "in baseline";
    ++n;
  }
  return n;
}

std::vector<std::string> unknown_ignore_ids(const review::change::Change& change,
                                            const std::vector<std::string>& known_ids,
                                            const InlineOptions& options) {
  std::vector<std::string> out;
  auto added_line = [&](const std::string& path, int line, std::string_view text) {
    // Most lines hold no ignore comment at all: asking for their comments would parse (and
    // keep) the model of every changed file, every file of the tree in an audit.
    if (!parse_ignore_comment(text)) return;
    std::optional<std::string> comment;
    if (options.comment) comment = options.comment(path, line);
    auto c = parse_ignore_comment(comment ? std::string_view(*comment) : text);
    if (!c) return;
    for (const auto& id : c->ids) {
      if (std::find(known_ids.begin(), known_ids.end(), id) != known_ids.end()) continue;
      out.push_back(path + ":" + std::to_string(line) + ": `review: ignore[" + id +
                    "]` names no rule of the loaded rulesets" + review::dsl::did_you_mean(id, known_ids) +
                    " (it suppresses nothing)");
    }
  };
  for (const auto& f : change.files) {
    std::optional<std::string> head;  // read once, for the file's elided hunks
    bool head_read = false;
    for (const auto& h : f.hunks) {
      if (h.elided) {  // a file added whole: its lines are the head text's (Hunk::elided)
        if (!head_read && options.may_hold && !(options.may_hold(f.path, "review") && options.may_hold(f.path, "ignore")))
          break;  // no ignore comment in it: not read
        if (!head_read && change.content) head = change.content->head(f.path);
        head_read = true;
        if (!head) continue;
        std::string_view text(*head);
        int line = 1;
        const int last = h.new_start + h.new_count - 1;
        for (std::size_t at = 0; at < text.size() && line <= last; ++line) {
          std::size_t nl = text.find('\n', at);
          std::string_view l = text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
          at = nl == std::string_view::npos ? text.size() : nl + 1;
          if (!l.empty() && l.back() == '\r') l.remove_suffix(1);  // as the diff parser drops it
          if (line >= h.new_start) added_line(f.path, line, l);
        }
        continue;
      }
      for (const auto& l : h.lines)
        if (l.kind == review::change::LineKind::Added) added_line(f.path, l.new_line, l.text);
    }
  }
  return out;
}

}  // namespace review::report
