#include "runner/change/audit_tree.hpp"

#include <algorithm>
#include <cstring>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "runner/change/diff_parser.hpp"
#include "runner/change/git.hpp"
#include "runner/change/process.hpp"

namespace review::change {

namespace {

// git's default core.bigFileThreshold (512 MiB; git-config(1)).
constexpr std::size_t kBigFileThreshold = std::size_t{512} << 20;
// buffer_is_binary's FIRST_FEW_BYTES (git's xdiff-interface.c): a NUL byte in these makes a blob binary.
constexpr std::size_t kFirstFewBytes = 8000;
// Paths per restricted `git diff` (well under any system's argument-size limit).
constexpr std::size_t kPathsPerDiff = 512;

[[noreturn]] void git_failed(const std::string& repo, const char* what, const ProcessResult& r) {
  std::string err = r.err.substr(0, r.err.find('\n'));
  throw InputError{repo, std::string("git ") + what + " failed: " + excerpt(err, 200)};
}

// The NUL-terminated fields of `s`, empty ones kept (split_nul drops them): check-attr answers
// an empty value for `diff=`, and its fields are read in threes.
std::vector<std::string_view> nul_fields(std::string_view s) {
  std::vector<std::string_view> out;
  for (std::size_t pos = 0; pos < s.size();) {
    std::size_t z = s.find('\0', pos);
    if (z == std::string_view::npos) z = s.size();
    out.push_back(s.substr(pos, z - pos));
    pos = z + 1;
  }
  return out;
}

struct Entry {
  std::string mode, type, oid, path;
  std::size_t size = 0;  // bytes of a blob (ls-tree -l)
};

// `git ls-tree -r -z -l --full-tree REV`: "<mode> SP <type> SP <object> SP+ <size> TAB <path>"
// per entry (git-ls-tree(1), OUTPUT FORMAT; the size is "-" for a submodule).
std::vector<Entry> list_tree(const std::string& repo, const std::string& rev) {
  ProcessResult r = run_git(repo, {"ls-tree", "-r", "-z", "-l", "--full-tree", "--end-of-options", rev});
  if (r.exit_code != 0) git_failed(repo, "ls-tree", r);
  std::vector<Entry> out;
  for (std::string_view e : nul_fields(r.out)) {
    if (e.empty()) continue;
    std::size_t tab = e.find('\t');
    std::size_t s1 = e.find(' ');
    std::size_t s2 = s1 == std::string_view::npos ? s1 : e.find(' ', s1 + 1);
    if (tab == std::string_view::npos || s2 == std::string_view::npos || s2 > tab)
      throw InputError{repo, "git ls-tree answered an entry of an unknown form: \"" + excerpt(e) + "\""};
    Entry en;
    en.mode = std::string(e.substr(0, s1));
    en.type = std::string(e.substr(s1 + 1, s2 - s1 - 1));
    std::size_t s3 = e.find(' ', s2 + 1);
    if (s3 == std::string_view::npos || s3 > tab) s3 = tab;
    en.oid = std::string(e.substr(s2 + 1, s3 - s2 - 1));
    std::string_view size = e.substr(s3, tab - s3);
    size.remove_prefix(std::min(size.size(), size.find_first_not_of(' ')));
    en.size = 0;
    for (char c : size) en.size = c >= '0' && c <= '9' ? en.size * 10 + static_cast<std::size_t>(c - '0') : en.size;
    en.path = std::string(e.substr(tab + 1));
    out.push_back(std::move(en));
  }
  return out;
}

// core.bigFileThreshold as git reads it (git_parse_ulong: digits and an optional k, m or g,
// any case, each a factor of 1024); nullopt for a value it would not read either.
std::optional<std::size_t> parse_size(std::string_view v) {
  std::size_t n = 0, i = 0;
  for (; i < v.size() && v[i] >= '0' && v[i] <= '9'; ++i) {
    if (n > (SIZE_MAX - 9) / 10) return std::nullopt;
    n = n * 10 + static_cast<std::size_t>(v[i] - '0');
  }
  if (i == 0) return std::nullopt;
  if (i == v.size()) return n;
  if (i + 1 != v.size()) return std::nullopt;
  int shift = 0;
  switch (v[i]) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    default: return std::nullopt;
  }
  if (n > (SIZE_MAX >> shift)) return std::nullopt;
  return n << shift;
}

// What the diff of a text blob added whole says: its line count and the bytes parse_unified_diff
// counts against max_file_bytes (each line without the CR before its end, plus one).
struct TextShape {
  int lines = 0;
  std::size_t bytes = 0;
};

TextShape shape_of(std::string_view text) {
  TextShape s;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t nl = text.find('\n', pos);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::size_t len = end - pos;
    if (len > 0 && text[end - 1] == '\r') --len;
    ++s.lines;
    s.bytes += len + 1;
    pos = end + 1;
  }
  return s;
}

}  // namespace

std::optional<AuditTree> audit_tree_files(const std::string& repo, const std::string& head_sha,
                                          const std::string& empty_tree_sha, std::size_t max_file_bytes,
                                          std::size_t keep_bytes) {
  AuditTree out;
  // git-config(1): a `diff.default.*` setting changes how every file is diffed, and in a partial
  // clone (a promisor remote) cat-file would fetch the missing blobs one by one where git diff
  // fetches them in one batch: leave both to git diff. A driver's `diff.<driver>.binary` decides
  // for the files whose `diff` attribute names it; with --no-textconv and --no-ext-diff nothing
  // else of a driver changes a new file's diff (its hunk starts at line 1: no function context).
  std::size_t big_file = kBigFileThreshold;
  std::set<std::string, std::less<>> binary_drivers;
  {
    ProcessResult r = run_git(repo, {"config", "-z", "--get-regexp",
                                     "^(core\\.bigfilethreshold|diff\\..*|extensions\\.partialclone|remote\\..*\\.promisor)$"});
    if (r.exit_code != 0 && r.exit_code != 1) git_failed(repo, "config", r);
    for (std::string_view kv : nul_fields(r.out)) {
      std::size_t nl = kv.find('\n');
      std::string_view key = kv.substr(0, nl);
      if (key.rfind("diff.default.", 0) == 0 || key == "extensions.partialclone" ||
          (key.rfind("remote.", 0) == 0 && key.size() > 9 && key.substr(key.size() - 9) == ".promisor"))
        return std::nullopt;
      // "diff.<driver>.binary" (the subsection keeps its case, as attributes name it)
      if (key.rfind("diff.", 0) == 0 && key.size() > 12 && key.substr(key.size() - 7) == ".binary")
        binary_drivers.emplace(key.substr(5, key.size() - 12));
      if (key == "core.bigfilethreshold") {
        auto v = parse_size(nl == std::string_view::npos ? std::string_view() : kv.substr(nl + 1));
        if (!v) return std::nullopt;
        big_file = *v;  // the last one wins, as git reads it
      }
    }
  }
  std::vector<Entry> entries = list_tree(repo, head_sha);

  // The `diff` attribute of every blob, as git diff reads attributes (git-check-attr(1), -z:
  // "<path> NUL <attribute> NUL <info> NUL" per path).
  std::unordered_map<std::string_view, std::string> diff_attr;
  {
    std::string paths;
    for (const Entry& e : entries) {
      paths += e.path;
      paths.push_back('\0');
    }
    ProcessResult r = run_git(repo, {"check-attr", "-z", "--stdin", "diff"}, std::move(paths));
    if (r.exit_code != 0) git_failed(repo, "check-attr", r);
    std::vector<std::string_view> f = nul_fields(r.out);
    std::unordered_map<std::string_view, const Entry*> by_path;
    for (const Entry& e : entries) by_path.emplace(e.path, &e);
    for (std::size_t i = 0; i + 2 < f.size(); i += 3)
      if (auto it = by_path.find(f[i]); it != by_path.end()) diff_attr[it->first] = std::string(f[i + 2]);
  }

  std::vector<std::optional<ChangedFile>> files(entries.size());
  std::vector<std::size_t> to_git;   // entries git diff settles
  std::vector<std::size_t> to_read;  // entries whose blob is read here, in order
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    auto attr = diff_attr.find(e.path);
    const std::string value = attr == diff_attr.end() ? std::string("unspecified") : attr->second;
    const bool plain_mode = e.mode == "100644" || e.mode == "100755" || e.mode == "120000";
    if (e.type != "blob" || !plain_mode || binary_drivers.count(value) > 0 ||
        e.size > big_file || !path_problem(e.path).empty()) {
      to_git.push_back(i);
      continue;
    }
    ChangedFile f;
    f.path = e.path;
    f.status = FileStatus::Added;
    f.new_mode = e.mode;
    if (value == "unset") {
      f.binary = f.skipped = true;
      f.skip_reason = "binary file";
    } else {
      to_read.push_back(i);
    }
    files[i] = std::move(f);
  }
  if (!to_read.empty()) {
    std::vector<std::string> oids;
    oids.reserve(to_read.size());
    for (std::size_t i : to_read) oids.push_back(entries[i].oid);
    CatFileBatch batch(repo);
    batch.objects(oids, [&](std::size_t k, std::optional<std::string> text) {
      const Entry& e = entries[to_read[k]];
      ChangedFile& f = *files[to_read[k]];
      if (!text) throw InputError{repo, "git cat-file cannot read " + e.oid + " (" + excerpt(e.path) + ")"};
      if (std::memchr(text->data(), '\0', std::min(text->size(), kFirstFewBytes)) != nullptr) {
        f.binary = f.skipped = true;
        f.skip_reason = "binary file";
        return;
      }
      const TextShape shape = shape_of(*text);
      f.added_count = shape.lines;
      if (shape.lines == 0) return;
      if (shape.bytes > max_file_bytes) {
        f.skipped = true;
        f.skip_reason = "diff larger than " + std::to_string(max_file_bytes) + " bytes";
        return;
      }
      Hunk h;
      h.new_start = 1;
      h.new_count = shape.lines;
      h.elided = true;
      f.hunks.push_back(std::move(h));
      for (int l = 1; l <= shape.lines; ++l) f.added_lines.insert(l);
      if (text->size() <= keep_bytes) {
        keep_bytes -= text->size();
        out.head_texts.emplace(e.path, std::move(*text));
      }
    });
  }

  if (!to_git.empty()) {
    DiffOptions dopts;
    dopts.max_file_bytes = max_file_bytes;
    dopts.elide_added_files = true;
    std::unordered_map<std::string, ChangedFile> settled;
    for (std::size_t from = 0; from < to_git.size(); from += kPathsPerDiff) {
      std::vector<std::string> args{"--literal-pathspecs"};
      for (std::string& a : diff_arguments(empty_tree_sha, head_sha)) args.push_back(std::move(a));
      args.push_back("--");
      for (std::size_t k = from; k < std::min(to_git.size(), from + kPathsPerDiff); ++k)
        args.push_back(entries[to_git[k]].path);
      ProcessResult r = run_git(repo, std::move(args));
      if (r.exit_code != 0) git_failed(repo, "diff", r);
      for (ChangedFile& f : parse_unified_diff(r.out, "git diff " + empty_tree_sha.substr(0, 12) + " " +
                                                          head_sha.substr(0, 12), dopts))
        settled.emplace(f.path, std::move(f));
    }
    for (std::size_t i : to_git)
      if (auto it = settled.find(entries[i].path); it != settled.end()) files[i] = std::move(it->second);
  }

  out.files.reserve(files.size());
  for (auto& f : files)
    if (f) out.files.push_back(std::move(*f));
  return out;
}

}  // namespace review::change
