#include "runner/change/change.hpp"

#include "catch.hpp"

using namespace review::change;

TEST_CASE("status_name: every status") {
  CHECK(status_name(FileStatus::Added) == "added");
  CHECK(status_name(FileStatus::Modified) == "modified");
  CHECK(status_name(FileStatus::Deleted) == "deleted");
  CHECK(status_name(FileStatus::Renamed) == "renamed");
  CHECK(status_name(FileStatus::Copied) == "copied");
}

TEST_CASE("Change::find: by head path") {
  Change c;
  c.files.resize(2);
  c.files[0].path = "a.py";
  c.files[1].path = "b/new.py";
  c.files[1].old_path = "b/old.py";
  CHECK(c.find("b/new.py") == &c.files[1]);
  CHECK(c.find("b/old.py") == nullptr);
  CHECK(c.find("") == nullptr);
}
