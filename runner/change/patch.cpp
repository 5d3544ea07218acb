#include "runner/change/patch.hpp"

#include <vector>

#include "runner/change/diff_parser.hpp"

namespace review::change {

namespace {

struct TextLines {
  std::vector<std::string_view> lines;  // with their "\r" if any, without "\n"
  bool final_newline = true;            // the last line ends with "\n" (true for empty text)
};

TextLines split(std::string_view text) {
  TextLines t;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) {
      t.lines.push_back(text.substr(pos));
      t.final_newline = false;
      break;
    }
    t.lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return t;
}

std::string_view without_cr(std::string_view s) {
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

}  // namespace

std::string apply_patch(std::string_view text, const ChangedFile& file, PatchDirection direction,
                        const std::string& where) {
  const bool fwd = direction == PatchDirection::Forward;
  TextLines src = split(text);
  std::string out;
  out.reserve(text.size() + 64);
  std::size_t next = 0;           // index into src.lines of the next line not yet copied
  bool last_from_hunk = false;    // whether the last written line came from a hunk
  bool last_newline = true;       // whether that hunk line ends with "\n"
  auto copy_upto = [&](std::size_t end) {  // copies src lines [next, end)
    for (; next < end; ++next) {
      out.append(src.lines[next]);
      out.push_back('\n');
      last_from_hunk = false;
    }
  };
  for (const Hunk& h : file.hunks) {
    int start = fwd ? h.old_start : h.new_start;
    int count = fwd ? h.old_count : h.new_count;
    // A side with count 0 names the line *after which* the hunk goes.
    std::size_t first = count == 0 ? static_cast<std::size_t>(start)
                                   : static_cast<std::size_t>(start > 0 ? start - 1 : 0);
    if (first < next || first > src.lines.size())
      throw InputError{where, "hunk \"@@ -" + std::to_string(h.old_start) + "," +
                                  std::to_string(h.old_count) + " +" + std::to_string(h.new_start) +
                                  "," + std::to_string(h.new_count) +
                                  " @@\" does not fit: the text has only " +
                                  std::to_string(src.lines.size()) + " lines"};
    copy_upto(first);
    for (const DiffLine& l : h.lines) {
      bool in_src = l.kind == LineKind::Context || l.kind == (fwd ? LineKind::Removed : LineKind::Added);
      bool in_out = l.kind == LineKind::Context || l.kind == (fwd ? LineKind::Added : LineKind::Removed);
      if (in_src) {
        if (next >= src.lines.size())
          throw InputError{where, "line " + std::to_string(next + 1) + ": expected \"" +
                                      excerpt(l.text) + "\", found the end of the text (" +
                                      std::to_string(src.lines.size()) + " lines)"};
        if (without_cr(src.lines[next]) != l.text)
          throw InputError{where, "line " + std::to_string(next + 1) + ": expected \"" +
                                      excerpt(l.text) + "\", found \"" +
                                      excerpt(without_cr(src.lines[next])) + "\""};
        ++next;
      }
      if (in_out) {
        out.append(l.kind == LineKind::Context ? std::string_view(src.lines[next - 1])
                                               : std::string_view(l.text));
        out.push_back('\n');
        last_from_hunk = true;
        last_newline = !l.no_newline_at_eof;
      }
    }
  }
  copy_upto(src.lines.size());
  bool newline = last_from_hunk ? last_newline : src.final_newline;
  if (!newline && !out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace review::change
