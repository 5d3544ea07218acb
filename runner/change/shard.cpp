#include "runner/change/shard.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>

#include "runner/change/diff_parser.hpp"

namespace review::change {

namespace {

constexpr long kMaxShards = 1000000;

/// Decimal digits only, at most 7 of them; nullopt otherwise.
std::optional<long> number(std::string_view s) {
  if (s.empty() || s.size() > 7) return std::nullopt;
  long v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return std::nullopt;
    v = v * 10 + (ch - '0');
  }
  return v;
}

}  // namespace

Shard parse_shard(std::string_view text) {
  const std::size_t slash = text.find('/');
  std::optional<long> i, n;
  if (slash != std::string_view::npos) {
    i = number(text.substr(0, slash));
    n = number(text.substr(slash + 1));
  }
  const std::string shown = excerpt(text, 40);
  if (!i || !n)
    throw std::invalid_argument("--shard wants I/N, a shard number and a shard count such as 2/4 (got \"" +
                                shown + "\")");
  if (*n < 1) throw std::invalid_argument("--shard " + shown + ": the shard count must be at least 1");
  if (*n > kMaxShards)
    throw std::invalid_argument("--shard " + shown + ": the shard count must be at most " + std::to_string(kMaxShards));
  if (*i < 1 || *i > *n)
    throw std::invalid_argument("--shard " + shown + ": the shard number must be between 1 and the count, " +
                                std::to_string(*n));
  return Shard{static_cast<int>(*i), static_cast<int>(*n)};
}

std::uint64_t path_hash(std::string_view path) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char ch : path) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return h;
}

int shard_of(std::string_view path, int count) {
  if (count < 1) count = 1;
  return 1 + static_cast<int>(path_hash(path) % static_cast<std::uint64_t>(count));
}

bool in_shard(const Shard& shard, std::string_view path) { return shard_of(path, shard.count) == shard.index; }

std::size_t keep_shard(Change& c, const Shard& shard) {
  const std::size_t total = c.files.size();
  std::set<std::string> dropped_notes;
  std::vector<ChangedFile> kept;
  kept.reserve(total);
  for (ChangedFile& f : c.files) {
    if (in_shard(shard, f.path)) {
      kept.push_back(std::move(f));
    } else if (f.skipped) {
      dropped_notes.insert(f.path + ": not analysed (" + f.skip_reason + ")");
    }
  }
  c.files = std::move(kept);
  if (!dropped_notes.empty())
    c.notes.erase(std::remove_if(c.notes.begin(), c.notes.end(),
                                 [&](const std::string& n) { return dropped_notes.count(n) != 0; }),
                  c.notes.end());
  c.notes.push_back("shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count) + ": " +
                    std::to_string(c.files.size()) + " of " + std::to_string(total) + " changed files");
  return total - c.files.size();
}

std::size_t own_shard_notes(Change& c, const Shard& shard) {
  std::set<std::string> others;
  std::size_t owned = 0;
  for (const ChangedFile& f : c.files) {
    if (in_shard(shard, f.path))
      ++owned;
    else if (f.skipped)
      others.insert(f.path + ": not analysed (" + f.skip_reason + ")");
  }
  if (!others.empty())
    c.notes.erase(std::remove_if(c.notes.begin(), c.notes.end(),
                                 [&](const std::string& n) { return others.count(n) != 0; }),
                  c.notes.end());
  c.notes.push_back("shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count) + ": " +
                    std::to_string(owned) + " of " + std::to_string(c.files.size()) + " changed files");
  return owned;
}

}  // namespace review::change
