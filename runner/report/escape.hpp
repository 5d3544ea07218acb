// Escaping untrusted text (PR titles, file names, code lines) for each output channel.
//
// Every function is total: any byte string in, well-formed output out, never throws.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace review::report {

/// Returns `s` with every byte sequence that is not valid UTF-8 (RFC 3629: overlong forms,
/// surrogates and code points above U+10FFFF included) replaced by U+FFFD, one per bad byte.
std::string valid_utf8(std::string_view s);

/// Returns `s` cut to at most `max_bytes` bytes on a UTF-8 boundary, with "…" appended when cut
/// (the result may then be up to `max_bytes` + 3 bytes). `s` should already be valid UTF-8.
std::string truncate_utf8(std::string_view s, std::size_t max_bytes);

/// Workflow-command data (the part after "::"): `%`→`%25` first, then CR→`%0D`, LF→`%0A`.
/// Source: GitHub Actions toolkit `escapeData` (packages/core/src/command.ts).
std::string escape_command_data(std::string_view s);

/// Workflow-command property values: as data, plus `:`→`%3A` and `,`→`%2C`.
/// Source: GitHub Actions toolkit `escapeProperty` (packages/core/src/command.ts).
std::string escape_command_property(std::string_view s);

/// Inline Markdown text for GitHub-flavoured Markdown. Pairs of single backticks stay code spans
/// (GFM code spans are literal: no HTML, mention or emphasis inside); their content only has
/// control characters replaced by spaces. Outside code spans: `&`, `<`, `>` become HTML entities
/// (no tag or comment can open); inline Markdown punctuation (\ ` * _ [ ] ( ) ! | ~) is
/// backslash-escaped; `@` and `:/` get a zero-width space after `@`/`:` and `www.` one before its
/// dot (no mention and no extended autolink, which would swallow a following backtick); CR, LF and other
/// control characters become one space each, so the text never starts a new block. An unpaired
/// backtick and an empty or blank span are escaped as text. Input is made valid UTF-8 first.
/// Meant for text placed after a bullet or heading marker, never at a line start.
std::string escape_markdown(std::string_view s);

/// Percent-encodes a repository-relative path for a URI (RFC 3986 §2): every byte except the
/// unreserved set (A-Z a-z 0-9 - . _ ~) and '/' becomes %XX (upper-case hex).
std::string encode_uri_path(std::string_view path);

/// Text for a terminal: made valid UTF-8, then control characters other than TAB (C0, DEL and
/// C1 such as ESC) are shown as `\xNN`, so code lines cannot move the cursor or recolour output.
std::string terminal_safe(std::string_view s);

/// Text for a line of a GitHub Actions step log that must not be read as a workflow command: a
/// `::` at the start of a line (after blanks) becomes `:` U+200B `:`, and every `##[` (the old
/// command form, recognised anywhere in a line) becomes `#` U+200B `#[`; a CR that does not end a
/// line becomes `\r`. Source of the forms: actions/runner, ActionCommand.TryParseV2 / TryParse.
std::string neutralise_workflow_commands(std::string_view s);

}  // namespace review::report
