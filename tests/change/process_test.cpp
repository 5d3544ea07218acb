#include "runner/change/process.hpp"

#include "catch.hpp"
#include "change/test_util.hpp"
#include "runner/change/change.hpp"

using namespace review::change;
using namespace review::change::test;

TEST_CASE("run_process: argument vector, no shell") {
  ProcessResult r = run_process({"printf", "%s|%s", "a b", "$HOME;*"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == "a b|$HOME;*");  // no word splitting, no expansion
  ProcessResult e = run_process({"sh", "-c", "echo out; echo err >&2; exit 7"});
  CHECK(e.exit_code == 7);
  CHECK(e.out == "out\n");
  CHECK(e.err == "err\n");
}

TEST_CASE("run_process: stdin, large outputs, cwd, missing program") {
  ProcessOptions o;
  o.input = std::string(300000, 'x');
  ProcessResult r = run_process({"cat"}, o);
  CHECK(r.out.size() == 300000);
  ProcessResult big = run_process({"sh", "-c", "head -c 200000 /dev/zero; head -c 200000 /dev/zero >&2"});
  CHECK(big.out.size() == 200000);
  CHECK(big.err.size() == 200000);
  ProcessOptions cwd;
  cwd.cwd = "/";
  CHECK(run_process({"pwd"}, cwd).out == "/\n");
  try {
    run_process({"no-such-program-review-xyz"});
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.where == "no-such-program-review-xyz");
    CHECK(e.message == "cannot run: No such file or directory");
  }
  // A program that exits without reading its input must not kill us with SIGPIPE.
  ProcessOptions lots;
  lots.input = std::string(4 << 20, 'y');
  CHECK(run_process({"true"}, lots).exit_code == 0);
}

TEST_CASE("CatFileBatch: many blobs through one process") {
  TempRepo repo;
  repo.write("a.txt", "alpha\n");
  repo.write("dir/b.txt", std::string("bin\0ary", 7));
  repo.write("empty.txt", "");
  std::string head = repo.commit("one");
  CatFileBatch batch(repo.str());
  CHECK(batch.blob(head, "a.txt") == std::optional<std::string>("alpha\n"));
  CHECK(batch.blob(head, "dir/b.txt") == std::optional<std::string>(std::string("bin\0ary", 7)));
  CHECK(batch.blob(head, "empty.txt") == std::optional<std::string>(""));
  CHECK(batch.blob(head, "missing.txt") == std::nullopt);
  CHECK(batch.blob(head, "dir") == std::nullopt);  // a tree, not a blob
  CHECK(batch.blob(head, "bad\nname") == std::nullopt);
  CHECK(batch.blob(head, "a.txt") == std::optional<std::string>("alpha\n"));
  CHECK(batch.requests() == 6);
}
