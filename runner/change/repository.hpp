// Another repository read as a fact scope (`--with aiter=../aiter@3f2a1c0`, `repos:` in
// .github/review.yml): what the command line names, where its revision is pinned, and the
// change (with no changed files) whose head is that revision.
#pragma once

#include <optional>
#include <string>

#include "runner/change/change.hpp"

namespace review::change {

/// `NAME=PATH[@REV]` as given to --with.
struct WithSpec {
  std::string name;   ///< [A-Za-z_][A-Za-z0-9_]*: the ruleset's `let NAME = repo …`
  std::string path;   ///< folder (a git work tree, a bare repository or a plain folder)
  std::string rev;    ///< "" = the pin the ruleset names, else HEAD
  std::string origin = "--with";  ///< where it was given: "--with" or the configuration file
};

/// Parses `NAME=PATH[@REV]`; the revision is what follows the last '@' when that '@' comes after
/// the last '/' (so `../a@b/c` is a path). Throws std::invalid_argument ("--with `x`: expected
/// NAME=PATH[@REV] …") when the name is missing or not an identifier, or the path is empty.
WithSpec parse_with(const std::string& spec);

/// Returns the revision that `pattern` (RE2) finds in `text`: its group named `rev`, else its
/// first group, of the first match; nullopt when it does not match, the group is empty, or the
/// pattern does not compile. The revision is trimmed of spaces and quotes.
std::optional<std::string> find_pin(const std::string& text, const std::string& pattern);

/// Loads folder `path` as a change with no changed files whose head is `rev`: a git repository
/// (work tree or bare) is read from its objects at `rev` (HEAD when empty; pr.head_sha and
/// pr.base_sha are the full commit id), a plain folder from its files (`rev` must be empty).
/// Throws InputError{path, …} when the folder does not exist, the revision is unknown (with the
/// hint of resolve_revision), or a revision is given for a folder that is not a git repository.
Change load_repository(const std::string& path, const std::string& rev);

}  // namespace review::change
