#include "catch.hpp"
#include "runner/analysis/clones.hpp"
#include "runner/lang/python/tokens.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <utility>

#include <string>
#include <vector>

using review::analysis::CodeBlock;
using review::analysis::find_clones;

namespace {
const char* kA =
    "rows = (budget // 256) * 256\n"
    "if rows == 0:\n"
    "    rows = 1 << (max(1, budget).bit_length() - 1)\n"
    "out = torch.empty(rows, width)\n"
    "for i in range(rows):\n"
    "    out[i] = data[i] * scale\n";
const char* kB =
    "toks = (cap // 256) * 256\n"
    "if toks == 0:\n"
    "    toks = 1 << (max(1, cap).bit_length() - 1)\n"
    "out = torch.empty(toks, width)\n"
    "for i in range(toks):\n"
    "    out[i] = data[i] * scale\n";
}  // namespace

TEST_CASE("clones: renamed copy in another file matches", "[clones]") {
  std::vector<CodeBlock> blocks = {{"a.py", 10, 15, kA, {}}, {"b.py", 40, 45, kB, {}}};
  auto r = find_clones(blocks);
  REQUIRE(r.size() == 1);
  CHECK(r[0].a.file == "a.py");
  CHECK(r[0].b.file == "b.py");
  CHECK(r[0].a.start_line == 10);
  CHECK(r[0].a.end_line == 15);
  CHECK(r[0].b.start_line == 40);
  CHECK(r[0].b.end_line == 45);
  CHECK(r[0].similarity == Approx(1.0));
}

namespace {
// `large` and `small` find one pair each, the same: files, lines, texts and size.
void same_one_pair(const std::vector<review::analysis::ClonePair>& large,
                   const std::vector<review::analysis::ClonePair>& small) {
  REQUIRE(small.size() == 1);
  REQUIRE(large.size() == 1);
  CHECK(large[0].a.file == small[0].a.file);
  CHECK(large[0].b.file == small[0].b.file);
  CHECK(large[0].a.start_line == small[0].a.start_line);
  CHECK(large[0].a.end_line == small[0].a.end_line);
  CHECK(large[0].b.start_line == small[0].b.start_line);
  CHECK(large[0].b.end_line == small[0].b.end_line);
  CHECK(large[0].a.text == small[0].a.text);
  CHECK(large[0].b.text == small[0].b.text);
  CHECK(large[0].tokens == small[0].tokens);
}
}  // namespace

TEST_CASE("clones: the same pairs past 65,536 blocks (block pairs no longer fit in 32 bits)", "[clones]") {
  // the copy sits behind 65,536 one-line blocks that match nothing: its pair is packed in 64 bits
  std::vector<CodeBlock> few = {{"a.py", 10, 15, kA, {}}, {"b.py", 40, 45, kB, {}}};
  std::vector<CodeBlock> many;
  many.reserve(65538);
  many.push_back(few[0]);
  for (int i = 0; i < 65536; ++i) many.push_back({"f" + std::to_string(i) + ".py", 1, 1, "x" + std::to_string(i) + " = 1\n", {}});
  many.push_back(few[1]);
  same_one_pair(find_clones(many), find_clones(few));
}

TEST_CASE("clones: silent cases", "[clones]") {
  // same file
  CHECK(find_clones({{"a.py", 1, 6, kA, {}}, {"a.py", 20, 25, kB, {}}}).empty());
  // too short
  CHECK(find_clones({{"a.py", 1, 6, kA, {}}, {"b.py", 1, 6, kB, {}}}, 7).empty());
  // different code
  const char* other =
      "def load(path):\n    with open(path) as fh:\n        text = fh.read()\n    items = text.split(',')\n"
      "    return [int(x) for x in items]\n    # end\n";
  CHECK(find_clones({{"a.py", 1, 6, kA, {}}, {"c.py", 1, 6, other, {}}}).empty());
  CHECK(find_clones({}).empty());
  CHECK(find_clones({{"a.py", 1, 1, "", {}}, {"b.py", 1, 1, "", {}}}).empty());
}

TEST_CASE("clones: matched sub-range is reported", "[clones]") {
  std::string a = std::string("import os\nimport sys\nprint('start')\n") + kA;
  std::string b = std::string(kB) + "print('done')\nreturn out\n";
  auto r = find_clones({{"x.py", 1, 9, a, {}}, {"y.py", 100, 107, b, {}}});
  REQUIRE(r.size() == 1);
  CHECK(r[0].a.start_line == 4);
  CHECK(r[0].a.end_line == 9);
  CHECK(r[0].b.start_line == 100);
  CHECK(r[0].b.end_line == 105);
  CHECK(r[0].a.text.substr(0, 4) == "rows");
  // each side's text is its lines, joined by line breaks, without the last one's
  CHECK(r[0].a.text == std::string(kA).substr(0, std::string(kA).size() - 1));
  CHECK(r[0].b.text == std::string(kB).substr(0, std::string(kB).size() - 1));
}

TEST_CASE("clones: the same pairs when a block holds more than 65,536 tokens", "[clones]") {
  // positions no longer fit in 16 bits: the matches are kept as (pair, position, position)
  std::vector<CodeBlock> few = {{"a.py", 10, 15, kA, {}}, {"b.py", 40, 45, kB, {}}};
  std::string tail;
  for (int i = 0; i < 25000; ++i) tail += "v = 1\n";  // 3 tokens a line
  std::vector<CodeBlock> big = {{"a.py", 10, 25015, std::string(kA) + tail, {}}, few[1]};
  same_one_pair(find_clones(big), find_clones(few));
}

namespace {
using review::analysis::CloneOptions;
using review::analysis::ClonePair;
using review::lang::python::clone_tokens;

CodeBlock py(const std::string& file, int first, const std::string& text) {
  int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  return {file, first, first + lines - 1, text, clone_tokens(text)};
}

// Replaces every whole-word `from` by `to`.
std::string rename(std::string s, const std::vector<std::pair<std::string, std::string>>& names) {
  for (const auto& [from, to] : names) {
    std::string out;
    for (size_t i = 0; i < s.size();) {
      bool word = s.compare(i, from.size(), from) == 0 && (i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_')) &&
                  (i + from.size() >= s.size() || !(std::isalnum(static_cast<unsigned char>(s[i + from.size()])) || s[i + from.size()] == '_'));
      if (word) out += to, i += from.size();
      else out += s[i++];
    }
    s = out;
  }
  return s;
}

// D5's shape: an algorithmic block (chunking rows by a token budget) pasted into a second file
// with the names changed, followed there by a tail that differs for real.
const std::string kChunk =
    "    total_rows = positions.shape[0]\n"                                   // 1
    "    chunk = max(1, budget // max(1, width))\n"                           // 2
    "    chunk = (chunk // 256) * 256 if chunk >= 256 else chunk\n"            // 3
    "    out = torch.empty((total_rows, width), dtype=dtype, device=dev)\n"   // 4
    "    for start in range(0, total_rows, chunk):\n"                          // 5
    "        end = min(start + chunk, total_rows)\n"                           // 6
    "        rows = positions[start:end]\n"                                    // 7
    "        scores = torch.matmul(query[rows], keys.t()) * scale\n"           // 8
    "        top = torch.topk(scores, k, dim=-1)\n"                            // 9
    "        out[start:end] = top.indices.to(out.dtype)\n";                    // 10
const std::string kTailA =
    "    if mode is not None:\n"
    "        finish(out, mode='prefill', k=k, offsets=starts)\n"
    "    log_stats(out.shape, total_rows, 'prefill')\n";
const std::string kTailB =
    "    while weights:\n"
    "        finish(out, weights, True, starts, 7, extra=None)\n"
    "    record(width, out, weights[0], 'decode', total_rows > 0)\n";
// The same shape on both sides but names swapped inconsistently: one run of shared windows
// (identifiers blanked) that is not a renaming.
std::string mixed(bool swap) {
  std::string s;
  for (int i = 0; i < 12; ++i)
    s += (swap && i % 2) ? "    acc = right + acc * left - out[right]\n" : "    acc = acc + left * right - out[acc]\n";
  return s;
}
}  // namespace

TEST_CASE("clones: D5's shape, a block pasted into another file with names renamed", "[clones]") {
  std::string a = "def chunk_a(positions, query, keys, budget, width, k, scale, dtype, dev, starts):\n" + kChunk + kTailA;
  std::string b = "def chunk_b(pos, q, kv, cap, cols, k, sm, dt, device, starts, weights):\n" +
                  rename(kChunk, {{"total_rows", "num_tokens"}, {"positions", "pos"}, {"budget", "cap"}, {"width", "cols"},
                                  {"chunk", "step"}, {"query", "q"}, {"keys", "kv"}, {"scale", "sm"}, {"dtype", "dt"},
                                  {"dev", "device"}, {"scores", "logits"}, {"top", "best"}}) +
                  rename(kTailB, {{"total_rows", "num_tokens"}, {"width", "cols"}});
  auto r = find_clones({py("m/v2.py", 1240, a), py("m/v4.py", 1332, b)}, CloneOptions{});
  REQUIRE(r.size() == 1);
  // the pasted block (lines 2-11 of each text), not the signature or the differing tail
  CHECK(r[0].a.file == "m/v2.py");
  CHECK(r[0].a.start_line <= 1242);
  CHECK(r[0].a.end_line == 1250);
  CHECK(r[0].b.start_line == r[0].a.start_line - 1240 + 1332);
  CHECK(r[0].b.end_line == 1342);
  CHECK(r[0].similarity >= 0.8);
  CHECK(r[0].tokens >= 50);
}

TEST_CASE("clones: a strong core inside a weaker chain is reported with its own span", "[clones]") {
  // The same chain as above, scored whole, is under the threshold because of the tails; a
  // lower threshold gives the whole chain, the default one gives the core only.
  std::string a = kChunk + mixed(false);
  std::string b = rename(kChunk, {{"chunk", "step"}}) + mixed(true);
  auto whole = find_clones({py("a.py", 1, a), py("b.py", 1, b)}, CloneOptions{5, 50, 0.0});
  REQUIRE(whole.size() == 1);
  CHECK(whole[0].a.end_line == 22);
  CHECK(whole[0].similarity < 0.8);
  auto core = find_clones({py("a.py", 1, a), py("b.py", 1, b)}, CloneOptions{});
  REQUIRE(core.size() == 1);
  CHECK(core[0].a.start_line == 1);
  CHECK(core[0].a.end_line >= 10);
  CHECK(core[0].a.end_line < whole[0].a.end_line);  // the mixed tail is cut
  CHECK(core[0].b.start_line == 1);
  CHECK(core[0].similarity >= 0.8);
}

TEST_CASE("clones: an import header shared by two files is not a clone", "[clones]") {
  std::string header;
  for (const char* m : {"os", "sys", "json", "math", "time", "enum", "copy", "types", "typing", "logging",
                        "functools", "itertools", "dataclasses", "contextlib"})
    header += std::string("import ") + m + "\n";
  header += "from typing import (\n    Any,\n    Dict,\n    List,\n    Optional,\n)\n";
  header += "from .config import Config, LoadConfig, ParallelConfig\n";
  std::string doc = "\"\"\"Module doc.\n\nLong text.\n\"\"\"\n";
  std::string a = doc + header + "\n\ndef run(x):\n    return x + 1\n";
  std::string b = doc + rename(header, {{"json", "pickle"}, {"Config", "Settings"}}) + "\n\nclass Other:\n    pass\n";
  CHECK(find_clones({py("a.py", 1, a), py("b.py", 1, b)}, CloneOptions{5, 0, 0.8}).empty());
  // a table of constants is not a clone either
  std::string table_a = "SIZES = {\n", table_b = "LIMITS = {\n";
  for (int i = 0; i < 20; ++i) {
    table_a += "    \"k" + std::to_string(i) + "\": (" + std::to_string(i) + ", 0x10, -1),\n";
    table_b += "    \"m" + std::to_string(i) + "\": (" + std::to_string(i * 3) + ", 0x10, -1),\n";
  }
  table_a += "}\n", table_b += "}\n";
  CHECK(find_clones({py("a.py", 1, table_a), py("b.py", 1, table_b)}, CloneOptions{5, 0, 0.0}).empty());
}

TEST_CASE("clones: two clones in one file pair are both reported", "[clones]") {
  const std::string other =
      "def pack(items, limit):\n"
      "    packed, size = [], 0\n"
      "    for item in items:\n"
      "        if size + len(item) > limit:\n"
      "            yield packed\n"
      "            packed, size = [], 0\n"
      "        packed.append(item)\n"
      "        size += len(item)\n"
      "    if packed:\n"
      "        yield packed\n";
  std::string filler_a =
      "def unrelated_a(cfg):\n    with open(cfg.path) as fh:\n        return json.load(fh)['model']\n\n";
  std::string filler_b =
      "class Holder:\n    def __init__(self, n):\n        self.n = n\n        self.items = []\n\n";
  std::string a = kChunk + "\n" + filler_a + other;
  std::string b = other + "\n" + filler_b + rename(kChunk, {{"chunk", "step"}, {"rows", "idx"}});
  auto r = find_clones({py("a.py", 1, a), py("b.py", 1, b)}, CloneOptions{});
  REQUIRE(r.size() == 2);
  // a's first lines (the chunk block) match b's last ones, a's last ones (pack) b's first
  CHECK(r[0].a.start_line == 1);
  CHECK(r[0].b.start_line > 10);
  CHECK(r[1].a.start_line > 10);
  CHECK(r[1].b.start_line == 1);
}

TEST_CASE("clones: python tokens mark imports and docstrings as filler", "[clones]") {
  const std::string_view src = "import os\nfrom a import (\n  b,\n  c)\n'''doc\nmore'''\nx = f'{y}' + r\"\\d\" ** 2 // 3\n";
  auto t = clone_tokens(src);
  std::string code, filler;
  for (const auto& k : t) (k.filler ? filler : code) += std::string(k.text(src)) + " ";
  CHECK(filler == "import os from a import ( b , c ) '''doc\nmore''' ");
  CHECK(code == "x = f'{y}' + r\"\\d\" ** 2 // 3 ");
  CHECK(t.back().line == 6);
  // hostile: unterminated strings and a block starting inside brackets
  CHECK_NOTHROW(clone_tokens("x = '''never closed\n"));
  CHECK_NOTHROW(clone_tokens("  a, b)\n]]]\n\"abc\n"));
  CHECK(clone_tokens("\"abc\nx = 1\n").size() == 4);
}

TEST_CASE("clones: python tokens class every keyword, and split operators longest first", "[clones]") {
  using Kind = review::analysis::CloneToken::Kind;
  const std::string_view words =
      "and as assert async await break class continue def del elif else except finally for from global if "
      "import in is lambda nonlocal not or pass raise return try while with yield self cls "
      "a ass classy selfish if_ _if returns nonlocals Self IF x1 __init__ None True False";
  std::string keywords, names, literals;
  for (const auto& t : clone_tokens(words))
    (t.kind == Kind::Keyword ? keywords : t.kind == Kind::Identifier ? names : literals) += std::string(t.text(words)) + " ";
  CHECK(keywords ==
        "and as assert async await break class continue def del elif else except finally for from global if "
        "import in is lambda nonlocal not or pass raise return try while with yield self cls ");
  CHECK(names == "a ass classy selfish if_ _if returns nonlocals Self IF x1 __init__ ");
  CHECK(literals == "None True False ");
  // every operator of the language reads as one token, the longest that matches; `...` is a literal
  const std::string_view ops = "a**=b//=c>>=d<<=e...f->g:=h**i//j<<k>>l<=m>=n==o!=p+=q-=r*=s/=t%=u&=v|=w^=x@=y~z.w,*(";
  std::string split;
  for (const auto& t : clone_tokens(ops))
    if (t.kind != Kind::Identifier) split += std::string(t.text(ops)) + " ";
  CHECK(split == "**= //= >>= <<= ... -> := ** // << >> <= >= == != += -= *= /= %= &= |= ^= @= ~ . , * ( ");
  // whitespace of every kind separates, a line join continues the line
  auto spaced = clone_tokens("a\tb\vc\fd\re \\\nf\ng");
  REQUIRE(spaced.size() == 7);
  CHECK(spaced[5].line == 1);
  CHECK(spaced[6].line == 2);
}

TEST_CASE("clones: an exact copy of frequent boilerplate is still found", "[clones]") {
  // 70 files declare fields of the same shape (every 8-token window, names blanked, occurs in
  // more than 64 places); only copy.py holds an exact copy of one of them.
  std::vector<CodeBlock> blocks;
  for (int f = 0; f < 70; ++f) {
    std::string text;
    for (int k = 0; k < 10; ++k)
      text += "    f" + std::to_string(f) + "_" + std::to_string(k) + ": torch.Tensor | None = None\n";
    blocks.push_back(py("m" + std::to_string(f) + ".py", 1, text));
  }
  blocks.push_back(py("copy.py", 5, blocks[3].text));
  auto r = find_clones(blocks, CloneOptions{});
  REQUIRE(r.size() == 1);
  CHECK(r[0].a.file == "copy.py");
  CHECK(r[0].b.file == "m3.py");
  CHECK(r[0].a.start_line == 5);
  CHECK(r[0].a.end_line == 14);
}

namespace {
using review::analysis::find_clones_with_existing;

// `existing` as a loader of one block per file, every block existing code.
review::analysis::ExistingLoader loader_of(const std::vector<CodeBlock>& existing) {
  return [&existing](size_t i) {
    CodeBlock b = existing[i];
    b.added = false;
    return std::vector<CodeBlock>{b};
  };
}

std::string spans(const std::vector<ClonePair>& r) {
  std::string s;
  for (const auto& p : r)
    s += p.a.file + ":" + std::to_string(p.a.start_line) + "-" + std::to_string(p.a.end_line) + (p.a.added ? "+" : "=") +
         " " + p.b.file + ":" + std::to_string(p.b.start_line) + "-" + std::to_string(p.b.end_line) +
         (p.b.added ? "+" : "=") + "\n";
  return s;
}
}  // namespace

TEST_CASE("clones: an added block copied from existing code of another file, names changed", "[clones]") {
  std::string original = "def chunk_a(positions, query, keys, budget, width, k, scale, dtype, dev, starts):\n" + kChunk + kTailA;
  std::string pasted = "def chunk_b(pos, q, kv, cap, cols, k, sm, dt, device, starts, weights):\n" +
                       rename(kChunk, {{"total_rows", "num_tokens"}, {"positions", "pos"}, {"budget", "cap"},
                                       {"chunk", "step"}, {"scores", "logits"}});
  std::vector<CodeBlock> existing = {py("m/v2.py", 1, original)};
  auto r = find_clones_with_existing({py("m/v4.py", 300, pasted)}, existing.size(), loader_of(existing), CloneOptions{});
  REQUIRE(r.size() == 1);
  // a: the existing side (m/v2.py sorts first), b: the added block
  CHECK(r[0].a.file == "m/v2.py");
  CHECK(!r[0].a.added);
  CHECK(r[0].b.file == "m/v4.py");
  CHECK(r[0].b.added);
  CHECK(r[0].b.start_line <= 302);
  CHECK(r[0].similarity >= 0.8);
  // existing code alone is never compared with itself
  CodeBlock x = py("a.py", 1, original), y = py("b.py", 1, original);
  x.added = y.added = false;
  CHECK(find_clones({x, y}, CloneOptions{}).empty());
  CHECK(find_clones_with_existing({}, 2, loader_of({x, y}), CloneOptions{}).empty());
  // same file: an added block that copies existing code of its own file is not a pair
  std::vector<CodeBlock> own = {py("m/v4.py", 1, original)};
  CHECK(find_clones_with_existing({py("m/v4.py", 300, pasted)}, own.size(), loader_of(own), CloneOptions{}).empty());
  // under the minimum: four pasted lines
  std::string four = rename(kChunk.substr(0, kChunk.find("    for start")), {{"chunk", "step"}});
  CHECK(find_clones_with_existing({py("m/v4.py", 300, four)}, existing.size(), loader_of(existing), CloneOptions{5, 0, 0.8}).empty());
  CHECK(!find_clones_with_existing({py("m/v4.py", 300, four)}, existing.size(), loader_of(existing), CloneOptions{4, 0, 0.8}).empty());
}

namespace {
std::string dump(const std::vector<ClonePair>& r);  // below
}  // namespace

TEST_CASE("clones: the two-pass search over existing code equals one search over all of it", "[clones]") {
  // 70 files of field boilerplate (every window frequent with names blanked), the chunk block in
  // one more; the added blocks copy a boilerplate file exactly and the chunk block with renames,
  // and two added blocks copy each other.
  std::vector<CodeBlock> existing;
  for (int f = 0; f < 70; ++f) {
    std::string text;
    for (int k = 0; k < 10; ++k)
      text += "    f" + std::to_string(f) + "_" + std::to_string(k) + ": torch.Tensor | None = None\n";
    existing.push_back(py("m" + std::to_string(f) + ".py", 1, text));
    existing.back().added = false;
  }
  existing.push_back(py("z/chunk.py", 10, kChunk + kTailA));
  existing.back().added = false;
  std::string other = "def load(path):\n    with open(path) as fh:\n        text = fh.read()\n    items = text.split(',')\n"
                      "    return [int(x) for x in items]\n";
  existing.push_back(py("unrelated.py", 1, other + other));
  existing.back().added = false;
  std::vector<CodeBlock> added = {py("copy.py", 5, existing[3].text),
                                  py("new/a.py", 1, rename(kChunk, {{"chunk", "step"}, {"rows", "idx"}})),
                                  py("new/b.py", 1, rename(kChunk, {{"chunk", "piece"}}) + kTailB)};
  size_t calls = 0;
  auto load = [&](size_t i) {
    ++calls;
    return std::vector<CodeBlock>{existing[i]};
  };
  auto two_pass = find_clones_with_existing(added, existing.size(), load, CloneOptions{});
  std::vector<CodeBlock> all = added;
  all.insert(all.end(), existing.begin(), existing.end());
  auto one_pass = find_clones(all, CloneOptions{});
  CHECK(spans(two_pass) == spans(one_pass));
  CHECK(spans(two_pass) ==
        "copy.py:5-14+ m3.py:1-10=\n"
        "new/a.py:1-10+ new/b.py:1-10+\n"
        "new/a.py:1-10+ z/chunk.py:10-19=\n"
        "new/b.py:1-10+ z/chunk.py:10-19=\n");
  // pass 2 loads only the files that share a rare window with an added block: m3.py and chunk.py
  CHECK(calls == existing.size() + 2);
  // the first pass on 4 threads: the same clones (the counts, summed in file order, are the same),
  // every file loaded once in it, and a loader's error reaches the caller
  std::atomic<size_t> loads{0};
  CloneOptions threads;
  threads.jobs = 4;
  auto shared_load = [&](size_t i) {
    ++loads;
    return std::vector<CodeBlock>{existing[i]};
  };
  CHECK(dump(find_clones_with_existing(added, existing.size(), shared_load, threads)) == dump(two_pass));
  CHECK(loads == existing.size() + 2);
  auto failing = [&](size_t i) -> std::vector<CodeBlock> {
    if (i == 40) throw std::runtime_error("unreadable");
    return {existing[i]};
  };
  CHECK_THROWS_WITH(find_clones_with_existing(added, existing.size(), failing, threads), "unreadable");
  // only some files searched in pass 2: the same clones without those whose existing side is
  // elsewhere (every file still scanned once for the frequencies), and only those files loaded
  // again; with m3.py left out, m3.py's boilerplate still counts as frequent
  const size_t chunk = existing.size() - 2, m3 = 3;
  for (const std::vector<size_t>& kept : {std::vector<size_t>{}, {m3}, {chunk}, {m3, chunk}, {0, 1, chunk}}) {
    calls = 0;
    auto searched = [&](size_t i) { return std::find(kept.begin(), kept.end(), i) != kept.end(); };
    auto some = find_clones_with_existing(added, existing.size(), load, CloneOptions{}, searched);
    std::vector<ClonePair> want;
    for (const auto& p : two_pass) {
      bool elsewhere = false;
      for (size_t i = 0; i < existing.size(); ++i)
        for (const auto* side : {&p.a, &p.b})
          if (!side->added && side->file == existing[i].file && !searched(i)) elsewhere = true;
      if (!elsewhere) want.push_back(p);
    }
    INFO("kept " << kept.size());
    CHECK(dump(some) == dump(want));
    size_t again = 0;  // of the two files pass 2 loads when every file is searched
    for (size_t i : {m3, chunk}) again += searched(i) ? 1 : 0;
    CHECK(calls == existing.size() + again);
  }
}

namespace {
// Every field of every pair, similarity in full: two searches agree when these strings do.
std::string dump(const std::vector<ClonePair>& r) {
  std::string s;
  char sim[32];
  for (const auto& p : r) {
    std::snprintf(sim, sizeof sim, "%.17g", p.similarity);
    s += p.a.file + ":" + std::to_string(p.a.start_line) + "-" + std::to_string(p.a.end_line) + " " + p.b.file + ":" +
         std::to_string(p.b.start_line) + "-" + std::to_string(p.b.end_line) + " " + sim + " " + std::to_string(p.tokens) +
         "\n" + p.a.text + "\n" + p.b.text + "\n";
  }
  return s;
}

// A random line of code over a small vocabulary: names repeat within and across lines, so
// identifier distances, renamings and shared windows all occur.
std::string random_line(std::mt19937& rng, const std::vector<std::string>& names) {
  static const char* kOps[] = {" + ", " - ", " * ", " // ", ", ", " == "};
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  std::string s = "    " + names[pick(names.size())] + " = ";
  int terms = 2 + static_cast<int>(pick(5));
  for (int t = 0; t < terms; ++t) {
    if (t) s += kOps[pick(6)];
    switch (pick(4)) {
      case 0: s += std::to_string(pick(4)); break;
      case 1: s += names[pick(names.size())] + "(" + names[pick(names.size())] + ")"; break;
      case 2: s += names[pick(names.size())] + "[" + names[pick(names.size())] + "]"; break;
      default: s += names[pick(names.size())]; break;
    }
  }
  return s + "\n";
}
}  // namespace

TEST_CASE("clones: the incremental similarity gives the pairs of the from-scratch one on random code", "[clones]") {
  // Random files with planted clones: a run of lines of one file copied into another with some
  // names renamed consistently, lines inserted, dropped or changed inside it, and random code
  // around it, so chains are trimmed from both ends and split. Each similarity the search asks
  // for is computed both ways (recompute_similarity: the Dice definition from scratch).
  size_t found = 0, trimmed = 0;
  for (unsigned seed = 1; seed <= 12; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
    std::vector<std::string> names;
    for (int k = 0; k < 6 + static_cast<int>(seed % 5) * 3; ++k) names.push_back("v" + std::to_string(k));
    std::vector<std::vector<std::string>> files(4 + seed % 3);
    for (auto& f : files)
      for (size_t n = 40 + pick(60); n > 0; --n) f.push_back(random_line(rng, names));
    for (int plant = 0; plant < 6; ++plant) {
      auto& from = files[pick(files.size())];
      auto& to = files[pick(files.size())];
      size_t len = 8 + pick(25), at = pick(from.size() - len), into = pick(to.size());
      std::vector<std::string> copy(from.begin() + static_cast<long>(at), from.begin() + static_cast<long>(at + len));
      std::vector<std::pair<std::string, std::string>> ren;
      for (int r = 0; r < 3; ++r) ren.emplace_back(names[pick(names.size())], "w" + std::to_string(plant * 3 + r));
      for (auto& l : copy) {
        l = rename(l, ren);
        if (pick(8) == 0) l = random_line(rng, names);  // changed
      }
      if (pick(2)) copy.erase(copy.begin() + static_cast<long>(pick(copy.size())));  // dropped
      if (pick(2)) copy.insert(copy.begin() + static_cast<long>(pick(copy.size())), random_line(rng, names));
      to.insert(to.begin() + static_cast<long>(into), copy.begin(), copy.end());
    }
    std::vector<CodeBlock> blocks;
    for (size_t f = 0; f < files.size(); ++f) {
      std::string text;
      for (const auto& l : files[f]) text += l;
      blocks.push_back(py("f" + std::to_string(f) + ".py", 1, text));
      blocks.back().added = f % 3 != 2;  // some existing code too
    }
    for (double sim : {0.5, 0.8, 0.95}) {
      CloneOptions fast{5, 30, sim}, slow = fast;
      slow.recompute_similarity = true;
      auto a = find_clones(blocks, fast), b = find_clones(blocks, slow);
      CHECK(dump(a) == dump(b));
      found += a.size();
      for (const auto& p : a) trimmed += p.similarity < 1.0;
    }
  }
  // the comparison is about real pairs, some of them found after trimming a weaker chain
  CHECK(found > 50);
  CHECK(trimmed > 10);
}
