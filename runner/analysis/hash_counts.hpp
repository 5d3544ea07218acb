// HashCounts: how often each 64-bit hash occurs, in one flat table. find_clones_with_existing
// counts every window of an audit's tree in two of them (runner/analysis/clones.cpp).
//
//   HashCounts c;
//   ++c[h];                        // inserts h with count 0 first
//   if (c.contains(h)) ...;
//   c.each([](uint64_t h, uint32_t n) { ... });
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace review::analysis {

/// Counts of 64-bit hashes: open addressing with linear probing, where a node-based map
/// allocated a node per hash (the clone search's two maps were 1.6% of a ROCm/ATOM audit's CPU).
/// The keys must be well mixed (window hashes are): the slot is a key's top bits after a
/// multiplication by 2^64 / golden ratio (Knuth's multiplicative hashing). The table starts at
/// 1,024 slots and doubles before half of it is used. The key 0 marks a free slot, so a zero
/// hash is counted on the side. Not thread-safe for writes; reads may run concurrently.
class HashCounts {
 public:
  /// The count of `h`, inserted with 0 when absent. The reference is valid until the next insert.
  uint32_t& operator[](uint64_t h) {
    if (h == 0) {
      has_zero_ = true;
      return zero_;
    }
    if ((used_ + 1) * 2 > keys_.size()) grow();
    size_t i = slot(h);
    while (keys_[i] != 0 && keys_[i] != h) i = (i + 1) & mask_;
    if (keys_[i] == 0) {
      keys_[i] = h;
      ++used_;
    }
    return counts_[i];
  }
  /// Whether `h` was inserted.
  bool contains(uint64_t h) const {
    if (h == 0) return has_zero_;
    if (keys_.empty()) return false;
    for (size_t i = slot(h);; i = (i + 1) & mask_) {
      if (keys_[i] == h) return true;
      if (keys_[i] == 0) return false;
    }
  }
  /// Number of hashes inserted.
  size_t size() const { return used_ + (has_zero_ ? 1 : 0); }
  /// Calls f(hash, count) for every hash inserted, in no particular order.
  template <class F>
  void each(F&& f) const {
    if (has_zero_) f(uint64_t{0}, zero_);
    for (size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] != 0) f(keys_[i], counts_[i]);
  }

 private:
  size_t slot(uint64_t h) const { return static_cast<size_t>((h * 0x9e3779b97f4a7c15ULL) >> shift_); }
  void grow() {
    std::vector<uint64_t> keys = std::move(keys_);
    std::vector<uint32_t> counts = std::move(counts_);
    const size_t n = keys.empty() ? 1024 : keys.size() * 2;
    keys_.assign(n, 0);
    counts_.assign(n, 0);
    mask_ = n - 1;
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(n));
    for (size_t j = 0; j < keys.size(); ++j) {
      if (keys[j] == 0) continue;
      size_t i = slot(keys[j]);
      while (keys_[i] != 0) i = (i + 1) & mask_;
      keys_[i] = keys[j];
      counts_[i] = counts[j];
    }
  }
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> counts_;
  size_t used_ = 0, mask_ = 0;
  unsigned shift_ = 64;
  bool has_zero_ = false;
  uint32_t zero_ = 0;
};

}  // namespace review::analysis
