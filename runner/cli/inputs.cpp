#include "runner/cli/inputs.hpp"

#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <stdexcept>
#include <utility>

#include "runner/change/diff_file.hpp"
#include "runner/change/folders.hpp"
#include "runner/change/git.hpp"
#include "runner/change/pr_meta.hpp"

namespace review::cli {

std::string Environment::get(const std::string& name) const {
  auto it = vars.find(name);
  return it == vars.end() ? std::string() : it->second;
}

Environment environment_from_process(const std::vector<std::string>& extra) {
  Environment env;
  for (const char* name : {"GITHUB_ACTIONS", "GITHUB_EVENT_PATH", "GITHUB_WORKSPACE", "GITHUB_REPOSITORY",
                           "GITHUB_API_URL", "GITHUB_GRAPHQL_URL", "GITHUB_SERVER_URL", "GITHUB_STEP_SUMMARY",
                           "GITHUB_TOKEN", "NO_COLOR", "GITHUB_SHA", "GITHUB_WORKFLOW", "GITHUB_JOB"}) {
    if (const char* v = std::getenv(name)) env.vars[name] = v;
  }
  for (const auto& name : extra)
    if (const char* v = name.empty() ? nullptr : std::getenv(name.c_str())) env.vars[name] = v;
  return env;
}

namespace {

// Runs `read`; an input error it throws about `path` names the option that gave it
// (`--pr nope.json: cannot read: ...`, not `nope.json: ...`), so the user knows which to fix.
template <class Read>
decltype(auto) from_option(const std::string& option, const std::string& path, Read&& read) {
  try {
    return read();
  } catch (change::InputError& e) {
    if (e.where == path) e.where = option + " " + path;
    throw;
  }
}

// Throws std::invalid_argument "<mode>; it cannot be combined with <flag><advice>" for the first
// flag of `conflicts` that was given.
void refuse_with(const char* mode, std::initializer_list<std::pair<bool, const char*>> conflicts,
                 const char* advice = "") {
  for (const auto& [given, flag] : conflicts)
    if (given) throw std::invalid_argument(std::string(mode) + "; it cannot be combined with " + flag + advice);
}

}  // namespace

change::Change load_change(const InputOptions& opts, const Environment& env) {
  const bool in_actions = env.get("GITHUB_ACTIONS") == "true";
  if (opts.all)
    refuse_with("--all reviews every file of the head",
                {{!opts.base.empty(), "--base"},
                 {!opts.diff.empty(), "--diff"},
                 {!opts.base_dir.empty(), "--base-dir"},
                 {!opts.head_dir.empty(), "--head-dir"},
                 {!opts.event.empty(), "--event"}});
  // The work tree is the head: a head revision or another input would be silently ignored.
  if (opts.work_tree)
    refuse_with("--work-tree reviews the work tree as the head",
                {{!opts.head.empty(), "--head"},
                 {!opts.diff.empty(), "--diff"},
                 {!opts.base_dir.empty(), "--base-dir"},
                 {!opts.head_dir.empty(), "--head-dir"}},
                " (drop one of the two)");
  change::PrMeta meta;
  std::string event = opts.event;
  if (event.empty() && in_actions && !opts.all) event = env.get("GITHUB_EVENT_PATH");
  if (!event.empty())
    from_option(opts.event.empty() ? "$GITHUB_EVENT_PATH" : "--event", event, [&] { change::read_event_json(event, meta); });
  if (!opts.pr.empty()) from_option("--pr", opts.pr, [&] { change::read_gh_pr_json(opts.pr, meta); });

  const bool folders = !opts.base_dir.empty() || !opts.head_dir.empty();
  if (folders && (opts.base_dir.empty() || opts.head_dir.empty()))
    throw std::invalid_argument("--base-dir and --head-dir go together");
  if (folders && !opts.diff.empty()) throw std::invalid_argument("--diff cannot be combined with --base-dir/--head-dir");

  change::Change c;
  change::DiffOptions dopts;
  dopts.max_file_bytes = opts.max_file_bytes;  // --max-file-size holds in every input mode
  if (folders) {
    c = from_option("--base-dir", opts.base_dir, [&] {
      return from_option("--head-dir", opts.head_dir, [&] { return change::load_folder_change(opts.base_dir, opts.head_dir, dopts); });
    });
  } else if (!opts.diff.empty()) {
    std::optional<std::string> repo;
    if (!opts.repo.empty()) repo = opts.repo;
    c = from_option("--diff", opts.diff, [&] {
      return change::load_diff_change(opts.diff, repo, opts.head.empty() ? "HEAD" : opts.head, dopts, opts.max_diff_bytes);
    });
  } else {
    change::GitOptions g;
    g.repo = !opts.repo.empty() ? opts.repo : (in_actions && !env.get("GITHUB_WORKSPACE").empty() ? env.get("GITHUB_WORKSPACE") : ".");
    g.base = opts.base;
    g.head = opts.head;
    // The revisions of an event payload, or of `gh pr view --json baseRefOid,headRefOid` (--pr);
    // --base/--head win.
    const bool meta_revisions = in_actions || !opts.event.empty() || !opts.pr.empty();
    if (g.base.empty() && !meta.base_sha.empty() && meta_revisions && !opts.all) g.base = meta.base_sha;
    if (g.head.empty() && !meta.head_sha.empty() && meta_revisions && !opts.work_tree) g.head = meta.head_sha;
    g.work_tree = opts.work_tree || (g.base.empty() && g.head.empty() && !in_actions && !opts.all);
    g.all = opts.all;
    g.max_file_bytes = opts.max_file_bytes;
    g.own_outputs = opts.own_outputs;
    c = change::load_git_change(g);
    c.work_tree = g.work_tree;
    c.audit = g.all;
    // Two revisions with no pull request behind them: the head commit's message stands in for the
    // title and body, so rules about the description judge what the author wrote, not empty
    // text. --title/--body (below) win; a title or body from --event or --pr means a pull request.
    if (!g.work_tree && !g.all && meta.title.empty() && meta.body.empty() && (!opts.title || !opts.body)) {
      if (auto msg = change::commit_message(g.repo, c.pr.head_sha)) {
        c.pr.title = msg->first;
        c.pr.body = msg->second;
        c.notes.push_back(std::string("the pull-request ") +
                          (opts.title ? "body is" : opts.body ? "title is" : "title and body are") +
                          " the head commit's message (" + c.pr.head_sha.substr(0, 12) +
                          "); --title and --body set them");
      }
    }
  }

  // Metadata read from files overrides what the loader derived (shas stay if files lack them).
  auto keep = [](std::string& into, const std::string& v) { if (!v.empty()) into = v; };
  keep(c.pr.title, meta.title);
  keep(c.pr.body, meta.body);
  keep(c.pr.author, meta.author);
  keep(c.pr.url, meta.url);
  keep(c.pr.base_ref, meta.base_ref);
  keep(c.pr.head_ref, meta.head_ref);
  keep(c.pr.base_sha, meta.base_sha);
  keep(c.pr.head_sha, meta.head_sha);
  keep(c.pr.repository, meta.repository);
  if (meta.number) c.pr.number = meta.number;
  if (meta.commits) c.pr.commits = meta.commits;
  if (!meta.labels.empty()) c.pr.labels = meta.labels;
  if (c.pr.repository.empty()) c.pr.repository = env.get("GITHUB_REPOSITORY");
  if (opts.title) c.pr.title = *opts.title;
  if (opts.body) c.pr.body = *opts.body;
  for (const auto& l : opts.labels) c.pr.labels.push_back(l);
  return c;
}

std::optional<std::string> default_config_path(const std::string& repo) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = fs::absolute(repo.empty() ? fs::path(".") : fs::path(repo), ec);
  if (ec) return std::nullopt;
  dir = dir.lexically_normal();
  if (dir.has_filename() == false && dir.has_parent_path()) dir = dir.parent_path();  // "a/b/" -> "a/b"
  for (;;) {
    if (fs::exists(dir / ".git", ec)) {
      fs::path cfg = dir / ".github" / "review.yml";
      fs::path cwd = fs::current_path(ec);
      if (!ec) {
        fs::path rel = cfg.lexically_relative(cwd);
        if (!rel.empty() && *rel.begin() != "..") return rel.generic_string();
      }
      return cfg.string();
    }
    if (!dir.has_parent_path() || dir.parent_path() == dir) return std::nullopt;
    dir = dir.parent_path();
  }
}

}  // namespace review::cli
