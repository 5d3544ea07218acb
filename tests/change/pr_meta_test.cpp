#include "runner/change/pr_meta.hpp"

#include "catch.hpp"
#include "change/test_util.hpp"

using namespace review::change;
using namespace review::change::test;

TEST_CASE("read_event_json: a pull_request payload") {
  PrMeta m;
  read_event_json(fixture_path("event_pull_request.json"), m);
  CHECK(m.number == 42);
  CHECK(m.title == "Fuse the norm kernel");
  CHECK(m.body == "Speeds up decode.\r\n<!-- template: describe tests -->\r\nTested on MI300.");
  CHECK(m.labels == std::vector<std::string>{"perf", "needs review"});
  CHECK(m.base_sha == "1111111111111111111111111111111111111111");
  CHECK(m.head_sha == "2222222222222222222222222222222222222222");
  CHECK(m.base_ref == "main");
  CHECK(m.head_ref == "fuse-norm");
  CHECK(m.author == "octo-dev");
  CHECK(m.url == "https://github.com/example-org/example-repo/pull/42");
  CHECK(m.commits == 3);
  CHECK(m.repository == "example-org/example-repo");

  PrMeta n;
  n.body = "stale";
  read_event_json(fixture_path("event_null_body.json"), n);
  CHECK(n.number == 7);
  CHECK(n.body.empty());
  CHECK(n.labels.empty());
}

TEST_CASE("read_gh_pr_json: gh pr view output") {
  PrMeta m;
  read_gh_pr_json(fixture_path("gh_pr_view.json"), m);
  CHECK(m.number == 108);
  CHECK(m.title == "Fix the loader");
  CHECK(m.body == "Body text");
  CHECK(m.labels == std::vector<std::string>{"bug"});
  CHECK(m.base_sha == "1111111111111111111111111111111111111111");
  CHECK(m.head_sha == "2222222222222222222222222222222222222222");
  CHECK(m.author == "octo-dev");
  CHECK(m.url == "https://github.com/example-org/example-repo/pull/108");
}

TEST_CASE("PR metadata: errors name the file, the position or the field") {
  struct Row {
    const char* fixture;
    bool gh;
    std::string where_suffix;
    std::string message;
  };
  const Row rows[] = {
      {"event_not_pull_request.json", false, "",
       "not a pull_request event: it has no \"pull_request\" object"},
      {"event_wrong_type.json", false, "", "pull_request.number: expected a number, got a string"},
      {"event_bad_label.json", false, "", "pull_request.labels[1]: expected an object, got a string"},
      {"event_invalid_json.json", false, ":4:18", "not valid JSON: unexpected \"x\""},
      {"event_truncated.json", false, ":1:21", "not valid JSON: the text ends early"},
      {"event_pull_request.json", true, "", "labels[0]: expected an object, got a string"},
  };
  for (const Row& r : rows) {
    INFO(r.fixture);
    PrMeta m;
    try {
      if (r.gh) {
        TempDir tmp;
        write_file(tmp.path / "pr.json", "{\"labels\": [\"x\"]}");
        read_gh_pr_json((tmp.path / "pr.json").string(), m);
      } else {
        read_event_json(fixture_path(r.fixture), m);
      }
      FAIL("no error");
    } catch (const InputError& e) {
      if (!r.gh) CHECK(e.where == fixture_path(r.fixture) + r.where_suffix);
      CHECK(e.message == r.message);
    }
  }
  PrMeta m;
  try {
    read_event_json("/no/such/event.json", m);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.where == "/no/such/event.json");
    CHECK(e.message == "cannot read: No such file or directory");
  }
}

TEST_CASE("PR metadata: a number beyond double's range is an input error") {
  TempDir tmp;
  for (const char* text : {"{\"pull_request\": {\"number\": 1e400}}", "{\"number\": -1e999, \"title\": \"t\"}"}) {
    INFO(text);
    write_file(tmp.path / "e.json", text);
    const std::string path = (tmp.path / "e.json").string();
    PrMeta m;
    for (bool gh : {false, true}) {
      try {
        gh ? read_gh_pr_json(path, m) : read_event_json(path, m);
        FAIL("no error");
      } catch (const InputError& e) {
        CHECK(e.where == path);
        CHECK(e.message == "not valid JSON: a number too large to read");
      }
    }
  }
}

TEST_CASE("strip_html_comments") {
  CHECK(strip_html_comments("a<!-- x -->b") == "ab");
  CHECK(strip_html_comments("a<!-- one -->b<!--two-->c") == "abc");
  CHECK(strip_html_comments("keep <!-- unterminated") == "keep ");
  CHECK(strip_html_comments("no comment") == "no comment");
  CHECK(strip_html_comments("<!---->") == "");
}
