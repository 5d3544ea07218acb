#include "runner/change/git.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "runner/change/audit_tree.hpp"
#include "runner/change/diff_parser.hpp"
#include "runner/change/memory.hpp"

namespace review::change {

namespace {

std::string first_line(const std::string& s) {
  std::size_t nl = s.find('\n');
  return excerpt(nl == std::string::npos ? s : s.substr(0, nl), 200);
}

std::vector<std::string> split_nul(const std::string& s) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t z = s.find('\0', pos);
    if (z == std::string::npos) z = s.size();
    if (z > pos) out.push_back(s.substr(pos, z - pos));
    pos = z + 1;
  }
  return out;
}

// True when `p` is the same file on disk as one of `outputs` (paths as given on the command line).
bool is_own_output(const std::filesystem::path& p, const std::vector<std::string>& outputs) {
  for (const std::string& o : outputs) {
    std::error_code ec;
    if (!o.empty() && o != "-" && std::filesystem::equivalent(p, o, ec) && !ec) return true;
  }
  return false;
}

// The format of a report an earlier run wrote ("JSON", "SARIF", "rdjson"), recognised by the
// tool it names (runner/report: json.cpp's `tool`, sarif.cpp's `runs[].tool.driver`, rdjson.cpp's
// `source`); nullopt for any other text. Only a text that starts as a JSON object, and of at most
// 256 MiB, is parsed (nlohmann_json parses and frees nested values without recursion: any depth is
// safe).
std::optional<std::string> earlier_report(std::string_view text) {
  if (text.size() > (std::size_t{256} << 20)) return std::nullopt;
  const size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || text[start] != '{') return std::nullopt;
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return std::nullopt;
  auto names_us = [](const nlohmann::json& o, const char* key) {
    auto it = o.find(key);
    if (it == o.end() || !it->is_object()) return false;
    auto name = it->find("name");
    return name != it->end() && name->is_string() && name->get<std::string>() == "review-action";
  };
  if (names_us(j, "tool")) return "JSON";
  if (names_us(j, "source")) return "rdjson";
  if (auto runs = j.find("runs"); runs != j.end() && runs->is_array())
    for (const auto& run : *runs)
      if (run.is_object() && run.contains("tool") && run["tool"].is_object() && names_us(run["tool"], "driver"))
        return "SARIF";
  return std::nullopt;
}

std::optional<std::string> read_file(const std::filesystem::path& p) {
  std::error_code ec;
  // A symbolic link is read as git stores it, as the path it holds: never followed (it could
  // lead out of the work tree, to the runner's own files).
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(p, ec))) {
    auto target = std::filesystem::read_symlink(p, ec);
    if (ec) return std::nullopt;
    return target.string();
  }
  if (!std::filesystem::is_regular_file(p, ec)) return std::nullopt;
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return std::move(ss).str();
}

void check_repository(const std::string& repo) {
  std::error_code ec;
  if (!std::filesystem::is_directory(repo, ec))
    throw InputError{repo, std::filesystem::exists(repo, ec) ? "not a folder (--repo takes the repository's folder)"
                                                             : "no such folder (--repo takes the repository's folder)"};
  ProcessResult r = run_git(repo, {"rev-parse", "--git-dir"});
  if (r.exit_code != 0)
    throw InputError{repo, "not a git repository (pass --repo DIR, or compare two folders with --base-dir/--head-dir, "
                           "or review a patch with --diff FILE)"};
}

std::optional<std::string> try_resolve(const std::string& repo, const std::string& rev) {
  ProcessResult r =
      run_git(repo, {"rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"});
  if (r.exit_code != 0) return std::nullopt;
  std::string sha = r.out.substr(0, r.out.find('\n'));
  if (sha.empty()) return std::nullopt;
  return sha;
}

/// An untracked work-tree file as an Added ChangedFile.
ChangedFile untracked_file(const std::string& path, const std::string& text, std::size_t max_bytes) {
  std::string_view probe(text.data(), std::min<std::size_t>(text.size(), 8000));
  if (probe.find('\0') != std::string_view::npos) {  // git's own binary test (buffer_is_binary)
    ChangedFile f;
    f.path = path;
    f.status = FileStatus::Added;
    f.binary = f.skipped = true;
    f.skip_reason = "binary file";
    return f;
  }
  ChangedFile f = std::move(make_snippet_change(path, text).files.front());
  if (text.size() > max_bytes) {
    f.hunks.clear();
    f.added_lines.clear();
    f.skipped = true;
    f.skip_reason = "diff larger than " + std::to_string(max_bytes) + " bytes";
  }
  return f;
}

}  // namespace

GitContent::GitContent(std::string repo, std::string base_sha, std::string head_sha, bool work_tree,
                       std::vector<std::string> left_out)
    : repo_(std::move(repo)), base_sha_(std::move(base_sha)), head_sha_(std::move(head_sha)),
      work_tree_(work_tree), left_out_(std::move(left_out)) {}

void GitContent::list(const std::string& rev, Listing& listing) {
  if (listing.listed) return;
  listing.listed = true;
  // "<mode> SP <type> SP <object> TAB <path> NUL" per entry (git-ls-tree(1), OUTPUT FORMAT);
  // --full-tree: paths from the top of the tree, as `REV:PATH` reads them
  ProcessResult r = run_git(repo_, {"ls-tree", "-r", "-z", "--full-tree", "--end-of-options", rev});
  if (r.exit_code != 0) {
    listing_failed_ = true;
    return;
  }
  for (const std::string& entry : split_nul(r.out)) {
    std::size_t tab = entry.find('\t');
    std::size_t s1 = entry.find(' ');
    std::size_t s2 = s1 == std::string::npos ? s1 : entry.find(' ', s1 + 1);
    if (tab == std::string::npos || s2 == std::string::npos || s2 > tab) {  // not this format
      listing_failed_ = true;
      continue;
    }
    bool is_blob = entry.compare(s1 + 1, s2 - s1 - 1, "blob") == 0;
    listing.ids.emplace(entry.substr(tab + 1), is_blob ? entry.substr(s2 + 1, tab - s2 - 1) : std::string());
  }
}

std::optional<bool> GitContent::same_text(const std::string& path) {
  if (work_tree_ || path.empty()) return std::nullopt;
  std::lock_guard<std::mutex> lock(mutex_);
  list(head_sha_, head_listing_);
  list(base_sha_, base_listing_);
  if (listing_failed_) return std::nullopt;
  auto h = head_listing_.ids.find(path);
  auto b = base_listing_.ids.find(path);
  bool hb = h != head_listing_.ids.end() && !h->second.empty();
  bool bb = b != base_listing_.ids.end() && !b->second.empty();
  if (!hb && !bb) return std::nullopt;
  return hb && bb && h->second == b->second;
}

std::optional<std::string> GitContent::blob(const std::string& rev, const std::string& path, Listing& listing) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!batch_) batch_ = std::make_unique<CatFileBatch>(repo_);
  list(rev, listing);
  auto it = listing.ids.find(path);
  if (it == listing.ids.end()) {
    ++named_requests_;
    return batch_->blob(rev, path);
  }
  if (it->second.empty()) return std::nullopt;  // a submodule: `REV:PATH` is no blob either
  return batch_->object(it->second);
}

int GitContent::requests() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return batch_ ? batch_->requests() : 0;
}

int GitContent::named_requests() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return named_requests_;
}

std::optional<std::string> GitContent::head(const std::string& path) {
  if (path.empty()) return std::nullopt;
  if (work_tree_) {
    std::filesystem::path p = std::filesystem::path(repo_) / path;
    return read_file(p);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = kept_.find(path); it != kept_.end()) {
      std::string text = std::move(it->second);
      kept_.erase(it);
      return text;
    }
  }
  return blob(head_sha_, path, head_listing_);
}

void GitContent::keep(std::unordered_map<std::string, std::string> head_texts) {
  if (work_tree_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  kept_ = std::move(head_texts);
}

std::optional<std::string> GitContent::base(const std::string& path) {
  if (path.empty()) return std::nullopt;
  return blob(base_sha_, path, base_listing_);
}

std::vector<std::string> GitContent::head_files() {
  std::vector<std::string> files;
  if (work_tree_) {
    ProcessResult r = run_git(repo_, {"ls-files", "-z", "--cached", "--others", "--exclude-standard"});
    if (r.exit_code != 0) throw InputError{repo_, "git ls-files failed: " + first_line(r.err)};
    std::error_code ec;
    for (std::string& f : split_nul(r.out))
      if (std::filesystem::exists(std::filesystem::path(repo_) / f, ec) &&
          std::find(left_out_.begin(), left_out_.end(), f) == left_out_.end())
        files.push_back(std::move(f));
  } else {
    ProcessResult r = run_git(repo_, {"ls-tree", "-r", "-z", "--name-only", head_sha_});
    if (r.exit_code != 0) throw InputError{repo_, "git ls-tree failed: " + first_line(r.err)};
    files = split_nul(r.out);
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

ProcessResult run_git(const std::string& repo, std::vector<std::string> args, std::string input) {
  std::vector<std::string> argv{"git", "-C", repo};
  argv.insert(argv.end(), std::make_move_iterator(args.begin()), std::make_move_iterator(args.end()));
  ProcessOptions po;
  po.input = std::move(input);
  try {
    return run_process(argv, po);
  } catch (const InputError& e) {
    throw InputError{repo, "cannot run git: " + e.message};
  }
}

std::string resolve_revision(const std::string& repo, const std::string& rev) {
  check_repository(repo);
  if (auto sha = try_resolve(repo, rev)) return *sha;
  throw InputError{repo, "unknown revision \"" + excerpt(rev, 200) +
                           "\" (in a shallow clone, fetch more history: `git fetch --unshallow`, or "
                           "`fetch-depth: 0` in actions/checkout)"};
}

std::string empty_tree(const std::string& repo) {
  check_repository(repo);
  ProcessResult r = run_git(repo, {"hash-object", "-t", "tree", "--stdin"});
  std::string sha = r.out.substr(0, r.out.find('\n'));
  if (r.exit_code != 0 || sha.empty()) throw InputError{repo, "git hash-object failed: " + first_line(r.err)};
  return sha;
}

std::optional<std::pair<std::string, std::string>> commit_message(const std::string& repo, const std::string& sha) {
  try {
    ProcessResult r = run_git(repo, {"log", "-1", "--no-show-signature", "--format=%s%x00%b", sha, "--"});
    if (r.exit_code != 0) return std::nullopt;
    auto nul = r.out.find('\0');
    if (nul == std::string::npos) return std::nullopt;
    std::string subject = r.out.substr(0, nul), body = r.out.substr(nul + 1);
    while (!body.empty() && (body.back() == '\n' || body.back() == '\r' || body.back() == ' ')) body.pop_back();
    return std::make_pair(subject, body);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

std::string default_base(const std::string& repo, const std::string& head_sha) {
  for (const char* candidate : {"origin/HEAD", "main", "master"}) {
    if (!try_resolve(repo, candidate)) continue;
    ProcessResult r = run_git(repo, {"merge-base", candidate, head_sha});
    if (r.exit_code == 0) {
      std::string sha = r.out.substr(0, r.out.find('\n'));
      if (!sha.empty()) return sha;
    }
  }
  throw InputError{repo,
                   "no base revision given, and none of origin/HEAD, main, master shares history "
                   "with the head; pass a base revision"};
}

std::vector<std::string> diff_arguments(const std::string& base, const std::string& head) {
  std::vector<std::string> args{"-c", "core.quotepath=true", "diff", "--no-ext-diff", "--no-color",
                                "--no-textconv", "--no-relative", "-M", "--full-index",
                                "--src-prefix=a/", "--dst-prefix=b/", "--submodule=short", base};
  if (!head.empty()) args.push_back(head);
  return args;
}

Change load_git_change(const GitOptions& opts) {
  const std::string& repo = opts.repo;
  std::string head_sha = resolve_revision(repo, opts.work_tree || opts.head.empty() ? "HEAD" : opts.head);
  if (opts.all && !opts.base.empty())
    throw std::invalid_argument("--all compares the head with an empty tree; it takes no base revision");
  std::string base_sha = opts.all            ? empty_tree(repo)
                         : opts.base.empty() ? default_base(repo, head_sha)
                                             : resolve_revision(repo, opts.base);

  Change c;
  // An audit of a commit: every file is added whole and GitContent answers its head text (a
  // work tree may change between the diff and a later read), so its diff's text would only be
  // dropped; the tree listing says the same, for less (runner/change/audit_tree.hpp).
  std::optional<AuditTree> listed;
  if (opts.all && !opts.work_tree) listed = audit_tree_files(repo, head_sha, base_sha, opts.max_file_bytes);
  if (listed) {
    c.files = std::move(listed->files);
  } else {
    std::vector<std::string> args = diff_arguments(base_sha, opts.work_tree ? std::string() : head_sha);
    args.push_back("--");
    ProcessResult r = run_git(repo, args);
    if (r.exit_code != 0) throw InputError{repo, "git diff failed: " + first_line(r.err)};
    DiffOptions dopts;
    dopts.max_file_bytes = opts.max_file_bytes;
    dopts.elide_added_files = opts.all && !opts.work_tree;
    c.files = parse_unified_diff(r.out, "git diff " + base_sha.substr(0, 12) + " " +
                                            (opts.work_tree ? std::string("(work tree)") : head_sha.substr(0, 12)),
                                 dopts);
  }
  std::vector<std::string> left_out;
  if (opts.work_tree) {
    ProcessResult u = run_git(repo, {"ls-files", "-z", "--others", "--exclude-standard"});
    if (u.exit_code != 0) throw InputError{repo, "git ls-files failed: " + first_line(u.err)};
    for (const std::string& path : split_nul(u.out)) {
      if (is_own_output(std::filesystem::path(repo) / path, opts.own_outputs)) {
        c.notes.push_back(path + ": not reviewed (an untracked file this run writes its report to)");
        left_out.push_back(path);
        continue;
      }
      std::optional<std::string> text = read_file(std::filesystem::path(repo) / path);
      if (!text) continue;
      // An earlier run's report (written under another name than this run's): its rule texts
      // would be reviewed as code.
      if (auto format = earlier_report(*text)) {
        c.notes.push_back(path + ": not reviewed (an earlier run's " + *format +
                          " report; list it in .gitignore or delete it to keep this note away)");
        left_out.push_back(path);
        continue;
      }
      c.files.push_back(untracked_file(path, *text, opts.max_file_bytes));
    }
    c.notes.push_back(
        "head is the work tree: uncommitted changes and untracked files included (not those .gitignore lists: "
        "list an earlier report or a scratch file there to leave it out)");
  }
  for (const ChangedFile& f : c.files)
    if (f.skipped) c.notes.push_back(f.path + ": not analysed (" + f.skip_reason + ")");
  c.pr.base_sha = base_sha;
  c.pr.head_sha = head_sha;
  auto content = std::make_shared<GitContent>(repo, base_sha, head_sha, opts.work_tree, std::move(left_out));
  if (listed) content->keep(std::move(listed->head_texts));
  c.content = std::move(content);
  return c;
}

}  // namespace review::change
