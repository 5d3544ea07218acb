// Outputs written through a temporary file, so a report is whole or absent and never held in
// memory: an audit's SARIF log of 38,000 results is some 60 MiB of text, which a string (and the
// copy a string stream hands out) would add to the run's peak.
//
//   std::string error;
//   auto file = AtomicFile::create("review.sarif", error);   // null: `error` says why
//   file->stream() << text;
//   if (!file->commit(error)) ...                            // renamed into place, or nothing
//
// `AtomicFile` makes its temporary with mkstemp(3) in the target's folder (O_CREAT|O_EXCL: never
// opened through an existing file or symbolic link) and moves it into place with rename(2),
// which replaces the directory entry and never follows a link. `Spool` is an unnamed temporary
// (O_TMPFILE, else mkstemp(3) and unlink(2)) for bytes that go to a stream after they are
// complete, such as standard output.
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace review::cli {

/// A std::streambuf over a file descriptor it owns, with a 64 KiB buffer. The first failed
/// write(2) is kept (error()) and every later write fails.
class FdBuf;

/// A file that appears at its path only when complete.
class AtomicFile {
 public:
  /// Makes the temporary for `path`. Returns null and sets `error` when `path` is a symbolic
  /// link ("refusing to write PATH: it is a symbolic link …"), its folder does not exist
  /// ("cannot write PATH: the folder DIR does not exist"), it is a folder ("cannot write PATH:
  /// it is a folder (name a file in it)"), or the temporary cannot be made
  /// ("cannot write PATH: " and the reason from errno).
  static std::unique_ptr<AtomicFile> create(const std::string& path, std::string& error);
  /// Removes the temporary unless commit() moved it into place.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// The temporary's contents. Valid until the AtomicFile is destroyed.
  std::ostream& stream() { return stream_; }
  /// Flushes and closes the temporary and renames it to the path. Returns false and sets `error`
  /// when a write failed ("cannot write PATH: " and the reason; a full disk says so), or the
  /// close or the rename failed; the temporary is removed then. Call it at most once.
  bool commit(std::string& error);

 private:
  AtomicFile(std::string path, std::string tmp, int fd);
  std::string path_, tmp_;
  std::unique_ptr<FdBuf> buf_;
  std::ostream stream_;
  bool done_ = false;
};

/// An unnamed temporary file to write now and read back once.
class Spool {
 public:
  /// Makes the temporary in $TMPDIR (else /tmp). Returns null when it cannot be made.
  static std::unique_ptr<Spool> create();
  ~Spool();
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  std::ostream& stream() { return stream_; }
  /// Flushes, then hands every line written to `line`, one call per line, in order (each with
  /// its "\n"; the last one may have none). Returns false and sets `error` (the reason
  /// from errno) when writing or reading the temporary failed.
  bool replay(const std::function<void(std::string_view)>& line, std::string& error);

 private:
  explicit Spool(int fd);
  std::unique_ptr<FdBuf> buf_;
  std::ostream stream_;
};

/// Writes `data` to `path` atomically (AtomicFile). Returns false and sets `error` as
/// AtomicFile::create and AtomicFile::commit do. The temporary file never outlives a failure.
bool write_file_atomically(const std::string& path, const std::string& data, std::string& error);

}  // namespace review::cli
