// The positions of a fact list's facts by key, for the evaluator's key lookups (Equal, Member,
// DottedTail and Capture probes, dsl/plan.hpp): one array of positions grouped by the key's
// 64-bit hash, and an open-addressing table of (hash, first, count). A std::unordered_map from a
// key string to a std::vector per key cost a hash node, the key's text and a list with its own
// allocation and spare room per distinct key: on ROCm/aiter's audit one rule's indexes held
// about 195,000 keys that way, near 30 MiB. Here a key costs 32 bytes of table at most and a
// fact 4 bytes.
//
// Keys are told apart by their hash only: two keys with the same hash share their positions.
// A lookup's candidates are therefore a superset of the facts with the key, and its user must
// check the condition the key came from on each candidate (the evaluator checks every `where`
// conjunct of a `for` and the whole condition of an `exists` on every candidate).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace review::dsl {

class KeyIndex {
 public:
  /// The hash a key is filed under (std::hash of its text).
  static uint64_t hash(std::string_view key) { return std::hash<std::string_view>()(key); }

  /// Files fact position `at` under key hash `h`, in any order (the same position again, under
  /// the same hash, is kept once). Not after finish().
  void add(uint64_t h, uint32_t at) { pending_.emplace_back(h, at); }
  /// Room for `n` add() calls (when the caller knows how many: one key a fact).
  void reserve(size_t n) { pending_.reserve(n); }

  /// Builds the table from what add() filed and frees the rest. Throws std::bad_alloc only.
  void finish() {
    // by hash, then position: each key's positions ascending (an in-place sort: a stable one
    // took a second buffer as large, over the 892,883 lines of an audit's `added_lines`)
    std::sort(pending_.begin(), pending_.end());
    pending_.erase(std::unique(pending_.begin(), pending_.end()), pending_.end());
    size_t keys = 0;
    for (size_t i = 0; i < pending_.size(); ++i) keys += i == 0 || pending_[i].first != pending_[i - 1].first;
    size_t size = 8;
    while (size < 2 * keys) size *= 2;  // at most half full
    slots_.assign(keys == 0 ? 0 : size, Slot{});
    positions_.clear();
    positions_.reserve(pending_.size());
    for (size_t i = 0; i < pending_.size();) {
      size_t j = i;
      while (j < pending_.size() && pending_[j].first == pending_[i].first) positions_.push_back(pending_[j++].second);
      Slot& s = slot(pending_[i].first);
      s = Slot{pending_[i].first, static_cast<uint32_t>(positions_.size() - (j - i)), static_cast<uint32_t>(j - i)};
      i = j;
    }
    std::vector<std::pair<uint64_t, uint32_t>>().swap(pending_);
  }

  /// The positions filed under hash `h`, ascending; empty when none. After finish().
  std::span<const uint32_t> find(uint64_t h) const {
    if (slots_.empty()) return {};
    const size_t mask = slots_.size() - 1;
    for (size_t i = static_cast<size_t>(h) & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.count == 0) return {};
      if (s.hash == h) return {positions_.data() + s.first, s.count};
    }
  }

  /// Bytes held once finished.
  size_t bytes() const { return positions_.capacity() * sizeof(uint32_t) + slots_.capacity() * sizeof(Slot); }

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t first = 0;
    uint32_t count = 0;  ///< 0 = an empty slot
  };
  /// The slot of hash `h`: its own, or the first empty one on its probe sequence.
  Slot& slot(uint64_t h) {
    const size_t mask = slots_.size() - 1;
    size_t i = static_cast<size_t>(h) & mask;
    while (slots_[i].count != 0 && slots_[i].hash != h) i = (i + 1) & mask;
    return slots_[i];
  }
  std::vector<std::pair<uint64_t, uint32_t>> pending_;
  std::vector<uint32_t> positions_;
  std::vector<Slot> slots_;
};

}  // namespace review::dsl
