// Outputs written through temporary files (runner/cli/atomic_file.hpp, runner/cli/output.cpp): a
// file appears whole or not at all, a spool gives back exactly the lines written, and standard
// output copied from a spool equals the format rendered in memory.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "change/test_util.hpp"
#include "cli/cli_util.hpp"
#include "report/fixture.hpp"
#include "runner/cli/atomic_file.hpp"
#include "runner/cli/output.hpp"
#include "runner/report/escape.hpp"

namespace {

namespace fs = std::filesystem;
using review::cli::AtomicFile;
using review::cli::Spool;
using review::cli::test::slurp;

using review::change::test::TempDir;

// The names in folder `dir`.
std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  return out;
}

}  // namespace

TEST_CASE("an atomic file appears at its path only on commit, with every byte written") {
  TempDir t;
  std::string target = (t.path / "review.sarif").string();
  std::string error;
  auto file = AtomicFile::create(target, error);
  REQUIRE(file);
  std::string big(200 * 1024, 'x');  // more than the 64 KiB buffer
  file->stream() << "{" << big << "}\n";
  CHECK_FALSE(fs::exists(target));
  CHECK(names_in(t.path).size() == 1);  // the temporary, beside the target
  REQUIRE(file->commit(error));
  CHECK(error.empty());
  CHECK(slurp(target) == "{" + big + "}\n");
  CHECK(names_in(t.path) == std::vector<std::string>{"review.sarif"});
}

TEST_CASE("an atomic file dropped before commit leaves nothing, and an old file keeps its bytes") {
  TempDir t;
  std::string target = (t.path / "out.json").string();
  std::ofstream(target) << "old\n";
  std::string error;
  {
    auto file = AtomicFile::create(target, error);
    REQUIRE(file);
    file->stream() << "half of a document";
  }
  CHECK(slurp(target) == "old\n");
  CHECK(names_in(t.path) == std::vector<std::string>{"out.json"});
}

TEST_CASE("an atomic file in a folder that does not exist is refused with the folder's name") {
  TempDir t;
  std::string error;
  CHECK_FALSE(AtomicFile::create((t.path / "no/such/out.json").string(), error));
  CHECK(error == "cannot write " + (t.path / "no/such/out.json").string() + ": the folder " +
                     (t.path / "no/such").string() + " does not exist");
}

TEST_CASE("an atomic file whose path is a folder is refused before anything is written") {
  TempDir t;
  fs::create_directory(t.path / "out.sarif");
  std::string error;
  CHECK_FALSE(AtomicFile::create((t.path / "out.sarif").string(), error));
  CHECK(error == "cannot write " + (t.path / "out.sarif").string() + ": it is a folder (name a file in it)");
  CHECK(names_in(t.path) == std::vector<std::string>{"out.sarif"});  // no temporary left
}

TEST_CASE("a spool gives back each line written, in order, a long line whole and a last line without its end") {
  auto spool = Spool::create();
  REQUIRE(spool);
  std::string long_line(150 * 1024, 'y');  // spans several 64 KiB reads
  spool->stream() << "one\n" << long_line << "\n\nlast";
  std::vector<std::string> got;
  std::string error;
  REQUIRE(spool->replay([&](std::string_view l) { got.emplace_back(l); }, error));
  CHECK(got == std::vector<std::string>{"one\n", long_line + "\n", "\n", "last"});
}

TEST_CASE("standard output copied from its spool equals the format rendered in memory") {
  using namespace review::report::testing;
  // Enough findings that the text is several spool reads long.
  std::vector<Finding> findings;
  for (int i = 0; i < 2000; ++i)
    for (const auto& f : fixed_findings()) findings.push_back(f);
  auto run = fixed_run();
  review::report::ReportOptions options;
  options.source = head_source();
  std::ostringstream out;
  auto output = review::cli::make_output({"text", ""}, out, options);
  output->begin(run);
  for (const auto& f : findings) output->add(f);
  output->finish(run);
  std::string expected = review::report::neutralise_workflow_commands(
      review::report::render("text", run, findings, options));
  CHECK(out.str().size() > 256 * 1024);
  CHECK(out.str() == expected);
}
