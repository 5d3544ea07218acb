#include "runner/change/process.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/change/change.hpp"

extern char** environ;

namespace review::change {

namespace {

/// Bytes CatFileBatch asks the kernel for per read(2) of git's answers, and the pipe size it asks
/// for (see the constructor).
constexpr std::size_t kReadChunk = std::size_t{256} << 10;
constexpr std::size_t kPipeBytes = std::size_t{1} << 20;

struct Fds {
  int fd[2] = {-1, -1};
  ~Fds() { close_both(); }
  void close_both() {
    for (int& f : fd)
      if (f >= 0) { ::close(f); f = -1; }
  }
};

void set_cloexec(int fd) { ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC); }

/// Spawns argv with stdin from `in_child`, stdout to `out_child`, stderr to `err_child` (-1 =
/// /dev/null). Returns the pid; throws InputError when the spawn fails.
pid_t spawn(const std::vector<std::string>& argv, const std::string& cwd, int in_child,
            int out_child, int err_child) {
  if (argv.empty()) throw InputError{"", "cannot run: empty command"};
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in_child, 0);
  posix_spawn_file_actions_adddup2(&fa, out_child, 1);
  if (err_child >= 0)
    posix_spawn_file_actions_adddup2(&fa, err_child, 2);
  else
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  int rc = 0;
  if (!cwd.empty()) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
    rc = posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
#else
    rc = ENOSYS;
#endif
  }
  pid_t pid = -1;
  if (rc == 0) rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw InputError{argv[0], std::string("cannot run: ") + std::strerror(rc)};
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& opts) {
  Fds in, out, err;
  // stdin is a socket pair so writing to a program that exited gives EPIPE, not SIGPIPE.
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, in.fd) != 0 || ::pipe(out.fd) != 0 ||
      ::pipe(err.fd) != 0)
    throw InputError{argv.empty() ? "" : argv[0], std::string("cannot run: ") + std::strerror(errno)};
  for (int f : {in.fd[0], in.fd[1], out.fd[0], out.fd[1], err.fd[0], err.fd[1]}) set_cloexec(f);
  pid_t pid = spawn(argv, opts.cwd, in.fd[0], out.fd[1], err.fd[1]);
  ::close(in.fd[0]); in.fd[0] = -1;
  ::close(out.fd[1]); out.fd[1] = -1;
  ::close(err.fd[1]); err.fd[1] = -1;

  ProcessResult r;
  std::size_t written = 0;
  if (opts.input.empty()) { ::close(in.fd[1]); in.fd[1] = -1; }
  char buf[65536];
  while (out.fd[0] >= 0 || err.fd[0] >= 0 || in.fd[1] >= 0) {
    pollfd p[3];
    int n = 0;
    int io = -1, oo = -1, eo = -1;
    if (in.fd[1] >= 0) { io = n; p[n++] = {in.fd[1], POLLOUT, 0}; }
    if (out.fd[0] >= 0) { oo = n; p[n++] = {out.fd[0], POLLIN, 0}; }
    if (err.fd[0] >= 0) { eo = n; p[n++] = {err.fd[0], POLLIN, 0}; }
    if (::poll(p, n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (io >= 0 && p[io].revents) {
      ssize_t w = ::send(in.fd[1], opts.input.data() + written, opts.input.size() - written,
                         MSG_NOSIGNAL | MSG_DONTWAIT);
      if (w > 0) written += static_cast<std::size_t>(w);
      if (w < 0 && errno != EAGAIN && errno != EINTR) written = opts.input.size();
      if (written >= opts.input.size()) { ::close(in.fd[1]); in.fd[1] = -1; }
    }
    auto drain = [&](int idx, int& fd, std::string& into) {
      if (idx < 0 || !p[idx].revents) return;
      ssize_t got = ::read(fd, buf, sizeof buf);
      if (got > 0) into.append(buf, static_cast<std::size_t>(got));
      else if (got == 0 || (errno != EINTR && errno != EAGAIN)) { ::close(fd); fd = -1; }
    };
    drain(oo, out.fd[0], r.out);
    drain(eo, err.fd[0], r.err);
  }
  r.exit_code = wait_exit(pid);
  return r;
}

CatFileBatch::CatFileBatch(const std::string& repo) {
  Fds in, out;
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, in.fd) != 0 || ::pipe(out.fd) != 0)
    throw InputError{repo, std::string("cannot run git: ") + std::strerror(errno)};
  for (int f : {in.fd[0], in.fd[1], out.fd[0], out.fd[1]}) set_cloexec(f);
  try {
    pid_ = spawn({"git", "-C", repo, "cat-file", "--batch"}, "", in.fd[0], out.fd[1], -1);
  } catch (const InputError& e) {
    throw InputError{repo, "cannot run git: " + e.message};
  }
  // A larger pipe (fcntl(2), F_SETPIPE_SZ; at most /proc/sys/fs/pipe-max-size, 1 MiB by default)
  // lets git write a few objects ahead before it waits for the runner. Best effort: the default
  // 64 KiB pipe answers the same.
  (void)::fcntl(out.fd[0], F_SETPIPE_SZ, static_cast<int>(kPipeBytes));
  to_child_ = in.fd[1];
  in.fd[1] = -1;
  from_child_ = out.fd[0];
  out.fd[0] = -1;
}

CatFileBatch::~CatFileBatch() {
  if (to_child_ >= 0) ::close(to_child_);
  if (from_child_ >= 0) ::close(from_child_);
  if (pid_ > 0) wait_exit(pid_);
}

bool CatFileBatch::read_exact(std::size_t n, std::string& out) {
  out.clear();
  out.reserve(n);
  while (out.size() < n) {
    if (buffer_pos_ < buffer_.size()) {
      std::size_t take = std::min(n - out.size(), buffer_.size() - buffer_pos_);
      out.append(buffer_, buffer_pos_, take);
      buffer_pos_ += take;
      continue;
    }
    buffer_.resize(kReadChunk);
    buffer_pos_ = 0;
    ssize_t got = ::read(from_child_, buffer_.data(), buffer_.size());
    if (got < 0 && errno == EINTR) { buffer_.clear(); continue; }
    if (got <= 0) { buffer_.clear(); return false; }
    buffer_.resize(static_cast<std::size_t>(got));
  }
  return true;
}

bool CatFileBatch::read_line(std::string& line) {
  line.clear();
  while (true) {
    if (buffer_pos_ < buffer_.size()) {
      std::size_t nl = buffer_.find('\n', buffer_pos_);
      if (nl != std::string::npos) {
        line.append(buffer_, buffer_pos_, nl - buffer_pos_);
        buffer_pos_ = nl + 1;
        return true;
      }
      line.append(buffer_, buffer_pos_, std::string::npos);
      buffer_pos_ = buffer_.size();
    }
    buffer_.resize(kReadChunk);
    buffer_pos_ = 0;
    ssize_t got = ::read(from_child_, buffer_.data(), buffer_.size());
    if (got < 0 && errno == EINTR) { buffer_.clear(); continue; }
    if (got <= 0) { buffer_.clear(); return false; }
    buffer_.resize(static_cast<std::size_t>(got));
  }
}

std::optional<std::string> CatFileBatch::blob(const std::string& rev, const std::string& path) {
  if (path.find('\n') != std::string::npos || rev.find('\n') != std::string::npos)
    return std::nullopt;
  return request(rev + ":" + path);
}

std::optional<std::string> CatFileBatch::object(const std::string& oid) {
  if (oid.empty() || oid.find('\n') != std::string::npos) return std::nullopt;
  return request(oid);
}

std::optional<std::string> CatFileBatch::request(const std::string& spec) {
  send_request(spec);
  return read_answer();
}

void CatFileBatch::objects(const std::vector<std::string>& oids,
                           const std::function<void(std::size_t, std::optional<std::string>)>& each) {
  auto askable = [](const std::string& oid) { return !oid.empty() && oid.find('\n') == std::string::npos; };
  std::size_t sent = 0;   // oids[0, sent) are requested (or not askable)
  std::size_t ahead = 0;  // bytes of requests not answered yet
  try {
    for (std::size_t i = 0; i < oids.size(); ++i) {
      while (sent < oids.size() && (sent == i || ahead + oids[sent].size() + 1 <= kAheadBytes)) {
        if (askable(oids[sent])) {
          send_request(oids[sent]);
          ahead += oids[sent].size() + 1;
        }
        ++sent;
      }
      std::optional<std::string> text;
      if (askable(oids[i])) {
        text = read_answer();
        ahead -= oids[i].size() + 1;
      }
      each(i, std::move(text));
    }
  } catch (...) {
    stop();  // answers to requests written ahead may still be coming: no later request may read them
    throw;
  }
}

void CatFileBatch::stop() {
  if (to_child_ >= 0) ::close(to_child_);
  to_child_ = -1;
}

void CatFileBatch::send_request(const std::string& spec) {
  if (to_child_ < 0) throw InputError{"git cat-file", "the process has stopped"};
  std::string request = spec + "\n";
  std::size_t sent = 0;
  while (sent < request.size()) {
    ssize_t w = ::send(to_child_, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw InputError{"git cat-file", "the process stopped reading requests"};
    sent += static_cast<std::size_t>(w);
  }
}

std::optional<std::string> CatFileBatch::read_answer() {
  ++requests_;
  std::string header;
  if (!read_line(header)) throw InputError{"git cat-file", "the process ended without answering"};
  // "<sha> <type> <size>" or "<object> missing" / "<object> ambiguous"
  std::size_t s2 = header.rfind(' ');
  if (s2 == std::string::npos) throw InputError{"git cat-file", "unexpected answer \"" + header + "\""};
  std::string_view last(header.c_str() + s2 + 1);
  if (last == "missing" || last == "ambiguous" || last == "submodule") return std::nullopt;
  std::size_t s1 = header.rfind(' ', s2 - 1);
  if (s1 == std::string::npos || s1 == 0)
    throw InputError{"git cat-file", "unexpected answer \"" + header + "\""};
  std::string type = header.substr(s1 + 1, s2 - s1 - 1);
  std::size_t size = 0;
  for (char c : last) {
    if (c < '0' || c > '9') throw InputError{"git cat-file", "unexpected answer \"" + header + "\""};
    size = size * 10 + static_cast<std::size_t>(c - '0');
  }
  std::string body;
  std::string nl;
  if (!read_exact(size, body) || !read_exact(1, nl))
    throw InputError{"git cat-file", "the process ended in the middle of an object"};
  if (type != "blob") return std::nullopt;
  return body;
}

}  // namespace review::change
