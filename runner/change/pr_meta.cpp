#include "runner/change/pr_meta.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "runner/change/diff_parser.hpp"

namespace review::change {

namespace {

using nlohmann::json;

std::string type_words(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "a number";
    default: return "something else";
  }
}

json load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError{path, std::string("cannot read: ") + std::strerror(errno)};
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string text = std::move(ss).str();
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    // e.byte is the 1-based offset of the byte where parsing stopped.
    std::size_t stop = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    int line = 1, col = 1;
    for (std::size_t i = 0; i < stop; ++i) {
      if (text[i] == '\n') { ++line; col = 1; } else { ++col; }
    }
    std::string found;
    if (stop < text.size()) {
      std::string_view rest(text.data() + stop, text.size() - stop);
      rest = rest.substr(0, std::min(rest.find_first_of("\r\n"), std::size_t{20}));
      found = "unexpected \"" + excerpt(rest, 20) + "\"";
    } else {
      found = "the text ends early";
    }
    throw InputError{path + ":" + std::to_string(line) + ":" + std::to_string(col),
                     "not valid JSON: " + found};
  } catch (const json::exception&) {
    // out_of_range 406: a number beyond double's range, e.g. 1e400 (nlohmann/json 3.11).
    throw InputError{path, "not valid JSON: a number too large to read"};
  }
}

class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path) {}

  [[noreturn]] void wrong(const std::string& field, const char* expected, const json& got) const {
    throw InputError{path_, field + ": expected " + expected + ", got " + type_words(got)};
  }

  /// `obj[key]` as a string into `out`; null leaves "" when `null_empty`, else unchanged.
  void string(const json& obj, const char* key, const std::string& field, std::string& out,
              bool null_empty = false) const {
    auto it = obj.find(key);
    if (it == obj.end()) return;
    if (it->is_null()) {
      if (null_empty) out.clear();
      return;
    }
    if (!it->is_string()) wrong(field, "a string", *it);
    out = it->get<std::string>();
  }

  void integer(const json& obj, const char* key, const std::string& field, int& out) const {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return;
    if (!it->is_number_integer() && !it->is_number_unsigned()) wrong(field, "a number", *it);
    long long v = it->get<long long>();
    if (v < 0 || v > 2147483647) wrong(field, "a number from 0 to 2147483647", *it);
    out = static_cast<int>(v);
  }

  const json* object(const json& obj, const char* key, const std::string& field) const {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return nullptr;
    if (!it->is_object()) wrong(field, "an object", *it);
    return &*it;
  }

  void labels(const json& obj, const std::string& field, std::vector<std::string>& out) const {
    auto it = obj.find("labels");
    if (it == obj.end() || it->is_null()) return;
    if (!it->is_array()) wrong(field, "an array", *it);
    out.clear();
    for (std::size_t i = 0; i < it->size(); ++i) {
      const json& l = (*it)[i];
      std::string f = field + "[" + std::to_string(i) + "]";
      if (!l.is_object()) wrong(f, "an object", l);
      std::string name;
      string(l, "name", f + ".name", name);
      out.push_back(std::move(name));
    }
  }

 private:
  std::string path_;
};

}  // namespace

void read_event_json(const std::string& path, PrMeta& meta) {
  json j = load(path);
  Reader r(path);
  if (!j.is_object()) r.wrong("the payload", "an object", j);
  const json* pr = r.object(j, "pull_request", "pull_request");
  if (!pr)
    throw InputError{path, "not a pull_request event: it has no \"pull_request\" object"};
  r.integer(*pr, "number", "pull_request.number", meta.number);
  r.string(*pr, "title", "pull_request.title", meta.title, true);
  r.string(*pr, "body", "pull_request.body", meta.body, true);
  r.labels(*pr, "pull_request.labels", meta.labels);
  r.string(*pr, "html_url", "pull_request.html_url", meta.url);
  r.integer(*pr, "commits", "pull_request.commits", meta.commits);
  if (const json* base = r.object(*pr, "base", "pull_request.base")) {
    r.string(*base, "sha", "pull_request.base.sha", meta.base_sha);
    r.string(*base, "ref", "pull_request.base.ref", meta.base_ref);
  }
  if (const json* head = r.object(*pr, "head", "pull_request.head")) {
    r.string(*head, "sha", "pull_request.head.sha", meta.head_sha);
    r.string(*head, "ref", "pull_request.head.ref", meta.head_ref);
  }
  if (const json* user = r.object(*pr, "user", "pull_request.user"))
    r.string(*user, "login", "pull_request.user.login", meta.author);
  if (const json* repo = r.object(j, "repository", "repository"))
    r.string(*repo, "full_name", "repository.full_name", meta.repository);
}

void read_gh_pr_json(const std::string& path, PrMeta& meta) {
  json j = load(path);
  Reader r(path);
  if (!j.is_object()) r.wrong("the document", "an object", j);
  r.integer(j, "number", "number", meta.number);
  r.string(j, "title", "title", meta.title, true);
  r.string(j, "body", "body", meta.body, true);
  r.labels(j, "labels", meta.labels);
  r.string(j, "baseRefOid", "baseRefOid", meta.base_sha);
  r.string(j, "headRefOid", "headRefOid", meta.head_sha);
  r.string(j, "baseRefName", "baseRefName", meta.base_ref);
  r.string(j, "headRefName", "headRefName", meta.head_ref);
  r.string(j, "url", "url", meta.url);
  if (const json* author = r.object(j, "author", "author"))
    r.string(*author, "login", "author.login", meta.author);
  auto commits = j.find("commits");
  if (commits != j.end()) {
    if (commits->is_array())
      meta.commits = static_cast<int>(commits->size());
    else
      r.integer(j, "commits", "commits", meta.commits);
  }
}

std::string strip_html_comments(std::string_view body) {
  std::string out;
  out.reserve(body.size());
  std::size_t pos = 0;
  while (pos < body.size()) {
    std::size_t open = body.find("<!--", pos);
    if (open == std::string_view::npos) {
      out.append(body.substr(pos));
      break;
    }
    out.append(body.substr(pos, open - pos));
    std::size_t close = body.find("-->", open + 4);
    if (close == std::string_view::npos) break;
    pos = close + 3;
  }
  return out;
}

}  // namespace review::change
