#include "runner/github/client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <mutex>
#include <random>
#include <thread>

namespace review::github {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// "https://host:8080/api/v3/x" -> "https://host:8080"
std::string origin_of(std::string_view url) {
  auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return "";
  auto slash = url.find('/', scheme + 3);
  return lower(url.substr(0, slash));
}

class CurlTransport final : public Transport {
 public:
  CurlTransport() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  }

  HttpResponse send(const HttpRequest& request) override {
    HttpResponse out;
    CURL* curl = curl_easy_init();
    if (!curl) {
      out.transport_error = "cannot start libcurl";
      return out;
    }
    curl_slist* headers = nullptr;
    for (const auto& h : request.headers) headers = curl_slist_append(headers, h.c_str());
    if (!request.body.empty() || request.method != "GET")
      headers = curl_slist_append(headers, "Content-Type: application/json");

    curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_VERBOSE, 0L);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(std::max<long long>(1, request.timeout.count())));
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(std::clamp<long long>(request.timeout.count(), 1, 10000)));
    if (request.method != "GET") {
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.c_str());
      curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(request.body.size()));
    }
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &CurlTransport::on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out.body);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &CurlTransport::on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &out.headers);

    CURLcode rc = curl_easy_perform(curl);
    if (rc == CURLE_OK) {
      curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out.status);
    } else {
      out.status = 0;
      out.transport_error = curl_easy_strerror(rc);
      out.timed_out = rc == CURLE_OPERATION_TIMEDOUT;
      out.not_sent = rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_RESOLVE_PROXY || rc == CURLE_COULDNT_CONNECT;
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return out;
  }

 private:
  static size_t on_body(char* data, size_t size, size_t n, void* user) {
    static_cast<std::string*>(user)->append(data, size * n);
    return size * n;
  }
  static size_t on_header(char* data, size_t size, size_t n, void* user) {
    std::string_view line(data, size * n);
    auto* headers = static_cast<std::map<std::string, std::string>*>(user);
    if (line.rfind("HTTP/", 0) == 0) {
      headers->clear();  // a new response (e.g. after 100 Continue)
    } else if (auto colon = line.find(':'); colon != std::string_view::npos) {
      (*headers)[lower(trim(line.substr(0, colon)))] = trim(line.substr(colon + 1));
    }
    return size * n;
  }
};

bool mentions_rate_limit(const Response& r) {
  return lower(r.github_message()).find("rate limit") != std::string::npos;
}

}  // namespace

std::unique_ptr<Transport> make_curl_transport() { return std::make_unique<CurlTransport>(); }

nlohmann::json Response::json() const { return nlohmann::json::parse(body, nullptr, false); }

std::string Response::github_message() const {
  auto j = json();
  if (j.is_object() && j.contains("message") && j["message"].is_string()) return j["message"].get<std::string>();
  return "";
}

std::string describe_failure(const Response& r) {
  std::string out = r.method + " " + r.path + ": ";
  if (r.status == 0) {
    out += "no answer (" + (r.transport_error.empty() ? std::string("unknown error") : r.transport_error) + ")";
  } else {
    out += "HTTP " + std::to_string(r.status);
    if (auto m = r.github_message(); !m.empty()) out += ": " + m;
  }
  if (r.gave_up && r.attempts > 1) out += " (after " + std::to_string(r.attempts) + " attempts)";
  return out;
}

std::string next_link(std::string_view link) {
  // Link: <https://api.github.com/...&page=2>; rel="next", <...>; rel="last"
  size_t pos = 0;
  while (pos < link.size()) {
    auto lt = link.find('<', pos);
    if (lt == std::string_view::npos) break;
    auto gt = link.find('>', lt);
    if (gt == std::string_view::npos) break;
    auto end = link.find(',', gt);
    std::string params = lower(link.substr(gt + 1, end == std::string_view::npos ? std::string_view::npos : end - gt - 1));
    if (params.find("rel=\"next\"") != std::string::npos || params.find("rel=next") != std::string::npos)
      return std::string(link.substr(lt + 1, gt - lt - 1));
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return "";
}

long parse_retry_after_seconds(std::string_view value) {
  std::string v = trim(value);
  if (v.empty() || v.size() > 12) return -1;  // also used for epoch seconds
  for (char c : v)
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
  return std::stol(v);
}

Client::Client(ClientOptions options, std::unique_ptr<Transport> transport)
    : options_(std::move(options)), transport_(std::move(transport)) {
  if (!transport_) transport_ = make_curl_transport();
  while (!options_.api_url.empty() && options_.api_url.back() == '/') options_.api_url.pop_back();
  if (!options_.sleep) options_.sleep = [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); };
  if (!options_.now_unix)
    options_.now_unix = [] {
      return static_cast<std::int64_t>(
          std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count());
    };
  if (!options_.log) options_.log = [](std::string_view line) { std::cerr << line << "\n"; };
  rng_state_ = options_.jitter_seed ? options_.jitter_seed : (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  if (options_.max_attempts < 1) options_.max_attempts = 1;
}

Client::~Client() = default;

std::string Client::redact(std::string_view text) const {
  std::string out;
  out.reserve(text.size());
  const std::string& tok = options_.token;
  constexpr size_t kPiece = 8;  // any 8 consecutive characters of the token
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < text.size();) {
    // Anything shaped like a GitHub token (its documented prefixes), known or not.
    bool shaped = false;
    for (std::string_view pre : {"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"})
      if (text.substr(i, pre.size()) == pre && (i == 0 || !word(text[i - 1]))) shaped = true;
    size_t len = 0;
    if (shaped) {
      while (i + len < text.size() && word(text[i + len])) ++len;
    } else if (tok.size() >= kPiece && i + kPiece <= text.size() &&
               tok.find(text.substr(i, kPiece)) != std::string::npos) {
      len = kPiece;  // extend while the run stays inside the token
      while (i + len < text.size() && tok.find(text.substr(i, len + 1)) != std::string::npos) ++len;
    } else if (!tok.empty() && tok.size() < kPiece && text.substr(i, tok.size()) == tok) {
      len = tok.size();
    }
    if (len > 0) {
      out += "***";
      i += len;
    } else {
      out += text[i++];
    }
  }
  return out;
}

void Client::say(const std::string& line) const { options_.log(redact(line)); }

std::string Client::absolute_url(std::string_view path) const {
  if (path.find("://") != std::string_view::npos) return std::string(path);
  std::string url = options_.api_url;
  if (path.empty() || path.front() != '/') url += '/';
  url += path;
  return url;
}

std::string Client::relative_path(std::string_view url) const {
  std::string u(url);
  auto scheme = u.find("://");
  if (scheme == std::string::npos) return u;
  auto slash = u.find('/', scheme + 3);
  return slash == std::string::npos ? "/" : u.substr(slash);
}

std::chrono::milliseconds Client::backoff(int attempt) {
  // splitmix64: a small deterministic generator, so tests can seed the jitter.
  rng_state_ += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = rng_state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  long long base = options_.initial_backoff.count();
  for (int i = 1; i < attempt && base < options_.max_backoff.count(); ++i) base *= 2;
  base = std::min<long long>(base, options_.max_backoff.count());
  // "Equal jitter": half fixed, half random, so waits grow but never collide exactly.
  long long half = base / 2;
  long long jitter = half > 0 ? static_cast<long long>(z % static_cast<std::uint64_t>(half + 1)) : 0;
  return std::chrono::milliseconds(base - half + jitter);
}

Response Client::request(std::string_view method, std::string_view path, const nlohmann::json& body) {
  using namespace std::chrono;
  Response r;
  r.method = std::string(method);
  std::string url = absolute_url(path);
  r.path = relative_path(url);

  HttpRequest req;
  req.method = r.method;
  req.url = url;
  req.headers = {"Accept: application/vnd.github+json", "X-GitHub-Api-Version: 2022-11-28",
                 "User-Agent: review-action/" + options_.version};
  if (!options_.token.empty()) req.headers.push_back("Authorization: Bearer " + options_.token);
  if (!body.is_null()) req.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);

  milliseconds spent{0};
  const milliseconds run_left = options_.run_budget - run_spent_;
  const milliseconds budget = std::min(options_.total_budget, run_left);
  if (budget <= milliseconds(0)) {
    r.gave_up = true;
    r.transport_error = "not sent: the run's " + std::to_string(options_.run_budget.count()) +
                        " ms for GitHub API work are used up";
    say("github: " + r.method + " " + r.path + ": " + r.transport_error);
    return r;
  }
  struct Charge {  // every path out of the loop charges the run's budget
    milliseconds& spent;
    milliseconds& run;
    ~Charge() { run += spent; }
  } charge{spent, run_spent_};
  const bool post = r.method == "POST";
  for (int attempt = 1;; ++attempt) {
    req.timeout = std::max(milliseconds(1), std::min(options_.request_timeout, budget - spent));
    auto t0 = steady_clock::now();
    HttpResponse h = transport_->send(req);
    spent += duration_cast<milliseconds>(steady_clock::now() - t0);
    r.attempts = attempt;
    r.status = h.status;
    r.headers = std::move(h.headers);
    // Defence in depth: an answer that echoes the token must not carry it into messages.
    r.body = redact(h.body);
    r.transport_error = redact(h.transport_error);

    // Decide whether and how long to wait.
    milliseconds wait{-1};
    std::string why;
    auto header = [&](const char* name) -> std::string {
      auto it = r.headers.find(name);
      return it == r.headers.end() ? "" : it->second;
    };
    long retry_after = parse_retry_after_seconds(header("retry-after"));
    bool exhausted = header("x-ratelimit-remaining") == "0";
    r.rate_limited = r.status == 429 || (r.status == 403 && (retry_after >= 0 || exhausted || mentions_rate_limit(r)));
    r.maybe_applied = post && ((r.status == 0 && !h.not_sent) || r.status >= 500);
    if (r.maybe_applied) return r;  // the caller checks whether it exists before sending again
    if (r.status == 0) {
      wait = backoff(attempt);
      why = h.timed_out ? "timed out" : "no answer (" + r.transport_error + ")";
    } else if (r.status >= 500) {
      // A 503 may say when to come back (RFC 9110 10.2.3); otherwise back off.
      wait = retry_after >= 0 ? milliseconds(seconds(retry_after)) : backoff(attempt);
      why = "HTTP " + std::to_string(r.status);
    } else if (r.rate_limited) {
      why = "rate limited (HTTP " + std::to_string(r.status) + ")";
      if (retry_after >= 0) {
        wait = seconds(retry_after);
      } else if (exhausted && !header("x-ratelimit-reset").empty()) {
        long reset = parse_retry_after_seconds(header("x-ratelimit-reset"));
        std::int64_t now = options_.now_unix();
        wait = seconds(std::max<std::int64_t>(1, reset >= 0 ? reset - now : 60));
      } else {
        wait = seconds(60);  // GitHub: without headers, wait at least a minute
      }
    }
    if (wait.count() < 0) return r;  // success or a final 4xx

    if (attempt >= options_.max_attempts) {
      r.gave_up = true;
      say("github: " + r.method + " " + r.path + ": " + why + "; giving up after " + std::to_string(attempt) +
          " attempts");
      return r;
    }
    if (spent + wait >= budget) {
      if (budget == run_left) {
        spent = run_left;  // the run's API time is over: later calls are not sent
        r.gave_up = true;
        say("github: " + r.method + " " + r.path + ": " + why + "; waiting " + std::to_string(wait.count()) +
            " ms more would pass the run's " + std::to_string(options_.run_budget.count()) +
            " ms for GitHub API work, giving up");
        return r;
      }
      r.gave_up = true;
      say("github: " + r.method + " " + r.path + ": " + why + "; waiting " + std::to_string(wait.count()) +
          " ms more would pass the " + std::to_string(budget.count()) + " ms budget, giving up");
      return r;
    }
    say("github: " + r.method + " " + r.path + ": " + why + "; retrying in " + std::to_string(wait.count()) +
        " ms (attempt " + std::to_string(attempt + 1) + " of " + std::to_string(options_.max_attempts) + ")");
    options_.sleep(wait);
    spent += wait;
  }
}

PagedResponse Client::get_all(std::string_view path) {
  PagedResponse out;
  std::string next(path);
  const std::string home = origin_of(absolute_url(""));
  while (!next.empty() && out.pages < options_.max_pages) {
    out.last = get(next);
    ++out.pages;
    if (!out.last.ok()) return out;
    auto j = out.last.json();
    if (!j.is_array()) {
      out.invalid = true;  // not an empty list: the caller must not act as if nothing were there
      return out;
    }
    for (auto& item : j) out.items.push_back(std::move(item));
    auto link = out.last.headers.find("link");
    next = link == out.last.headers.end() ? "" : next_link(link->second);
    if (!next.empty() && origin_of(next) != home) {
      say("github: not following a next-page link to another host");
      break;
    }
  }
  return out;
}

}  // namespace review::github
