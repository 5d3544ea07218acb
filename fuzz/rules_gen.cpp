#include "fuzz/rules_gen.hpp"

#include <algorithm>

namespace review::fuzz {

using dsl::Type;

namespace {

// Plain text for literals and templates: quotes, backslashes, braces as the language writes them
// (`{{` in a template), non-ASCII, markdown and workflow-command look-alikes.
const std::vector<std::string> kText = {"", "x", "self", "print", "TODO", "a/b.py", "fp8", "\\\"q\\\"", "\\\\",
                                        "\\n", "\\t", "\xc3\xbc\xe2\x80\x94", "::error::", "<b>", "`code`",
                                        "{{", "}}", "dtype", "torch.empty", " ", "1.2.3", "v3.10", "17)"};
const std::vector<std::string> kGlobs = {"**/*.py", "*.cpp", "src/**", "{a,b}/*.h", "[ab]*", "**", "?.py",
                                         "docs/**/*.md", "**/CMakeLists.txt", "[!x]*", "a/**/b", ""};
const std::vector<std::string> kRegex = {"\\bTODO\\b", "(?i)dtype", "^\\s*$", "\\d+", ".", "(a|b)*c", "\\p{L}",
                                         "x{2,3}", "^(self\\.)?\\w+$", "[^a-z_]", "\\{", "(?s).*", "^#", "fp(8|16)"};
const std::vector<const char*> kActions = {"Author must", "Author should", "Reviewer should ask",
                                           "Reviewer should"};

std::string quote(const std::string& s) { return "\"" + s + "\""; }

}  // namespace

RulesetGenerator::RulesetGenerator(FuzzedDataProvider& in, const std::vector<dsl::SourceSchema>& schema)
    : in_(in), schema_(schema) {
  static const dsl::SourceSchema findings = [] {
    dsl::SourceSchema s;
    s.name = "findings";
    for (const char* f : {"rule", "title", "severity", "problem", "impact", "action", "text", "file"})
      s.fields.push_back({f, Type::String, "", ""});
    s.fields.push_back({"line", Type::Int, "", ""});
    s.fields.push_back({"tags", Type::List, "", ""});
    return s;
  }();
  findings_ = &findings;
  for (const auto& s : schema_) {
    if (s.name == "pr") pr_ = &s;
    else if (s.takes_scope && s.name != "location" && s.name != "construct") sources_.push_back(&s);
  }
}

size_t RulesetGenerator::pick(size_t n) { return n <= 1 ? 0 : in_.ConsumeIntegralInRange<size_t>(0, n - 1); }
bool RulesetGenerator::chance(int percent) { return in_.ConsumeIntegralInRange<int>(0, 99) < percent; }

const dsl::SourceSchema* RulesetGenerator::find(const std::string& name) const {
  for (const auto& s : schema_)
    if (s.name == name) return &s;
  return nullptr;
}

// Every field path of the bound variables (and `pr`) of `type`; one level of nested facts.
std::vector<RulesetGenerator::Field> RulesetGenerator::fields(Type type, bool list_of_facts) const {
  std::vector<Field> out;
  auto add = [&](const std::string& prefix, const dsl::SourceSchema& s, int depth, auto& self) -> void {
    std::vector<dsl::FieldSchema> fs = s.fields;
    if (&s != pr_) {  // every fact has these
      for (const char* f : {"file", "line"})
        if (!s.field(f)) fs.push_back({f, std::string(f) == "file" ? Type::String : Type::Int, "", ""});
    }
    for (const auto& f : fs) {
      const dsl::SourceSchema* sub = f.fact_source.empty() ? nullptr : find(f.fact_source);
      if (f.type == Type::Fact && sub && depth == 0) self(prefix + "." + f.name, *sub, depth + 1, self);
      if (f.type == Type::Fact && type == Type::Fact && sub) out.push_back({prefix + "." + f.name, Type::Fact, sub});
      if (f.type != type || type == Type::Fact) continue;
      if (type == Type::List && list_of_facts != (sub != nullptr)) continue;
      out.push_back({prefix + "." + f.name, f.type, sub});
    }
  };
  for (const auto& v : vars_)
    if (v.source) add(v.name, *v.source, 0, add);
  if (pr_) add("pr", *pr_, 1, add);
  return out;
}

std::string RulesetGenerator::text() {
  std::string t;
  for (int i = in_.ConsumeIntegralInRange<int>(0, 3); i > 0; --i) t += one(kText) + (chance(50) ? " " : "");
  return t;
}

std::string RulesetGenerator::scope() {
  switch (pick(7)) {
    case 0: return "(changed)";
    case 1: return "(base)";
    case 2: return "(repo)";
    case 3: return "(" + quote(one(kGlobs)) + (chance(30) ? ", " + quote(one(kGlobs)) : "") + ")";
    case 4:
      if (!lets_list_.empty()) return "(" + one(lets_list_) + ")";
      return "";
    case 5: {
      for (auto it = vars_.rbegin(); it != vars_.rend(); ++it)
        if (it->source && chance(70)) return "(" + it->name + ".file)";
      return "(changed)";
    }
    default: return "";  // `files` alone means files(changed)
  }
}

std::string RulesetGenerator::regex(bool capture) {
  if (!lets_re_.empty() && chance(15)) return one(lets_re_);
  std::string re;
  std::string name;
  if (capture) {
    name = "c" + std::to_string(fresh_++);
    re = "(?P<" + name + ">\\w+)";
  }
  re += one(kRegex);
  // A hole: an earlier captured value or a string field of a bound fact, quoted by the evaluator
  // (a regex's own groups are bound only after it matched).
  if (chance(25)) {
    if (!captures_.empty() && chance(50)) re += "{" + one(captures_) + "}";
    else {
      auto fs = fields(Type::String);
      if (!fs.empty()) re += "{" + one(fs).path + "}";
    }
  }
  if (capture) captures_.push_back(name);
  return "/" + re + "/";
}

// A `for`/`exists`/`count` domain; binds `bound` (a fact of a source, a nested list fact or a string).
std::string RulesetGenerator::domain(Var& bound, bool& binds_fact) {
  binds_fact = true;
  if (!tags_.empty() && chance(10)) {
    bound.source = findings_;
    return "findings(" + quote(one(tags_)) + ")";
  }
  if (chance(25)) {
    auto facts = fields(Type::List, true);
    if (!facts.empty()) {
      const Field& f = one(facts);
      bound.source = f.fact;
      return f.path;
    }
    auto strings = fields(Type::List);
    if (!strings.empty() || !lets_list_.empty()) {
      binds_fact = false;
      bound.source = nullptr;
      if (strings.empty() || (!lets_list_.empty() && chance(30))) return one(lets_list_);
      return one(strings).path;
    }
  }
  if (chance(8)) {
    binds_fact = false;
    bound.source = nullptr;
    return "[" + quote(one(kText)) + ", " + quote(one(kText)) + "]";
  }
  bound.source = one(sources_);
  return bound.source->name + scope();
}

std::string RulesetGenerator::str(int depth) {
  --nodes_;
  if (depth > 0 && nodes_ > 0) {
    switch (pick(8)) {
      case 0: return "lower(" + str(depth - 1) + ")";
      case 1: return "trim(" + str(depth - 1) + ")";
      case 2: return "oneline(" + str(depth - 1) + ")";
      case 3: return "(" + str(depth - 1) + " + " + str(depth - 1) + ")";
      default: break;
    }
  }
  if (!captures_.empty() && chance(10)) return one(captures_);
  if (!lets_str_.empty() && chance(8)) return one(lets_str_);
  for (const auto& v : vars_)
    if (!v.source && chance(20)) return v.name;
  auto fs = fields(Type::String);
  if (!fs.empty() && chance(75)) return one(fs).path;
  return quote(one(kText));
}

std::string RulesetGenerator::integer(int depth) {
  --nodes_;
  if (depth > 0 && nodes_ > 0) {
    switch (pick(10)) {
      case 0: return "len(" + (chance(50) ? str(depth - 1) : list(depth - 1)) + ")";
      case 1: return "count(" + list(depth - 1) + ")";
      case 2: return quantified(depth - 1, true);
      case 3: return "(" + integer(depth - 1) + " + " + integer(depth - 1) + ")";
      case 4: return "(" + integer(depth - 1) + " - " + integer(depth - 1) + ")";
      case 5: return "(" + integer(depth - 1) + " * " + integer(depth - 1) + ")";
      case 6: return (chance(50) ? "int(" : "version(") + str(depth - 1) + ")";
      default: break;
    }
  }
  if (!lets_int_.empty() && chance(10)) return one(lets_int_);
  auto fs = fields(Type::Int);
  if (!fs.empty() && chance(60)) return one(fs).path;
  static const std::vector<std::string> ints = {"0", "1", "2", "3", "10", "400", "1000000", "9223372036854775807"};
  return one(ints);
}

std::string RulesetGenerator::list(int depth) {
  --nodes_;
  if (!lets_list_.empty() && chance(15)) return one(lets_list_);
  auto fs = fields(Type::List);
  if (!fs.empty() && chance(70)) return one(fs).path;
  std::string l = "[";
  for (int i = in_.ConsumeIntegralInRange<int>(0, 3); i > 0; --i)
    l += (l.size() > 1 ? ", " : "") + (depth > 0 && chance(30) ? str(depth - 1) : quote(one(kText)));
  return l + "]";
}

// `exists X in D where B`, or `count(X in D where B)`.
std::string RulesetGenerator::quantified(int depth, bool count) {
  Var v;
  v.name = "q" + std::to_string(fresh_++);
  bool fact = true;
  std::string d = domain(v, fact);
  size_t caps = captures_.size();
  vars_.push_back(v);
  std::string cond = nodes_ > 0 && chance(85) ? " where " + boolean(depth) : (count ? " where true" : "");
  vars_.pop_back();
  captures_.resize(caps);  // captures inside do not escape
  if (count) return "count(" + v.name + " in " + d + cond + ")";
  // In parentheses: an `exists … where` swallows the `and` that follows it.
  return "(exists " + v.name + " in " + d + cond + ")";
}

std::string RulesetGenerator::boolean(int depth, bool top) {
  --nodes_;
  int choice = static_cast<int>(pick(depth > 0 && nodes_ > 0 ? 16 : 9));
  switch (choice) {
    case 0: {
      auto fs = fields(Type::Bool);
      if (!fs.empty()) return one(fs).path;
      return chance(50) ? "true" : "false";
    }
    case 1: {
      static const std::vector<std::string> ops = {"<", "<=", ">", ">=", "==", "!="};
      return integer(depth) + " " + one(ops) + " " + integer(depth);
    }
    case 2: return str(depth) + (chance(50) ? " == " : " != ") + str(depth);
    case 3: {
      // Captures bind for what comes after: the left side is generated first (the operands of
      // `+` are unsequenced), and only a string match binds them.
      bool cap = top && chance(40);
      std::string left = !cap && chance(20) ? list(depth) : str(depth);
      if (cap) {
        std::string re = regex(true);
        return left + " ~ " + re;
      }
      std::string op = chance(70) ? " ~ " : " !~ ";
      return left + op + regex(false);
    }
    case 4: {
      std::string right = chance(60) ? quote(one(kGlobs)) : (!lets_list_.empty() && chance(50) ? one(lets_list_)
                                                             : "[" + quote(one(kGlobs)) + ", " + quote(one(kGlobs)) + "]");
      return str(depth) + (chance(75) ? " like " : " not like ") + right;
    }
    case 5: return str(depth) + (chance(70) ? " in " : " not in ") + (chance(60) ? list(depth) : str(depth));
    case 6: return kinds_.empty() ? "true" : "kind " + one(kinds_);
    case 7: return "len(" + str(depth) + ") > " + integer(0);
    case 8: return "(" + str(depth) + " == " + quote(one(kText)) + ")";
    case 9: return "not (" + boolean(depth - 1) + ")";
    case 10:
    case 11: {
      std::string a = boolean(depth - 1, top);  // first: its captures reach the second
      std::string b = boolean(depth - 1, top);
      return "(" + a + " and " + b + ")";
    }
    case 12: return "(" + boolean(depth - 1) + " or " + boolean(depth - 1) + ")";
    case 13:
    case 14: return quantified(depth - 1, false);
    default: return "count(" + (tags_.empty() || chance(50) ? list(depth - 1) : "findings(" + quote(one(tags_)) + ")") +
                    ") >= " + integer(0);
  }
}

// A template hole: any expression, escaped as the template string's text (`\"` and `\\`), never
// with a brace of its own (the hole ends at the first `}`).
std::string RulesetGenerator::hole() {
  std::string e;
  switch (pick(5)) {
    case 0: e = integer(1); break;
    case 1: e = list(0); break;
    case 2:
      if (!captures_.empty()) {
        e = one(captures_);
        break;
      }
      [[fallthrough]];
    default: e = str(1); break;
  }
  if (e.find_first_of("{}") != std::string::npos) e = "1";
  std::string out = "{";
  for (char c : e) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "}";
}

std::string RulesetGenerator::kind(int index) {
  std::string name = "k" + std::to_string(index);
  nodes_ = 12;
  std::string k = "kind " + name + " " + quote(text()) + " when " + boolean(2) + "\n";
  kinds_.push_back(name);
  return k;
}

std::string RulesetGenerator::body(const std::string& indent, int fors) {
  std::string r;
  std::vector<std::string> fact_vars;
  for (int i = 0; i < fors; ++i) {
    Var v;
    v.name = "v" + std::to_string(i);
    bool fact = true;
    std::string d;
    if (i == 0) {
      v.source = one(sources_);
      d = v.source->name + scope();
    } else {
      d = domain(v, fact);
    }
    vars_.push_back(v);
    if (fact) fact_vars.push_back(v.name);
    r += indent + "for " + v.name + " in " + d;
    if (chance(70)) r += " where " + boolean(2, true);
    r += "\n";
  }
  for (int i = static_cast<int>(pick(3)); i > 0 && nodes_ > 0; --i) r += indent + "where " + boolean(2, true) + "\n";
  if (chance(30)) r += indent + "unless " + boolean(2) + "\n";
  if (fact_vars.size() > 1 && chance(30)) r += indent + "at " + one(fact_vars) + "\n";
  // The red-finding gate: a block body's problem names a fact field of its first `for` (every
  // body with a `for` does; a body without one is never block).
  std::string problem = text();
  if (fors > 0) {
    const dsl::SourceSchema* s = vars_.front().source;
    std::vector<std::string> names = {"file", "line"};
    for (const auto& f : s->fields)
      if (f.type == Type::String || f.type == Type::Int) names.push_back(f.name);
    problem += " {v0." + one(names) + "}";
  }
  for (int i = static_cast<int>(pick(3)); i > 0; --i) problem += " " + hole() + " " + text();
  r += indent + "problem " + quote(problem) + "\n";
  r += indent + "impact " + quote(text() + (chance(30) ? " " + hole() : "")) + "\n";
  r += indent + "action " + quote(std::string(one(kActions)) + " " + text() + (chance(20) ? " " + hole() : "")) + "\n";
  return r;
}

std::string RulesetGenerator::rule(int index) {
  vars_.clear();
  captures_.clear();
  nodes_ = in_.ConsumeIntegralInRange<int>(8, 40);
  static const std::vector<std::string> sev = {"block", "warn", "note"};
  std::string r = "rule G" + std::to_string(index) + " " + quote(text()) + " {\n";
  const int fors = static_cast<int>(pick(4));  // 0 = a pull-request-level rule
  std::string severity = one(sev);
  if (severity == "block" && fors == 0) severity = "warn";
  r += "  severity " + severity + "\n";
  if (chance(20)) r += "  evidence " + std::string(severity != "block" && chance(50) ? "inferred" : "verified") + "\n";
  std::string tag = "t" + std::to_string(index);
  bool tagged = chance(40);
  if (tagged) r += "  tags " + quote(tag) + "\n";
  if (fors == 0 || chance(20)) r += "  when " + boolean(2) + "\n";
  // Every body starts from what the rule's `when` bound (its captures); names stay per body.
  const std::vector<Var> vars_after_when = vars_;
  const std::vector<std::string> captures_after_when = captures_;
  r += body("  ", fors);
  for (int a = static_cast<int>(chance(25) ? 1 + pick(2) : 0), n = 0; n < a; ++n) {
    vars_ = vars_after_when;
    captures_ = captures_after_when;
    nodes_ = in_.ConsumeIntegralInRange<int>(8, 30);
    const int also_fors = static_cast<int>(pick(4));
    std::string also_severity = severity;
    bool own = chance(30) || (severity == "block" && also_fors == 0);  // the red-finding gate
    if (own) also_severity = chance(50) ? "warn" : "note";
    r += "  also " + quote("body " + std::to_string(n + 1)) + " {\n";
    if (own) r += "    severity " + also_severity + "\n";
    r += body("    ", also_fors);
    r += "  }\n";
  }
  if (chance(10)) r += "  help \"\"\"\n    " + text() + "\n  \"\"\"\n";
  r += "}\n";
  if (tagged) tags_.push_back(tag);
  return r;
}

std::string RulesetGenerator::ruleset() {
  std::string out = "ruleset gen " + quote(text()) + " {\n  version 1\n";
  if (chance(50)) out += "  tests " + quote(one(kGlobs)) + "\n";
  out += "}\n";
  int lets = static_cast<int>(pick(4));
  for (int i = 0; i < lets; ++i) {
    std::string name = "L" + std::to_string(i);
    switch (pick(5)) {
      case 0:
        out += "let " + name + " = " + quote(one(kText)) + "\n";
        lets_str_.push_back(name);
        break;
      case 1:
        out += "let " + name + " = " + quote(one(kGlobs)) + ", " + quote(one(kGlobs)) + "\n";
        lets_list_.push_back(name);
        break;
      case 2:
        out += "let " + name + " = [" + quote(one(kText)) + ", " + quote(one(kText)) + "]\n";
        lets_list_.push_back(name);
        break;
      case 3: {
        out += "let " + name + " = /" + one(kRegex) + "/\n";
        lets_re_.push_back(name);
        break;
      }
      default:
        out += "let " + name + " = " + std::to_string(in_.ConsumeIntegralInRange<int>(0, 500)) + "\n";
        lets_int_.push_back(name);
        break;
    }
  }
  if (chance(30)) {
    out += "tier " + std::to_string(in_.ConsumeIntegralInRange<int>(1, 3)) + " " + quote(text()) + " {\n  " +
           quote(one(kGlobs)) + " blast " + quote(text()) + " fails " + quote(text()) + "\n}\n";
  }
  vars_.clear();
  for (int i = static_cast<int>(pick(3)); i > 0; --i) out += kind(static_cast<int>(kinds_.size()));
  int rules = 1 + static_cast<int>(pick(6));
  for (int i = 0; i < rules; ++i) out += rule(i);
  return out;
}

}  // namespace review::fuzz
