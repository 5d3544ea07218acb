#include "runner/lang/cmake/cmake.hpp"

#include <algorithm>
#include <cctype>
#include <type_traits>

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/raw_string.hpp>

namespace review::lang {

std::string CMakeError::describe() const {
  return std::to_string(line) + ":" + std::to_string(column) + ": " + message;
}

namespace {

namespace pegtl = tao::pegtl;

constexpr int kMaxParenDepth = 256;

struct State {
  CMakeParse out;
  CMakeCommand cmd;
  int paren_depth = 0;  // nesting inside the current command's argument list
  int if_depth = 0;
  // Where the constructs that can be left unterminated began (errors point at the opening).
  pegtl::position open_bracket{pegtl::internal::iterator(), "CMake"};
  pegtl::position open_quote = open_bracket, open_args = open_bracket;
};

// ---- grammar (cmake-language(7)) ----
struct space : pegtl::plus<pegtl::one<' ', '\t'>> {};
struct newline : pegtl::eol {};
struct bracket_open : pegtl::seq<pegtl::one<'['>, pegtl::star<pegtl::one<'='>>, pegtl::one<'['>> {};
struct bracket_body : pegtl::raw_string<'[', '=', ']'> {};
struct bracket_argument : pegtl::seq<pegtl::at<bracket_open>, pegtl::must<bracket_body>> {};
struct bracket_comment : pegtl::seq<pegtl::one<'#'>, pegtl::at<bracket_open>, pegtl::must<bracket_body>> {};
struct line_comment : pegtl::seq<pegtl::one<'#'>, pegtl::until<pegtl::at<pegtl::sor<pegtl::eol, pegtl::eof>>>> {};
struct comment : pegtl::sor<bracket_comment, line_comment> {};

struct escape_sequence : pegtl::seq<pegtl::one<'\\'>, pegtl::any> {};
struct quoted_close : pegtl::one<'"'> {};
struct quoted_argument
    : pegtl::seq<pegtl::one<'"'>, pegtl::until<quoted_close, pegtl::sor<escape_sequence, pegtl::any>>> {};
struct quoted_start : pegtl::one<'"'> {};
struct quoted : pegtl::seq<pegtl::at<quoted_start>, pegtl::must<quoted_argument>> {};
struct unquoted_element
    : pegtl::sor<escape_sequence, pegtl::not_one<' ', '\t', '\r', '\n', '(', ')', '#', '"', '\\'>> {};
struct unquoted_argument : pegtl::plus<unquoted_element> {};

struct open_paren : pegtl::one<'('> {};
struct close_paren : pegtl::one<')'> {};

// Succeeds (consuming nothing) when the argument list is not nested: the next ')' closes it.
struct at_top {
  using rule_t = at_top;
  using subs_t = pegtl::type_list<>;
  template <pegtl::apply_mode, pegtl::rewind_mode, template <typename...> class,
            template <typename...> class, typename In>
  static bool match(In&, State& s) {
    return s.paren_depth == 0;
  }
};

struct separation : pegtl::sor<space, newline, comment> {};
struct argument : pegtl::sor<bracket_argument, quoted, unquoted_argument> {};
struct element : pegtl::sor<separation, argument, open_paren, pegtl::seq<pegtl::not_at<at_top>, close_paren>> {};
struct end_of_command : pegtl::seq<at_top, pegtl::one<')'>> {};
struct arguments : pegtl::until<end_of_command, element> {};
struct identifier : pegtl::seq<pegtl::ranges<'A', 'Z', 'a', 'z', '_'>, pegtl::star<pegtl::ranges<'A', 'Z', 'a', 'z', '0', '9', '_'>>> {};
struct command_open : pegtl::one<'('> {};
struct command_invocation
    : pegtl::seq<identifier, pegtl::star<space>, pegtl::must<command_open>, pegtl::must<arguments>> {};
struct file_element : pegtl::sor<space, newline, comment, command_invocation> {};
struct file : pegtl::seq<pegtl::star<file_element>, pegtl::must<pegtl::eof>> {};

// ---- error messages (our words) ----
template <typename Rule>
inline constexpr const char* kError = "unexpected input";
template <> inline constexpr const char* kError<bracket_body> = "unterminated bracket (expected the matching ]=*])";
template <> inline constexpr const char* kError<quoted_argument> = "unterminated quoted argument (expected \")";
template <> inline constexpr const char* kError<command_open> = "expected '(' after the command name";
template <> inline constexpr const char* kError<arguments> = "unterminated argument list (expected ')')";
template <> inline constexpr const char* kError<pegtl::eof> = "expected a command name, a comment or the end of the file";

template <typename Rule>
struct control : pegtl::normal<Rule> {
  template <typename In, typename... St>
  static void start(const In&, St&&...) {}
  template <typename In, typename... St>
  [[noreturn]] static void raise(const In& in, St&&...) {
    throw pegtl::parse_error(kError<Rule>, in);
  }
  template <typename In>
  static void start(const In& in, State& s) {
    if constexpr (std::is_same_v<Rule, bracket_body>) s.open_bracket = in.position();
    if constexpr (std::is_same_v<Rule, quoted_argument>) s.open_quote = in.position();
    if constexpr (std::is_same_v<Rule, arguments>) s.open_args = in.position();
  }
  template <typename In>
  [[noreturn]] static void raise(const In& in, State& s) {
    if constexpr (std::is_same_v<Rule, bracket_body>) throw pegtl::parse_error(kError<Rule>, s.open_bracket);
    if constexpr (std::is_same_v<Rule, quoted_argument>) throw pegtl::parse_error(kError<Rule>, s.open_quote);
    if constexpr (std::is_same_v<Rule, arguments>) throw pegtl::parse_error(kError<Rule>, s.open_args);
    throw pegtl::parse_error(kError<Rule>, in);
  }
};

// ---- actions ----
template <typename Rule>
struct action : pegtl::nothing<Rule> {};

void add_comment(State& s, const pegtl::position& p, std::string_view text) {
  int line = static_cast<int>(p.line);
  int col = static_cast<int>(p.column);
  size_t pos = 0;
  while (true) {
    size_t nl = text.find('\n', pos);
    std::string_view part = text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos);
    if (!part.empty() && part.back() == '\r') part.remove_suffix(1);
    if (!part.empty()) s.out.comments.push_back({line, col, static_cast<int>(part.size())});
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
    ++line;
    col = 1;
  }
}

template <>
struct action<comment> {
  template <typename In>
  static void apply(const In& in, State& s) {
    add_comment(s, in.position(), in.string_view());
  }
};

template <>
struct action<identifier> {
  template <typename In>
  static void apply(const In& in, State& s) {
    s.cmd = CMakeCommand{};
    s.cmd.name = in.string();
    std::transform(s.cmd.name.begin(), s.cmd.name.end(), s.cmd.name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    s.cmd.line = static_cast<int>(in.position().line);
    s.paren_depth = 0;
  }
};

template <>
struct action<bracket_argument> {
  template <typename In>
  static void apply(const In& in, State& s) {
    std::string_view t = in.string_view();
    size_t marker = t.find('[', 1);  // "[==[" -> index of the second '['
    size_t open = marker + 1, close_len = marker + 1;
    std::string_view body = t.substr(open, t.size() - open - close_len);
    if (!body.empty() && body.front() == '\n') body.remove_prefix(1);
    else if (body.size() >= 2 && body[0] == '\r' && body[1] == '\n') body.remove_prefix(2);
    s.cmd.args.emplace_back(body);
  }
};

template <>
struct action<quoted_argument> {
  template <typename In>
  static void apply(const In& in, State& s) {
    std::string_view t = in.string_view();
    s.cmd.args.emplace_back(t.substr(1, t.size() - 2));
  }
};

template <>
struct action<unquoted_argument> {
  template <typename In>
  static void apply(const In& in, State& s) {
    s.cmd.args.push_back(in.string());
  }
};

template <>
struct action<open_paren> {
  template <typename In>
  static void apply(const In& in, State& s) {
    if (++s.paren_depth > kMaxParenDepth)
      throw pegtl::parse_error("parentheses nested deeper than 256 levels", in);
    s.cmd.args.emplace_back("(");
  }
};

template <>
struct action<close_paren> {
  template <typename In>
  static void apply(const In&, State& s) {
    --s.paren_depth;
    s.cmd.args.emplace_back(")");
  }
};

template <>
struct action<command_invocation> {
  template <typename In>
  static void apply(const In& in, State& s) {
    // in.position() is the start; the end line is the start plus the newlines crossed.
    std::string_view t = in.string_view();
    s.cmd.end_line = s.cmd.line + static_cast<int>(std::count(t.begin(), t.end(), '\n'));
    const std::string& n = s.cmd.name;
    if (n == "if") {
      s.cmd.depth = s.if_depth++;
    } else if (n == "elseif" || n == "else") {
      s.cmd.depth = std::max(0, s.if_depth - 1);
    } else if (n == "endif") {
      s.if_depth = std::max(0, s.if_depth - 1);
      s.cmd.depth = s.if_depth;
    } else {
      s.cmd.depth = s.if_depth;
    }
    s.out.commands.push_back(std::move(s.cmd));
    s.cmd = CMakeCommand{};
  }
};

}  // namespace

CMakeParse parse_cmake(std::string_view text) {
  State s;
  pegtl::memory_input<pegtl::tracking_mode::eager, pegtl::eol::lf_crlf> in(text.data(), text.size(), "CMake");
  try {
    pegtl::parse<file, action, control>(in, s);
  } catch (const pegtl::parse_error& e) {
    CMakeError err;
    if (!e.positions().empty()) {
      err.line = static_cast<int>(e.positions().front().line);
      err.column = static_cast<int>(e.positions().front().column);
    }
    err.message = std::string(e.message());
    s.out.error = std::move(err);
  }
  return std::move(s.out);
}

}  // namespace review::lang
