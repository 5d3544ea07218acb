#include "runner/cli/policy.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "runner/change/change.hpp"
#include "runner/change/process.hpp"

namespace review::cli {
namespace fs = std::filesystem;

namespace {

bool under(const fs::path& p, const fs::path& dir) {
  auto rel = p.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

fs::path canonical_or_self(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return ec ? p.lexically_normal() : c;
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

PolicySource::PolicySource(std::string repo, std::string rev) : repo_(std::move(repo)), rev_(std::move(rev)) {
  std::error_code ec;
  fs::path base = fs::absolute(repo_.empty() ? fs::path(".") : fs::path(repo_), ec).lexically_normal();
  top_ = canonical_or_self(base).string();
  if (!rev_.empty()) {
    change::ProcessResult r;
    try {
      r = change::run_process({"git", "-C", base.string(), "rev-parse", "--show-toplevel"});
    } catch (const change::InputError& e) {
      throw PolicyError{"cannot read the review policy from " + rev_ + ": " + e.message};
    }
    if (r.exit_code != 0)
      throw PolicyError{"cannot read the review policy from " + rev_ + ": " + base.string() +
                        " is not a git repository (" + first_line(r.err) + ")"};
    std::string top = first_line(r.out);
    top_ = canonical_or_self(top).string();
  }
}

std::optional<std::string> PolicySource::relative(const std::string& path) const {
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec).lexically_normal();
  // The parent folder resolved (a link in it is the repository's business), the name kept: a
  // policy file that is itself a link is judged by read().
  fs::path p = canonical_or_self(abs.parent_path()) / abs.filename();
  if (!under(p, top_)) return std::nullopt;
  return p.lexically_relative(top_).generic_string();
}

std::string PolicySource::display(const std::string& path) const {
  if (rev_.empty()) return path;
  auto rel = relative(path);
  return rel ? *rel : path;
}

std::optional<std::string> PolicySource::read(const std::string& path) {
  auto rel = relative(path);
  if (rel) paths_.insert(*rel);
  if (!rev_.empty() && rel) {
    change::ProcessResult r;
    try {
      r = change::run_process({"git", "--literal-pathspecs", "-C", top_, "ls-tree", "-z", rev_, "--", *rel});
    } catch (const change::InputError& e) {
      throw PolicyError{*rel + ": cannot read it from " + rev_ + ": " + e.message};
    }
    if (r.exit_code != 0)
      throw PolicyError{*rel + ": cannot read it from " + rev_ + ": " + first_line(r.err)};
    if (r.out.empty()) return std::nullopt;  // not in that commit
    // "<mode> SP <type> SP <object> TAB <path> NUL" (git-ls-tree(1), OUTPUT FORMAT)
    std::string mode = r.out.substr(0, r.out.find(' '));
    std::size_t t = r.out.find(' ') + 1;
    std::string type = r.out.substr(t, r.out.find(' ', t) - t);
    std::size_t o = r.out.find(' ', t) + 1;
    std::string object = r.out.substr(o, r.out.find('\t', o) - o);
    if (mode == "120000")
      throw PolicyError{*rel + ": is a symbolic link at " + rev_ +
                        "; the review policy is read only from regular files (a link could read files "
                        "outside the repository)"};
    if (type != "blob") return std::nullopt;
    r = change::run_process({"git", "-C", top_, "cat-file", "blob", object});
    if (r.exit_code != 0) throw PolicyError{*rel + ": cannot read it from " + rev_ + ": " + first_line(r.err)};
    return r.out;
  }
  // The file system. A path inside the repository folder must stay inside it when resolved.
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec).lexically_normal();
  fs::path parent = canonical_or_self(abs.parent_path());
  bool inside = under(abs, top_) || under(parent / abs.filename(), top_);
  auto st = fs::symlink_status(abs, ec);
  if (ec || !fs::exists(st)) return std::nullopt;
  fs::path real = canonical_or_self(abs);
  if (inside && !under(real, top_))
    throw PolicyError{path + ": is a symbolic link (or lies in a linked folder) that leads out of the repository, to " +
                      real.string() + "; refusing to read it"};
  if (fs::is_symlink(st) && !inside)
    throw PolicyError{path + ": is a symbolic link; name the file it points to"};
  if (!fs::is_regular_file(real, ec)) return std::nullopt;
  std::ifstream in(real, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace review::cli
