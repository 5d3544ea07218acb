// LineViews: a model's lines kept as start offsets answer exactly what split_line_views answers.
#include <random>
#include <string>
#include <vector>

#include "catch.hpp"
#include "runner/lang/model.hpp"

using review::lang::LineViews;
using review::lang::split_line_views;

namespace {

std::vector<std::string_view> all(const LineViews& v) {
  std::vector<std::string_view> out;
  for (std::string_view l : v) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("line views: LF, CRLF, a final line with or without a newline, empty lines") {
  for (std::string text : {"", "\n", "a", "a\n", "a\r\nb", "a\r\nb\r\n", "\n\n", "\r\n", "\r", "a\rb\n", "x\n\ny\r\n\r\n"}) {
    INFO("text: " << text);
    LineViews v(text);
    auto want = split_line_views(text);
    REQUIRE(v.size() == want.size());
    CHECK(v.empty() == want.empty());
    CHECK(all(v) == want);
    for (size_t i = 0; i < v.size(); ++i) CHECK(v[i].data() == want[i].data());  // views into the text
  }
}

TEST_CASE("line views: random texts split as split_line_views splits them") {
  std::mt19937 rng(11);
  const char alphabet[] = {'a', 'b', ' ', '\n', '\r', '\t'};
  for (int round = 0; round < 500; ++round) {
    std::string text;
    size_t n = rng() % 40;
    for (size_t i = 0; i < n; ++i) text += alphabet[rng() % sizeof alphabet];
    LineViews v(text);
    CHECK(all(v) == split_line_views(text));
  }
}

TEST_CASE("line views: four bytes a line, and copies view the same text") {
  std::string text = "one\ntwo\nthree\n";
  LineViews v(text);
  CHECK(v.bytes() == 3 * sizeof(uint32_t));
  LineViews copy = v;
  CHECK(copy[2] == "three");
  CHECK(copy[2].data() == text.data() + 8);
}

TEST_CASE("model lines: each line's comment, kept only for the lines that have one") {
  review::lang::SourceModel m;
  review::lang::set_text(m, "a\nb\nc\nd\ne\n");
  review::lang::set_code(m, std::string(), {"", "# one", "", "# two  # three"});  // fewer entries than lines
  REQUIRE(m.lines.size() == 5);
  CHECK(m.comment(0).empty());
  CHECK(m.comment(1) == "# one");
  CHECK(m.comment(2).empty());
  CHECK(m.comment(3) == "# two  # three");
  CHECK(m.comment(4).empty());
  CHECK(m.comment(5).empty());  // past the last line
  CHECK(m.store->comment_lines == std::vector<uint32_t>{1, 3});
  review::lang::set_code(m, std::string(), {});
  CHECK(m.comment(1).empty());
  CHECK(m.store->comment_starts.empty());
}
