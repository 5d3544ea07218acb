// Running programs without a shell: one-shot runs with captured output, and a long-lived
// `git cat-file --batch` reader (git-cat-file(1), "BATCH OUTPUT").
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace review::change {

struct ProcessResult {
  int exit_code = 0;   ///< the program's exit status; 128 + N when killed by signal N
  std::string out;     ///< everything written to stdout
  std::string err;     ///< everything written to stderr
};

struct ProcessOptions {
  std::string cwd;     ///< working directory; empty = inherit
  std::string input;   ///< written to the program's stdin, which is then closed
};

/// Runs `argv[0]` (looked up in PATH) with `argv` as its argument vector — never through a shell —
/// waits for it and returns its exit code, stdout and stderr (read concurrently, so large outputs
/// cannot dead-lock). Throws InputError{argv[0], "cannot run: <reason>"} when the program cannot
/// be started (not found, not executable, bad cwd) or `argv` is empty.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& opts = {});

/// One `git -C repo cat-file --batch` process answering object requests for its lifetime.
/// Request "<rev>:<path>\n" or "<oid>\n"; answer "<sha> <type> <size>\n<bytes>\n" or "<object> missing\n".
/// Not thread-safe: callers serialise access.
class CatFileBatch {
 public:
  /// Starts the process. Throws InputError{repo, "cannot run git: …"} when it cannot start.
  explicit CatFileBatch(const std::string& repo);
  ~CatFileBatch();
  CatFileBatch(const CatFileBatch&) = delete;
  CatFileBatch& operator=(const CatFileBatch&) = delete;

  /// Returns the bytes of blob `<rev>:<path>`, or nullopt when it does not exist or is not a
  /// blob (a tree, a submodule commit). `path` containing '\n' cannot be asked in batch mode and
  /// answers nullopt. Throws InputError{"git cat-file", …} when the process died or answered
  /// something that is not the batch format.
  std::optional<std::string> blob(const std::string& rev, const std::string& path);

  /// Returns the bytes of the blob whose object id is `oid` (a request "<oid>\n": no tree is
  /// read to find it), or nullopt when it does not exist or is not a blob. `oid` containing
  /// '\n' answers nullopt. Throws as blob().
  std::optional<std::string> object(const std::string& oid);

  /// Answers `oids` in order, as object() would one by one: calls `each(i, text)` for oids[i]
  /// (nullopt when it does not exist, is not a blob, is empty or holds '\n'). The requests are
  /// written ahead of the answers, at most kAheadBytes of them unanswered, so git answers the
  /// next object while the runner reads one instead of waiting for each request: a round trip
  /// per object cost two context switches, 5,490 of them for ROCm/aiter's tree. Throws as
  /// object(). When `each` throws, the process is stopped (it holds unanswered requests) and
  /// the exception is rethrown; later calls then throw InputError.
  void objects(const std::vector<std::string>& oids,
               const std::function<void(std::size_t, std::optional<std::string>)>& each);

  /// The most bytes of requests objects() leaves unanswered: less than any socket's send buffer
  /// (Linux's smallest is 4,608 bytes, SOCK_MIN_SNDBUF), so writing a request never waits for
  /// git, which may itself be waiting for the runner to read an answer.
  static constexpr std::size_t kAheadBytes = 2048;

  /// Number of requests answered so far (tests check that one process serves many files).
  int requests() const { return requests_; }

 private:
  std::optional<std::string> request(const std::string& spec);
  void send_request(const std::string& spec);
  std::optional<std::string> read_answer();
  void stop();
  bool read_line(std::string& line);
  bool read_exact(std::size_t n, std::string& out);

  pid_t pid_ = -1;
  int to_child_ = -1;     // socket: we write requests
  int from_child_ = -1;   // pipe: we read answers
  std::string buffer_;    // bytes read but not consumed
  std::size_t buffer_pos_ = 0;
  int requests_ = 0;
};

}  // namespace review::change
