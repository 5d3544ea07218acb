#include "runner/change/repository.hpp"

#include <filesystem>
#include <memory>
#include <stdexcept>

#include <re2/re2.h>

#include "runner/change/folders.hpp"
#include "runner/change/git.hpp"

namespace review::change {
namespace {

bool identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

bool inside_git(const std::string& path) {
  std::error_code ec;
  namespace fs = std::filesystem;
  if (fs::exists(fs::path(path) / ".git", ec)) return true;
  // A bare repository: HEAD, objects/ and refs/ at its top.
  return fs::is_regular_file(fs::path(path) / "HEAD", ec) && fs::is_directory(fs::path(path) / "objects", ec) &&
         fs::is_directory(fs::path(path) / "refs", ec);
}

}  // namespace

WithSpec parse_with(const std::string& spec) {
  auto eq = spec.find('=');
  auto bad = [&](const std::string& why) {
    return std::invalid_argument("--with `" + spec + "`: " + why +
                                 " (expected NAME=PATH[@REV], e.g. aiter=../aiter or aiter=../aiter@3f2a1c0)");
  };
  if (eq == std::string::npos) throw bad("no `=`");
  WithSpec w;
  w.name = spec.substr(0, eq);
  if (!identifier(w.name)) throw bad("the name must be a ruleset's `let NAME = repo` name (letters, digits, _)");
  std::string rest = spec.substr(eq + 1);
  auto at = rest.rfind('@');
  auto slash = rest.rfind('/');
  if (at != std::string::npos && (slash == std::string::npos || at > slash)) {
    w.rev = rest.substr(at + 1);
    rest = rest.substr(0, at);
    if (w.rev.empty()) throw bad("empty revision after `@`");
  }
  if (rest.empty()) throw bad("empty path");
  w.path = rest;
  return w;
}

std::optional<std::string> find_pin(const std::string& text, const std::string& pattern) {
  re2::RE2::Options o;
  o.set_log_errors(false);
  re2::RE2 re(pattern, o);
  if (!re.ok() || re.NumberOfCapturingGroups() < 1) return std::nullopt;
  int group = 1;
  if (auto it = re.NamedCapturingGroups().find("rev"); it != re.NamedCapturingGroups().end()) group = it->second;
  std::vector<re2::StringPiece> m(static_cast<size_t>(re.NumberOfCapturingGroups()) + 1);
  if (!re.Match(text, 0, text.size(), re2::RE2::UNANCHORED, m.data(), static_cast<int>(m.size()))) return std::nullopt;
  std::string rev(m[static_cast<size_t>(group)].data() ? std::string(m[static_cast<size_t>(group)]) : std::string());
  auto keep = [](char c) { return c != ' ' && c != '\t' && c != '"' && c != '\'' && c != '\r' && c != '\n'; };
  size_t b = 0, e = rev.size();
  while (b < e && !keep(rev[b])) ++b;
  while (e > b && !keep(rev[e - 1])) --e;
  rev = rev.substr(b, e - b);
  if (rev.empty()) return std::nullopt;
  return rev;
}

Change load_repository(const std::string& path, const std::string& rev) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) throw InputError{path, "not a folder"};
  Change c;
  if (inside_git(path)) {
    std::string sha = resolve_revision(path, rev.empty() ? "HEAD" : rev);
    c.pr.base_sha = sha;
    c.pr.head_sha = sha;
    c.content = std::make_shared<GitContent>(path, sha, sha, false);
  } else {
    if (!rev.empty())
      throw InputError{path, "not a git repository, so revision \"" + rev + "\" cannot be read; pass the folder without @REV"};
    c.content = std::make_shared<FolderContent>(path, path);
  }
  return c;
}

}  // namespace review::change
