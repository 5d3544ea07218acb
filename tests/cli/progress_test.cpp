// Progress lines of long runs: quiet for short runs, redrawn on a terminal, at most one line per
// minute elsewhere.
#include <sstream>

#include "catch.hpp"
#include "runner/cli/progress.hpp"

using review::cli::Progress;
using namespace std::chrono_literals;

namespace {
struct FakeClock {
  Progress::Clock::time_point t{};
  Progress::Options options() {
    Progress::Options o;
    o.now = [this] { return t; };
    return o;
  }
};
}  // namespace

TEST_CASE("progress: not a terminal: nothing in the first minute, then at most one line per minute") {
  FakeClock c;
  std::ostringstream out;
  Progress p(out, false, 10, c.options());
  p.rule("A", 0, 3);
  c.t += 30s;
  p.file_parsed();
  c.t += 29s;
  p.file_parsed();
  CHECK(out.str().empty());
  c.t += 2s;  // 61 s
  p.rule("B", 1, 3);
  CHECK(out.str() == "progress: rule 2/3 (B), 2/10 files parsed, 1m01s\n");
  c.t += 30s;
  p.file_parsed();
  p.rule("C", 2, 3);
  CHECK(out.str() == "progress: rule 2/3 (B), 2/10 files parsed, 1m01s\n");
  c.t += 31s;  // 122 s
  p.file_parsed();
  CHECK(out.str() == "progress: rule 2/3 (B), 2/10 files parsed, 1m01s\n"
                     "progress: rule 3/3 (C), 4/10 files parsed, 2m02s\n");
  p.finish();
  CHECK(out.str().size() == 98);  // finish adds nothing to a log
}

TEST_CASE("progress: a terminal: quiet for a second, then one line redrawn in place and cleared at the end") {
  FakeClock c;
  std::ostringstream out;
  Progress p(out, true, 0, c.options());
  p.file_parsed();
  p.rule("T-TIER", 0, 80);
  CHECK(out.str().empty());
  c.t += 1500ms;
  p.file_parsed();
  CHECK(out.str() == "\r\x1b[Kprogress: rule 1/80 (T-TIER), 2 files parsed, 0m01s");
  c.t += 50ms;  // within the redraw interval: no redraw
  p.rule("A1", 1, 80);
  CHECK(out.str() == "\r\x1b[Kprogress: rule 1/80 (T-TIER), 2 files parsed, 0m01s");
  c.t += 100ms;
  p.file_parsed();
  CHECK(out.str() == "\r\x1b[Kprogress: rule 1/80 (T-TIER), 2 files parsed, 0m01s"
                     "\r\x1b[Kprogress: rule 2/80 (A1), 3 files parsed, 0m01s");
  p.finish();
  CHECK(out.str().substr(out.str().size() - 4) == "\r\x1b[K");
}

TEST_CASE("progress: a short run on a terminal prints nothing, not even the clearing sequence") {
  FakeClock c;
  std::ostringstream out;
  Progress p(out, true, 5, c.options());
  p.rule("A", 0, 1);
  p.file_parsed();
  p.finish();
  CHECK(out.str().empty());
}
