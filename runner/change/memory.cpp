#include "runner/change/memory.hpp"

#include <memory>

#include "runner/change/diff_parser.hpp"
#include "runner/change/patch.hpp"

namespace review::change {

std::optional<std::string> MemoryContent::head(const std::string& path) {
  auto it = head_texts_.find(path);
  if (it == head_texts_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> MemoryContent::base(const std::string& path) {
  auto it = base_texts_.find(path);
  if (it == base_texts_.end()) return std::nullopt;
  return it->second;
}

std::optional<bool> MemoryContent::same_text(const std::string& path) {
  auto h = head_texts_.find(path);
  auto b = base_texts_.find(path);
  if (h == head_texts_.end() && b == base_texts_.end()) return std::nullopt;
  return h != head_texts_.end() && b != base_texts_.end() && h->second == b->second;
}

std::vector<std::string> MemoryContent::head_files() {
  std::vector<std::string> out;
  out.reserve(head_texts_.size());
  for (const auto& [path, text] : head_texts_) out.push_back(path);
  return out;
}

Change make_snippet_change(const std::string& path, std::string_view text) {
  ChangedFile f;
  f.path = path;
  f.status = FileStatus::Added;
  Hunk h;
  std::size_t pos = 0;
  int n = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    DiffLine l;
    l.kind = LineKind::Added;
    l.new_line = ++n;
    std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view body = text.substr(pos, end - pos);
    if (!body.empty() && body.back() == '\r') body.remove_suffix(1);
    l.text = std::string(body);
    l.no_newline_at_eof = nl == std::string_view::npos;
    h.lines.push_back(std::move(l));
    f.added_lines.insert(n);
    pos = end + 1;
  }
  if (n > 0) {
    h.old_start = 0;
    h.old_count = 0;
    h.new_start = 1;
    h.new_count = n;
    f.hunks.push_back(std::move(h));
  }
  f.added_count = n;
  Change c;
  c.files.push_back(std::move(f));
  c.content = std::make_shared<MemoryContent>(
      std::map<std::string, std::string>{{path, std::string(text)}},
      std::map<std::string, std::string>{});
  return c;
}

Change make_patch_change(std::string_view diff_text,
                         const std::map<std::string, std::string>& base_files,
                         const std::string& name) {
  Change c;
  c.files = parse_unified_diff(diff_text, name);
  std::map<std::string, std::string> head = base_files;
  std::map<std::string, std::string> base = base_files;
  for (const ChangedFile& f : c.files) {
    if (f.binary || f.skipped) continue;
    std::string from = f.status == FileStatus::Added ? std::string() : f.old_path;
    auto it = base_files.find(from);
    std::string base_text = it == base_files.end() ? std::string() : it->second;
    if (f.status == FileStatus::Deleted) {
      head.erase(f.path);
      // Without a given base, the deleted text is whatever the hunks remove.
      if (it == base_files.end())
        base[f.path] = apply_patch("", f, PatchDirection::Reverse, name + ": " + f.path);
      continue;
    }
    std::string result = apply_patch(base_text, f, PatchDirection::Forward, name + ": " + f.path);
    if (f.status == FileStatus::Added) {
      base.erase(f.path);
      head[f.path] = std::move(result);
    } else {
      if (f.status == FileStatus::Renamed) head.erase(f.old_path);
      if (it == base_files.end()) base[f.old_path] = base_text;
      head[f.path] = std::move(result);
    }
  }
  c.content = std::make_shared<MemoryContent>(std::move(head), std::move(base));
  return c;
}

}  // namespace review::change
