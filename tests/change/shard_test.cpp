#include "runner/change/shard.hpp"

#include <map>
#include <set>
#include <stdexcept>

#include "catch.hpp"

using namespace review::change;

TEST_CASE("parse_shard: I/N with 1 <= I <= N, everything else a one-line error") {
  struct Good {
    const char* text;
    int index, count;
  };
  for (const Good& g : {Good{"1/1", 1, 1}, Good{"2/4", 2, 4}, Good{"4/4", 4, 4}, Good{"07/10", 7, 10},
                        Good{"1000000/1000000", 1000000, 1000000}}) {
    INFO(g.text);
    Shard s = parse_shard(g.text);
    CHECK(s.index == g.index);
    CHECK(s.count == g.count);
  }
  struct Bad {
    const char* text;
    const char* message;
  };
  const Bad rows[] = {
      {"0/4", "--shard 0/4: the shard number must be between 1 and the count, 4"},
      {"5/4", "--shard 5/4: the shard number must be between 1 and the count, 4"},
      {"1/0", "--shard 1/0: the shard count must be at least 1"},
      {"1/1000001", "--shard 1/1000001: the shard count must be at most 1000000"},
      {"x", "--shard wants I/N, a shard number and a shard count such as 2/4 (got \"x\")"},
      {"", "--shard wants I/N, a shard number and a shard count such as 2/4 (got \"\")"},
      {"2", "--shard wants I/N, a shard number and a shard count such as 2/4 (got \"2\")"},
      {"1/", "--shard wants I/N, a shard number and a shard count such as 2/4 (got \"1/\")"},
      {"/4", "--shard wants I/N, a shard number and a shard count such as 2/4 (got \"/4\")"},
      {"-1/4", "--shard wants I/N, a shard number and a shard count such as 2/4 (got \"-1/4\")"},
      {"+1/4", "--shard wants I/N, a shard number and a shard count such as 2/4 (got \"+1/4\")"},
      {" 1/4", "--shard wants I/N, a shard number and a shard count such as 2/4 (got \" 1/4\")"},
      {"1/2/3", "--shard wants I/N, a shard number and a shard count such as 2/4 (got \"1/2/3\")"},
      {"99999999999999999999/4",
       "--shard wants I/N, a shard number and a shard count such as 2/4 (got \"99999999999999999999/4\")"},
      {"1\n/4", "--shard wants I/N, a shard number and a shard count such as 2/4 (got \"1\\x0a/4\")"},
  };
  for (const Bad& b : rows) {
    INFO(b.text);
    try {
      parse_shard(b.text);
      FAIL("no error");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()) == b.message);
    }
  }
}

TEST_CASE("path_hash is FNV-1a 64 (published test vectors); shard_of is 1 + hash mod N") {
  CHECK(path_hash("") == 0xcbf29ce484222325ull);
  CHECK(path_hash("a") == 0xaf63dc4c8601ec8cull);
  CHECK(path_hash("foobar") == 0x85944171f73967e8ull);
  CHECK(shard_of("a", 1) == 1);
  CHECK(shard_of("a", 4) == static_cast<int>(1 + 0xaf63dc4c8601ec8cull % 4));
  CHECK(shard_of("a", 0) == 1);  // a count below 1 is taken as 1
  CHECK(shard_of("a", -3) == 1);
  CHECK(in_shard(Shard{shard_of("src/x.py", 3), 3}, "src/x.py"));
}

TEST_CASE("shards 1..N partition any set of paths: each path in exactly one shard, all used") {
  std::vector<std::string> paths;
  for (int i = 0; i < 400; ++i) paths.push_back("pkg" + std::to_string(i % 7) + "/file_" + std::to_string(i) + ".py");
  for (int n : {1, 2, 3, 4, 7, 16}) {
    INFO("N = " << n);
    std::map<int, int> sizes;
    for (const auto& p : paths) {
      int owners = 0;
      for (int i = 1; i <= n; ++i) owners += in_shard(Shard{i, n}, p) ? 1 : 0;
      CHECK(owners == 1);
      ++sizes[shard_of(p, n)];
    }
    CHECK(static_cast<int>(sizes.size()) == n);  // 400 paths reach every shard
    for (const auto& [shard, size] : sizes) CHECK(size > 400 / n / 2);  // roughly even
  }
}

TEST_CASE("keep_shard keeps the owned files, drops the other files' skip notes, says what it kept") {
  Change c;
  std::vector<std::string> paths = {"a.py", "b.py", "c.py", "d.py", "e.py", "f.py", "g.py", "h.py"};
  for (const auto& p : paths) {
    ChangedFile f;
    f.path = p;
    f.status = FileStatus::Added;
    if (p == "c.py" || p == "f.py") {
      f.skipped = true;
      f.skip_reason = "binary file";
      c.notes.push_back(p + ": not analysed (binary file)");
    }
    c.files.push_back(f);
  }
  c.notes.push_back("head is the work tree: uncommitted changes and untracked files included (not those .gitignore "
      "lists: list an earlier report or a scratch file there to leave it out)");
  const Change whole = c;

  std::set<std::string> seen;
  for (int i = 1; i <= 3; ++i) {
    Change part = whole;
    std::size_t removed = keep_shard(part, Shard{i, 3});
    CHECK(removed + part.files.size() == paths.size());
    std::vector<std::string> expected_notes;
    for (const auto& f : part.files) {
      CHECK(shard_of(f.path, 3) == i);
      CHECK(seen.insert(f.path).second);  // no overlap
      if (f.skipped) expected_notes.push_back(f.path + ": not analysed (binary file)");
    }
    // the skip notes of the kept files stay, in their order; the others go
    std::vector<std::string> skip_notes;
    for (const auto& n : part.notes)
      if (n.find(": not analysed (") != std::string::npos) skip_notes.push_back(n);
    CHECK(skip_notes == expected_notes);
    CHECK(part.notes[part.notes.size() - 2] == "head is the work tree: uncommitted changes and untracked files included (not those .gitignore "
      "lists: list an earlier report or a scratch file there to leave it out)");
    CHECK(part.notes.back() == "shard " + std::to_string(i) + "/3: " + std::to_string(part.files.size()) + " of 8 changed files");
  }
  CHECK(seen == std::set<std::string>(paths.begin(), paths.end()));  // the union is the whole change

  Change one = whole;
  CHECK(keep_shard(one, Shard{1, 1}) == 0);
  CHECK(one.files.size() == 8);
  CHECK(one.notes.back() == "shard 1/1: 8 of 8 changed files");
}

TEST_CASE("keep_shard hashes a renamed file by its head path") {
  Change c;
  ChangedFile f;
  f.old_path = "old/name.py";
  f.path = "new/name.py";
  f.status = FileStatus::Renamed;
  c.files.push_back(f);
  int n = 2;
  while (shard_of("old/name.py", n) == shard_of("new/name.py", n)) ++n;  // a count that tells them apart
  Change mine = c;
  keep_shard(mine, Shard{shard_of("new/name.py", n), n});
  CHECK(mine.files.size() == 1);
  Change other = c;
  keep_shard(other, Shard{shard_of("old/name.py", n), n});
  CHECK(other.files.empty());
}
