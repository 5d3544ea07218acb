#include "runner/report/escape.hpp"

#include <cstdint>
#include <string>

#include "catch.hpp"

using namespace review::report;

TEST_CASE("valid_utf8 replaces each invalid byte with U+FFFD") {
  struct Row {
    std::string in, out;
  };
  const std::string R = "\xEF\xBF\xBD";
  const Row rows[] = {
      {"plain", "plain"},
      {"caf\xC3\xA9", "caf\xC3\xA9"},
      {"\xFF", R},
      {"a\xC3", "a" + R},                     // truncated 2-byte sequence
      {"\xC0\xAF", R + R},                    // overlong '/'
      {"\xED\xA0\x80", R + R + R},            // UTF-16 surrogate
      {"\xF4\x90\x80\x80", R + R + R + R},    // above U+10FFFF
      {"\xF0\x9F\x94\xB4", "\xF0\x9F\x94\xB4"},
  };
  for (const auto& r : rows) CHECK(valid_utf8(r.in) == r.out);
}

TEST_CASE("truncate_utf8 cuts on a character boundary") {
  CHECK(truncate_utf8("abc", 3) == "abc");
  CHECK(truncate_utf8("abcd", 3) == "abc\xE2\x80\xA6");
  CHECK(truncate_utf8("a\xC3\xA9z", 2) == "a\xE2\x80\xA6");
}

TEST_CASE("workflow command escaping follows the Actions toolkit") {
  CHECK(escape_command_data("100%\r\nx: a,b") == "100%25%0D%0Ax: a,b");
  CHECK(escape_command_data("%0A::error::") == "%250A::error::");
  CHECK(escape_command_property("100%\r\nx: a,b") == "100%25%0D%0Ax%3A a%2Cb");
  CHECK(escape_command_property("a::b") == "a%3A%3Ab");
}

TEST_CASE("escape_markdown keeps text inert") {
  struct Row {
    std::string in, out;
  };
  const Row rows[] = {
      {"plain words", "plain words"},
      {"<script>alert(1)</script>", "&lt;script&gt;alert\\(1\\)&lt;/script&gt;"},
      {"<!-- x -->", "&lt;\\!-- x --&gt;"},
      {"@everyone and @octocat", "@\xE2\x80\x8B" "everyone and @\xE2\x80\x8B" "octocat"},
      {"*bold* _em_ [l](u) ![i](u) a|b ~s~ \\", "\\*bold\\* \\_em\\_ \\[l\\]\\(u\\) \\!\\[i\\]\\(u\\) a\\|b \\~s\\~ \\\\"},
      {"line1\nline2\r\n# h", "line1 line2  # h"},
      {"`x < y @all`", "`x < y @all`"},
      {"a ` b", "a \\` b"},
      {"`` empty", "\\`\\` empty"},
      {"`a\nb`", "`a b`"},
      {"&amp;", "&amp;amp;"},
      {"\x1b[31mred", "\\[31mred"},  // leading blanks and controls dropped (a block start)
      {"x \x1b[31mred", "x  \\[31mred"},
      // At the start (right after a bullet): nothing may open a block.
      {"# h", "\\# h"},
      {"\n    code", "code"},
      {"- item", "\\- item"},
      {"--- rule", "\\--- rule"},
      {"> quote", "\\> quote"},
      {"12. ordered", "12\\. ordered"},
      {"3) ordered", "3\\) ordered"},
      {"=== setext", "\\=== setext"},
      // Extended autolinks would swallow a backtick and turn a code span inside out.
      {"www.x.io`<img>`", "www\xE2\x80\x8B.x.io`<img>`"},
      {"see http://e.io", "see http:\xE2\x80\x8B//e.io"},
  };
  for (const auto& r : rows) {
    INFO(r.in);
    CHECK(escape_markdown(r.in) == r.out);
  }
}

TEST_CASE("encode_uri_path percent-encodes everything but unreserved and '/'") {
  CHECK(encode_uri_path("atom/model.py") == "atom/model.py");
  CHECK(encode_uri_path("a b/%0A::x.py") == "a%20b/%250A%3A%3Ax.py");
  CHECK(encode_uri_path("caf\xC3\xA9\xFF") == "caf%C3%A9%FF");
}

TEST_CASE("terminal_safe shows control characters") {
  CHECK(terminal_safe("a\tb") == "a\tb");
  CHECK(terminal_safe("\x1b[2Jx\r") == "\\x1B[2Jx\\x0D");
  CHECK(terminal_safe("\xC2\x9B" "1m") == "\\u009B1m");
  CHECK(terminal_safe("\xFF") == "\xEF\xBF\xBD");
}

TEST_CASE("neutralise_workflow_commands gives the same bytes line by line as on the whole text") {
  // Standard output is neutralised one line at a time as it is copied from its spool
  // (runner/cli/output.cpp); that is only right if no rewrite looks across a line's end.
  const std::string alphabet = ":#[\r\n \ta";
  std::uint32_t seed = 12345;
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    for (int i = 0; i < 24; ++i) {
      seed = seed * 1664525u + 1013904223u;
      text += alphabet[(seed >> 16) % alphabet.size()];
    }
    std::string pieces;
    std::size_t from = 0;
    for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1)
      pieces += neutralise_workflow_commands(std::string_view(text).substr(from, nl + 1 - from));
    pieces += neutralise_workflow_commands(std::string_view(text).substr(from));
    INFO(text);
    REQUIRE(pieces == neutralise_workflow_commands(text));
  }
  CHECK(neutralise_workflow_commands("a\n::error::x\r\n  ##[group]y") ==
        "a\n:\xE2\x80\x8B:error::x\r\n  #\xE2\x80\x8B#[group]y");
}
