#include "runner/report/github.hpp"

#include "catch.hpp"
#include "fixture.hpp"

using namespace review::report;
using namespace review::report::testing;

namespace {
std::vector<Finding> many(Severity s, int n, const char* prefix) {
  std::vector<Finding> v;
  for (int i = 1; i <= n; ++i)
    v.push_back(make_finding("R", "Title", s, Evidence::Verified, std::string(prefix) + ".py", i, 0, "p", "", ""));
  return v;
}
int count(const std::string& out, const std::string& prefix) {
  int n = 0;
  std::size_t pos = 0;
  while ((pos = out.find("\n" + prefix, pos)) != std::string::npos) ++n, ++pos;
  return n + (out.rfind(prefix, 0) == 0 ? 1 : 0);
}
}  // namespace

TEST_CASE("github caps annotations per level, most severe first, with one closing notice") {
  std::vector<Finding> v = many(Severity::Note, 12, "n");
  for (auto& f : many(Severity::Warn, 3, "w")) v.push_back(f);
  for (auto& f : many(Severity::Block, 11, "b")) v.push_back(f);
  std::string out = render("github", v, RunInfo{});
  CHECK(count(out, "::error ") == 10);
  CHECK(count(out, "::warning ") == 3);
  CHECK(count(out, "::notice ") == 10);  // 9 findings + the closing notice
  CHECK(out.rfind("::error file=b.py,line=1,endLine=1,title=Title::p [verified]\n", 0) == 0);
  std::string last = "::notice title=More findings::4 more findings are not shown as annotations; "
                     "see the job summary or the code scanning results.\n";
  CHECK(out.substr(out.size() - last.size()) == last);
}

TEST_CASE("github without overflow emits ten notices and no closing notice") {
  std::string out = render("github", many(Severity::Note, 10, "n"), RunInfo{});
  CHECK(count(out, "::notice ") == 10);
  CHECK(out.find("More findings") == std::string::npos);
}

TEST_CASE("github leaves suppressed findings out") {
  auto v = many(Severity::Block, 1, "b");
  v[0].suppressed = true;
  CHECK(render("github", v, RunInfo{}) == "");
}
