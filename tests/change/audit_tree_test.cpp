#include "runner/change/audit_tree.hpp"

#include <sstream>

#include "catch.hpp"
#include "change/test_util.hpp"
#include "runner/change/diff_parser.hpp"
#include "runner/change/git.hpp"

using namespace review::change;
using namespace review::change::test;

namespace {

// Everything of a ChangedFile an audit reads, as one comparable text.
std::string describe(const ChangedFile& f) {
  std::ostringstream o;
  o << f.path << " old_path=" << f.old_path << " status=" << status_name(f.status) << " sim=" << f.similarity
    << " modes=" << f.old_mode << "/" << f.new_mode << " binary=" << f.binary << " submodule=" << f.submodule
    << " skipped=" << f.skipped << " reason=" << f.skip_reason << " added=" << f.added_count
    << " removed=" << f.removed_count << " removed_lines=" << f.removed_lines.size() << " added_lines=";
  for (auto [a, b] : f.added_lines.runs()) o << a << "-" << b << ",";
  for (const Hunk& h : f.hunks) {
    o << " @@" << h.old_start << "," << h.old_count << "," << h.new_start << "," << h.new_count << " [" << h.section
      << "] elided=" << h.elided << " lines=" << h.lines.size();
  }
  return o.str();
}

std::vector<std::string> describe_all(const std::vector<ChangedFile>& files) {
  std::vector<std::string> out;
  for (const ChangedFile& f : files) out.push_back(describe(f));
  return out;
}

// What load_git_change read before audit_tree_files: the whole diff from the empty tree.
std::vector<ChangedFile> from_diff(const TempRepo& repo, const std::string& head, std::size_t max_bytes) {
  std::vector<std::string> argv{"git", "-C", repo.str()};
  for (std::string& a : diff_arguments(empty_tree(repo.str()), head)) argv.push_back(std::move(a));
  argv.push_back("--");
  ProcessResult r = run_process(argv);
  REQUIRE(r.exit_code == 0);
  DiffOptions o;
  o.max_file_bytes = max_bytes;
  o.elide_added_files = true;
  return parse_unified_diff(r.out, "diff", o);
}

// A commit holding every kind of entry whose diff git writes in its own way.
std::string edge_case_commit(TempRepo& repo) {
  repo.write("plain.py", "a = 1\nb = 2\n");
  repo.write("no_newline.py", "x = 1");
  repo.write("crlf.txt", "one\r\ntwo\r\n");
  repo.write("cr_at_end.txt", "one\ntwo\r");
  repo.write("empty.txt", "");
  repo.write("nul.bin", std::string("ab\0cd\n", 6));
  repo.write("late_nul.txt", std::string(8000, 'x') + std::string("\0\n", 2));  // after git's first 8,000 bytes
  repo.write("run.sh", "#!/bin/sh\necho hi\n");
  repo.write("dir with space/caf\xc3\xa9 \"q\"\t.py", "q = 1\n");
  repo.write(".gitattributes",
             "*.dat -diff\n*.drv diff=python\n*.pack binary\nset.txt diff\n*.bdrv diff=blobby\n*.many diff=Texty\n");
  git(repo.str(), {"config", "diff.blobby.binary", "true"});  // a driver that makes its files binary
  git(repo.str(), {"config", "diff.Texty.binary", "false"});  // one that keeps them text: git diff decides
  repo.write("code.bdrv", "text, yet binary by its driver\n");
  // more files for git diff than one restricted run takes (512 paths)
  for (int i = 0; i < 600; ++i) repo.write("many/f" + std::to_string(i) + ".many", "line\n" + std::string(i % 3, 'x') + "\n");
  repo.write("table.dat", "1 2 3\n");
  repo.write("code.drv", "def f():\n    return 1\n");
  repo.write("blob.pack", "text, yet binary by attribute\n");
  repo.write("set.txt", "diff attribute set\n");
  // 50 CRLF lines are 100 bytes to the diff parser (each line without its CR, plus one): at the
  // limit of 100, kept; 51 lines, over it.
  std::string fifty, fifty_one;
  for (int i = 0; i < 50; ++i) fifty += "x\r\n";
  fifty_one = fifty + "x\r\n";
  repo.write("at_limit.txt", fifty);
  repo.write("over_limit.txt", fifty_one);
  repo.write("over_threshold.txt", std::string(12000, 'y') + "\n");  // core.bigFileThreshold is 10k below
  git(repo.str(), {"config", "core.bigFileThreshold", "10k"});
  git(repo.str(), {"update-index", "--chmod=+x", "--add", "run.sh"});
  std::filesystem::create_symlink("plain.py", repo.path / "link.py");
  git(repo.str(), {"add", "-A"});
  git(repo.str(), {"update-index", "--chmod=+x", "run.sh"});
  // a submodule entry (a gitlink), with no folder in the work tree
  git(repo.str(), {"update-index", "--add", "--cacheinfo", "160000,1111111111111111111111111111111111111111,sub/module"});
  git(repo.str(), {"commit", "-q", "-m", "edge cases"});
  return git(repo.str(), {"rev-parse", "HEAD"});
}

}  // namespace

TEST_CASE("audit_tree_files: the files, modes and line counts the empty-tree diff gives, for every kind of entry") {
  TempRepo repo;
  std::string head = edge_case_commit(repo);
  const std::size_t max_bytes = 100;
  auto listed = audit_tree_files(repo.str(), head, empty_tree(repo.str()), max_bytes);
  REQUIRE(listed.has_value());
  std::vector<ChangedFile> diffed = from_diff(repo, head, max_bytes);
  CHECK(describe_all(listed->files) == describe_all(diffed));
  REQUIRE(diffed.size() == 19 + 1 + 600);

  auto find = [&](const std::string& path) -> const ChangedFile& {
    for (const ChangedFile& f : listed->files)
      if (f.path == path) return f;
    FAIL("no file " << path);
    throw;
  };
  // each shape the comparison above covers, so that a diff that lost a case cannot pass it
  CHECK(find("plain.py").added_count == 2);
  CHECK(find("no_newline.py").added_lines == std::set<int>{1});
  CHECK(find("cr_at_end.txt").added_count == 2);
  CHECK(find("empty.txt").hunks.empty());
  CHECK(find("nul.bin").binary);
  CHECK_FALSE(find("late_nul.txt").binary);
  CHECK(find("run.sh").new_mode == "100755");
  CHECK(find("link.py").new_mode == "120000");
  CHECK(find("link.py").added_count == 1);
  CHECK(find("dir with space/caf\xc3\xa9 \"q\"\t.py").added_count == 1);
  CHECK(find("table.dat").binary);      // -diff
  CHECK(find("blob.pack").binary);      // the binary macro
  CHECK_FALSE(find("set.txt").binary);  // diff set: the default driver
  CHECK_FALSE(find("code.drv").binary);  // a driver with no binary setting: read here
  CHECK(find("code.drv").added_count == 2);
  CHECK(find("code.bdrv").binary);  // diff.blobby.binary: git diff settled it
  CHECK(find("many/f599.many").added_count == 2);  // the second restricted run's
  CHECK_FALSE(find("many/f599.many").binary);
  CHECK_FALSE(find("at_limit.txt").skipped);
  CHECK(find("over_limit.txt").skip_reason == "diff larger than 100 bytes");
  CHECK(find("over_limit.txt").added_count == 51);
  CHECK(find("over_threshold.txt").binary);  // over core.bigFileThreshold: binary to git
  CHECK(find("sub/module").submodule);

  // The texts read on the way are handed over, binary and skipped files' not.
  CHECK(listed->head_texts.at("plain.py") == "a = 1\nb = 2\n");
  CHECK(listed->head_texts.at("link.py") == "plain.py");
  CHECK(listed->head_texts.count("nul.bin") == 0);
  CHECK(listed->head_texts.count("over_limit.txt") == 0);
  CHECK(listed->head_texts.at("code.drv") == "def f():\n    return 1\n");
  CHECK(listed->head_texts.count("code.bdrv") == 0);       // git diff's file: never read here
  CHECK(listed->head_texts.count("many/f0.many") == 0);
  // at most keep_bytes of them
  auto few = audit_tree_files(repo.str(), head, empty_tree(repo.str()), max_bytes, 12);
  REQUIRE(few.has_value());
  std::size_t kept = 0;
  for (const auto& [path, text] : few->head_texts) kept += text.size();
  CHECK(kept <= 12);
  CHECK_FALSE(few->head_texts.empty());
  CHECK(describe_all(few->files) == describe_all(diffed));
}

TEST_CASE("audit_tree_files: a diff.default setting or a partial clone leaves the whole tree to git diff") {
  TempRepo repo;
  repo.write("a.py", "a = 1\n");
  std::string head = repo.commit("one");
  CHECK(audit_tree_files(repo.str(), head, empty_tree(repo.str()), 1000).has_value());
  git(repo.str(), {"config", "remote.origin.promisor", "true"});  // a partial clone
  CHECK_FALSE(audit_tree_files(repo.str(), head, empty_tree(repo.str()), 1000).has_value());
  git(repo.str(), {"config", "--unset", "remote.origin.promisor"});
  CHECK(audit_tree_files(repo.str(), head, empty_tree(repo.str()), 1000).has_value());
  git(repo.str(), {"config", "diff.default.binary", "true"});
  CHECK_FALSE(audit_tree_files(repo.str(), head, empty_tree(repo.str()), 1000).has_value());
  // load_git_change then reads the diff: the same change as git writes it
  GitOptions o;
  o.repo = repo.str();
  o.all = true;
  Change c = load_git_change(o);
  REQUIRE(c.files.size() == 1);
  CHECK(c.files[0].binary);
}

TEST_CASE("GitContent::keep: a kept head text answers once, then git answers") {
  TempRepo repo;
  repo.write("a.py", "a = 1\n");
  std::string head = repo.commit("one");
  GitContent content(repo.str(), empty_tree(repo.str()), head, false);
  content.keep({{"a.py", "kept bytes\n"}});
  CHECK(content.head("a.py") == std::optional<std::string>("kept bytes\n"));
  CHECK(content.requests() == 0);
  CHECK(content.head("a.py") == std::optional<std::string>("a = 1\n"));
  CHECK(content.requests() == 1);

  GitContent work(repo.str(), empty_tree(repo.str()), head, true);  // a work tree's texts are never kept
  work.keep({{"a.py", "kept bytes\n"}});
  repo.write("a.py", "work tree\n");
  CHECK(work.head("a.py") == std::optional<std::string>("work tree\n"));
}
