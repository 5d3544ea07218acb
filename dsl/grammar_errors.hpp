// The one table of syntax-error messages, and the PEGTL control that raises them.
//
// `error_message<Rule>` is specialised for every rule that appears as a must-target in
// dsl/grammar.hpp; `control<Rule>::raise` throws a pegtl::parse_error carrying that message and
// the position where the parser stopped. A must-target without an entry reports "syntax error"
// (tests/dsl/parser_test.cpp pins every message).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <tao/pegtl.hpp>

#include "dsl/diagnostic.hpp"
#include "dsl/grammar.hpp"

namespace review::dsl::grammar {

template <typename Rule>
inline constexpr const char* error_message = nullptr;

// clang-format off
#define REVIEW_MSG( rule, text ) template<> inline constexpr const char* error_message< rule > = text
REVIEW_MSG( string_body, "unterminated string: expected `\"` before the end of the line" );
REVIEW_MSG( triple_body, "unterminated triple-quoted string: expected `\"\"\"`" );
REVIEW_MSG( regex_body, "unterminated regex: expected `/` before the end of the line" );
REVIEW_MSG( field_tok, "expected a field name after `.`" );
REVIEW_MSG( expr, "expected an expression" );
REVIEW_MSG( severity_if_cond, "expected a condition after `if`, as in `severity warn if exists t in files(changed) where t.is_test`" );
REVIEW_MSG( unary, "expected an expression" );
REVIEW_MSG( or_operand, "expected an expression after `or`" );
REVIEW_MSG( operand, "expected a value after the operator" );
REVIEW_MSG( factor_operand, "expected a value after `*`" );
REVIEW_MSG( term_operand, "expected a value after `+` or `-`" );
REVIEW_MSG( paren_close, "expected `)` to close the parenthesis" );
REVIEW_MSG( list_close, "expected `,` or `]` in the list" );
REVIEW_MSG( scope, "expected a scope: changed, base, repo, a glob list or a let name" );
REVIEW_MSG( scope_close, "expected `)` after the scope" );
REVIEW_MSG( findings_open, "expected `(` after `findings`" );
REVIEW_MSG( findings_tag, "expected a tag string, as in findings(\"ai-sign\")" );
REVIEW_MSG( findings_close, "expected `)` after the tag" );
REVIEW_MSG( call_close, "expected `,` or `)` in the function call" );
REVIEW_MSG( count_open, "expected `(` after `count`" );
REVIEW_MSG( count_body, "expected `X in SOURCE(SCOPE)`, `X in LIST where ...` or a list inside count()" );
REVIEW_MSG( count_close, "expected `)` to close count(" );
REVIEW_MSG( binder_tok, "expected a variable name" );
REVIEW_MSG( binder_in, "expected `in` after the variable" );
REVIEW_MSG( domain, "expected a fact source, as in lines(changed), or a list, as in f.params" );
REVIEW_MSG( kind_ref_name, "expected a kind name after `kind`" );
REVIEW_MSG( decl_name, "expected a name" );
REVIEW_MSG( title_string, "expected a title string" );
REVIEW_MSG( lbrace, "expected `{`" );
REVIEW_MSG( version_number, "expected a version number" );
REVIEW_MSG( test_globs, "expected a glob string" );
REVIEW_MSG( ruleset_close, "expected `version`, `tests` or `}` in the ruleset block" );
REVIEW_MSG( use_path, "expected a file name string after `use`" );
REVIEW_MSG( let_name, "expected a name after `let`" );
REVIEW_MSG( let_equals, "expected `=` after the let name" );
REVIEW_MSG( let_value, "expected a value: strings, a [list], a /regex/, an integer or `repo`" );
REVIEW_MSG( let_repo_pin, "expected a /regex/ after the file: its group `rev` (else group 1) is the pinned revision" );
REVIEW_MSG( tier_number, "expected a tier number" );
REVIEW_MSG( tier_label, "expected a tier label string" );
REVIEW_MSG( tier_open, "expected `{` after the tier label" );
REVIEW_MSG( tier_text, "expected a string" );
REVIEW_MSG( tier_close, "expected a glob string or `}` in the tier block" );
REVIEW_MSG( kind_name, "expected a kind name" );
REVIEW_MSG( kind_when, "expected `when` and a condition" );
REVIEW_MSG( rule_id, "expected a rule id" );
REVIEW_MSG( rule_open, "expected `{` after the rule title" );
REVIEW_MSG( severity_value, "expected `block`, `warn` or `note`" );
REVIEW_MSG( evidence_value, "expected `verified` or `inferred`" );
REVIEW_MSG( tag_list, "expected a tag string" );
REVIEW_MSG( for_binder, "expected a variable name after `for`" );
REVIEW_MSG( for_in, "expected `in` after the variable" );
REVIEW_MSG( template_string, "expected a string" );
REVIEW_MSG( help_string, "expected a string" );
REVIEW_MSG( example_kind, "expected `bad`, `good`, `todo-bad` or `todo-good`" );
REVIEW_MSG( example_lang, "expected a language name (python, cpp, diff, ...)" );
REVIEW_MSG( example_code, "expected the example code as a string" );
REVIEW_MSG( rule_close, "expected a rule clause (severity, evidence, tags, when, for, where, unless, at, problem, impact, action, help, example, also) or `}`" );
REVIEW_MSG( also_label, "expected a label string after `also`, as in also \"consumer repository\" {" );
REVIEW_MSG( also_open, "expected `{` after the `also` label" );
REVIEW_MSG( also_close, "expected a clause of the `also` body (severity, evidence, for, where, unless, at, problem, impact, action) or `}`" );
REVIEW_MSG( end_of_file, "expected a declaration: ruleset, use, let, tier, kind or rule" );
REVIEW_MSG( expr_end, "unexpected text after the expression" );
#undef REVIEW_MSG
// clang-format on

/// Returns the length of the word (a run of `[A-Za-z0-9_]`) that starts at `at`, `size` bytes
/// being left; 0 when none does.
inline std::size_t word_at(const char* at, std::size_t size) {
  std::size_t n = 0;
  while (n < size && ((at[n] >= 'a' && at[n] <= 'z') || (at[n] >= 'A' && at[n] <= 'Z') ||
                      (at[n] >= '0' && at[n] <= '9') || at[n] == '_'))
    ++n;
  return n;
}

/// Returns `message` and, when it says what was expected and the input at `at` (`size` bytes
/// left) starts with a word (word_at, at most 40 characters shown) the message does not already
/// quote, ", found `WORD`": the word that is not what the parser expected; then, when a word the
/// message quotes is close to it (did_you_mean), "; did you mean `X`?".
inline std::string with_found(std::string message, const char* at, std::size_t size) {
  const std::size_t n = word_at(at, size);
  if (n == 0 || message.rfind("expected", 0) != 0) return message;
  const std::string word(at, n < 40 ? n : 40);
  if (message.find("`" + word + "`") != std::string::npos) return message;
  // the words the message quotes as expected (`block`, `warn` or `note`): the closest one
  std::vector<std::string> quoted;
  for (std::size_t open = message.find('`'); open != std::string::npos;) {
    const std::size_t close = message.find('`', open + 1);
    if (close == std::string::npos) break;
    const std::string q = message.substr(open + 1, close - open - 1);
    if (q.size() >= 2 && word_at(q.data(), q.size()) == q.size()) quoted.push_back(q);  // words, not `}`
    open = message.find('`', close + 1);
  }
  return message + ", found `" + word + (n > 40 ? "...`" : "`") + did_you_mean(word, quoted);
}

/// Raises error_message<Rule> at the current position (with_found names the word found there).
template <typename Rule>
struct control : tao::pegtl::normal<Rule> {
  template <typename Input, typename... States>
  [[noreturn]] static void raise(const Input& in, States&&... /*unused*/) {
    const char* msg = error_message<Rule>;
    throw tao::pegtl::parse_error(with_found(msg ? msg : "syntax error", in.current(), in.size(0)), in);
  }
};

}  // namespace review::dsl::grammar
