// Helpers shared by the change-model tests.
#pragma once

#include <fstream>
#include <stdexcept>
#include <sstream>
#include <string>

namespace review::change::test {

inline std::string fixture_path(const std::string& name) {
  return std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/change/" + name;
}

inline std::string read_fixture(const std::string& name) {
  std::ifstream in(fixture_path(name), std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace review::change::test

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "runner/change/change.hpp"
#include "runner/change/process.hpp"

namespace review::change::test {

/// A fresh folder under $TMPDIR, removed with everything in it at scope exit.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "review-change-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string str() const { return path.string(); }
};

inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

/// Runs git in `repo` with a fixed identity; throws when git fails. Returns stdout.
inline std::string git(const std::string& repo, std::vector<std::string> args) {
  std::vector<std::string> argv{"git", "-C", repo, "-c", "user.name=Test", "-c",
                                "user.email=test@example.com", "-c", "commit.gpgsign=false"};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessResult r = run_process(argv);
  if (r.exit_code != 0) throw std::runtime_error("git failed: " + r.err);
  return r.out.substr(0, r.out.find('\n'));
}

/// A repository in a temp folder on branch `main` (no commits yet).
struct TempRepo : TempDir {
  TempRepo() { git(str(), {"init", "-q", "-b", "main"}); }
  void write(const std::string& rel, const std::string& text) { write_file(path / rel, text); }
  /// Stages everything and commits; returns the new commit id.
  std::string commit(const std::string& message) {
    git(str(), {"add", "-A"});
    git(str(), {"commit", "-q", "--allow-empty", "-m", message});
    return git(str(), {"rev-parse", "HEAD"});
  }
};

}  // namespace review::change::test
