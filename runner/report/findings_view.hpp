// A read-only list of findings that copies none of them: what a reporter's aggregate output
// (JSON, SARIF, the card, the check run) reads at `finish`.
//
// A reporter's `add(f)` keeps the address of `f`, not a copy (Reporter::add: the caller keeps
// every finding alive until `finish` returns). On a whole-repository audit with 38,000 findings,
// one copy per aggregate output was about 100 MiB each. The functions that render such a list
// take a FindingsView, so they read the caller's `std::vector<Finding>` and a reporter's
// `std::vector<const Finding*>` alike:
//
//   std::vector<const Finding*> kept = {&a, &b};
//   Verdict v = verdict_of(kept);            // also verdict_of(std::vector<Finding>{a, b})
//
// A view refers to the vector it was made from: it is a parameter type, never stored beyond the
// call that received it.
#pragma once

#include <cstddef>
#include <iterator>
#include <vector>

#include "dsl/finding.hpp"

namespace review::report {

class FindingsView {
 public:
  using Finding = review::dsl::Finding;

  /// Forward iterator over the findings, in the order of the underlying vector.
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Finding;
    using difference_type = std::ptrdiff_t;
    using pointer = const Finding*;
    using reference = const Finding&;
    iterator() = default;
    iterator(const FindingsView* view, std::size_t i) : view_(view), i_(i) {}
    reference operator*() const { return (*view_)[i_]; }
    pointer operator->() const { return &(*view_)[i_]; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++i_;
      return old;
    }
    bool operator==(const iterator& o) const { return i_ == o.i_; }

   private:
    const FindingsView* view_ = nullptr;
    std::size_t i_ = 0;
  };

  /// An empty list.
  FindingsView() = default;
  /// The findings of `all`, which must outlive the view.
  FindingsView(const std::vector<Finding>& all) : data_(all.data()), size_(all.size()) {}  // NOLINT: implicit
  /// The findings `kept` points at; the vector and every finding must outlive the view. No
  /// pointer may be null.
  FindingsView(const std::vector<const Finding*>& kept) : kept_(&kept), size_(kept.size()) {}  // NOLINT: implicit

  /// Returns how many findings the list has.
  std::size_t size() const { return size_; }
  bool empty() const { return size() == 0; }
  /// Returns the finding at `i`; `i` must be less than size() (not checked).
  const Finding& operator[](std::size_t i) const { return kept_ ? *(*kept_)[i] : data_[i]; }
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, size()}; }

 private:
  const Finding* data_ = nullptr;                 ///< contiguous findings, or
  const std::vector<const Finding*>* kept_ = nullptr;  ///< the addresses of findings
  std::size_t size_ = 0;
};

}  // namespace review::report
