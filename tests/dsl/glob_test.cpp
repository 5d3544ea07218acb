#include "catch.hpp"
#include "dsl/facts.hpp"

using review::dsl::glob_match;

TEST_CASE("glob_match: table") {
  struct Row { const char* pat; const char* path; bool want; };
  const Row rows[] = {
      {"atom/config.py", "atom/config.py", true},
      {"atom/*.py", "atom/config.py", true},
      {"atom/*.py", "atom/models/x.py", false},
      {"atom/**/*.py", "atom/config.py", true},
      {"atom/**/*.py", "atom/models/deep/x.py", true},
      {"**/test_*.py", "test_a.py", true},
      {"**/test_*.py", "a/b/test_a.py", true},
      {"**/test_*.py", "a/b/atest_a.py", false},
      {"tests/**", "tests/a/b.py", true},
      {"tests/**", "test/a.py", false},
      {"*.{cu,hip}", "k.hip", true},
      {"*.{cu,hip}", "k.cpp", false},
      {"file?.py", "file1.py", true},
      {"file[0-9].py", "file7.py", true},
      {"file[!0-9].py", "file7.py", false},
      {"a*b*c", "aXXbYYc", true},
      {"a*b*c", "aXXbYY", false},
      {"{unclosed", "x", false},
  };
  for (const auto& r : rows) {
    INFO(r.pat << " vs " << r.path);
    CHECK(glob_match(r.pat, r.path) == r.want);
  }
}

TEST_CASE("glob_match: hostile patterns stay bounded") {
  std::string pat;
  for (int i = 0; i < 200; ++i) pat += "**/";
  pat += "x";
  std::string path(300, 'a');
  CHECK_FALSE(glob_match(pat, path));
}
