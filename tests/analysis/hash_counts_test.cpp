#include "runner/analysis/hash_counts.hpp"

#include <map>
#include <random>

#include "catch.hpp"

using review::analysis::HashCounts;

TEST_CASE("HashCounts: the counts of a std::map over random, colliding and zero keys, through many doublings") {
  std::mt19937_64 rng(7);
  HashCounts c;
  std::map<uint64_t, uint32_t> want;
  CHECK_FALSE(c.contains(1));
  CHECK_FALSE(c.contains(0));
  for (int i = 0; i < 200000; ++i) {
    uint64_t k;
    switch (rng() % 4) {
      case 0: k = rng(); break;                        // fresh
      case 1: k = want.empty() ? 0 : want.begin()->first; break;  // repeated (0 first, once present)
      case 2: k = (rng() % 64) << 58; break;           // only top bits: the same few slots' neighbourhood
      default: k = rng() % 5000; break;                // small keys, zero among them
    }
    ++c[k];
    ++want[k];
  }
  CHECK(c.size() == want.size());
  std::map<uint64_t, uint32_t> got;
  c.each([&](uint64_t h, uint32_t n) { got[h] += n; });
  CHECK(got == want);
  for (const auto& [k, n] : want) REQUIRE(c.contains(k));
  int absent = 0;
  for (int i = 0; i < 1000; ++i) {
    uint64_t k = rng();
    if (!want.count(k)) absent += c.contains(k) ? 0 : 1;
    else ++absent;
  }
  CHECK(absent == 1000);
}
