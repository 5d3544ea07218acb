// The one neutral result type between rule evaluation and every output format.
//
// The evaluator produces `Finding`s; reporters (runner/report/) only project them into text,
// JSON, SARIF, workflow commands or a verdict card. `RuleMeta` carries what a reporter needs to
// describe a rule (SARIF tool.driver.rules, `runner explain`) without seeing the rule's AST.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace review::dsl {

/// Severity as written in rules. SARIF level: block→error, warn→warning, note→note.
enum class Severity { Note = 0, Warn = 1, Block = 2 };
/// "verified": the evidence chain was followed on real code; "inferred": plausible, unconfirmed.
enum class Evidence { Verified, Inferred };

std::string_view severity_name(Severity s);   ///< "block", "warn", "note"
/// The severity a checked rule's `severity` word names: "block", "note", else (the default, "warn"
/// or no word) Warn. Never throws; the checker rejects other words before a rule gets here.
Severity severity_of(std::string_view word);
std::string_view evidence_name(Evidence e);   ///< "verified", "inferred"

/// A rule's `example` block.
struct RuleExample {
  bool bad = true;          ///< bad (must fire) or good (must not fire)
  bool todo = false;        ///< todo-bad / todo-good: a known gap, reported but never failing
  std::string language;     ///< "python", "cpp", "cmake", "markdown", "text", or "diff"
  std::string code;         ///< dedented snippet
  int line = 0;             ///< line of the example in the .rules file
};

/// What reporters know of a rule.
struct RuleMeta {
  std::string id;               ///< as written after `rule`, e.g. "HK1a"
  std::string title;            ///< plain-words name, used as annotation title
  Severity severity = Severity::Warn;
  Evidence evidence = Evidence::Verified;
  std::vector<std::string> tags;
  std::string problem, impact, action;  ///< the templates as written (with {holes})
  std::string help;             ///< markdown
  std::string when;             ///< the `when` precondition as written; "" when the rule has none
  /// The main body's `severity WORD if COND` clauses, in order: WORD and COND as written.
  std::vector<std::pair<Severity, std::string>> severity_ifs;
  std::vector<RuleExample> examples;
  /// The rule's `also` bodies, in source order: each one's label, severity and problem template
  /// as written (their findings carry the rule's id; `runner explain` lists them).
  struct Also {
    std::string label;
    Severity severity = Severity::Warn;
    std::string problem;
    std::vector<std::pair<Severity, std::string>> severity_ifs;  ///< the body's own, as severity_ifs
  };
  std::vector<Also> alsos;
  std::string ruleset;          ///< name of the ruleset that declared it
  std::string source_file;      ///< .rules file and line of the declaration
  int source_line = 0;
};

/// The captured values of a finding (Finding::witness), name → value, kept sorted by name: a flat
/// list, not a tree, because an audit holds tens of thousands of findings of about six entries
/// each (a std::map node costs 112 bytes an entry, an element here 64).
class Witness {
 public:
  using Entry = std::pair<std::string, std::string>;
  Witness() = default;
  /// Entries in any order; a later entry of the same name replaces an earlier one.
  Witness(std::initializer_list<Entry> entries) {
    for (const auto& [k, v] : entries) set(k, v);
  }
  /// Sets the value of `name`, replacing the one it had.
  void set(std::string name, std::string value) {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), name,
                               [](const Entry& e, const std::string& n) { return e.first < n; });
    if (it != entries_.end() && it->first == name)
      it->second = std::move(value);
    else
      entries_.emplace(it, std::move(name), std::move(value));
  }
  /// The value of `name`; nullptr when it has none.
  const std::string* find(std::string_view name) const {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), name,
                               [](const Entry& e, std::string_view n) { return e.first < n; });
    return it != entries_.end() && it->first == name ? &it->second : nullptr;
  }
  /// Entries in order of name.
  std::vector<Entry>::const_iterator begin() const { return entries_.begin(); }
  std::vector<Entry>::const_iterator end() const { return entries_.end(); }
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  bool operator==(const Witness&) const = default;

 private:
  std::vector<Entry> entries_;  ///< sorted by name, names unique
};

/// One finding. `file` empty = pull-request-level finding (no location).
struct Finding {
  std::string rule_id;
  std::string rule_title;
  /// The label of the rule's `also` body that made the finding; "" for the rule's main body.
  std::string label;
  Severity severity = Severity::Warn;
  Evidence evidence = Evidence::Verified;
  std::vector<std::string> tags;

  std::string file;             ///< repository-relative head path
  int line = 0;                 ///< 1-based; 0 = whole file
  int end_line = 0;             ///< inclusive; 0 = same as line
  int column = 0;               ///< 1-based; 0 = unknown
  std::string snippet;          ///< the head text of `line` (for fingerprints and code frames)
  /// True when the change touches the finding although its own line may be unchanged: a fact
  /// the rule bound, or a fact one of those references (e.g. the branch of an unbound read),
  /// lies on an added line (of any file) or is a removed line. `--filter added` keeps such findings.
  bool touches_change = false;

  std::string problem, impact, action;  ///< templates with holes filled in

  Witness witness;              ///< captured values that triggered the finding
  std::string tier;             ///< "1", "2" or "" when the file has no tier

  bool suppressed = false;      ///< by an inline `review: ignore[ID]` or a baseline entry
  std::string suppression_kind; ///< "inSource" or "external" (SARIF 2.1.0 §3.34.4)
  std::string suppression_reason;
  /// The inline ignore comment that suppresses it is on an added line: the change under review
  /// suppresses its own finding (shown as "suppressed by this change" in the card and SARIF).
  bool suppressed_by_change = false;

  /// Differential review (runner/pipeline/review.hpp): the same rule reports the same
  /// fingerprint on the base version of the file, so the pull request did not introduce it.
  /// SARIF baselineState "unchanged"; never sets the verdict or the exit code.
  bool pre_existing = false;
};

}  // namespace review::dsl
