// The run's memory ceiling (--max-memory): a watcher thread reads the process's resident set
// size and raises a flag once it passes the ceiling. The evaluator (dsl::EvalOptions::
// memory_exceeded) and the fact sources (facts::ChangeFacts::Options::memory_exceeded) look at the
// flag on every loop iteration and before every file they parse: the rule running then stops,
// no later rule or file starts, and the run goes on to write every output, which names what was
// skipped; the review is incomplete (exit 4 unless --allow-incomplete).
//
// The resident set size is the `resident` field of /proc/self/statm (proc(5)) times the page
// size; the peak is VmHWM of /proc/self/status. Where /proc is missing (not Linux) nothing is
// ever over the ceiling.
//
//   review::cli::MemoryWatch watch(512ull << 20);    // 512 MiB
//   opts.memory_exceeded = &watch.exceeded();
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace review::cli {

/// Bytes of memory the run may use: the machine's physical memory (sysconf _SC_PHYS_PAGES ×
/// _SC_PAGE_SIZE) or the limit of the process's cgroup when that is lower (cgroup v2
/// `memory.max`, v1 `memory.limit_in_bytes`, read from /proc/self/cgroup's path under
/// /sys/fs/cgroup). 0 when neither can be read.
std::size_t machine_memory_bytes();

/// The default ceiling: half of machine_memory_bytes() (a GitHub-hosted runner with 7 GiB: 3.5 GiB),
/// or 0 (= none) when the machine's memory is unknown.
std::size_t default_memory_ceiling();

/// Parses a --max-memory value: bytes ("800000000"), with a binary suffix K, M, G, T (also KiB,
/// MiB, GiB, TiB, KB, MB, GB, case-insensitive; "1.5G" allowed), or a percentage of
/// machine_memory_bytes() ("50%"). Returns nullopt and sets `error` ("`--max-memory` must be …")
/// for anything else, for 0, and for a percentage when the machine's memory is unknown.
std::optional<std::size_t> parse_memory_size(std::string_view text, std::string& error);

/// "512 MiB", "1.5 GiB", "800 KiB": a byte count for messages.
std::string format_bytes(std::size_t bytes);

/// Resident set size of this process now (bytes); 0 when /proc/self/statm cannot be read.
std::size_t resident_bytes();

/// Peak resident set size of this process so far (VmHWM, bytes); 0 when unknown.
std::size_t peak_resident_bytes();

/// The fastest the watched process is assumed to grow its resident set (bytes per second):
/// 16 GiB/s, 28 times the 0.57 GiB/s two threads faulting fresh pages in reached on the 2-core
/// machine the bench figures come from (bench/RESULTS.md, session 31).
constexpr std::size_t kFastestGrowthPerSecond = std::size_t{16} << 30;

/// The longest MemoryWatch waits between two looks, however far the ceiling is.
constexpr std::chrono::milliseconds kLongestWatchWait{200};

/// How long MemoryWatch waits after seeing `rss` bytes resident under a ceiling of `limit`:
/// the time the process needs to grow by the headroom (limit - rss) at kFastestGrowthPerSecond,
/// at least `period` and at most kLongestWatchWait (`period` when rss >= limit). Far below the
/// ceiling (an audit's 0.3 GiB under a 12 GiB default) it looks 5 times a second instead of 200:
/// each wake-up costs a timer, two context switches and a read of /proc, about 1% of an audit's
/// CPU on a virtual machine at 5 ms. Never throws.
std::chrono::milliseconds watch_wait(std::size_t rss, std::size_t limit, std::chrono::milliseconds period);

/// Watches the process's resident set size on its own thread, from construction to destruction,
/// looking again after watch_wait(seen, limit, period) (at least every `period` once the
/// ceiling is near), and once in the constructor (a ceiling already passed is set before it
/// returns, and the thread is not started). `limit` 0 = never exceeded (the thread is not started).
class MemoryWatch {
 public:
  explicit MemoryWatch(std::size_t limit, std::chrono::milliseconds period = std::chrono::milliseconds(5));
  ~MemoryWatch();
  MemoryWatch(const MemoryWatch&) = delete;
  MemoryWatch& operator=(const MemoryWatch&) = delete;

  /// Set once the resident set size was seen above the limit; never cleared.
  const std::atomic<bool>& exceeded() const { return exceeded_; }
  /// The resident set size (bytes) seen when the flag was set; 0 while not exceeded.
  std::size_t seen_at() const { return seen_at_.load(); }
  std::size_t limit() const { return limit_; }

 private:
  void run(std::chrono::milliseconds period);

  std::size_t limit_;
  std::atomic<bool> exceeded_{false};
  std::atomic<std::size_t> seen_at_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace review::cli
