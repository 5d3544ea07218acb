// End-to-end tests of another repository as a fact scope: `let NAME = repo "FILE" /PIN/` in the
// ruleset, `--with NAME=PATH[@REV]` or `repos:` in the configuration, over two synthetic
// repositories (a library in git with two commits, and an application reviewed as two folders).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "cli/cli_util.hpp"
#include "runner/change/process.hpp"

namespace {

namespace fs = std::filesystem;
using review::cli::test::run_runner;

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::string git(const fs::path& repo, std::vector<std::string> args) {
  std::vector<std::string> argv = {"git", "-C", repo.string(), "-c", "user.name=t", "-c", "user.email=t@t",
                                   "-c", "commit.gpgsign=false"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = review::change::run_process(argv, {});
  REQUIRE(r.exit_code == 0);
  return r.out;
}

const char* kRules = R"RULES(ruleset withtest "another repository as a scope" {
  version 1
}

let lib = repo "pins.txt" /lib @ (?P<rev>[0-9a-f]{7,40})/

rule K1 "keyword the library function does not take" {
  severity warn
  for c in calls(changed) where c.added
  for kw in c.kwarg_names
  for r in repos where r.name == "lib" and r.loaded
  for d in functions(lib) where d.name == c.callee
  unless exists d2 in functions(lib) where d2.name == c.callee and (kw in d2.params or d2.kwargs != "")
  problem "`{c.callee}` takes no `{kw}` in lib at {r.rev_from} (`{d.file}:{d.line}`)"
  impact  "TypeError"
  action  "Author must bump the pin"
  example bad python """
    # with lib: lib/ops.py def fused(x, eps=1e-6): return x
    y = fused(x, pad_to=1)   # <- K1
  """
  example good python """
    # with lib: lib/ops.py def fused(x, eps=1e-6, pad_to=0): return x
    y = fused(x, pad_to=1)
  """
}

rule K2 "library call left unverified" {
  severity note
  for c in calls(changed) where c.added
  for kw in c.kwarg_names
  unless exists r in repos where r.name == "lib" and r.loaded
  problem "`{c.callee}` at line {c.line}: unverified (lib not loaded)"
  impact  "a keyword the library lacks goes unnoticed"
  action  "Reviewer should check the library's signature"
  example bad python """
    y = fused(x, pad_to=1)   # <- K2
  """
  example good python """
    # with lib: lib/ops.py def fused(x, pad_to=0): return x
    y = fused(x, pad_to=1)
  """
}
)RULES";

struct Fixture {
  fs::path dir, lib, base, head, rules;
  std::string old_sha, new_sha;
  Fixture() {
    dir = fs::temp_directory_path() / ("review-with-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    lib = dir / "lib";
    base = dir / "app-base";
    head = dir / "app-head";
    rules = dir / "withtest.rules";
    write(rules, kRules);
    fs::create_directories(lib);
    git(lib, {"init", "-q"});
    write(lib / "lib/ops.py", "def fused(x, eps=1e-6):\n    return x\n");
    git(lib, {"add", "."});
    git(lib, {"commit", "-q", "-m", "one"});
    old_sha = git(lib, {"rev-parse", "HEAD"}).substr(0, 40);
    write(lib / "lib/ops.py", "def fused(x, eps=1e-6, pad_to=0):\n    return x\n");
    git(lib, {"commit", "-q", "-am", "two"});
    new_sha = git(lib, {"rev-parse", "HEAD"}).substr(0, 40);
    write(base / "pins.txt", "lib @ " + old_sha + "\n");
    write(base / "app/use.py", "from lib.ops import fused\n");
    write(head / "pins.txt", "lib @ " + old_sha + "\n");
    write(head / "app/use.py", "from lib.ops import fused\ny = fused(x, pad_to=1)\n");
  }
  ~Fixture() { fs::remove_all(dir); }
  review::change::ProcessResult run(std::vector<std::string> extra) const {
    std::vector<std::string> args = {"-r", rules.string(), "--base-dir", base.string(), "--head-dir", head.string(),
                                     "--fail-on", "never", "--color", "never"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_runner(dir.string(), args);
  }
};

}  // namespace

TEST_CASE("--with: the revision the pin file names is read, and a rule checks against it") {
  Fixture f;
  auto r = f.run({"--with", "lib=" + f.lib.string()});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("note: lib: reading " + f.lib.string() + " at " + f.old_sha.substr(0, 12) +
                   " (revision from pins.txt)") != std::string::npos);
  CHECK(r.out.find("warn[K1]: `fused` takes no `pad_to` in lib at pins.txt (`lib/ops.py:1`)") != std::string::npos);
  CHECK(r.out.find("K2") == std::string::npos);
}

TEST_CASE("--with NAME=PATH@REV wins over the pin; the newer library takes the keyword") {
  Fixture f;
  auto r = f.run({"--with", "lib=" + f.lib.string() + "@" + f.new_sha.substr(0, 10)});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("(revision from --with)") != std::string::npos);
  CHECK(r.out.find("K1") == std::string::npos);
  CHECK(r.out.find("K2") == std::string::npos);
}

TEST_CASE("without --with: the named scope is empty, a note says so, and `repos` says not loaded") {
  Fixture f;
  auto r = f.run({});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("K1") == std::string::npos);
  CHECK(r.out.find("note[K2]: `fused` at line 2: unverified (lib not loaded)") != std::string::npos);
}

TEST_CASE("--with errors: undeclared name (2), missing folder (3), a pinned revision the clone lacks (3)") {
  Fixture f;
  auto typo = f.run({"--with", "lob=" + f.lib.string()});
  CHECK(typo.exit_code == 2);
  CHECK(typo.err.find("names the repository `lob`, which no loaded ruleset declares") != std::string::npos);
  CHECK(typo.err.find("did you mean `lib`") != std::string::npos);
  auto bad = f.run({"--with", "lib"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("expected NAME=PATH[@REV]") != std::string::npos);
  auto missing = f.run({"--with", "lib=" + (f.dir / "nope").string()});
  CHECK(missing.exit_code == 3);
  CHECK(missing.err.find("not a folder") != std::string::npos);
  write(f.head / "pins.txt", "lib @ 0123456789abcdef0123456789abcdef01234567\n");
  auto unknown = f.run({"--with", "lib=" + f.lib.string()});
  CHECK(unknown.exit_code == 3);
  CHECK(unknown.err.find("the revision pinned in pins.txt") != std::string::npos);
  // A plain folder (no git) is read as it is; a revision for it is an input error.
  write(f.dir / "plain/lib/ops.py", "def fused(x, **kw):\n    return x\n");
  auto plain = f.run({"--with", "lib=" + (f.dir / "plain").string() + "@abc1234"});
  CHECK(plain.exit_code == 3);
  CHECK(plain.err.find("not a git repository") != std::string::npos);
}

TEST_CASE("repos: in the configuration loads the repository; --with of the same name wins") {
  Fixture f;
  write(f.dir / "review.yml", "repos:\n  lib: " + f.lib.string() + "@" + f.new_sha + "\n");
  auto r = f.run({"--config", (f.dir / "review.yml").string()});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("K1") == std::string::npos);  // the newer revision takes pad_to
  CHECK(r.err.find("(revision from " + (f.dir / "review.yml").string() + ")") != std::string::npos);
  auto w = f.run({"--config", (f.dir / "review.yml").string(), "--with", "lib=" + f.lib.string()});
  CHECK(w.out.find("warn[K1]") != std::string::npos);  // the pin (the older revision)
}

TEST_CASE("examples give the other repository's files in their header") {
  Fixture f;
  auto r = run_runner(f.dir.string(), {"test", f.rules.string()});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == "4 passed, 0 failed, 0 skipped\n");
}
