#include "runner/cli/atomic_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <streambuf>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace review::cli {
namespace fs = std::filesystem;

class FdBuf final : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd), buf_(kSize) { setp(buf_.data(), buf_.data() + buf_.size()); }
  ~FdBuf() override { close(); }
  FdBuf(const FdBuf&) = delete;
  FdBuf& operator=(const FdBuf&) = delete;

  int fd() const { return fd_; }
  /// errno of the first failed write or close, 0 when none failed.
  int error() const { return error_; }
  /// Writes what is buffered. Returns false when a write failed (now or before).
  bool drain() {
    const char* at = pbase();
    std::size_t left = static_cast<std::size_t>(pptr() - pbase());
    while (left > 0 && error_ == 0) {
      ssize_t n = ::write(fd_, at, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error_ = n < 0 ? errno : EIO;
        break;
      }
      at += n;
      left -= static_cast<std::size_t>(n);
    }
    setp(buf_.data(), buf_.data() + buf_.size());
    return error_ == 0;
  }
  /// Drains and closes the descriptor. Returns false when a write or the close failed.
  bool close() {
    if (fd_ < 0) return error_ == 0;
    drain();
    if (::close(fd_) != 0 && error_ == 0) error_ = errno;
    fd_ = -1;
    return error_ == 0;
  }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::streamsize done = 0;
    while (done < n) {
      if (pptr() == epptr() && !drain()) return done;
      std::streamsize room = std::min<std::streamsize>(epptr() - pptr(), n - done);
      std::memcpy(pptr(), s + done, static_cast<std::size_t>(room));
      pbump(static_cast<int>(room));
      done += room;
    }
    return done;
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  static constexpr std::size_t kSize = 64 * 1024;
  int fd_;
  int error_ = 0;
  std::vector<char> buf_;
};

namespace {

std::string reason(int err) {
  return std::string(std::strerror(err)) + (err == ENOSPC ? " (the disk is full)" : "");
}

}  // namespace

std::unique_ptr<AtomicFile> AtomicFile::create(const std::string& path, std::string& error) {
  fs::path p(path);
  fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(p, ec);
  // An output path that is a symbolic link is refused: in a checkout, a link the pull request
  // committed could point at a file of the workflow.
  if (fs::is_symlink(status)) {
    error = "refusing to write " + path + ": it is a symbolic link (remove it, or write the output elsewhere)";
    return nullptr;
  }
  if (!fs::is_directory(dir, ec)) {
    error = "cannot write " + path + ": the folder " + dir.string() + " does not exist";
    return nullptr;
  }
  if (fs::is_directory(status)) {
    error = "cannot write " + path + ": it is a folder (name a file in it)";
    return nullptr;
  }
  // A new name made by mkstemp (O_CREAT|O_EXCL, so never opened through an existing file or
  // link), in the target's folder so the rename is atomic.
  std::string tmpl = (dir / ("." + p.filename().string() + ".tmp.XXXXXX")).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  return std::unique_ptr<AtomicFile>(new AtomicFile(path, name.data(), fd));
}

AtomicFile::AtomicFile(std::string path, std::string tmp, int fd)
    : path_(std::move(path)), tmp_(std::move(tmp)), buf_(std::make_unique<FdBuf>(fd)), stream_(buf_.get()) {}

AtomicFile::~AtomicFile() {
  if (done_) return;
  buf_->close();
  ::unlink(tmp_.c_str());
}

bool AtomicFile::commit(std::string& error) {
  done_ = true;
  stream_.flush();
  if (!buf_->close()) {
    error = "cannot write " + path_ + ": " + reason(buf_->error());
    ::unlink(tmp_.c_str());
    return false;
  }
  // rename(2) replaces the directory entry, never a file a link points to.
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
    error = "cannot move " + tmp_ + " to " + path_ + ": " + std::strerror(errno);
    ::unlink(tmp_.c_str());
    return false;
  }
  return true;
}

std::unique_ptr<Spool> Spool::create() {
  const char* env = std::getenv("TMPDIR");
  std::string dir = env && *env ? env : "/tmp";
#ifdef O_TMPFILE
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return std::unique_ptr<Spool>(new Spool(fd));
#endif
  std::string tmpl = dir + "/review-action.spool.XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd2 = ::mkstemp(name.data());
  if (fd2 < 0) return nullptr;
  ::unlink(name.data());  // unnamed from now on: gone when closed, whatever happens
  return std::unique_ptr<Spool>(new Spool(fd2));
}

Spool::Spool(int fd) : buf_(std::make_unique<FdBuf>(fd)), stream_(buf_.get()) {}

Spool::~Spool() = default;

bool Spool::replay(const std::function<void(std::string_view)>& line, std::string& error) {
  stream_.flush();
  if (buf_->error() != 0 || ::lseek(buf_->fd(), 0, SEEK_SET) != 0) {
    error = reason(buf_->error() ? buf_->error() : errno);
    return false;
  }
  std::vector<char> chunk(64 * 1024);
  std::string partial;  // a line split across two reads
  for (;;) {
    ssize_t n = ::read(buf_->fd(), chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = reason(errno);
      return false;
    }
    if (n == 0) break;
    std::string_view got(chunk.data(), static_cast<std::size_t>(n));
    for (std::size_t nl; (nl = got.find('\n')) != std::string_view::npos; got.remove_prefix(nl + 1)) {
      if (partial.empty()) {
        line(got.substr(0, nl + 1));
      } else {
        partial.append(got.substr(0, nl + 1));
        line(partial);
        partial.clear();
      }
    }
    partial.append(got);
  }
  if (!partial.empty()) line(partial);
  return true;
}

bool write_file_atomically(const std::string& path, const std::string& data, std::string& error) {
  auto file = AtomicFile::create(path, error);
  if (!file) return false;
  file->stream().write(data.data(), static_cast<std::streamsize>(data.size()));
  return file->commit(error);
}

}  // namespace review::cli
