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

TEST_CASE("CatFileBatch::objects: answers in order, requests written ahead") {
  TempRepo repo;
  // More requests than kAheadBytes holds (41 bytes each), and blobs larger than the pipe, so git
  // blocks writing an answer while requests are still unanswered.
  const int kFiles = 150;
  for (int i = 0; i < kFiles; ++i)
    repo.write("f" + std::to_string(i) + ".txt", i % 50 == 7 ? std::string(3 << 20, static_cast<char>('a' + i % 26))
                                                           : "file " + std::to_string(i) + "\n");
  repo.write("dir/x.txt", "x\n");
  std::string head = repo.commit("many");
  std::vector<std::string> oids;
  for (int i = 0; i < kFiles; ++i)
    oids.push_back(run_process({"git", "-C", repo.str(), "rev-parse", head + ":f" + std::to_string(i) + ".txt"}).out.substr(0, 40));
  const std::string tree = run_process({"git", "-C", repo.str(), "rev-parse", head + ":dir"}).out.substr(0, 40);
  // not answered as blobs: a tree, a missing object, an empty request, one holding a newline
  oids.insert(oids.begin() + 3, tree);
  oids.insert(oids.begin() + 10, std::string(40, '0'));
  oids.insert(oids.begin() + 20, "");
  oids.insert(oids.begin() + 30, oids[0] + "\n" + oids[1]);
  CatFileBatch one_by_one(repo.str());
  std::vector<std::optional<std::string>> want;
  for (const auto& o : oids) want.push_back(one_by_one.object(o));
  REQUIRE(want[0] == std::optional<std::string>("file 0\n"));
  REQUIRE(want[3] == std::nullopt);
  REQUIRE(want[10] == std::nullopt);

  CatFileBatch batch(repo.str());
  std::vector<std::size_t> order;
  std::vector<std::optional<std::string>> got(oids.size());
  batch.objects(oids, [&](std::size_t i, std::optional<std::string> text) {
    order.push_back(i);
    got[i] = std::move(text);
  });
  REQUIRE(order.size() == oids.size());
  for (std::size_t i = 0; i < order.size(); ++i) CHECK(order[i] == i);
  for (std::size_t i = 0; i < oids.size(); ++i) {
    INFO(i);
    CHECK(got[i] == want[i]);
  }
  CHECK(got[8]->size() == std::size_t{3} << 20);  // f7, after the four inserted before it
  // the process still answers single requests afterwards
  CHECK(batch.object(oids[0]) == std::optional<std::string>("file 0\n"));
}

TEST_CASE("CatFileBatch::objects: a callback that throws stops the process") {
  TempRepo repo;
  for (int i = 0; i < 40; ++i) repo.write("f" + std::to_string(i) + ".txt", std::to_string(i) + "\n");
  std::string head = repo.commit("some");
  std::vector<std::string> oids;
  for (int i = 0; i < 40; ++i)
    oids.push_back(run_process({"git", "-C", repo.str(), "rev-parse", head + ":f" + std::to_string(i) + ".txt"}).out.substr(0, 40));
  CatFileBatch batch(repo.str());
  int calls = 0;
  CHECK_THROWS_AS(batch.objects(oids, [&](std::size_t i, std::optional<std::string>) {
                    ++calls;
                    if (i == 2) throw std::runtime_error("stop");
                  }),
                  std::runtime_error);
  CHECK(calls == 3);
  // answers to the requests written ahead are never read as answers to later ones
  CHECK_THROWS_AS(batch.object(oids[5]), InputError);
}
