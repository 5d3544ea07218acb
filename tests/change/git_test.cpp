#include <algorithm>
#include "runner/change/git.hpp"
#include "runner/change/memory.hpp"

#include <fstream>

#include "catch.hpp"
#include "change/test_util.hpp"

using namespace review::change;
using namespace review::change::test;

namespace {

const ChangedFile& need(const Change& c, const std::string& path) {
  const ChangedFile* f = c.find(path);
  if (!f) FAIL("no changed file " << path);
  return *f;
}

/// Options for a review of `repo`'s work tree against its HEAD commit.
GitOptions work_tree_against_head(const TempRepo& repo) {
  GitOptions o;
  o.repo = repo.str();
  o.base = "HEAD";
  o.work_tree = true;
  return o;
}

}  // namespace

TEST_CASE("load_git_change: renames, deletions, binary files, edits between two commits") {
  TempRepo repo;
  std::string body;
  for (int i = 1; i <= 20; ++i) body += "line " + std::to_string(i) + " of the moved file\n";
  repo.write("old/place.py", body);
  repo.write("gone.txt", "a\nb\n");
  repo.write("img.bin", std::string("\0\1\2\3", 4));
  repo.write("edit.py", "x = 1\ny = 2\nz = 3\n");
  std::string base = repo.commit("base");
  std::filesystem::create_directories(repo.path / "new");
  git(repo.str(), {"mv", "old/place.py", "new/place.py"});
  repo.write("new/place.py", body + "one more\n");
  git(repo.str(), {"rm", "-q", "gone.txt"});
  repo.write("img.bin", std::string("\0\1\2\4", 4));
  repo.write("edit.py", "x = 1\ny = 20\nz = 3\nw = 4\n");
  std::string head = repo.commit("head");
  repo.write("edit.py", "work tree text is never read\n");  // without work_tree, ignored

  GitOptions o;
  o.repo = repo.str();
  o.base = base;
  o.head = head;
  Change c = load_git_change(o);
  CHECK(c.pr.base_sha == base);
  CHECK(c.pr.head_sha == head);
  REQUIRE(c.files.size() == 4);

  const ChangedFile& moved = need(c, "new/place.py");
  CHECK(moved.status == FileStatus::Renamed);
  CHECK(moved.old_path == "old/place.py");
  CHECK(moved.similarity >= 90);
  CHECK(moved.added_lines == std::set<int>{21});

  const ChangedFile& gone = need(c, "gone.txt");
  CHECK(gone.status == FileStatus::Deleted);
  CHECK(gone.removed_lines == std::set<int>{1, 2});

  const ChangedFile& bin = need(c, "img.bin");
  CHECK(bin.binary);
  CHECK(bin.skipped);

  const ChangedFile& edit = need(c, "edit.py");
  CHECK(edit.added_lines == std::set<int>{2, 4});
  CHECK(edit.removed_lines == std::set<int>{2});

  CHECK(c.notes == std::vector<std::string>{"img.bin: not analysed (binary file)"});
  CHECK(c.content->head("edit.py") == std::optional<std::string>("x = 1\ny = 20\nz = 3\nw = 4\n"));
  CHECK(c.content->base("edit.py") == std::optional<std::string>("x = 1\ny = 2\nz = 3\n"));
  CHECK(c.content->base("old/place.py") == std::optional<std::string>(body));
  CHECK(c.content->head("old/place.py") == std::nullopt);
  CHECK(c.content->head("gone.txt") == std::nullopt);
  CHECK(c.content->base("gone.txt") == std::optional<std::string>("a\nb\n"));
  CHECK(c.content->head_files() == std::vector<std::string>{"edit.py", "img.bin", "new/place.py"});
  auto* gc = dynamic_cast<GitContent*>(c.content.get());
  REQUIRE(gc);
  CHECK(gc->requests() == 6);  // one cat-file process answered all of them
  CHECK(gc->named_requests() == 2);  // head of old/place.py and gone.txt: not in the head's listing
}

TEST_CASE("GitContent: a listed file is read by its object id, with the answers of REV:PATH") {
  TempRepo repo;
  repo.write("top.py", "t = 1\n");
  repo.write("a/b/c/deep.py", "d = 1\n");
  repo.write("odd name\twith tab.py", "o = 1\n");
  repo.write("caf\xc3\xa9/\xe2\x82\xac.txt", "euro\n");
  repo.write("ref.py", "r = 1\n");
  std::filesystem::create_symlink("a/b/c/deep.py", repo.path / "link.py");
  std::string base = repo.commit("base");
  repo.write("a/b/c/deep.py", "d = 2\n");
  repo.write("new.py", "n = 1\n");
  git(repo.str(), {"add", "-A"});
  // a submodule entry (gitlink): a commit in the tree, never a blob
  git(repo.str(), {"update-index", "--add", "--cacheinfo", "160000," + base + ",sub"});
  git(repo.str(), {"commit", "-q", "-m", "head"});
  std::string head = git(repo.str(), {"rev-parse", "HEAD"});
  REQUIRE(git(repo.str(), {"ls-tree", head, "sub"}).rfind("160000 commit ", 0) == 0);

  GitContent content(repo.str(), base, head, false);
  CHECK(content.head("top.py") == std::optional<std::string>("t = 1\n"));
  CHECK(content.head("a/b/c/deep.py") == std::optional<std::string>("d = 2\n"));
  CHECK(content.base("a/b/c/deep.py") == std::optional<std::string>("d = 1\n"));
  CHECK(content.head("odd name\twith tab.py") == std::optional<std::string>("o = 1\n"));
  CHECK(content.head("caf\xc3\xa9/\xe2\x82\xac.txt") == std::optional<std::string>("euro\n"));
  CHECK(content.head("link.py") == std::optional<std::string>("a/b/c/deep.py"));  // the link, not followed
  CHECK(content.requests() == 6);
  CHECK(content.named_requests() == 0);  // every one by object id: no tree read per file
  CHECK(content.head("sub") == std::nullopt);  // listed, not a blob: no request at all
  CHECK(content.base("sub") == std::nullopt);  // not in the base: asked by name, missing
  CHECK(content.requests() == 7);
  CHECK(content.named_requests() == 1);
  // not listed under these spellings: asked by name, answered as git answers REV:PATH
  CHECK(content.head("a/b") == std::nullopt);  // a tree
  CHECK(content.head("./top.py") == std::optional<std::string>("t = 1\n"));
  CHECK(content.head("missing.py") == std::nullopt);
  CHECK(content.named_requests() == 4);

  // same_text from the listings, without reading a blob
  const int asked = content.requests();
  CHECK(content.same_text("top.py") == std::optional<bool>(true));
  CHECK(content.same_text("link.py") == std::optional<bool>(true));
  CHECK(content.same_text("a/b/c/deep.py") == std::optional<bool>(false));
  CHECK(content.same_text("new.py") == std::optional<bool>(false));  // only at head
  CHECK(content.same_text("sub") == std::nullopt);                   // no blob on either side
  CHECK(content.same_text("missing.py") == std::nullopt);
  CHECK(content.same_text("a/b") == std::nullopt);                   // a tree
  CHECK(content.requests() == asked);

  GitContent work(repo.str(), base, head, true);  // the work tree: cannot tell
  CHECK(work.same_text("top.py") == std::nullopt);
}

TEST_CASE("MemoryContent::same_text compares the two texts") {
  MemoryContent m({{"a", "x"}, {"b", "y"}, {"c", "z"}}, {{"a", "x"}, {"b", "Y"}, {"d", "w"}});
  CHECK(m.same_text("a") == std::optional<bool>(true));
  CHECK(m.same_text("b") == std::optional<bool>(false));
  CHECK(m.same_text("c") == std::optional<bool>(false));
  CHECK(m.same_text("d") == std::optional<bool>(false));
  CHECK(m.same_text("e") == std::nullopt);
}

TEST_CASE("load_git_change: work tree mode includes uncommitted and untracked files") {
  TempRepo repo;
  repo.write("a.py", "a = 1\n");
  repo.write(".gitignore", "*.log\n");
  std::string base = repo.commit("base");
  repo.write("a.py", "a = 2\n");
  repo.write("new/untracked.py", "u = 1\nv = 2\n");
  repo.write("debug.log", "ignored\n");
  GitOptions o;
  o.repo = repo.str();
  o.base = "HEAD";
  o.work_tree = true;
  Change c = load_git_change(o);
  REQUIRE(c.files.size() == 2);
  CHECK(c.files[0].path == "a.py");
  CHECK(c.files[0].added_lines == std::set<int>{1});
  CHECK(c.files[1].path == "new/untracked.py");
  CHECK(c.files[1].status == FileStatus::Added);
  CHECK(c.files[1].added_lines == std::set<int>{1, 2});
  CHECK(c.content->head("a.py") == std::optional<std::string>("a = 2\n"));
  CHECK(c.content->base("a.py") == std::optional<std::string>("a = 1\n"));
  CHECK(c.content->head("new/untracked.py") == std::optional<std::string>("u = 1\nv = 2\n"));
  CHECK(c.content->head_files() == std::vector<std::string>{".gitignore", "a.py", "new/untracked.py"});
  CHECK(c.notes == std::vector<std::string>{
                       "head is the work tree: uncommitted changes and untracked files included (not those .gitignore "
      "lists: list an earlier report or a scratch file there to leave it out)"});
  CHECK(c.pr.base_sha == base);
}

TEST_CASE("load_git_change: a work-tree review leaves out the untracked files the run writes its reports to") {
  TempRepo repo;
  repo.write("a.py", "a = 1\n");
  repo.commit("base");
  // an earlier run's reports, untracked, beside the author's own new file
  repo.write("review.sarif", "{\"runs\": []}\n");
  repo.write("out/review.json", "{}\n");
  repo.write("new.py", "n = 1\n");
  GitOptions o = work_tree_against_head(repo);
  // as given on the command line: one absolute, one through another spelling of the folder,
  // one that does not exist yet (it is written later), and standard output
  o.own_outputs = {repo.str() + "/review.sarif", repo.str() + "/out/../out/review.json",
                   repo.str() + "/later.md", "-"};
  Change c = load_git_change(o);
  REQUIRE(c.files.size() == 1);
  CHECK(c.files[0].path == "new.py");
  CHECK(c.content->head_files() == std::vector<std::string>{"a.py", "new.py"});
  CHECK(c.notes == std::vector<std::string>{
                       "out/review.json: not reviewed (an untracked file this run writes its report to)",
                       "review.sarif: not reviewed (an untracked file this run writes its report to)",
                       "head is the work tree: uncommitted changes and untracked files included (not those .gitignore "
      "lists: list an earlier report or a scratch file there to leave it out)"});
  // a tracked file is the author's, whatever the run writes to it
  o.own_outputs = {repo.str() + "/a.py"};
  repo.write("a.py", "a = 2\n");
  Change tracked = load_git_change(o);
  CHECK(tracked.find("a.py") != nullptr);
  CHECK(tracked.find("review.sarif") != nullptr);
}

TEST_CASE("load_git_change: a work-tree review leaves out an earlier run's report written under another name") {
  TempRepo repo;
  repo.write("a.py", "a = 1\n");
  repo.commit("base");
  // reports of this tool, by their own shapes (runner/report: sarif.cpp, json.cpp, rdjson.cpp)
  repo.write("old.sarif", "{\"runs\": [{\"tool\": {\"driver\": {\"name\": \"review-action\", \"rules\": []}}}]}\n");
  repo.write("old.json", "  {\"schema\": \"review-action/findings@1\", \"tool\": {\"name\": \"review-action\"}}");
  repo.write("old.rdjson", "{\"source\": {\"name\": \"review-action\"}, \"diagnostics\": []}");
  // the author's files, however alike: another tool's log, a config with a `tool` string, a
  // broken object, a report of ours inside a list
  repo.write("semgrep.sarif", "{\"runs\": [{\"tool\": {\"driver\": {\"name\": \"semgrep\"}}}]}");
  repo.write("config.json", "{\"tool\": \"review-action\", \"source\": {\"name\": 3}}");
  repo.write("broken.json", "{\"tool\": {\"name\": \"review-action\"");
  repo.write("list.json", "[{\"tool\": {\"name\": \"review-action\"}}]");
  Change c = load_git_change(work_tree_against_head(repo));
  std::vector<std::string> reviewed;
  for (const auto& f : c.files) reviewed.push_back(f.path);
  CHECK(reviewed == std::vector<std::string>{"broken.json", "config.json", "list.json", "semgrep.sarif"});
  CHECK(c.notes == std::vector<std::string>{
                       "old.json: not reviewed (an earlier run's JSON report; list it in .gitignore or delete it to "
                       "keep this note away)",
                       "old.rdjson: not reviewed (an earlier run's rdjson report; list it in .gitignore or delete it "
                       "to keep this note away)",
                       "old.sarif: not reviewed (an earlier run's SARIF report; list it in .gitignore or delete it to "
                       "keep this note away)",
                       "head is the work tree: uncommitted changes and untracked files included (not those .gitignore "
                       "lists: list an earlier report or a scratch file there to leave it out)"});
  const auto listed = c.content->head_files();
  CHECK(std::find(listed.begin(), listed.end(), "old.sarif") == listed.end());
  CHECK(std::find(listed.begin(), listed.end(), "semgrep.sarif") != listed.end());
}

TEST_CASE("load_git_change: default base is the merge-base with main, else master") {
  TempRepo repo;
  repo.write("f.txt", "1\n");
  std::string fork = repo.commit("base");
  git(repo.str(), {"checkout", "-q", "-b", "topic"});
  repo.write("f.txt", "1\n2\n");
  repo.commit("topic work");
  git(repo.str(), {"checkout", "-q", "main"});
  repo.write("other.txt", "main moved on\n");
  repo.commit("main work");

  GitOptions o;
  o.repo = repo.str();
  o.head = "topic";
  Change c = load_git_change(o);
  CHECK(c.pr.base_sha == fork);
  REQUIRE(c.files.size() == 1);  // main's own commit is not part of the change
  CHECK(c.files[0].path == "f.txt");

  git(repo.str(), {"branch", "-q", "-m", "main", "master"});
  CHECK(load_git_change(o).pr.base_sha == fork);

  git(repo.str(), {"branch", "-q", "-m", "master", "trunk"});
  try {
    load_git_change(o);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.where == repo.str());
    CHECK(e.message ==
          "no base revision given, and none of origin/HEAD, main, master shares history with the "
          "head; pass a base revision");
  }
}

TEST_CASE("load_git_change: unknown revisions and folders that are not repositories") {
  TempRepo repo;
  repo.write("f.txt", "1\n");
  repo.commit("one");
  GitOptions o;
  o.repo = repo.str();
  o.base = "HEAD";
  o.head = "no-such-branch";
  try {
    load_git_change(o);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.where == repo.str());
    CHECK(e.message == "unknown revision \"no-such-branch\" (in a shallow clone, fetch more history: "
                       "`git fetch --unshallow`, or `fetch-depth: 0` in actions/checkout)");
  }
  o.head = "--output=/tmp/x";  // never taken as an option
  CHECK_THROWS_AS(load_git_change(o), InputError);
  TempDir plain;
  o.repo = plain.str();
  o.head = "HEAD";
  try {
    load_git_change(o);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.message == "not a git repository (pass --repo DIR, or compare two folders with --base-dir/--head-dir, "
                       "or review a patch with --diff FILE)");
  }
  // a path that is no folder at all is said to be so, not "not a git repository"
  auto error_for = [&](const std::string& repo_path) {
    o.repo = repo_path;
    try {
      load_git_change(o);
    } catch (const InputError& e) {
      return e.message;
    }
    return std::string("no error");
  };
  CHECK(error_for(plain.str() + "/no-such-folder") == "no such folder (--repo takes the repository's folder)");
  std::ofstream(plain.str() + "/file.txt") << "x\n";
  CHECK(error_for(plain.str() + "/file.txt") == "not a folder (--repo takes the repository's folder)");
}

TEST_CASE("load_git_change with all: every file of the head is added against git's empty tree") {
  TempRepo repo;
  repo.write("a.py", "a = 1\nb = 2\n");
  repo.write("pkg/b.py", "x = 1\n");
  repo.write("img.bin", std::string("\0\1\2\3", 4));
  repo.write("big.txt", std::string(100, 'x') + "\n");
  repo.write("empty.txt", "");
  std::string first = repo.commit("one");
  repo.write("a.py", "a = 1\nb = 2\nc = 3\n");
  std::string head = repo.commit("two");
  repo.write("a.py", "work tree text\n");
  repo.write("untracked.py", "u = 1\n");

  GitOptions o;
  o.repo = repo.str();
  o.all = true;
  o.max_file_bytes = 50;
  Change c = load_git_change(o);
  CHECK(empty_tree(repo.str()) == "4b825dc642cb6eb9a060e54bf8d69288fbee4904");
  CHECK(c.pr.base_sha == "4b825dc642cb6eb9a060e54bf8d69288fbee4904");
  CHECK(c.pr.head_sha == head);
  std::vector<std::string> paths;
  for (const auto& f : c.files) {
    paths.push_back(f.path);
    CHECK(f.status == FileStatus::Added);
    CHECK(f.removed_lines.empty());
  }
  CHECK(paths == std::vector<std::string>{"a.py", "big.txt", "empty.txt", "img.bin", "pkg/b.py"});
  CHECK(need(c, "a.py").added_lines == std::set<int>{1, 2, 3});  // the head commit, not the work tree
  CHECK(need(c, "pkg/b.py").added_lines == std::set<int>{1});
  // an audit keeps no line of the tree in the hunks: the head text has them (Hunk::elided)
  REQUIRE(need(c, "a.py").hunks.size() == 1);
  const Hunk& whole = need(c, "a.py").hunks[0];
  CHECK(whole.elided);
  CHECK(whole.lines.empty());
  CHECK((whole.old_start == 0 && whole.old_count == 0 && whole.new_start == 1 && whole.new_count == 3));
  CHECK(need(c, "a.py").added_count == 3);
  CHECK(need(c, "a.py").added_lines.runs().size() == 1);
  CHECK(need(c, "img.bin").skipped);
  CHECK(need(c, "big.txt").skipped);
  CHECK(c.notes == std::vector<std::string>{"big.txt: not analysed (diff larger than 50 bytes)",
                                            "img.bin: not analysed (binary file)"});
  CHECK(c.content->base("a.py") == std::nullopt);
  CHECK(c.content->head("a.py") == std::optional<std::string>("a = 1\nb = 2\nc = 3\n"));
  CHECK(c.content->head_files() == std::vector<std::string>{"a.py", "big.txt", "empty.txt", "img.bin", "pkg/b.py"});

  o.head = first;  // --head picks the revision
  CHECK(need(load_git_change(o), "a.py").added_lines == std::set<int>{1, 2});

  o.head.clear();
  o.work_tree = true;  // the work tree, untracked files included
  Change w = load_git_change(o);
  CHECK(need(w, "a.py").added_lines == std::set<int>{1});
  CHECK(need(w, "untracked.py").added_lines == std::set<int>{1});
  for (const auto& f : w.files)  // the work tree may change after the diff: its lines are kept
    for (const auto& h : f.hunks) CHECK_FALSE(h.elided);
  CHECK(need(w, "a.py").hunks.at(0).lines.at(0).text == "work tree text");
  CHECK(w.content->head("a.py") == std::optional<std::string>("work tree text\n"));

  o.work_tree = false;
  o.base = "HEAD";
  try {
    load_git_change(o);
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "--all compares the head with an empty tree; it takes no base revision");
  }

  TempDir plain;
  try {
    empty_tree(plain.str());
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.where == plain.str());
    CHECK(e.message.rfind("not a git repository (", 0) == 0);
  }
}
