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
#include <vector>

namespace review::analysis {

/// Sorts `v` by `key(element)` ascending, keeping the order of elements with equal keys (stable):
/// a least-significant-digit radix sort, one pass per byte of the key, skipping a byte that every
/// key holds the same value in. Same result as std::stable_sort by the key; O(n) time per byte
/// pass and one extra buffer of n elements. `key` must return the same value for an element
/// every time it is called and must not throw; T must be copy-assignable. Allocation failure
/// throws std::bad_alloc with `v` unchanged.
template <class T, class Key>
void radix_sort(std::vector<T>& v, Key&& key) {
  if (v.size() < 2) return;
  constexpr int kBytes = 8;
  // every byte's histogram in one read of the keys
  std::vector<std::array<std::size_t, 256>> count(kBytes);
  for (auto& c : count) c.fill(0);
  for (const T& x : v) {
    const uint64_t k = key(x);
    for (int b = 0; b < kBytes; ++b) ++count[b][(k >> (8 * b)) & 0xff];
  }
  std::vector<T> buffer(v.size());
  std::vector<T>* from = &v;
  std::vector<T>* to = &buffer;
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
    for (const T& x : *from) (*to)[at[(key(x) >> (8 * b)) & 0xff]++] = x;
    std::swap(from, to);
  }
  if (from != &v) v.swap(buffer);
}

/// Sorts `v` ascending in place, without a second buffer: a most-significant-digit radix sort
/// that moves each value into its byte's bucket by swaps (McIlroy, Bostic and McIlroy's
/// "American flag sort", Computing Systems 6(1), 1993), starting at the highest byte in which
/// the values differ; buckets of at most 64 values go to std::sort. Unstable, which for plain
/// integers is no difference. For a vector whose size is the peak of memory: radix_sort needs n
/// more elements. Never throws.
inline void radix_sort_in_place(std::vector<uint64_t>& v) {
  if (v.size() < 2) return;
  uint64_t differ = 0;  // the bits in which some value differs from the first
  for (uint64_t x : v) differ |= x ^ v[0];
  if (differ == 0) return;
  int top = 7;
  while (((differ >> (8 * top)) & 0xff) == 0) --top;
  struct Slice {
    std::size_t from, to;
    int byte;
  };
  std::vector<Slice> todo{{0, v.size(), top}};
  while (!todo.empty()) {
    const Slice s = todo.back();
    todo.pop_back();
    if (s.to - s.from <= 64) {
      std::sort(v.begin() + static_cast<std::ptrdiff_t>(s.from), v.begin() + static_cast<std::ptrdiff_t>(s.to));
      continue;
    }
    const int shift = 8 * s.byte;
    std::array<std::size_t, 256> count{};
    for (std::size_t i = s.from; i < s.to; ++i) ++count[(v[i] >> shift) & 0xff];
    std::array<std::size_t, 256> head{}, end{};
    std::size_t at = s.from;
    for (std::size_t d = 0; d < 256; ++d) {
      head[d] = at;
      at += count[d];
      end[d] = at;
    }
    for (std::size_t d = 0; d < 256; ++d)
      while (head[d] < end[d]) {
        uint64_t x = v[head[d]];
        std::size_t e = (x >> shift) & 0xff;
        while (e != d) {  // carry x to its bucket, taking the value there on
          std::swap(x, v[head[e]++]);
          e = (x >> shift) & 0xff;
        }
        v[head[d]++] = x;
      }
    if (s.byte == 0) continue;
    for (std::size_t d = 0, from = s.from; d < 256; from += count[d], ++d)
      if (count[d] > 1) todo.push_back({from, from + count[d], s.byte - 1});
  }
}

}  // namespace review::analysis
