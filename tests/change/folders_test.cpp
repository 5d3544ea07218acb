#include "runner/change/folders.hpp"

#include "catch.hpp"
#include "change/test_util.hpp"

using namespace review::change;
using namespace review::change::test;

TEST_CASE("load_folder_change: paths relative to each folder, content from the folders") {
  TempDir tmp;
  auto base = tmp.path / "base", head = tmp.path / "head";
  std::string body;
  for (int i = 1; i <= 10; ++i) body += "shared line " + std::to_string(i) + "\n";
  write_file(base / "sub/f.py", "x = 1\ny = 2\n");
  write_file(head / "sub/f.py", "x = 1\ny = 3\n");
  write_file(base / "old.txt", body);
  write_file(head / "renamed.txt", body);
  write_file(base / "gone.txt", "bye\n");
  write_file(head / "caf\xc3\xa9.py", "new\n");
  Change c = load_folder_change(base.string(), head.string());
  REQUIRE(c.files.size() == 4);
  struct Want { const char* path; const char* old_path; FileStatus status; std::set<int> added, removed; };
  const Want want[] = {
      {"caf\xc3\xa9.py", "", FileStatus::Added, {1}, {}},
      {"gone.txt", "gone.txt", FileStatus::Deleted, {}, {1}},
      {"renamed.txt", "old.txt", FileStatus::Renamed, {}, {}},
      {"sub/f.py", "sub/f.py", FileStatus::Modified, {2}, {2}},
  };
  for (std::size_t i = 0; i < 4; ++i) {
    INFO(i);
    CHECK(c.files[i].path == want[i].path);
    CHECK(c.files[i].old_path == want[i].old_path);
    CHECK(c.files[i].status == want[i].status);
    CHECK(c.files[i].added_lines == want[i].added);
    CHECK(c.files[i].removed_lines == want[i].removed);
  }
  CHECK(c.content->head("sub/f.py") == std::optional<std::string>("x = 1\ny = 3\n"));
  CHECK(c.content->base("sub/f.py") == std::optional<std::string>("x = 1\ny = 2\n"));
  CHECK(c.content->head("../base/gone.txt") == std::nullopt);
  CHECK(c.content->head_files() ==
        std::vector<std::string>{"caf\xc3\xa9.py", "renamed.txt", "sub/f.py"});
}

TEST_CASE("load_folder_change: identical folders and missing folders") {
  TempDir tmp;
  write_file(tmp.path / "a/x", "same\n");
  write_file(tmp.path / "b/x", "same\n");
  CHECK(load_folder_change((tmp.path / "a").string(), (tmp.path / "b").string()).files.empty());
  std::string missing = (tmp.path / "nope").string();
  try {
    load_folder_change(missing, (tmp.path / "b").string());
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.where == missing);
    CHECK(e.message == "no such folder");
  }
  try {
    load_folder_change((tmp.path / "a" / "x").string(), (tmp.path / "b").string());
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.message == "not a folder");  // a file
  }
}
