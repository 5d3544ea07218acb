#include "catch.hpp"
#include "runner/analysis/clones.hpp"

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
  std::vector<CodeBlock> blocks = {{"a.py", 10, 15, kA}, {"b.py", 40, 45, kB}};
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

TEST_CASE("clones: silent cases", "[clones]") {
  // same file
  CHECK(find_clones({{"a.py", 1, 6, kA}, {"a.py", 20, 25, kB}}).empty());
  // too short
  CHECK(find_clones({{"a.py", 1, 6, kA}, {"b.py", 1, 6, kB}}, 7).empty());
  // different code
  const char* other =
      "def load(path):\n    with open(path) as fh:\n        text = fh.read()\n    items = text.split(',')\n"
      "    return [int(x) for x in items]\n    # end\n";
  CHECK(find_clones({{"a.py", 1, 6, kA}, {"c.py", 1, 6, other}}).empty());
  CHECK(find_clones({}).empty());
  CHECK(find_clones({{"a.py", 1, 1, ""}, {"b.py", 1, 1, ""}}).empty());
}

TEST_CASE("clones: matched sub-range is reported", "[clones]") {
  std::string a = std::string("import os\nimport sys\nprint('start')\n") + kA;
  std::string b = std::string(kB) + "print('done')\nreturn out\n";
  auto r = find_clones({{"x.py", 1, 9, a}, {"y.py", 100, 107, b}});
  REQUIRE(r.size() == 1);
  CHECK(r[0].a.start_line == 4);
  CHECK(r[0].a.end_line == 9);
  CHECK(r[0].b.start_line == 100);
  CHECK(r[0].b.end_line == 105);
  CHECK(r[0].a.text.substr(0, 4) == "rows");
}
