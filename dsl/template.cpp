#include "dsl/template.hpp"

#include <algorithm>
#include <cctype>

namespace review::dsl {

std::string dedent(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (true) {
    size_t nl = text.find('\n', start);
    lines.push_back(text.substr(start, nl == text.npos ? text.npos : nl - start));
    if (nl == text.npos) break;
    start = nl + 1;
  }
  auto blank = [](std::string_view l) { return l.find_first_not_of(" \t\r") == l.npos; };
  if (lines.size() > 1 && blank(lines.front())) lines.erase(lines.begin());
  if (lines.size() > 1 && blank(lines.back())) lines.pop_back();
  size_t common = std::string_view::npos;
  for (auto l : lines) {
    if (blank(l)) continue;
    size_t n = l.find_first_not_of(" \t");
    common = common == std::string_view::npos ? n : std::min(common, n);
  }
  if (common == std::string_view::npos) common = 0;
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) out += '\n';
    std::string_view l = lines[i];
    out += blank(l) ? std::string_view() : l.substr(std::min(common, l.size()));
  }
  return out;
}

std::string decode_string_literal(std::string_view tok) {
  if (tok.size() >= 6 && tok.substr(0, 3) == "\"\"\"") return dedent(tok.substr(3, tok.size() - 6));
  if (tok.size() < 2) return {};
  std::string_view body = tok.substr(1, tok.size() - 2);
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\' && i + 1 < body.size()) {
      char c = body[++i];
      switch (c) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        default: out += '\\'; out += c;
      }
    } else {
      out += body[i];
    }
  }
  return out;
}

std::string decode_regex_literal(std::string_view tok) {
  if (tok.size() < 2) return {};
  std::string_view body = tok.substr(1, tok.size() - 2);
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\' && i + 1 < body.size()) {
      if (body[i + 1] == '/') {
        out += '/';
      } else {
        out += body[i];
        out += body[i + 1];
      }
      ++i;
    } else {
      out += body[i];
    }
  }
  return out;
}

std::vector<RegexHole> regex_holes(std::string_view p) {
  std::vector<RegexHole> out;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\') {
      // \p{Greek} and \P{..} are classes; any other escape covers one character.
      if (i + 2 < p.size() && (p[i + 1] == 'p' || p[i + 1] == 'P') && p[i + 2] == '{') {
        size_t close = p.find('}', i);
        if (close != p.npos) i = close;
        continue;
      }
      ++i;
      continue;
    }
    if (p[i] != '{') continue;
    auto ident_start = [&](size_t k) {
      return k < p.size() && (std::isalpha(static_cast<unsigned char>(p[k])) || p[k] == '_');
    };
    auto ident_end = [&](size_t k) {
      while (k < p.size() && (std::isalnum(static_cast<unsigned char>(p[k])) || p[k] == '_')) ++k;
      return k;
    };
    if (!ident_start(i + 1)) continue;
    RegexHole h;
    h.offset = i;
    size_t j = ident_end(i + 1);
    h.name = std::string(p.substr(i + 1, j - i - 1));
    bool ok = true;
    while (ok && j < p.size() && p[j] == '.') {
      if (!ident_start(j + 1)) {
        ok = false;
        break;
      }
      size_t k = ident_end(j + 1);
      h.path.emplace_back(p.substr(j + 1, k - j - 1));
      j = k;
    }
    if (ok && j < p.size() && p[j] == '}') {
      h.length = j - i + 1;
      out.push_back(std::move(h));
      i = j;
    }
  }
  return out;
}

std::string RegexHole::text() const {
  std::string s = name;
  for (const auto& f : path) s += "." + f;
  return s;
}

size_t template_hole_end(std::string_view body, size_t open, bool escaped_quotes) {
  int level = 1;
  bool in_str = false;
  for (size_t j = open + 1; j < body.size(); ++j) {
    if (escaped_quotes && body[j] == '\\' && j + 1 < body.size()) {
      if (body[j + 1] == '"') in_str = !in_str;  // a quote of the hole, escaped in the template
      ++j;
      continue;
    }
    if (in_str) {
      if (body[j] == '\\') ++j;
      else if (body[j] == '"') in_str = false;
    } else if (body[j] == '"') {
      in_str = true;
    } else if (body[j] == '{') {
      ++level;
    } else if (body[j] == '}' && --level == 0) {
      return j;
    }
  }
  return std::string_view::npos;
}

std::string template_outline(std::string_view raw) {
  auto ident_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::string out;
  size_t after_hole = std::string::npos;  // the size of `out` right after the last hole
  for (size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if ((c == '{' || c == '}') && i + 1 < raw.size() && raw[i + 1] == c) {  // `{{` or `}}`
      out += c;
      ++i;
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    const size_t j = template_hole_end(raw, i, false);
    if (j == std::string_view::npos) {  // unterminated: as written
      out.append(raw.substr(i));
      break;
    }
    // the last field path of the expression (`c.a.file`, a name alone, not a number, not inside
    // a string)
    std::string_view expr = raw.substr(i + 1, j - i - 1), name;
    bool in_str = false;
    for (size_t k = 0; k < expr.size();) {
      if (in_str) {
        if (expr[k] == '\\') ++k;
        else if (expr[k] == '"') in_str = false;
        ++k;
      } else if (expr[k] == '"') {
        in_str = true;
        ++k;
      } else if (ident_char(expr[k])) {
        size_t e = k;
        while (e < expr.size() && (ident_char(expr[e]) || (expr[e] == '.' && e + 1 < expr.size() && ident_char(expr[e + 1]))))
          ++e;
        if (!std::isdigit(static_cast<unsigned char>(expr[k]))) name = expr.substr(k, e - k);
        k = e;
      } else {
        ++k;
      }
    }
    i = j;
    // holes written side by side are alternatives (`{expr}{expr2}`: the captures of an `or`'s
    // branches, one of them set): one placeholder, the first's
    if (after_hole == out.size()) continue;
    out += "\u2039";
    out += name.empty() ? std::string_view("\u2026") : name;
    out += "\u203a";
    after_hole = out.size();
  }
  return out;
}

}  // namespace review::dsl
