#include "runner/change/diff_parser.hpp"

#include <charconv>
#include <cstdio>
#include <optional>
#include <utility>

namespace review::change {

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

constexpr long kMaxLineNumber = 1'000'000'000;  // larger numbers in a hunk header are refused

/// Splits `text` into lines (without "\n" and without a CR right before it).
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    pos = end + 1;
  }
  return out;
}

/// Reads a C-quoted token starting at s[pos] == '"'. Returns the unquoted bytes and moves `pos`
/// past the closing quote; nullopt when there is no closing quote.
std::optional<std::string> read_quoted(std::string_view s, std::size_t& pos) {
  std::string out;
  std::size_t i = pos + 1;
  while (i < s.size()) {
    char c = s[i];
    if (c == '"') {
      pos = i + 1;
      return out;
    }
    if (c != '\\' || i + 1 >= s.size()) {
      out.push_back(c);
      ++i;
      continue;
    }
    char e = s[i + 1];
    switch (e) {
      case 'a': out.push_back('\a'); i += 2; continue;
      case 'b': out.push_back('\b'); i += 2; continue;
      case 't': out.push_back('\t'); i += 2; continue;
      case 'n': out.push_back('\n'); i += 2; continue;
      case 'v': out.push_back('\v'); i += 2; continue;
      case 'f': out.push_back('\f'); i += 2; continue;
      case 'r': out.push_back('\r'); i += 2; continue;
      case '"': out.push_back('"'); i += 2; continue;
      case '\\': out.push_back('\\'); i += 2; continue;
      default: break;
    }
    if (i + 3 < s.size() && e >= '0' && e <= '3' && s[i + 2] >= '0' && s[i + 2] <= '7' &&
        s[i + 3] >= '0' && s[i + 3] <= '7') {
      out.push_back(static_cast<char>((e - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0')));
      i += 4;
      continue;
    }
    out.push_back('\\');  // malformed escape: kept literally
    ++i;
  }
  return std::nullopt;
}

std::string strip_prefix(std::string p, std::string_view prefix) {
  if (starts_with(p, prefix)) p.erase(0, prefix.size());
  return p;
}

/// Path of a "--- " / "+++ " line (the part after the 4-byte marker): C-quoted, or raw up to a
/// tab (GNU diff appends "\tTIMESTAMP"). Returns "/dev/null" unchanged.
std::string marker_path(std::string_view rest) {
  if (!rest.empty() && rest.front() == '"') {
    std::size_t pos = 0;
    if (auto q = read_quoted(rest, pos)) return *q;
  }
  std::size_t tab = rest.find('\t');
  if (tab != std::string_view::npos) rest = rest.substr(0, tab);
  return std::string(rest);
}

/// The two paths of "diff --git A B" (prefixes still on), or nullopt when they cannot be told apart.
std::optional<std::pair<std::string, std::string>> git_header_paths(std::string_view rest) {
  if (rest.empty()) return std::nullopt;
  if (rest.front() == '"') {
    std::size_t pos = 0;
    auto a = read_quoted(rest, pos);
    if (!a || pos >= rest.size() || rest[pos] != ' ') return std::nullopt;
    std::string_view tail = rest.substr(pos + 1);
    if (!tail.empty() && tail.front() == '"') {
      std::size_t p2 = 0;
      auto b = read_quoted(tail, p2);
      if (!b) return std::nullopt;
      return std::pair{*a, *b};
    }
    return std::pair{*a, std::string(tail)};
  }
  if (rest.back() == '"') {
    std::size_t q = rest.rfind(" \"");
    while (q != std::string_view::npos) {
      std::size_t pos = q + 1;
      auto b = read_quoted(rest, pos);
      if (b && pos == rest.size()) return std::pair{std::string(rest.substr(0, q)), *b};
      if (q == 0) break;
      q = rest.rfind(" \"", q - 1);
    }
    return std::nullopt;
  }
  // Same name on both sides: "a/X b/X".
  if (rest.size() % 2 == 1) {
    std::size_t m = rest.size() / 2;
    std::string_view a = rest.substr(0, m), b = rest.substr(m + 1);
    if (rest[m] == ' ' && a.size() >= 2 && b.size() >= 2 && a.substr(2) == b.substr(2))
      return std::pair{std::string(a), std::string(b)};
  }
  std::size_t sp = rest.find(" b/");
  if (sp == std::string_view::npos) return std::nullopt;
  return std::pair{std::string(rest.substr(0, sp)), std::string(rest.substr(sp + 1))};
}

bool parse_number(std::string_view s, std::size_t& pos, long& out) {
  std::size_t start = pos;
  long v = 0;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
    v = v * 10 + (s[pos] - '0');
    if (v > kMaxLineNumber) return false;
    ++pos;
  }
  out = v;
  return pos > start;
}

/// Parses "@@ -A[,B] +C[,D] @@[ section]".
std::optional<Hunk> parse_hunk_header(std::string_view line) {
  Hunk h;
  std::size_t pos = 3;  // after "@@ "
  if (!starts_with(line, "@@ -")) return std::nullopt;
  pos = 4;
  long a = 0, b = 1, c = 0, d = 1;
  if (!parse_number(line, pos, a)) return std::nullopt;
  if (pos < line.size() && line[pos] == ',') {
    ++pos;
    if (!parse_number(line, pos, b)) return std::nullopt;
  }
  if (line.substr(pos, 2) != " +") return std::nullopt;
  pos += 2;
  if (!parse_number(line, pos, c)) return std::nullopt;
  if (pos < line.size() && line[pos] == ',') {
    ++pos;
    if (!parse_number(line, pos, d)) return std::nullopt;
  }
  if (line.substr(pos, 3) != " @@") return std::nullopt;
  pos += 3;
  std::string_view section = line.substr(pos);
  if (!section.empty() && section.front() == ' ') section.remove_prefix(1);
  h.old_start = static_cast<int>(a);
  h.old_count = static_cast<int>(b);
  h.new_start = static_cast<int>(c);
  h.new_count = static_cast<int>(d);
  h.section = std::string(section);
  return h;
}

bool is_mode(std::string_view s) {
  if (s.size() < 6 || s.size() > 7) return false;
  for (char c : s)
    if (c < '0' || c > '7') return false;
  return true;
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& name, const DiffOptions& opts)
      : lines_(split_lines(text)), name_(name), opts_(opts) {}

  std::vector<ChangedFile> run() {
    while (i_ < lines_.size()) {
      std::string_view line = lines_[i_];
      if (starts_with(line, "diff --cc ") || starts_with(line, "diff --combined ") ||
          starts_with(line, "@@@"))
        refuse_combined();
      if (starts_with(line, "diff --git ")) {
        git_file();
      } else if (starts_with(line, "--- ") && i_ + 1 < lines_.size() &&
                 starts_with(lines_[i_ + 1], "+++ ")) {
        plain_file();
      } else if (starts_with(line, "@@ -")) {
        fail(i_, "file header (\"diff --git\" or \"--- \") expected before hunk header, got \"" +
                     excerpt(line) + "\"");
      } else {
        ++i_;  // prose between files (mail headers, "-- " signature, `diff -r` "Only in" lines)
      }
    }
    return std::move(files_);
  }

 private:
  [[noreturn]] void fail(std::size_t index, std::string message) const {
    throw InputError{name_ + ":" + std::to_string(index + 1), std::move(message)};
  }

  [[noreturn]] void refuse_combined() const {
    fail(i_, "combined diff (of a merge commit) is not supported: \"" + excerpt(lines_[i_]) +
                 "\"; diff against one parent instead (git diff PARENT COMMIT)");
  }

  void note_mode(ChangedFile& f, std::string_view mode) {
    if (mode == "160000") f.submodule = true;
  }

  void git_file() {
    ChangedFile f;
    std::string old_path, new_path;
    bool old_null = false, new_null = false, is_new = false, is_deleted = false;
    bool renamed = false, copied = false;
    if (auto p = git_header_paths(lines_[i_].substr(11))) {
      old_path = strip_prefix(p->first, "a/");
      new_path = strip_prefix(p->second, "b/");
    }
    std::size_t header = i_;
    file_start_ = header;
    ++i_;
    auto value = [](std::string_view line, std::string_view key) {
      std::string_view v = line.substr(key.size());
      if (!v.empty() && v.front() == '"') {
        std::size_t pos = 0;
        if (auto q = read_quoted(v, pos)) return *q;
      }
      return std::string(v);
    };
    while (i_ < lines_.size()) {
      std::string_view line = lines_[i_];
      if (starts_with(line, "old mode ")) {
        f.old_mode = std::string(line.substr(9));
        note_mode(f, f.old_mode);
      } else if (starts_with(line, "new mode ")) {
        f.new_mode = std::string(line.substr(9));
        note_mode(f, f.new_mode);
      } else if (starts_with(line, "new file mode ")) {
        f.new_mode = std::string(line.substr(14));
        note_mode(f, f.new_mode);
        is_new = true;
      } else if (starts_with(line, "deleted file mode ")) {
        f.old_mode = std::string(line.substr(18));
        note_mode(f, f.old_mode);
        is_deleted = true;
      } else if (starts_with(line, "similarity index ") ||
                 starts_with(line, "dissimilarity index ")) {
        std::string_view v = line.substr(line.find(" index ") + 7);
        int pct = 0;
        std::from_chars(v.data(), v.data() + v.size(), pct);
        if (starts_with(line, "similarity")) f.similarity = pct;
      } else if (starts_with(line, "rename from ") || starts_with(line, "rename old ")) {
        old_path = value(line, starts_with(line, "rename from ") ? "rename from " : "rename old ");
        renamed = true;
      } else if (starts_with(line, "rename to ") || starts_with(line, "rename new ")) {
        new_path = value(line, starts_with(line, "rename to ") ? "rename to " : "rename new ");
        renamed = true;
      } else if (starts_with(line, "copy from ")) {
        old_path = value(line, "copy from ");
        copied = true;
      } else if (starts_with(line, "copy to ")) {
        new_path = value(line, "copy to ");
        copied = true;
      } else if (starts_with(line, "index ")) {
        std::size_t sp = line.rfind(' ');
        if (sp > 6 && is_mode(line.substr(sp + 1))) note_mode(f, line.substr(sp + 1));
      } else if (starts_with(line, "Binary files ") && line.size() > 7 &&
                 line.substr(line.size() - 7) == " differ") {
        f.binary = true;
      } else if (line == "GIT binary patch") {
        f.binary = true;
        ++i_;
        while (i_ < lines_.size() && !starts_with(lines_[i_], "diff ")) ++i_;
        break;
      } else if (starts_with(line, "--- ")) {
        if (i_ + 1 >= lines_.size() || !starts_with(lines_[i_ + 1], "+++ "))
          fail(i_ + 1, "\"+++\" line expected after \"" + excerpt(line) + "\", got \"" +
                           (i_ + 1 < lines_.size() ? excerpt(lines_[i_ + 1]) : std::string()) +
                           "\"" + (i_ + 1 < lines_.size() ? "" : " (end of input)"));
        std::string o = marker_path(line.substr(4)), n = marker_path(lines_[i_ + 1].substr(4));
        if (o == "/dev/null") old_null = true; else old_path = strip_prefix(o, "a/");
        if (n == "/dev/null") new_null = true; else new_path = strip_prefix(n, "b/");
        i_ += 2;
        if (i_ >= lines_.size() || !starts_with(lines_[i_], "@@")) {
          fail(i_ < lines_.size() ? i_ : lines_.size() - 1,
               i_ < lines_.size() ? "hunk header expected, got \"" + excerpt(lines_[i_]) + "\""
                                  : std::string("hunk header expected, got the end of input"));
        }
        hunks(f, is_new || old_null);
        break;
      } else {
        break;
      }
      ++i_;
    }
    if (old_path.empty() && new_path.empty())
      fail(header, "cannot read the file names in \"" + excerpt(lines_[header]) + "\"");
    if (old_path.empty()) old_path = new_path;
    if (new_path.empty()) new_path = old_path;
    finish(f, std::move(old_path), std::move(new_path), is_new || old_null,
           is_deleted || new_null, renamed, copied);
  }

  void plain_file() {
    ChangedFile f;
    file_start_ = i_;
    std::string o = marker_path(lines_[i_].substr(4)), n = marker_path(lines_[i_ + 1].substr(4));
    bool old_null = o == "/dev/null", new_null = n == "/dev/null";
    // -p1, as `git apply` and `patch -p1`: drop the first component when both sides have one.
    auto has_dir = [](const std::string& p) { return p.find('/') != std::string::npos; };
    if ((old_null || has_dir(o)) && (new_null || has_dir(n))) {
      if (!old_null) o.erase(0, o.find('/') + 1);
      if (!new_null) n.erase(0, n.find('/') + 1);
    }
    i_ += 2;
    if (i_ >= lines_.size() || !starts_with(lines_[i_], "@@")) {
      fail(i_ < lines_.size() ? i_ : lines_.size() - 1,
           i_ < lines_.size() ? "hunk header expected, got \"" + excerpt(lines_[i_]) + "\""
                              : std::string("hunk header expected, got the end of input"));
    }
    hunks(f, old_null);
    if (old_null) o = n;
    if (new_null) n = o;
    finish(f, std::move(o), std::move(n), old_null, new_null, false, false);
  }

  // A path of the change names a file inside the repository: relative, no "." or ".." component,
  // no NUL. Anything else would make git (or a reader of the SARIF) look outside the tree.
  void check_path(const std::string& p) const {
    const std::string why = path_problem(p);
    if (!why.empty())
      fail(file_start_, "the file name \"" + excerpt(p) + "\" has " + why +
                            "; a diff names files inside the repository, relative to its top");
  }

  void finish(ChangedFile& f, std::string old_path, std::string new_path, bool added, bool deleted,
              bool renamed, bool copied) {
    check_path(old_path);
    check_path(new_path);
    if (added) {
      f.status = FileStatus::Added;
      f.path = std::move(new_path);
    } else if (deleted) {
      f.status = FileStatus::Deleted;
      f.path = old_path;
      f.old_path = std::move(old_path);
    } else {
      f.status = copied ? FileStatus::Copied : renamed ? FileStatus::Renamed : FileStatus::Modified;
      f.path = std::move(new_path);
      f.old_path = std::move(old_path);
    }
    if (f.binary && !f.skipped) {
      f.skipped = true;
      f.skip_reason = "binary file";
    }
    files_.push_back(std::move(f));
  }

  /// Reads the hunks starting at lines_[i_] (an "@@" line) into `f`; `added`: the file is added
  /// whole (its status is set after the hunks, by finish).
  void hunks(ChangedFile& f, bool added) {
    std::size_t bytes = 0;
    bool dropping = false;
    while (i_ < lines_.size() && starts_with(lines_[i_], "@@")) {
      std::string_view head_line = lines_[i_];
      if (starts_with(head_line, "@@@")) refuse_combined();
      std::optional<Hunk> parsed = parse_hunk_header(head_line);
      if (!parsed)
        fail(i_, "malformed hunk header \"" + excerpt(head_line) +
                     "\": expected \"@@ -START,COUNT +START,COUNT @@\"");
      Hunk h = std::move(*parsed);
      h.elided = opts_.elide_added_files && added;
      std::size_t header = i_;
      ++i_;
      long old_left = h.old_count, new_left = h.new_count;
      int old_no = h.old_start, new_no = h.new_start;
      long old_seen = 0, new_seen = 0;
      auto short_hunk = [&](std::size_t at) {
        fail(at, "hunk at line " + std::to_string(header + 1) + " ends early: its header \"" +
                     excerpt(head_line) + "\" says " + std::to_string(h.old_count) +
                     " base and " + std::to_string(h.new_count) + " head lines, found " +
                     std::to_string(old_seen) + " and " + std::to_string(new_seen));
      };
      while (old_left > 0 || new_left > 0) {
        if (i_ >= lines_.size()) short_hunk(lines_.size() - 1);
        std::string_view line = lines_[i_];
        char kind = line.empty() ? ' ' : line.front();
        std::string_view body = line.empty() ? line : line.substr(1);
        DiffLine dl;
        if (kind == ' ') {
          if (old_left == 0 || new_left == 0) short_hunk(i_);
          dl.kind = LineKind::Context;
          dl.old_line = old_no++;
          dl.new_line = new_no++;
          --old_left, --new_left, ++old_seen, ++new_seen;
        } else if (kind == '-') {
          if (old_left == 0) short_hunk(i_);
          dl.kind = LineKind::Removed;
          dl.old_line = old_no++;
          --old_left, ++old_seen;
          ++f.removed_count;
          if (!dropping) f.removed_lines.insert(dl.old_line);
        } else if (kind == '+') {
          if (new_left == 0) short_hunk(i_);
          dl.kind = LineKind::Added;
          dl.new_line = new_no++;
          --new_left, ++new_seen;
          ++f.added_count;
          if (!dropping) f.added_lines.insert(dl.new_line);
        } else if (kind == '\\') {
          if (!h.lines.empty()) h.lines.back().no_newline_at_eof = true;
          ++i_;
          continue;
        } else {
          short_hunk(i_);
        }
        ++i_;
        bytes += body.size() + 1;
        if (!dropping && bytes > opts_.max_file_bytes) {
          dropping = true;
          f.skipped = true;
          f.skip_reason = "diff larger than " + std::to_string(opts_.max_file_bytes) + " bytes";
          f.hunks.clear();
          f.hunks.shrink_to_fit();
          f.added_lines.clear();
          f.removed_lines.clear();
          h.lines.clear();
        }
        if (!dropping && !h.elided) {
          dl.text = std::string(body);
          h.lines.push_back(std::move(dl));
        }
      }
      if (i_ < lines_.size() && starts_with(lines_[i_], "\\")) {
        if (!h.lines.empty()) h.lines.back().no_newline_at_eof = true;
        ++i_;
      }
      if (i_ < lines_.size()) {
        std::string_view next = lines_[i_];
        bool next_file = starts_with(next, "--- ") && i_ + 1 < lines_.size() &&
                         starts_with(lines_[i_ + 1], "+++ ");
        bool signature = next == "--" || next == "-- ";
        if (!next.empty() && (next.front() == ' ' || next.front() == '+' ||
                              (next.front() == '-' && !next_file && !signature)))
          fail(i_, "hunk at line " + std::to_string(header + 1) +
                       " has more lines than its header \"" + excerpt(head_line) + "\" says (" +
                       std::to_string(h.old_count) + " base, " + std::to_string(h.new_count) +
                       " head)");
      }
      if (!dropping) f.hunks.push_back(std::move(h));
    }
  }

  std::vector<std::string_view> lines_;
  const std::string& name_;
  DiffOptions opts_;
  std::size_t i_ = 0;
  std::size_t file_start_ = 0;  // the header line of the file being read
  std::vector<ChangedFile> files_;
};

}  // namespace

std::string path_problem(std::string_view p) {
  std::string why;
  if (!p.empty() && p.front() == '/') why = "an absolute path";
  else if (p.find('\0') != std::string_view::npos) why = "a NUL byte in the path";
  else {
    std::size_t start = 0;
    while (start <= p.size()) {
      std::size_t slash = p.find('/', start);
      std::string_view part = p.substr(start, slash == std::string_view::npos ? p.npos : slash - start);
      if (part == "..") why = "a \"..\" component";
      else if (part == ".") why = "a \".\" component";
      if (slash == std::string_view::npos) break;
      start = slash + 1;
    }
  }
  return why;
}

std::string unquote_c_path(std::string_view quoted) {
  if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"') return std::string(quoted);
  std::size_t pos = 0;
  auto q = read_quoted(quoted, pos);
  if (!q || pos != quoted.size()) return std::string(quoted);
  return *q;
}

std::string excerpt(std::string_view text, std::size_t max_bytes) {
  bool cut = false;
  if (text.size() > max_bytes) {
    std::size_t n = max_bytes;
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;  // keep UTF-8 whole
    text = text.substr(0, n);
    cut = true;
  }
  std::string out;
  out.reserve(text.size() + 4);
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out.push_back(c);
    }
  }
  if (cut) out += "…";
  return out;
}

std::vector<ChangedFile> parse_unified_diff(std::string_view text, const std::string& name,
                                            const DiffOptions& opts) {
  return Parser(text, name, opts).run();
}

}  // namespace review::change
