#include "runner/analysis/radix_sort.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "catch.hpp"

using review::analysis::radix_sort;

namespace {

struct Item {
  uint64_t key;
  uint32_t seq;  // position before sorting: tells a stable order from another
  bool operator==(const Item&) const = default;
};

// Keys of 23 distinct values spread over every byte, then cut to the bytes of `mask`: many equal
// keys (stability shows) and bytes every key shares (the passes skipped).
std::vector<Item> random_items(std::mt19937_64& rng, size_t n, uint64_t mask) {
  std::vector<Item> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = {((rng() % 23) * 0x0123456789abcdefULL) & mask, static_cast<uint32_t>(i)};
  return v;
}

}  // namespace

TEST_CASE("radix_sort: the order std::stable_sort gives by the key, equal keys in their first order") {
  std::mt19937_64 rng(7);
  for (uint64_t mask : {~uint64_t{0}, uint64_t{0xff}, uint64_t{0xffff0000ULL}, uint64_t{0xff000000000000ffULL}})
    for (size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{17}, size_t{5000}}) {
      auto v = random_items(rng, n, mask);
      auto want = v;
      std::stable_sort(want.begin(), want.end(), [](const Item& a, const Item& b) { return a.key < b.key; });
      radix_sort(v, [](const Item& x) { return x.key; });
      INFO("mask " << mask << ", n " << n);
      CHECK(v == want);
    }
}

TEST_CASE("radix_sort: keys that differ only in the top byte, and all-equal keys") {
  std::vector<uint64_t> v = {0xff00000000000000ULL, 1, 0x0100000000000000ULL, 0, 0xff00000000000000ULL};
  radix_sort(v, [](uint64_t x) { return x; });
  CHECK(v == std::vector<uint64_t>{0, 1, 0x0100000000000000ULL, 0xff00000000000000ULL, 0xff00000000000000ULL});
  std::vector<Item> same = {{5, 0}, {5, 1}, {5, 2}};
  radix_sort(same, [](const Item& x) { return x.key; });
  CHECK(same == std::vector<Item>{{5, 0}, {5, 1}, {5, 2}});
}

TEST_CASE("radix_sort: a slice is sorted with a shared buffer, the rest of the vector untouched") {
  std::vector<uint64_t> v = {9, 7, 0x300, 0x100, 0x200, 5, 1};
  std::vector<uint64_t> buffer;
  radix_sort(std::span<uint64_t>(v.data() + 2, 3), [](uint64_t x) { return x; }, buffer);
  CHECK(v == std::vector<uint64_t>{9, 7, 0x100, 0x200, 0x300, 5, 1});
  radix_sort(std::span<uint64_t>(v.data() + 5, 2), [](uint64_t x) { return x; }, buffer);  // reused
  CHECK(v == std::vector<uint64_t>{9, 7, 0x100, 0x200, 0x300, 1, 5});
}
