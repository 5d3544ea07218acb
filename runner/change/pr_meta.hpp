// Pull-request metadata from JSON files: a GitHub Actions `pull_request` event payload
// (GITHUB_EVENT_PATH; GitHub docs "Webhook events and payloads", pull_request) and the output of
// `gh pr view --json number,title,body,labels,baseRefOid,headRefOid,author,url`.
#pragma once

#include <string>
#include <string_view>

#include "runner/change/change.hpp"

namespace review::change {

/// Reads a `pull_request` event payload into `meta`: pull_request.{number, title, body (null →
/// ""), labels[].name, base.sha, head.sha, base.ref, head.ref, user.login, html_url, commits} and
/// repository.full_name. Absent optional fields leave `meta` unchanged.
/// Throws InputError with `where` = path for an unreadable file ("cannot read: …") or a payload
/// without a "pull_request" object; `where` = "path:LINE:COL" (1-based, from nlohmann's
/// parse_error::byte) for invalid JSON ("not valid JSON: unexpected \"…\"" showing up to 20 bytes
/// of that line, or "not valid JSON: the text ends early"); and `where` = path with "<field>: expected <type>, got <type>" for a field of the wrong
/// JSON type (e.g. "pull_request.number: expected a number, got a string").
void read_event_json(const std::string& path, PrMeta& meta);

/// Reads the JSON object printed by `gh pr view --json number,title,body,labels,baseRefOid,
/// headRefOid,author,url` (also baseRefName, headRefName when present; `commits` when it is an
/// array, its length) into `meta`. Errors as read_event_json, without the "pull_request" check.
void read_gh_pr_json(const std::string& path, PrMeta& meta);

/// Returns `body` without HTML comments ("<!-- … -->", as pull-request templates leave them);
/// an unterminated comment runs to the end of the text (as GitHub renders it).
std::string strip_html_comments(std::string_view body);

}  // namespace review::change
