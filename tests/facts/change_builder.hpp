// ChangeBuilder: a Change (with in-memory contents) built from base/head texts, for fact tests.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "runner/change/memory.hpp"
#include "runner/facts/change_facts.hpp"
#include "runner/lang/model.hpp"

namespace review::facts::testing {

using review::change::Change;
using review::change::ChangedFile;
using review::change::FileStatus;
using review::change::Hunk;
using review::change::LineKind;
using review::change::MemoryContent;

// Builds a Change from base/head texts: one hunk per file covering the whole file, lines
// matched by a longest-common-subsequence diff (fine for test-sized texts).
struct ChangeBuilder {
  std::shared_ptr<MemoryContent> content = std::make_shared<MemoryContent>();
  Change change;

  ChangeBuilder& file(const std::string& path, const std::string& base, const std::string& head,
                      FileStatus status = FileStatus::Modified) {
    if (status != FileStatus::Deleted) content->head_texts_[path] = head;
    if (status != FileStatus::Added) content->base_texts_[path] = base;
    auto b = review::lang::split_lines(base), h = review::lang::split_lines(head);
    std::vector<std::vector<int>> lcs(b.size() + 1, std::vector<int>(h.size() + 1, 0));
    for (size_t i = b.size(); i-- > 0;)
      for (size_t j = h.size(); j-- > 0;)
        lcs[i][j] = b[i] == h[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    ChangedFile f;
    f.path = path;
    f.old_path = path;
    f.status = status;
    Hunk hk;
    hk.old_start = b.empty() ? 0 : 1;
    hk.new_start = h.empty() ? 0 : 1;
    hk.old_count = static_cast<int>(b.size());
    hk.new_count = static_cast<int>(h.size());
    size_t i = 0, j = 0;
    while (i < b.size() || j < h.size()) {
      if (i < b.size() && j < h.size() && b[i] == h[j]) {
        hk.lines.push_back({LineKind::Context, static_cast<int>(++i), static_cast<int>(++j), b[i - 1]});
      } else if (i < b.size() && (j == h.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
        hk.lines.push_back({LineKind::Removed, static_cast<int>(++i), 0, b[i - 1]});
        f.removed_lines.insert(static_cast<int>(i));
        ++f.removed_count;
      } else {
        hk.lines.push_back({LineKind::Added, 0, static_cast<int>(++j), h[j - 1]});
        f.added_lines.insert(static_cast<int>(j));
        ++f.added_count;
      }
    }
    f.hunks.push_back(std::move(hk));
    change.files.push_back(std::move(f));
    return *this;
  }
  ChangeBuilder& added(const std::string& path, const std::string& head) {
    return file(path, "", head, FileStatus::Added);
  }
  ChangeBuilder& unchanged(const std::string& path, const std::string& text) {
    content->head_texts_[path] = text;
    content->base_texts_[path] = text;
    return *this;
  }
  /// A change known only by its diff hunks (no file text on either side), as `--diff` without a
  /// checkout gives.
  ChangeBuilder& hunks_only() {
    content->head_texts_.clear();
    content->base_texts_.clear();
    change.hunks_only = true;
    return *this;
  }

  std::shared_ptr<review::facts::ChangeFacts> facts(review::facts::ChangeFacts::Options o = {}) {
    change.content = content;
    return std::make_shared<review::facts::ChangeFacts>(std::make_shared<const Change>(change), std::move(o));
  }
};

}  // namespace review::facts::testing
