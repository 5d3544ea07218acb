// KeyIndex: positions by key hash, ascending per key, once each; a shared hash shares positions.
#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "dsl/key_index.hpp"

using review::dsl::KeyIndex;

namespace {

std::vector<uint32_t> at(const KeyIndex& k, uint64_t h) {
  auto s = k.find(h);
  return {s.begin(), s.end()};
}

}  // namespace

TEST_CASE("key index: each key's positions in ascending order, a repeated position once") {
  KeyIndex k;
  k.add(KeyIndex::hash("a"), 0);
  k.add(KeyIndex::hash("b"), 1);
  k.add(KeyIndex::hash("a"), 2);
  k.add(KeyIndex::hash("a"), 2);  // a list field holding the key twice
  k.add(KeyIndex::hash("b"), 5);
  k.finish();
  CHECK(at(k, KeyIndex::hash("a")) == std::vector<uint32_t>{0, 2});
  CHECK(at(k, KeyIndex::hash("b")) == std::vector<uint32_t>{1, 5});
  CHECK(at(k, KeyIndex::hash("c")).empty());
  CHECK(at(KeyIndex{}, 7).empty());  // never filled
}

TEST_CASE("key index: keys of one hash share their positions, in order") {
  KeyIndex k;
  for (uint32_t i = 0; i < 10; ++i) k.add(i % 3 == 0 ? 42 : i, i);
  k.finish();
  CHECK(at(k, 42) == std::vector<uint32_t>{0, 3, 6, 9});
  CHECK(at(k, 4) == std::vector<uint32_t>{4});
}

TEST_CASE("key index: answers like a map of lists on random keys, with hashes that clash in the table") {
  std::mt19937 rng(5);
  for (int round = 0; round < 100; ++round) {
    KeyIndex k;
    std::map<uint64_t, std::vector<uint32_t>> model;
    const uint32_t n = rng() % 300;
    for (uint32_t i = 0; i < n; ++i) {
      int keys = 1 + static_cast<int>(rng() % 3);
      for (int j = 0; j < keys; ++j) {
        // low bits alike: every hash lands on few slots and must probe past the others
        uint64_t h = (static_cast<uint64_t>(rng() % 40) << 32) | (rng() % 2);
        k.add(h, i);
        auto& v = model[h];
        if (v.empty() || v.back() != i) v.push_back(i);
      }
    }
    k.finish();
    for (const auto& [h, v] : model) CHECK(at(k, h) == v);
    CHECK(at(k, uint64_t{99} << 32).empty());
    // a table at most a quarter full of 16-byte slots, at least 8; 4 bytes a position
    if (!model.empty()) CHECK(k.bytes() <= std::max<size_t>(8, model.size() * 4) * 16 + n * 3 * 4);
  }
}

TEST_CASE("key index: positions added out of order give the same answers as in order") {
  // The evaluator files positions front to back (the counting path); any other order takes the
  // sorting path, and both must agree with a map of sets.
  std::mt19937 rng(11);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::pair<uint64_t, uint32_t>> adds;
    const uint32_t n = 1 + rng() % 200;
    for (uint32_t i = 0; i < n; ++i)
      for (uint32_t j = 0; j < 1 + rng() % 3; ++j) adds.emplace_back((static_cast<uint64_t>(rng() % 30) << 32) | (rng() % 2), i);
    std::map<uint64_t, std::set<uint32_t>> model;
    for (const auto& [h, i] : adds) model[h].insert(i);
    KeyIndex in_order, shuffled;
    for (const auto& [h, i] : adds) in_order.add(h, i);
    std::shuffle(adds.begin(), adds.end(), rng);
    for (const auto& [h, i] : adds) shuffled.add(h, i);
    in_order.finish();
    shuffled.finish();
    for (const auto& [h, v] : model) {
      const std::vector<uint32_t> want(v.begin(), v.end());
      CHECK(at(in_order, h) == want);
      CHECK(at(shuffled, h) == want);
    }
    CHECK(at(in_order, uint64_t{77} << 32).empty());
    CHECK(at(shuffled, uint64_t{77} << 32).empty());
  }
}
