// The PEG grammar of the rule language (PEGTL 3.x), and nothing else.
//
// Layout follows PEGTL's contrib grammars: lexical rules first, then expressions (with a forward
// declaration for recursion), then declarations, top rule last. After an introducing keyword or
// delimiter the rest is mandatory (`if_must<>`), so `rule X {` without `}` is a hard error at the
// spot where the parser stopped. Every must-target is its own named rule so that exactly one
// message of dsl/grammar_errors.hpp attaches to it. Actions live in dsl/parser.cpp.
//
// Whitespace and `#` comments are allowed between any two tokens, newlines included; token rules
// (`*_tok`, `kw_*`) consume the blanks that follow them.
#pragma once

#include <tao/pegtl.hpp>

namespace review::dsl::grammar {

namespace pegtl = tao::pegtl;
using namespace tao::pegtl;

// clang-format off

// ---- lexical -------------------------------------------------------------------------------
struct comment : seq< one< '#' >, until< eolf > > {};
struct sp : star< sor< space, comment > > {};
template< typename R > struct tok : seq< R, sp > {};

#define REVIEW_KW( name, text ) struct name : tok< TAO_PEGTL_KEYWORD( text ) > {}
REVIEW_KW( kw_ruleset, "ruleset" );  REVIEW_KW( kw_version, "version" );  REVIEW_KW( kw_tests, "tests" );
REVIEW_KW( kw_use, "use" );          REVIEW_KW( kw_let, "let" );          REVIEW_KW( kw_tier, "tier" );
REVIEW_KW( kw_blast, "blast" );      REVIEW_KW( kw_fails, "fails" );      REVIEW_KW( kw_kind, "kind" );
REVIEW_KW( kw_rule, "rule" );        REVIEW_KW( kw_severity, "severity" ); REVIEW_KW( kw_evidence, "evidence" );
REVIEW_KW( kw_tags, "tags" );        REVIEW_KW( kw_when, "when" );        REVIEW_KW( kw_for, "for" );
REVIEW_KW( kw_in, "in" );            REVIEW_KW( kw_where, "where" );      REVIEW_KW( kw_unless, "unless" );
REVIEW_KW( kw_problem, "problem" );  REVIEW_KW( kw_impact, "impact" );    REVIEW_KW( kw_action, "action" );
REVIEW_KW( kw_help, "help" );        REVIEW_KW( kw_example, "example" );  REVIEW_KW( kw_and, "and" );
REVIEW_KW( kw_or, "or" );            REVIEW_KW( kw_not, "not" );          REVIEW_KW( kw_like, "like" );
REVIEW_KW( kw_count, "count" );      REVIEW_KW( kw_exists, "exists" );    REVIEW_KW( kw_findings, "findings" );
REVIEW_KW( kw_true, "true" );        REVIEW_KW( kw_false, "false" );      REVIEW_KW( kw_changed, "changed" );
REVIEW_KW( kw_base, "base" );        REVIEW_KW( kw_repo, "repo" );      REVIEW_KW( kw_at, "at" );
REVIEW_KW( kw_also, "also" );        REVIEW_KW( kw_if, "if" );
#undef REVIEW_KW

// Words that cannot name a variable (field names after `.` may be anything).
struct reserved : sor< TAO_PEGTL_KEYWORD( "and" ), TAO_PEGTL_KEYWORD( "or" ), TAO_PEGTL_KEYWORD( "not" ),
                       TAO_PEGTL_KEYWORD( "in" ), TAO_PEGTL_KEYWORD( "like" ), TAO_PEGTL_KEYWORD( "count" ),
                       TAO_PEGTL_KEYWORD( "exists" ), TAO_PEGTL_KEYWORD( "findings" ), TAO_PEGTL_KEYWORD( "kind" ),
                       TAO_PEGTL_KEYWORD( "true" ), TAO_PEGTL_KEYWORD( "false" ), TAO_PEGTL_KEYWORD( "when" ),
                       TAO_PEGTL_KEYWORD( "for" ), TAO_PEGTL_KEYWORD( "where" ), TAO_PEGTL_KEYWORD( "unless" ),
                       TAO_PEGTL_KEYWORD( "problem" ), TAO_PEGTL_KEYWORD( "impact" ), TAO_PEGTL_KEYWORD( "action" ),
                       TAO_PEGTL_KEYWORD( "help" ), TAO_PEGTL_KEYWORD( "example" ), TAO_PEGTL_KEYWORD( "severity" ),
                       TAO_PEGTL_KEYWORD( "evidence" ), TAO_PEGTL_KEYWORD( "tags" ), TAO_PEGTL_KEYWORD( "rule" ),
                       TAO_PEGTL_KEYWORD( "at" ), TAO_PEGTL_KEYWORD( "if" ) > {};

struct lparen : tok< one< '(' > > {};
struct rparen : tok< one< ')' > > {};
struct lbracket : tok< one< '[' > > {};
struct rbracket : tok< one< ']' > > {};
struct lbrace : tok< one< '{' > > {};
struct rbrace : tok< one< '}' > > {};
struct comma : tok< one< ',' > > {};
struct semi : tok< one< ';' > > {};
struct equals : tok< one< '=' > > {};

// "..." with \" \\ \n \t escapes, single line; """...""" raw and dedented (dsl/template.hpp).
struct escape : seq< one< '\\' >, not_one< '\n' > > {};
struct string_body : seq< star< sor< escape, not_one< '"', '\\', '\n' > > >, one< '"' > > {};
struct plain_string : if_must< one< '"' >, string_body > {};
struct triple_quote : TAO_PEGTL_STRING( "\"\"\"" ) {};
struct triple_body : until< triple_quote > {};
struct triple_string : if_must< triple_quote, triple_body > {};
struct string_lit : sor< triple_string, plain_string > {};
struct string_tok : tok< string_lit > {};

// /pattern/ in RE2 syntax; `\/` is a slash; flags inline: /(?i)perf/.
struct regex_body : seq< star< sor< seq< one< '\\' >, not_one< '\n' > >, not_one< '/', '\\', '\n' > > >, one< '/' > > {};
struct regex_lit : if_must< one< '/' >, regex_body > {};
struct regex_tok : tok< regex_lit > {};

struct int_lit : seq< opt< one< '-' > >, plus< digit >, not_at< identifier_other > > {};
struct int_tok : tok< int_lit > {};
struct true_tok : kw_true {};
struct false_tok : kw_false {};

// ---- expressions ---------------------------------------------------------------------------
struct expr;
struct unary;

struct var_name : seq< not_at< reserved >, identifier > {};
struct field_name : identifier {};
struct field_tok : tok< field_name > {};
struct field_access : if_must< one< '.' >, field_tok > {};
struct var_head : var_name {};
struct var_ref : seq< var_head, sp, star< field_access > > {};

struct paren_close : rparen {};
struct paren_expr : if_must< lparen, expr, paren_close > {};
struct list_close : rbracket {};
struct list_open : lbracket {};
struct list_lit : if_must< list_open, opt< list< expr, comma > >, list_close > {};

// SOURCE(SCOPE) and findings("tag")
struct scope_changed : kw_changed {};
struct scope_base : kw_base {};
struct scope_repo : kw_repo {};
struct scope_glob : string_tok {};
struct scope_globs : list< scope_glob, comma > {};
struct scope_expr : var_ref {};
struct scope : sor< scope_changed, scope_base, scope_repo, scope_globs, scope_expr > {};
struct scope_close : rparen {};
struct scope_parens : if_must< lparen, scope, scope_close > {};
struct source_name : identifier {};
struct source_ref : seq< source_name, sp, opt< scope_parens > > {};
struct findings_open : lparen {};
struct findings_tag : string_tok {};
struct findings_close : rparen {};
struct findings_call : if_must< kw_findings, findings_open, findings_tag, findings_close > {};
struct findings_domain : seq< at< kw_findings >, findings_call > {};
// a list-valued expression: a field chain (`f.params`) or a [list]; a bare name (`names`) parses
// as source_ref and the checker resolves it to a variable when no source has that name
struct list_domain : seq< at< var_name, sp, one< '.' > >, var_ref > {};
struct list_lit_domain : seq< at< one< '[' > >, list_lit > {};
struct domain : sor< findings_domain, list_domain, list_lit_domain, source_ref > {};

struct binder_name : var_name {};
struct binder_tok : tok< binder_name > {};
struct binder_in : kw_in {};
struct binder_where : if_must< kw_where, expr > {};
struct binder_ahead : at< var_name, sp, kw_in, sor< kw_findings, seq< identifier, sp, sor< one< '(', '.' >, kw_where > >, one< '[' > > > {};
struct count_binder_form : seq< binder_ahead, binder_tok, binder_in, domain, opt< binder_where > > {};
struct count_list_form : seq< expr > {};
struct count_body : sor< count_binder_form, count_list_form > {};
struct count_open : lparen {};
struct count_close : rparen {};
struct count_expr : if_must< kw_count, count_open, count_body, count_close > {};
struct exists_expr : if_must< kw_exists, binder_tok, binder_in, domain, opt< binder_where > > {};
struct kind_ref_ident : identifier {};
struct kind_ref_name : tok< kind_ref_ident > {};
struct kind_ref : if_must< kw_kind, kind_ref_name > {};

// NAME(args): the built-in functions (lower, len); names are checked by the checker
struct call_name : var_name {};
struct call_open : lparen {};
struct call_close : rparen {};
struct call_expr : seq< at< var_name, sp, one< '(' > >, call_name, sp,
                        if_must< call_open, opt< list< expr, comma > >, call_close > > {};

struct primary : sor< paren_expr, list_lit, regex_tok, string_tok, int_tok, true_tok, false_tok,
                      count_expr, exists_expr, findings_call, kind_ref, call_expr, var_ref > {};

struct op_eq : TAO_PEGTL_STRING( "==" ) {};
struct op_ne : TAO_PEGTL_STRING( "!=" ) {};
struct op_le : TAO_PEGTL_STRING( "<=" ) {};
struct op_ge : TAO_PEGTL_STRING( ">=" ) {};
struct op_lt : one< '<' > {};
struct op_gt : one< '>' > {};
struct op_nmatch : TAO_PEGTL_STRING( "!~" ) {};
struct op_match : one< '~' > {};
struct op_like : TAO_PEGTL_KEYWORD( "like" ) {};
struct op_in : TAO_PEGTL_KEYWORD( "in" ) {};
struct op_not_in : seq< kw_not, TAO_PEGTL_KEYWORD( "in" ) > {};      // blanks between: `not  in`
struct op_not_like : seq< kw_not, TAO_PEGTL_KEYWORD( "like" ) > {};
struct cmp_op : sor< op_eq, op_ne, op_le, op_ge, op_lt, op_gt, op_nmatch, op_match, op_like, op_in, op_not_in,
                     op_not_like > {};

// integer arithmetic (and `+` on strings): `*` binds tighter than `+ -`, both left-associative
struct op_mul : one< '*' > {};
struct op_add : one< '+' > {};
struct op_sub : one< '-' > {};
struct mul_op : sor< op_mul > {};
struct add_op : sor< op_add, op_sub > {};
struct factor_operand : primary {};
struct mul_tail : if_must< tok< mul_op >, factor_operand > {};
struct term : seq< primary, star< mul_tail > > {};
struct term_operand : term {};
struct add_tail : if_must< tok< add_op >, term_operand > {};
struct arith : seq< term, star< add_tail > > {};

struct operand : arith {};
struct cmp_tail : if_must< tok< cmp_op >, operand > {};
struct cmp_expr : seq< arith, opt< cmp_tail > > {};

struct not_expr : if_must< kw_not, unary > {};
struct unary : sor< not_expr, cmp_expr > {};        // nesting depth is bounded by its action
struct and_tail : if_must< kw_and, unary > {};
struct and_expr : seq< unary, star< and_tail > > {};
struct or_operand : and_expr {};
struct or_tail : if_must< kw_or, or_operand > {};
struct expr : seq< and_expr, star< or_tail > > {};

// ---- declarations --------------------------------------------------------------------------
struct decl_ident : identifier {};
struct decl_name : tok< decl_ident > {};
struct title_string : string_tok {};

struct version_number : int_tok {};
struct version_clause : if_must< kw_version, version_number > {};
struct test_glob : string_tok {};
struct test_globs : list< test_glob, comma > {};
struct tests_clause : if_must< kw_tests, test_globs > {};
struct ruleset_item : seq< sor< version_clause, tests_clause >, opt< semi > > {};
struct ruleset_close : rbrace {};
struct ruleset_decl : if_must< kw_ruleset, decl_name, title_string, lbrace, star< ruleset_item >, ruleset_close > {};

struct use_path : string_tok {};
struct use_decl : if_must< kw_use, use_path > {};

struct let_string : string_tok {};
struct let_strings : list< let_string, comma > {};
// `let aiter = repo "requirements.txt" /aiter@(?P<rev>[0-9a-f]+)/`: a repository a rule may
// scope to (`functions(aiter)`), with where its pinned revision is written (optional).
struct let_repo_kw : kw_repo {};
struct let_repo_file : string_tok {};
struct let_repo_pin : regex_tok {};
struct let_repo : seq< let_repo_kw, opt< let_repo_file, must< let_repo_pin > > > {};
struct let_value : sor< let_repo, regex_tok, list_lit, int_tok, let_strings > {};
struct let_ident : var_name {};
struct let_name : tok< let_ident > {};
struct let_equals : equals {};
struct let_decl : if_must< kw_let, let_name, let_equals, let_value > {};

struct tier_number : int_tok {};
struct tier_label : string_tok {};
struct tier_text : string_tok {};
struct tier_blast : if_must< kw_blast, tier_text > {};
struct tier_fails : if_must< kw_fails, tier_text > {};
struct tier_glob : string_tok {};
struct tier_entry : seq< tier_glob, opt< tier_blast >, opt< tier_fails >, opt< semi > > {};
struct tier_close : rbrace {};
struct tier_open : lbrace {};
struct tier_decl : if_must< kw_tier, tier_number, tier_label, tier_open, star< tier_entry >, tier_close > {};

struct kind_ident : var_name {};
struct kind_name : tok< kind_ident > {};
struct kind_when : kw_when {};
struct kind_decl : if_must< kw_kind, kind_name, title_string, kind_when, expr > {};

struct rule_ident : seq< identifier_first, star< sor< identifier_other, one< '-' > > > > {};
struct rule_id : tok< rule_ident > {};
struct severity_words : sor< TAO_PEGTL_KEYWORD( "block" ), TAO_PEGTL_KEYWORD( "warn" ), TAO_PEGTL_KEYWORD( "note" ) > {};
struct severity_word : severity_words {};
struct severity_value : tok< severity_word > {};
struct severity_clause : if_must< kw_severity, severity_value > {};
// `severity warn if EXPR`: the severity of the findings for which EXPR holds (the body's own
// clauses, in order; the unconditional `severity` for the rest). Tried before severity_clause:
// nothing in it has an action until `if` has matched.
struct severity_if_word : severity_words {};
struct severity_if_cond : expr {};
struct severity_if_clause : seq< kw_severity, tok< severity_if_word >, kw_if, must< severity_if_cond > > {};
struct evidence_word : sor< TAO_PEGTL_KEYWORD( "verified" ), TAO_PEGTL_KEYWORD( "inferred" ) > {};
struct evidence_value : tok< evidence_word > {};
struct evidence_clause : if_must< kw_evidence, evidence_value > {};
struct tag_item : string_tok {};
struct tag_list : list< tag_item, comma > {};
struct tags_clause : if_must< kw_tags, tag_list > {};
struct when_clause : if_must< kw_when, expr > {};
struct for_ident : var_name {};
struct for_binder : tok< for_ident > {};
struct for_in : kw_in {};
struct for_where : if_must< kw_where, expr > {};
struct for_clause : if_must< kw_for, for_binder, for_in, domain, opt< for_where > > {};
struct where_clause : if_must< kw_where, expr > {};
struct unless_clause : if_must< kw_unless, expr > {};
struct at_clause : if_must< kw_at, expr > {};
struct template_string : string_tok {};
struct problem_clause : if_must< kw_problem, template_string > {};
struct impact_clause : if_must< kw_impact, template_string > {};
struct action_clause : if_must< kw_action, template_string > {};
struct help_string : string_tok {};
struct help_clause : if_must< kw_help, help_string > {};
struct example_word : sor< seq< TAO_PEGTL_STRING( "todo-bad" ), not_at< identifier_other > >,
                                seq< TAO_PEGTL_STRING( "todo-good" ), not_at< identifier_other > >,
                                TAO_PEGTL_KEYWORD( "bad" ), TAO_PEGTL_KEYWORD( "good" ) > {};
struct example_kind : tok< example_word > {};
struct example_lang_ident : identifier {};
struct example_lang : tok< example_lang_ident > {};
struct example_code : string_tok {};
struct example_clause : if_must< kw_example, example_kind, example_lang, example_code > {};
// `also "LABEL" { for … where … unless … at … problem … impact … action … }`: another query body of
// the same rule (its findings carry the rule's id); it may set its own severity and evidence.
struct also_label : string_tok {};
struct also_open : lbrace {};
struct also_item : sor< severity_if_clause, severity_clause, evidence_clause, for_clause, where_clause, unless_clause, at_clause,
                        problem_clause, impact_clause, action_clause > {};
struct also_close : rbrace {};
struct also_block : if_must< kw_also, also_label, also_open, star< also_item, opt< semi > >, also_close > {};
struct rule_clause : sor< severity_if_clause, severity_clause, evidence_clause, tags_clause, when_clause, for_clause, where_clause,
                          unless_clause, at_clause, problem_clause, impact_clause, action_clause, help_clause, example_clause,
                          also_block > {};
struct rule_close : rbrace {};
struct rule_open : lbrace {};
struct rule_decl : if_must< kw_rule, rule_id, title_string, rule_open, star< rule_clause, opt< semi > >, rule_close > {};

struct decl : sor< ruleset_decl, use_decl, let_decl, tier_decl, kind_decl, rule_decl > {};
struct end_of_file : eof {};
struct file : seq< sp, star< decl >, must< end_of_file > > {};

// One declaration (error recovery parses the file declaration by declaration).
struct one_decl : seq< sp, sor< decl, must< end_of_file > > > {};
// A lone expression: the holes of `problem`/`impact`/`action` templates.
struct expr_end : eof {};
struct expr_only : seq< sp, must< expr >, must< expr_end > > {};

// clang-format on

}  // namespace review::dsl::grammar
