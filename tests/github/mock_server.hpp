// Test helper: starts tests/github/mock_github.py as a child process on 127.0.0.1 and stops it.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

extern char** environ;

namespace review::test {

/// A fresh empty folder under the system temp folder, removed on destruction.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "review-gh-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// The real python3 interpreter (version managers' shims are slow to start), found once.
inline const std::string& python3_path() {
  static const std::string path = [] {
    std::string out;
    if (FILE* p = popen("python3 -c 'import sys; print(sys.executable)' 2>/dev/null", "r")) {
      char buf[512];
      while (fgets(buf, sizeof buf, p)) out += buf;
      pclose(p);
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out.empty() ? std::string("python3") : out;
  }();
  return path;
}

/// The mock GitHub API server, running for the lifetime of this object.
class MockGithub {
 public:
  /// `scenario`: the JSON scenario (see mock_github.py); null = default behaviour.
  explicit MockGithub(const nlohmann::json& scenario = nullptr) {
    log_ = dir_.path() / "requests.jsonl";
    std::vector<std::string> args = {"python3", std::string(REVIEW_SOURCE_DIR) + "/tests/github/mock_github.py",
                                     "--log", log_.string()};
    if (!scenario.is_null()) {
      auto file = dir_.path() / "scenario.json";
      std::ofstream(file) << scenario.dump();
      args.push_back("--scenario");
      args.push_back(file.string());
    }
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    int rc = posix_spawnp(&pid_, python3_path().c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    if (rc != 0) {
      close(out[0]);
      throw std::runtime_error("cannot start python3 for the mock server");
    }
    // Read "PORT n\n" within 10 s.
    std::string line;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      pollfd p{out[0], POLLIN, 0};
      if (poll(&p, 1, 100) > 0) {
        char buf[64];
        ssize_t n = read(out[0], buf, sizeof buf);
        if (n <= 0) break;
        line.append(buf, static_cast<size_t>(n));
      }
    }
    close(out[0]);
    if (line.rfind("PORT ", 0) != 0) {
      stop();
      throw std::runtime_error("the mock server did not start: '" + line + "'");
    }
    port_ = std::stoi(line.substr(5));
  }
  ~MockGithub() { stop(); }
  MockGithub(const MockGithub&) = delete;
  MockGithub& operator=(const MockGithub&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  const std::filesystem::path& log_path() const { return log_; }

  /// Every request recorded so far, in order.
  std::vector<nlohmann::json> requests() const {
    std::vector<nlohmann::json> out;
    std::ifstream in(log_);
    std::string l;
    while (std::getline(in, l))
      if (!l.empty()) out.push_back(nlohmann::json::parse(l));
    return out;
  }

  void stop() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int status = 0;
      waitpid(pid_, &status, 0);
      pid_ = -1;
    }
  }

 private:
  TempDir dir_;
  std::filesystem::path log_;
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace review::test
