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
  void add(uint64_t h, uint32_t at) {
    ascending_ = ascending_ && (pending_.empty() || pending_.back().second <= at);
    pending_.emplace_back(h, at);
  }
  /// Room for `n` add() calls (when the caller knows how many: one key a fact).
  void reserve(size_t n) { pending_.reserve(n); }

  /// Builds the table from what add() filed and frees the rest. Throws std::bad_alloc only.
  void finish() {
    if (ascending_) {
      group_in_order();
    } else {
      // by hash, then position: each key's positions ascending (an in-place sort: a stable one
      // took a second buffer as large, over the 892,883 lines of an audit's `added_lines`)
      std::sort(pending_.begin(), pending_.end());
      pending_.erase(std::unique(pending_.begin(), pending_.end()), pending_.end());
      group_sorted();
    }
    std::vector<std::pair<uint64_t, uint32_t>>().swap(pending_);
    ascending_ = true;
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
  Slot& slot(uint64_t h) { return slots_[slot_index(h)]; }
  size_t slot_index(uint64_t h) const {
    const size_t mask = slots_.size() - 1;
    size_t i = static_cast<size_t>(h) & mask;
    while (slots_[i].count != 0 && slots_[i].hash != h) i = (i + 1) & mask;
    return i;
  }
  /// The table's size for `keys` distinct hashes: a power of two, at most half full.
  static size_t table_size(size_t keys) {
    size_t size = 8;
    while (size < 2 * keys) size *= 2;
    return size;
  }
  /// finish() when pending_ is sorted by hash, then position, without repeats.
  void group_sorted() {
    size_t keys = 0;
    for (size_t i = 0; i < pending_.size(); ++i) keys += i == 0 || pending_[i].first != pending_[i - 1].first;
    slots_.assign(keys == 0 ? 0 : table_size(keys), Slot{});
    positions_.clear();
    positions_.reserve(pending_.size());
    for (size_t i = 0; i < pending_.size();) {
      size_t j = i;
      while (j < pending_.size() && pending_[j].first == pending_[i].first) positions_.push_back(pending_[j++].second);
      Slot& s = slot(pending_[i].first);
      s = Slot{pending_[i].first, static_cast<uint32_t>(positions_.size() - (j - i)), static_cast<uint32_t>(j - i)};
      i = j;
    }
  }
  /// finish() when the positions were added in ascending order (every caller so far: the
  /// evaluator files a fact list front to back): a counting sort through the table instead of a
  /// comparison sort. Pass 1 counts each hash's positions (a position filed twice under one hash
  /// is adjacent to itself, and counted once; `first` holds the last one + 1 meanwhile), the
  /// slots' counts then give each hash its range of positions_, and pass 2 fills the ranges in
  /// the order the positions came, so each is ascending. On a ROCm/ATOM audit finish() fell
  /// from 0.39 G instructions to 0.13 G (bench/RESULTS.md, Session 29).
  void group_in_order() {
    slots_.assign(pending_.empty() ? 0 : table_size(1), Slot{});
    size_t keys = 0;
    for (const auto& [h, at] : pending_) {
      Slot& s = slot(h);
      if (s.count == 0) {
        s = Slot{h, at + 1, 1};
        if (2 * ++keys > slots_.size()) grow(table_size(keys));  // as group_sorted's size
      } else if (s.first != at + 1) {
        ++s.count;
        s.first = at + 1;
      }
    }
    size_t total = 0;
    for (Slot& s : slots_) {
      s.first = static_cast<uint32_t>(total);
      total += s.count;
    }
    positions_.assign(total, 0);
    std::vector<uint32_t> filled(slots_.size(), 0);  // each slot's positions so far in pass 2
    for (const auto& [h, at] : pending_) {
      const size_t k = slot_index(h);
      const Slot& s = slots_[k];
      uint32_t& n = filled[k];
      if (n > 0 && positions_[s.first + n - 1] == at) continue;  // filed twice
      positions_[s.first + n++] = at;
    }
  }
  /// Rehashes the taken slots into a table of `size` slots (a power of two).
  void grow(size_t size) {
    std::vector<Slot> old(size, Slot{});
    old.swap(slots_);
    for (const Slot& s : old)
      if (s.count != 0) slot(s.hash) = s;
  }
  std::vector<std::pair<uint64_t, uint32_t>> pending_;
  bool ascending_ = true;  ///< every add() so far at a position no lower than the one before
  std::vector<uint32_t> positions_;
  std::vector<Slot> slots_;
};

}  // namespace review::dsl
