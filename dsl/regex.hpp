// Regex literals of the rule language, compiled once with RE2 (linear time on any input).
//
// A literal without `{name}` holes is compiled at load time and never again. A literal with holes
// (`/\bdel\s+self\.{orig}\b/`, `/{h.name}\(/`) is validated at load time with each hole replaced
// by `x`, and at evaluation compiled once per distinct inserted text (quoted with RE2::QuoteMeta),
// cached by the inserted values (a lookup neither quotes nor builds the pattern); the cache keeps at most kMaxRegexInstances patterns per
// literal and forgets the oldest first.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <re2/re2.h>

#include "dsl/template.hpp"

namespace review::dsl {

/// Compiled instances of one holed regex kept at a time (RE2 programs cost a few KB each).
inline constexpr size_t kMaxRegexInstances = 256;

/// Literal text that every match of a regex contains (a prefilter: a text without it cannot
/// match, so RE2 need not be asked). Every match contains all the needs of at least one of `any`
/// (one list per top-level alternative of the pattern). `any` empty: no prefilter.
struct LiteralNeeds {
  struct Need {
    std::string text;  ///< a run of at least two literal characters; "" for a hole
    int hole = -1;     ///< >= 0: the text inserted for holes[hole]
  };
  std::vector<std::vector<Need>> any;
  /// Whether `text` holds every need of some alternative (true when `any` is empty). A hole's
  /// value is `hole_values[hole]` (one per hole, as CompiledRegex::instance takes them); an
  /// empty value is always held.
  bool passes(std::string_view text, const std::vector<std::string>& hole_values) const;
};

/// The needs of `pattern` (RE2 syntax, `holes` its `{name}` holes): for each top-level
/// alternative, the runs of literal characters and the holes outside every character class
/// that no quantifier makes optional (`x?`, `x*`, `x{0,n}`), and those inside a group that
/// every alternative of the group needs (the same text, or a hole of the same name and path).
/// Escaped punctuation (`\.`) is literal; classes, `.`, anchors, `\b`, `\d` and the like end a
/// run. No needs at all (`any` empty) when an alternative needs nothing, the pattern turns on
/// case-insensitive matching (`(?i)`) anywhere, uses `\Q`, or quantifies a hole (`{w}?`
/// quantifies the value's last character, or, when the value is empty, the atom before the
/// hole): each would let a text that matches lack the literal as written.
LiteralNeeds literal_needs(const std::string& pattern, const std::vector<RegexHole>& holes);

/// Neither copyable nor movable (holds RE2 and a mutex); keep it in a unique_ptr.
struct CompiledRegex {
  std::string pattern;                  ///< as written (after `\/` decoding)
  std::vector<RegexHole> holes;
  std::shared_ptr<const re2::RE2> re;   ///< the static regex (holes replaced by `x`)
  std::vector<std::string> group_names; ///< by group index (1-based; [0] unused); "" = unnamed
  bool named = false;                   ///< some group has a name: a match binds captures
  /// The holes (indexes into `holes`) whose inserted text every match contains: outside every
  /// group and character class, in a pattern with no alternation, no case-insensitive flag and
  /// no `\Q`, and not followed by a quantifier (required_holes). A text that lacks such a
  /// hole's value cannot match: the evaluator checks that before asking RE2 (a literal prefilter).
  std::vector<size_t> required;
  /// The literal prefilter the evaluator applies before asking RE2 (literal_needs).
  LiteralNeeds needs;

  /// Returns the regex for the given hole values (one per hole, in order, inserted quoted with
  /// RE2::QuoteMeta), compiling and caching it on first use; returns `re` when there are no
  /// holes; nullptr if RE2 rejects it (e.g. a value so long the program exceeds RE2's memory
  /// budget). Thread-safe; the result stays valid while held even if the cache drops it.
  std::shared_ptr<const re2::RE2> instance(const std::vector<std::string>& hole_values) const;
  /// Returns how many instances the cache holds now (at most kMaxRegexInstances).
  size_t cached_instances() const;
  /// Forgets every cached instance (their RE2 programs and DFA state caches; a holder keeps its
  /// own alive); a later instance() compiles again. The schedule calls it after each rule: an
  /// audit's interpolated regexes (`/\b{param}\s*=/` once per value) otherwise held their last
  /// 1,024 instances each for the whole run. Thread-safe; never throws.
  void clear_instances() const;

 private:
  mutable std::mutex mu_;
  mutable std::unordered_map<std::string, std::shared_ptr<const re2::RE2>> cache_;  ///< by hole values
  mutable std::deque<std::string> order_;  ///< cache keys, oldest first
};

/// The group structure of `pattern` read as RE2 syntax (as far as structure goes), one entry per
/// byte: the group depth outside that byte for a byte that is structure (`(` and `)` are at the
/// depth around their group, `|` and literals at the depth they are in), and for the first byte of
/// each of `holes`; -1 for a byte inside a class (`[…]`, a `]` first in it is a literal), an
/// escape pair (`\x`), or a hole past its first byte, and for a hole that starts inside a
/// class. Never throws.
std::vector<int> group_depths(const std::string& pattern, const std::vector<RegexHole>& holes);

/// Returns the indexes of the holes of `pattern` (its `holes`) whose inserted text every match
/// must contain (see CompiledRegex::required). With `grouped_alternation`, an alternation inside
/// a group (`(^|\.){X}`) does not disqualify the holes outside every group; one outside every
/// group still does.
std::vector<size_t> required_holes(const std::string& pattern, const std::vector<RegexHole>& holes,
                                   bool grouped_alternation = false);

/// Compiles `pattern` with RE2::Quiet. Returns the regex, or null with `error` set to RE2's
/// error() and error_arg() ("missing ): (abc" style).
std::unique_ptr<CompiledRegex> compile_regex(const std::string& pattern, std::string& error);

/// Partial match of `text`. On success fills `groups` (index -> captured text; unmatched
/// optional groups give "") and returns true.
bool regex_search(const re2::RE2& re, std::string_view text, std::vector<std::string>* groups);

}  // namespace review::dsl
