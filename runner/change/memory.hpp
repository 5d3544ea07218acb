// In-memory changes: a ContentSource over two maps of texts, a one-file snippet change and a
// change built from a unified diff applied to given base texts. Used by tests and by the rule
// language's `example` blocks.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runner/change/change.hpp"

namespace review::change {

/// Head and base texts held in memory, keyed by repository-relative path.
class MemoryContent : public ContentSource {
 public:
  MemoryContent() = default;
  MemoryContent(std::map<std::string, std::string> head_texts,
                std::map<std::string, std::string> base_texts)
      : head_texts_(std::move(head_texts)), base_texts_(std::move(base_texts)) {}

  /// Returns head_texts[path], or nullopt when absent.
  std::optional<std::string> head(const std::string& path) override;
  /// Returns base_texts[path], or nullopt when absent.
  std::optional<std::string> base(const std::string& path) override;
  /// Returns the keys of head_texts (sorted, as std::map keeps them).
  std::vector<std::string> head_files() override;
  /// Compares the two texts: true when both are there and equal, false when one is missing or
  /// they differ, nullopt when neither is there.
  std::optional<bool> same_text(const std::string& path) override;

  std::map<std::string, std::string> head_texts_;
  std::map<std::string, std::string> base_texts_;
};

/// Returns a change with one Added file `path` whose every line of `text` is an added line
/// (one hunk "@@ -0,0 +1,N @@"; no hunk when `text` is empty). A last line without "\n" is marked
/// no_newline_at_eof. Content: head(path) = text; base answers nullopt.
Change make_snippet_change(const std::string& path, std::string_view text);

/// Parses `diff_text` (a unified diff, see parse_unified_diff; `name` names it in errors) and
/// applies every file to its base text from `base_files` (an absent file counts as empty), giving
/// the head texts. Content: base = `base_files` (minus files the diff adds; a deleted file absent
/// from `base_files` gets the text its hunks remove), head = the results (minus deleted files and
/// rename sources) plus the untouched `base_files`. Binary and skipped files get no texts.
/// Throws InputError from the parser, or {name + ": " + path, ...} when a hunk does not apply
/// (see apply_patch).
Change make_patch_change(std::string_view diff_text,
                         const std::map<std::string, std::string>& base_files = {},
                         const std::string& name = "<diff>");

}  // namespace review::change
