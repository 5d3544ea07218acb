// Sharding: split the changed files of one review over N runners (a GitHub Actions matrix), so a
// monorepo audit (`runner --all`) runs in parallel and `runner merge` joins the SARIF files.
//
// A file belongs to shard `1 + FNV-1a-64(path) mod N`, where `path` is the repository-relative
// head path as bytes ('/'-separated, exactly as ChangedFile::path; a renamed file hashes by its
// new path, a deleted one by its old path) and FNV-1a-64 is the 64-bit Fowler–Noll–Vo 1a hash
// (offset basis 14695981039346656037, prime 1099511628211; http://www.isthe.com/chongo/tech/comp/fnv/).
// The hash depends on nothing but the path bytes, so every runner of a matrix agrees without
// talking to the others, and every file lands in exactly one shard.
//
//   Shard s = parse_shard("2/4");               // throws std::invalid_argument on "0/4", "x", ...
//   std::size_t moved = keep_shard(change, s);  // drops the files of shards 1, 3 and 4
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "runner/change/change.hpp"

namespace review::change {

/// Shard `index` of `count`: 1 <= index <= count.
struct Shard {
  int index = 1;
  int count = 1;
};

/// Parses "I/N" (decimal digits only, no spaces or signs; 1 <= I <= N <= 1000000). Returns the
/// shard. Throws std::invalid_argument with a one-line message in our words, for example
///   `--shard wants I/N, a shard number and a shard count such as 2/4 (got "x")`
///   `--shard 5/4: the shard number must be between 1 and the count, 4`
///   `--shard 1/0: the shard count must be at least 1`
Shard parse_shard(std::string_view text);

/// FNV-1a, 64 bits, over the bytes of `path` (see the file header). Never throws.
std::uint64_t path_hash(std::string_view path);

/// Returns the shard (1..count) that owns `path`: 1 + path_hash(path) % count. `count` < 1 is
/// taken as 1. Never throws.
int shard_of(std::string_view path, int count);

/// True when `shard` owns `path`. Never throws.
bool in_shard(const Shard& shard, std::string_view path);

/// Keeps only the files of `c` that `shard` owns (ChangedFile::path, so head paths for renames),
/// in their order, and drops the "PATH: not analysed (...)" notes of the files it removed. The
/// content source is left alone: facts about the whole repository still see every file. Appends
/// the note "shard I/N: K of M changed files". Returns the number of files removed. Never throws.
std::size_t keep_shard(Change& c, const Shard& shard);

/// For a sharded review that evaluates the whole change and reports only what `shard` owns:
/// drops the "PATH: not analysed (...)" notes of the changed files another shard owns (their
/// owner reports them) and appends the note "shard I/N: K of M changed files" (the files whose findings it reports). The
/// files stay in `c`, so rules that join facts across changed files see all of them. Returns
/// the number of changed files `shard` owns. Never throws.
std::size_t own_shard_notes(Change& c, const Shard& shard);

}  // namespace review::change
