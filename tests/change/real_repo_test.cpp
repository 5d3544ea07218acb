// Hidden by default ([.real]): compares the change model with `git diff --numstat` on a real
// repository. Run with
//   REVIEW_REAL_REPO=/path/to/checkout REVIEW_REAL_CASES=dev-cases.tsv REVIEW_REAL_NAME=owner/name
//     tests_change "[.real]"
// The cases file is tab-separated with columns id, repo, base_sha, head_sha, ...; every distinct
// (base, head) pair of rows whose repo equals REVIEW_REAL_NAME is checked (at most
// REVIEW_REAL_LIMIT, default 4). Nothing from the repository is stored.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "catch.hpp"
#include "runner/change/git.hpp"
#include "runner/change/patch.hpp"
#include "runner/change/process.hpp"

using namespace review::change;

namespace {

std::string env(const char* name, const char* fallback = "") {
  const char* v = std::getenv(name);
  return v ? v : fallback;
}

/// path → (added, removed); -1 for binary. From `git diff --numstat -z -M`.
std::map<std::string, std::pair<int, int>> numstat(const std::string& repo, const std::string& base,
                                                   const std::string& head) {
  ProcessResult r = run_process({"git", "-C", repo, "diff", "--numstat", "-z", "-M", base, head});
  std::map<std::string, std::pair<int, int>> out;
  std::vector<std::string> fields;
  std::size_t pos = 0;
  while (pos < r.out.size()) {
    std::size_t z = r.out.find('\0', pos);
    if (z == std::string::npos) z = r.out.size();
    fields.push_back(r.out.substr(pos, z - pos));
    pos = z + 1;
  }
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    std::size_t t1 = f.find('\t'), t2 = f.find('\t', t1 + 1);
    if (t1 == std::string::npos || t2 == std::string::npos) continue;
    std::string a = f.substr(0, t1), d = f.substr(t1 + 1, t2 - t1 - 1), path = f.substr(t2 + 1);
    if (path.empty()) {  // rename: old and new follow as their own fields
      path = fields.at(i + 2);
      i += 2;
    }
    out[path] = a == "-" ? std::pair{-1, -1} : std::pair{std::stoi(a), std::stoi(d)};
  }
  return out;
}

}  // namespace

TEST_CASE("real repository: per-file counts equal git diff --numstat", "[.real]") {
  std::string repo = env("REVIEW_REAL_REPO"), cases = env("REVIEW_REAL_CASES");
  std::string name = env("REVIEW_REAL_NAME", "ROCm/ATOM");
  int limit = std::stoi(env("REVIEW_REAL_LIMIT", "4"));
  REQUIRE(!repo.empty());
  std::ifstream in(cases);
  REQUIRE(in);
  std::set<std::pair<std::string, std::string>> seen;
  std::string line;
  while (std::getline(in, line) && static_cast<int>(seen.size()) < limit) {
    std::vector<std::string> col;
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, '\t')) col.push_back(c);
    if (col.size() < 4 || col[1] != name || !seen.insert({col[2], col[3]}).second) continue;
    const std::string &base = col[2], &head = col[3];
    GitOptions o;
    o.repo = repo;
    o.base = base;
    o.head = head;
    Change ch = load_git_change(o);
    auto want = numstat(repo, base, head);
    int files = 0, same = 0, added = 0, removed = 0, rebuilt = 0;
    for (const ChangedFile& f : ch.files) {
      ++files;
      auto it = want.find(f.path);
      INFO(col[0] << " " << f.path);
      REQUIRE(it != want.end());
      std::pair<int, int> got = f.binary ? std::pair{-1, -1} : std::pair{f.added_count, f.removed_count};
      CHECK(got == it->second);
      if (got == it->second) ++same;
      added += f.added_count;
      removed += f.removed_count;
      // The base rebuilt from head by reversing the hunks equals git's base blob.
      if (!f.binary && !f.skipped && !f.submodule && f.status != FileStatus::Added && f.status != FileStatus::Deleted) {
        auto h = ch.content->head(f.path), b = ch.content->base(f.old_path);
        REQUIRE(h);
        REQUIRE(b);
        CHECK(apply_patch(*h, f, PatchDirection::Reverse, f.path) == *b);
        CHECK(apply_patch(*b, f, PatchDirection::Forward, f.path) == *h);
        ++rebuilt;
      }
    }
    CHECK(files == static_cast<int>(want.size()));
    std::cout << col[0] << " " << base.substr(0, 10) << ".." << head.substr(0, 10) << ": " << files
              << " files (numstat " << want.size() << "), " << same << " with equal counts, +"
              << added << " -" << removed << ", " << rebuilt << " bases rebuilt by reverse patch\n";
  }
  CHECK(!seen.empty());
}
