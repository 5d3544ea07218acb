// parallel_for: the one worker loop of the per-file passes (the clone search's first pass, the
// model parses of a batch, the analyses of prefetched models). Header-only.
//
//   std::vector<int> out(n);
//   review::analysis::parallel_for(n, jobs, [&](size_t i) { out[i] = work(i); });
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace review::analysis {

/// Calls `body(i)` once for each i in [0, n), on min(jobs, n) threads (the calling thread is one
/// of them; jobs 0 counts as 1), each thread taking the next index in turn, so the calls run in
/// no fixed order and `body` must be safe to call concurrently for different indexes. Returns
/// when every call has returned. When a call throws, no further index is handed out, and the
/// first exception (in the order thrown) is rethrown here once every thread has stopped.
/// Throws std::system_error when a thread cannot be started (after joining those started).
template <class Body>
void parallel_for(std::size_t n, unsigned jobs, Body&& body) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mu;
  auto work = [&] {
    for (std::size_t i; !failed.load(std::memory_order_relaxed) && (i = next++) < n;) {
      try {
        body(i);
      } catch (...) {
        std::lock_guard lock(error_mu);
        if (!error) error = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> threads;
  const std::size_t want = std::min<std::size_t>(std::max(1u, jobs), n);
  try {
    for (std::size_t t = 1; t < want; ++t) threads.emplace_back(work);
  } catch (...) {  // a thread could not start: stop the others, then report it
    failed = true;
    for (auto& t : threads) t.join();
    throw;
  }
  work();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace review::analysis
