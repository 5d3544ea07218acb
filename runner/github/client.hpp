// A small GitHub REST client over libcurl: headers, retries, rate limits, pagination.
//
// Everything the client needs comes in a `ClientOptions` struct; it never reads environment
// variables (the CLI does, and passes `GITHUB_API_URL` and the token down).
//
//   review::github::ClientOptions o;
//   o.api_url = "https://api.github.com";     // GITHUB_API_URL (GitHub Enterprise: https://host/api/v3)
//   o.token = token;                          // never logged
//   review::github::Client c(o);
//   auto r = c.post("/repos/o/r/check-runs", body);
//   if (!r.ok()) std::cerr << review::github::describe_failure(r) << "\n";
//
// Request headers follow GitHub's REST documentation ("Getting started with the REST API"):
// `Accept: application/vnd.github+json`, `X-GitHub-Api-Version: 2022-11-28`,
// `Authorization: Bearer <token>` and a `User-Agent` (required by GitHub).
//
// Retries (GitHub REST docs, "Best practices" and "Rate limits for the REST API"):
//   - transport failures (timeouts, refused or reset connections) and 5xx answers: exponential
//     backoff with jitter, `initial_backoff * 2^(attempt-1)`, capped at `max_backoff`; a 5xx
//     that carries `Retry-After` (RFC 9110 10.2.3, e.g. a 503) waits that many seconds instead;
//   - 429, and 403 that carries `Retry-After`, `x-ratelimit-remaining: 0` or a message that
//     names a rate limit (secondary rate limits): wait `Retry-After` seconds if given, else until
//     `x-ratelimit-reset` (epoch seconds) if the remaining count is 0, else at least 60 s;
//   - every wait and every request counts against `total_budget`, and against `run_budget` for
//     all calls together; when the next wait would pass either, the client stops and returns the
//     last answer (with `Response::gave_up` set);
//   - a POST is retried only when it cannot have been applied: not sent at all, or refused by a
//     rate limit; after a timeout or a 5xx it returns with `maybe_applied` for the caller to check.
// Other 4xx answers are returned at once (no retry).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace review::github {

/// One HTTP exchange as the transport sees it. `url` is absolute.
struct HttpRequest {
  std::string method;                         ///< "GET", "POST", "PATCH"
  std::string url;
  std::vector<std::string> headers;           ///< "Name: value" lines
  std::string body;                           ///< empty for GET
  std::chrono::milliseconds timeout{20000};   ///< whole-request timeout
};

/// An HTTP answer. `status` 0 means the transport failed; `transport_error` then says why
/// (curl's text, e.g. "Timeout was reached"), and `timed_out` tells timeouts apart.
struct HttpResponse {
  long status = 0;
  std::map<std::string, std::string> headers;  ///< names lower-cased; last value wins
  std::string body;
  std::string transport_error;
  bool timed_out = false;
  bool not_sent = false;  ///< the connection was never made (name or connect failure): nothing reached the server
};

/// The world boundary: sends one request, no retries. Implementations must not throw.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual HttpResponse send(const HttpRequest& request) = 0;
};

/// libcurl implementation (HTTP/1.1 or HTTP/2, TLS verification on, no redirects followed,
/// never verbose so the Authorization header is never printed).
std::unique_ptr<Transport> make_curl_transport();

/// Everything a client needs. Durations in milliseconds.
struct ClientOptions {
  std::string api_url = "https://api.github.com";  ///< base URL, no trailing slash needed
  std::string token;                               ///< may be empty (anonymous; most writes fail)
  std::string version = "0.0.0";                   ///< goes into `User-Agent: review-action/<version>`
  std::chrono::milliseconds total_budget{60000};   ///< bound on all attempts and waits of one call
  /// Bound on all API work of this client together (one client per run): once spent, calls
  /// are not sent and fail with "the run's N ms for GitHub API work are used up".
  std::chrono::milliseconds run_budget{120000};
  std::chrono::milliseconds request_timeout{20000};///< bound on one attempt (cut to the budget left)
  std::chrono::milliseconds initial_backoff{1000};
  std::chrono::milliseconds max_backoff{16000};
  int max_attempts = 6;                            ///< attempts per call, first one included
  int max_pages = 100;                             ///< bound on pagination
  /// Waits; default std::this_thread::sleep_for. Tests inject a recorder.
  std::function<void(std::chrono::milliseconds)> sleep;
  /// Current Unix time in seconds, for `x-ratelimit-reset`; default system_clock.
  std::function<std::int64_t()> now_unix;
  /// Diagnostic lines (retries, give-ups); default: std::cerr with a trailing newline. The token
  /// is removed from every line before it is passed on.
  std::function<void(std::string_view)> log;
  /// Seed for the jitter; 0 = seeded from std::random_device.
  std::uint64_t jitter_seed = 0;
};

/// What a call returns after retries.
struct Response {
  std::string method;          ///< as sent
  std::string path;            ///< path and query relative to the host, never the token
  long status = 0;             ///< last HTTP status; 0 = transport failure
  std::map<std::string, std::string> headers;  ///< lower-cased names
  std::string body;            ///< with the token, if GitHub echoed it, replaced by "***"
  std::string transport_error; ///< curl's text when status is 0
  int attempts = 0;            ///< how many requests were sent
  bool gave_up = false;        ///< stopped retrying because of the budget or max_attempts
  /// A POST that failed after the request may have reached GitHub (no answer after sending, or
  /// 5xx): it may have been applied. It is never retried blindly: the caller checks whether the
  /// resource exists before sending it again.
  bool maybe_applied = false;
  /// 429, or 403 from a rate limit (`x-ratelimit-remaining: 0`, `Retry-After`, or a message
  /// naming a rate limit): not a missing permission.
  bool rate_limited = false;

  bool ok() const { return status >= 200 && status < 300; }
  /// The body parsed as JSON; a discarded value (is_discarded()) when it is not JSON.
  nlohmann::json json() const;
  /// GitHub's `message` field of an error body, or "" when absent.
  std::string github_message() const;
};

/// One line for a failed call: "POST /repos/o/r/check-runs: HTTP 422: Invalid request" or
/// "GET /repos/o/r/issues/1/comments: no answer (Timeout was reached)". Never holds the token.
std::string describe_failure(const Response& r);

/// Items of a paginated GET (the JSON arrays of every page, concatenated) and the last answer.
struct PagedResponse {
  std::vector<nlohmann::json> items;
  Response last;               ///< the failing page's answer, or the last page's
  int pages = 0;
  bool invalid = false;        ///< a 2xx page was not a JSON array (items are incomplete)
  bool ok() const { return last.ok(); }
};

/// The `rel="next"` URL of an RFC 8288 `Link` header value, or "" (GitHub REST docs,
/// "Using pagination in the REST API").
std::string next_link(std::string_view link_header);

/// Parses a `Retry-After` value given in seconds ("120"); -1 when absent or not a number
/// (HTTP-dates are not used by GitHub and are treated as absent). Also parses `x-ratelimit-reset`
/// (epoch seconds); more than 12 digits count as absent.
long parse_retry_after_seconds(std::string_view value);

class Client {
 public:
  /// Uses libcurl unless `transport` is given. Does not contact the network.
  explicit Client(ClientOptions options, std::unique_ptr<Transport> transport = nullptr);
  ~Client();
  Client(const Client&) = delete;             // owns a transport and a jitter state
  Client& operator=(const Client&) = delete;

  /// Sends `method` to `path` ("/repos/o/r/check-runs", or an absolute URL on the same host as
  /// `api_url`) with `body` serialised as JSON when it is not null; retries as described above.
  /// Never throws; look at `Response::ok()`.
  Response request(std::string_view method, std::string_view path,
                   const nlohmann::json& body = nullptr);
  Response get(std::string_view path) { return request("GET", path); }
  Response post(std::string_view path, const nlohmann::json& body) { return request("POST", path, body); }
  Response patch(std::string_view path, const nlohmann::json& body) { return request("PATCH", path, body); }

  /// GETs `path` and follows `Link: rel="next"` while the answers are JSON arrays, up to
  /// `max_pages`. A next link to another host is not followed (the token stays on `api_url`'s
  /// host). Stops at the first failing page, and at a page that is not a JSON array (`invalid`).
  PagedResponse get_all(std::string_view path);

  const ClientOptions& options() const { return options_; }

  /// `text` with every occurrence of the token, of any 8 or more of its consecutive characters,
  /// and of anything shaped like a GitHub token (ghp_/gho_/ghu_/ghs_/ghr_/github_pat_ and what
  /// follows) replaced by "***".
  std::string redact(std::string_view text) const;

 private:
  std::string absolute_url(std::string_view path) const;
  std::string relative_path(std::string_view url) const;
  std::chrono::milliseconds backoff(int attempt);
  void say(const std::string& line) const;

  ClientOptions options_;
  std::chrono::milliseconds run_spent_{0};
  std::unique_ptr<Transport> transport_;
  std::uint64_t rng_state_;
};

}  // namespace review::github
