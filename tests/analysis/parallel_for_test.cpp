#include "runner/analysis/parallel_for.hpp"

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "catch.hpp"

using review::analysis::parallel_for;

TEST_CASE("parallel_for: every index once, for any number of threads") {
  for (unsigned jobs : {0u, 1u, 2u, 4u, 64u})
    for (size_t n : {size_t{0}, size_t{1}, size_t{3}, size_t{1000}}) {
      std::vector<std::atomic<int>> seen(n);
      parallel_for(n, jobs, [&](size_t i) { seen[i]++; });
      for (size_t i = 0; i < n; ++i) {
        INFO("jobs " << jobs << ", n " << n << ", index " << i);
        CHECK(seen[i].load() == 1);
      }
    }
}

TEST_CASE("parallel_for: the calls run on several threads when asked") {
  std::mutex mu;
  std::set<std::thread::id> ids;
  std::atomic<int> inside{0}, both{0};
  parallel_for(64, 2, [&](size_t) {
    if (++inside == 2) both = 1;  // two calls at once
    for (int spin = 0; spin < 200000 && !both; ++spin) std::this_thread::yield();
    {
      std::lock_guard lock(mu);
      ids.insert(std::this_thread::get_id());
    }
    --inside;
  });
  CHECK(ids.size() == 2);
  CHECK(ids.count(std::this_thread::get_id()) == 1);  // the caller is one of them
}

TEST_CASE("parallel_for: an exception reaches the caller and stops handing out indexes") {
  for (unsigned jobs : {1u, 4u}) {
    std::atomic<size_t> calls{0};
    auto run = [&] {
      parallel_for(10000, jobs, [&](size_t i) {
        ++calls;
        if (i == 3) throw std::runtime_error("file 3: cannot read");
      });
    };
    CHECK_THROWS_WITH(run(), "file 3: cannot read");
    INFO("jobs " << jobs);
    CHECK(calls.load() < 10000);  // stopped early: at most a few calls after the throw per thread
  }
}
