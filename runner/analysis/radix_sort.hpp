// radix_sort: a stable sort of a vector by an unsigned 64-bit key, for the clone search's millions
// of window seeds and shared-window matches (std::sort of 6.1 million integers was the largest
// single part of an audit of ROCm/ATOM's clone search). Header-only.
//
//   std::vector<Seed> seeds = ...;
//   review::analysis::radix_sort(seeds, [](const Seed& s) { return s.hash; });
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace review::analysis {

/// Sorts `v` by `key(element)` ascending, keeping the order of elements with equal keys (stable):
/// a least-significant-digit radix sort, one pass per byte of the key, skipping a byte that every
/// key holds the same value in. Same result as std::stable_sort by the key; O(n) time per byte
/// pass. `buffer` is scratch space (resized to v.size(); pass the same one to sort many slices
/// without allocating for each). `key` must return the same value for an element every time it
/// is called and must not throw; T must be copy-assignable. Allocation failure throws
/// std::bad_alloc with `v` unchanged.
template <class T, class Key>
void radix_sort(std::span<T> v, Key&& key, std::vector<T>& buffer) {
  if (v.size() < 2) return;
  constexpr int kBytes = 8;
  // every byte's histogram in one read of the keys
  std::array<std::array<std::size_t, 256>, kBytes> count{};
  for (const T& x : v) {
    const uint64_t k = key(x);
    for (int b = 0; b < kBytes; ++b) ++count[b][(k >> (8 * b)) & 0xff];
  }
  buffer.resize(v.size());
  std::span<T> from = v, to(buffer.data(), v.size());
  for (int b = 0; b < kBytes; ++b) {
    auto& c = count[b];
    bool one_value = false;
    for (std::size_t n : c)
      if (n != 0) {
        one_value = n == v.size();
        break;
      }
    if (one_value) continue;  // the pass would keep the order as it is
    std::array<std::size_t, 256> at{};
    for (std::size_t d = 1; d < 256; ++d) at[d] = at[d - 1] + c[d - 1];
    for (const T& x : from) to[at[(key(x) >> (8 * b)) & 0xff]++] = x;
    std::swap(from, to);
  }
  if (from.data() != v.data()) std::copy(from.begin(), from.end(), v.begin());
}

/// The same for a whole vector, with a buffer of its own (n more elements for the sort's time).
template <class T, class Key>
void radix_sort(std::vector<T>& v, Key&& key) {
  std::vector<T> buffer;
  radix_sort(std::span<T>(v), key, buffer);
}

}  // namespace review::analysis
