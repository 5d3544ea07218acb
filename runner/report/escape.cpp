#include "runner/report/escape.hpp"

#include <cstdint>
#include <cstdio>

namespace review::report {

namespace {

/// Returns the length (1-4) of the valid UTF-8 sequence starting at s[i], or 0 when invalid.
std::size_t utf8_len(std::string_view s, std::size_t i) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  std::uint32_t cp = 0, min = 0;
  if ((c & 0xE0) == 0xC0) { n = 2; cp = c & 0x1F; min = 0x80; }
  else if ((c & 0xF0) == 0xE0) { n = 3; cp = c & 0x0F; min = 0x800; }
  else if ((c & 0xF8) == 0xF0) { n = 4; cp = c & 0x07; min = 0x10000; }
  else return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

void hex_byte(std::string& out, unsigned char c, const char* prefix) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%s%02X", prefix, c);
  out += buf;
}

}  // namespace

std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = utf8_len(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string truncate_utf8(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return std::string(s);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return std::string(s.substr(0, cut)) + "\xE2\x80\xA6";
}

std::string escape_command_data(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}

std::string escape_command_property(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

namespace {

/// Escapes text outside code spans (see escape_markdown). Proven against cmark-gfm by
/// tests/report/markdown_differential_test.cpp.
void escape_markdown_text(std::string_view s, std::string& out) {
  static constexpr std::string_view kPunct = "\\`*_[]()!|~";
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '@') out += "@\xE2\x80\x8B";  // U+200B ZERO WIDTH SPACE: no @mention, no e-mail autolink
    // GFM's extended autolinks ("www.", "http://", "mailto:") would swallow what follows up to a
    // space, an opening backtick included, and turn a code span inside out: a zero-width space
    // breaks every trigger.
    else if ((c == 'w' || c == 'W') && i + 3 < s.size() && (s[i + 1] | 0x20) == 'w' && (s[i + 2] | 0x20) == 'w' && s[i + 3] == '.') {
      out.append(s.substr(i, 3));
      out += "\xE2\x80\x8B";
      i += 2;
    } else if (c == ':' && i + 1 < s.size() && s[i + 1] == '/') out += ":\xE2\x80\x8B";
    else if (c < 0x20 || c == 0x7F) out += ' ';
    else if (kPunct.find(static_cast<char>(c)) != std::string_view::npos) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0) {
      out += ' ';  // C1 control character (U+0080-U+009F)
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
}

}  // namespace

std::string escape_markdown(std::string_view raw) {
  std::string s = valid_utf8(raw);
  // The text sits right after a bullet or heading marker, which is the start of a block: leading
  // blanks (four make an indented code block) are dropped, and a character that would open a
  // block there (`#` heading, `-`/`+`/`=` rule, list or setext line, `>` quote, `1.`/`1)` ordered
  // list) is escaped below.
  std::size_t lead = 0;
  for (;;) {
    unsigned char c = lead < s.size() ? static_cast<unsigned char>(s[lead]) : 'x';
    if (c <= 0x20 || c == 0x7F) ++lead;  // blanks and control characters (shown as blanks)
    else if (c == 0xC2 && lead + 1 < s.size() && static_cast<unsigned char>(s[lead + 1]) < 0xA0) lead += 2;  // C1
    else break;
  }
  s.erase(0, lead);
  std::string block_escape;
  if (!s.empty() && (s[0] == '#' || s[0] == '-' || s[0] == '+' || s[0] == '=' || s[0] == '>')) {
    block_escape = std::string("\\") + s[0];
    s.erase(0, 1);
  } else {
    std::size_t d = 0;
    while (d < s.size() && d < 10 && s[d] >= '0' && s[d] <= '9') ++d;
    if (d > 0 && d < s.size() && (s[d] == '.' || s[d] == ')')) {
      block_escape = s.substr(0, d) + "\\" + s[d];
      s.erase(0, d + 1);
    }
  }
  std::string out = block_escape;
  out.reserve(s.size() + s.size() / 8);
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t open = s.find('`', pos);
    std::size_t close = open == std::string::npos ? std::string::npos : s.find('`', open + 1);
    if (close == std::string::npos) {  // no complete span left: the rest is text
      escape_markdown_text(std::string_view(s).substr(pos), out);
      break;
    }
    escape_markdown_text(std::string_view(s).substr(pos, open - pos), out);
    std::string_view code = std::string_view(s).substr(open + 1, close - open - 1);
    bool blank = code.find_first_not_of(" \t\r\n") == std::string_view::npos;
    if (blank) {
      out += "\\`";
      escape_markdown_text(code, out);
      out += "\\`";
    } else {
      // A code span is literal in GFM: no HTML, no mention, no emphasis. Only line breaks and
      // control characters need replacing.
      out += '`';
      for (char ch : code) {
        unsigned char c = static_cast<unsigned char>(ch);
        out += (c < 0x20 || c == 0x7F) ? ' ' : ch;
      }
      out += '`';
    }
    pos = close + 1;
  }
  return out;
}

std::string encode_uri_path(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (char ch : path) {
    unsigned char c = static_cast<unsigned char>(ch);
    bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) out += ch;
    else hex_byte(out, c, "%");
  }
  return out;
}

std::string terminal_safe(std::string_view raw) {
  std::string s = valid_utf8(raw);
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && c != '\t') || c == 0x7F) {
      hex_byte(out, c, "\\x");
    } else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0) {
      hex_byte(out, static_cast<unsigned char>(s[i + 1]), "\\u00");
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string neutralise_workflow_commands(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool line_start = true;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (line_start && (c == ' ' || c == '\t')) {
      out += c;
      continue;
    }
    if (line_start && c == ':' && i + 1 < s.size() && s[i + 1] == ':') {
      out += ":\xE2\x80\x8B:";
      ++i;
      line_start = false;
      continue;
    }
    line_start = false;
    if (c == '#' && s.compare(i, 3, "##[") == 0) {
      out += "#\xE2\x80\x8B#[";
      i += 2;
    } else if (c == '\r' && !(i + 1 < s.size() && s[i + 1] == '\n')) {
      out += "\\r";
    } else {
      out += c;
      if (c == '\n') line_start = true;
    }
  }
  return out;
}

}  // namespace review::report
