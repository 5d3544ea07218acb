// C/C++/HIP/CUDA front end: walks a tree-sitter-cpp 0.23.4 tree once and fills the SourceModel.
#include <cctype>
#include <cstring>
#include <unordered_set>

#include "runner/lang/extract.hpp"

namespace review::lang::detail {

namespace {

bool is(std::string_view t, const char* s) { return t == s; }
bool field_is(const char* f, const char* s) { return f && std::strcmp(f, s) == 0; }

/// Position of the last "::" outside template angle brackets, or npos.
size_t last_scope_sep(std::string_view s) {
  int angle = 0;
  size_t found = std::string_view::npos;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] == '<') ++angle;
    else if (s[i] == '>' && angle > 0) --angle;
    else if (angle == 0 && s[i] == ':' && s[i + 1] == ':') found = i++;
  }
  return found;
}

std::string strip_spaces(std::string s) {
  std::string out;
  for (char c : s)
    if (c != ' ') out += c;
  return out;
}

class CppWalker {
 public:
  explicit CppWalker(Builder& b) : b_(b) {}

  void walk(TSNode root) {
    TSTreeCursor c = ts_tree_cursor_new(root);
    visit(&c, Ctx{}, "", nullptr, 0);
    ts_tree_cursor_delete(&c);
    finish_handlers();
  }

 private:
  Builder& b_;
  std::vector<std::pair<int, std::pair<uint32_t, uint32_t>>> pending_handlers_;  ///< index, body bytes

  static bool is_container(std::string_view t) {
    return is(t, "translation_unit") || is(t, "compound_statement") || is(t, "declaration_list") ||
           is(t, "field_declaration_list") || is(t, "case_statement") || is(t, "preproc_if") ||
           is(t, "preproc_ifdef") || is(t, "preproc_else") || is(t, "preproc_elif");
  }
  static bool is_loop(std::string_view t) {
    return is(t, "for_statement") || is(t, "for_range_loop") || is(t, "while_statement") ||
           is(t, "do_statement");
  }

  void visit(TSTreeCursor* c, const Ctx& ctx, std::string_view parent, const char* fname, int depth) {
    TSNode n = ts_tree_cursor_current_node(c);
    if (!ts_node_is_named(n)) return;
    if (depth > kMaxDepth) {
      b_.model.has_errors = true;
      return;
    }
    std::string_view type = ts_node_type(n);
    if (is(type, "comment")) {
      b_.comment(n);
      return;
    }
    if (is_container(parent) && !field_is(fname, "value") && !field_is(fname, "condition") &&
        !field_is(fname, "name") && !field_is(fname, "alternative"))
      statement(n, type, ctx);
    if (is(type, "string_literal") || is(type, "char_literal")) {
      b_.mark(n, ctx);
      uint32_t count = ts_node_child_count(n);
      if (count >= 2)
        b_.blank(ts_node_end_byte(ts_node_child(n, 0)), ts_node_start_byte(ts_node_child(n, count - 1)));
      return;
    }
    if (is(type, "raw_string_literal")) {
      b_.mark(n, ctx);
      for_each_child(n, [&](TSNode ch, const char*) {
        if (is(type_of(ch), "raw_string_content")) b_.blank(ts_node_start_byte(ch), ts_node_end_byte(ch));
      });
      return;
    }
    Ctx inner = ctx;
    if (is(type, "function_definition")) {
      inner = function(n, ctx);
    } else if (is(type, "class_specifier") || is(type, "struct_specifier") || is(type, "union_specifier")) {
      if (!ts_node_is_null(field(n, "body"))) inner = klass(n, ctx);
    } else if (is(type, "namespace_definition")) {
      std::string name = strip_spaces(b_.flat(field(n, "name")));
      if (!name.empty()) inner.prefix = b_.add_prefix(b_.prefixes[ctx.prefix] + name + "::");
    } else if (is(type, "call_expression")) {
      call(n, ctx);
    } else if (is(type, "declaration") || is(type, "field_declaration")) {
      declaration(n, type, ctx);
    } else if (is(type, "assignment_expression")) {
      assign(n, ctx);
    } else if (is(type, "preproc_include")) {
      std::string p = b_.str(field(n, "path"));
      if (p.size() >= 2 && (p[0] == '"' || p[0] == '<')) p = p.substr(1, p.size() - 2);
      b_.model.imports.push_back(Import{p, {}, start_line(n)});
    } else if (is(type, "catch_clause")) {
      inner.handler = handler(n, ctx);
    } else if (is(type, "throw_statement")) {
      throw_statement(n, ctx);
    } else if (is(type, "return_statement")) {
      if (ctx.handler >= 0) b_.model.handlers[ctx.handler].returns = true;
    } else if (is(type, "lambda_expression")) {
      inner.handler = -1;  // a throw in a lambda is not the handler's
    } else if (is(type, "if_statement")) {
      ++inner.cond;
    } else if (is(type, "switch_statement")) {
      ++inner.cond;
    } else if (is(type, "conditional_expression")) {
      ++inner.cond;
    }
    // A braced loop body starting on the header line: the header line is not in the loop.
    b_.mark(n, inner, is(type, "compound_statement") && field_is(fname, "body") && is_loop(parent));
    if (!ts_tree_cursor_goto_first_child(c)) return;
    bool loop = is_loop(type);
    do {
      const char* f = ts_tree_cursor_current_field_name(c);
      if (loop && field_is(f, "body")) {
        Ctx in_body = inner;
        ++in_body.loop;
        visit(c, in_body, type, f, depth + 1);
      } else {
        visit(c, inner, type, f, depth + 1);
      }
    } while (ts_tree_cursor_goto_next_sibling(c));
    ts_tree_cursor_goto_parent(c);
  }

  void statement(TSNode n, std::string_view type, const Ctx& ctx) {
    TSNode body = field(n, "body");
    if (ts_node_is_null(body)) body = field(n, "consequence");
    b_.add_statement(n, type, ctx, body);
  }

  // The identifier a declarator declares ("*p" -> "p", "a[3]" -> "a", "f(int)" -> "f").
  TSNode declared_name(TSNode d) {
    for (int guard = 0; guard < 32 && !ts_node_is_null(d); ++guard) {
      std::string_view t = type_of(d);
      if (is(t, "identifier") || is(t, "field_identifier") || is(t, "qualified_identifier") ||
          is(t, "destructor_name") || is(t, "operator_name") || is(t, "type_identifier") ||
          is(t, "template_function") || is(t, "operator_cast"))
        return d;
      TSNode next = field(d, "declarator");
      if (ts_node_is_null(next)) next = ts_node_named_child(d, 0);
      d = next;
    }
    return TSNode{};
  }

  TSNode function_declarator(TSNode d) {
    for (int guard = 0; guard < 32 && !ts_node_is_null(d); ++guard) {
      if (is(type_of(d), "function_declarator")) return d;
      TSNode next = field(d, "declarator");
      if (ts_node_is_null(next)) next = ts_node_named_child(d, 0);
      d = next;
    }
    return TSNode{};
  }

  Param param(TSNode p) {
    Param out;
    out.text = b_.flat(p);
    TSNode name = declared_name(field(p, "declarator"));
    out.name = b_.str(name);
    out.default_value = b_.str(field(p, "default_value"));
    return out;
  }

  Ctx function(TSNode n, const Ctx& ctx) {
    Function f;
    TSNode fd = function_declarator(field(n, "declarator"));
    std::string full = strip_spaces(b_.flat(field(fd, "declarator")));
    size_t sep = last_scope_sep(full);
    f.name = sep == std::string::npos ? full : full.substr(sep + 2);
    f.qualified = b_.prefixes[ctx.prefix] + full;
    if (ctx.direct_class >= 0) {
      f.cls = b_.model.classes[ctx.direct_class].name;
    } else if (sep != std::string::npos) {
      std::string scope = full.substr(0, sep);
      size_t s2 = last_scope_sep(scope);
      f.cls = s2 == std::string::npos ? scope : scope.substr(s2 + 2);
    }
    for_each_child(field(fd, "parameters"), [&](TSNode p, const char*) {
      std::string_view t = type_of(p);
      if (is(t, "parameter_declaration") || is(t, "optional_parameter_declaration") ||
          is(t, "variadic_parameter_declaration"))
        f.params.push_back(param(p));
    });
    f.start_line = start_line(n);
    f.end_line = end_line(n);
    f.signature = b_.line_text(f.start_line);
    return b_.add_function(std::move(f), ctx, "::");
  }

  Ctx klass(TSNode n, const Ctx& ctx) {
    Class k;
    k.name = strip_spaces(b_.flat(field(n, "name")));
    if (k.name.empty()) k.name = "(anonymous)";
    k.qualified = b_.prefixes[ctx.prefix] + k.name;
    for_each_child(n, [&](TSNode ch, const char*) {
      if (!is(type_of(ch), "base_class_clause")) return;
      for_each_child(ch, [&](TSNode b, const char*) {
        std::string_view t = type_of(b);
        if (ts_node_is_named(b) && !is(t, "access_specifier") && !is(t, "comment")) k.bases.push_back(b_.flat(b));
      });
    });
    return b_.add_class(std::move(k), n, ctx, "::");
  }

  void call(TSNode n, const Ctx& ctx) {
    Call c;
    TSNode callee = field(n, "function");
    c.callee = b_.kept(callee, strip_spaces(b_.flat(callee)));
    for_each_child(field(n, "arguments"), [&](TSNode a, const char*) {
      if (ts_node_is_named(a) && !is(type_of(a), "comment")) c.args.push_back(b_.text(a));
    });
    TSPoint p = ts_node_start_point(n);
    c.line = static_cast<int>(p.row) + 1;
    c.column = static_cast<int>(p.column) + 1;
    c.end_line = end_line(n);
    c.function = b_.fn_name(ctx);
    c.in_loop = ctx.loop > 0;
    c.text = b_.text(n);
    if (ctx.function >= 0) b_.model.functions[ctx.function].calls.push_back(c.callee);
    b_.model.calls.push_back(std::move(c));
  }

  // `value` and `op`: literals or views into the source (Assignment).
  void add_assignment(std::string target, std::string_view value, std::string_view op, TSNode n, const Ctx& ctx) {
    Assignment a;
    a.target = std::move(target);
    a.value = value;
    a.op = op;
    a.line = start_line(n);
    a.function = b_.fn_name(ctx);
    a.cls = b_.cls_name(ctx);
    a.text = b_.text(n);
    b_.model.assignments.push_back(std::move(a));
  }

  void declaration(TSNode n, std::string_view type, const Ctx& ctx) {
    if (is(type, "field_declaration")) {
      TSNode dv = field(n, "default_value");
      if (!ts_node_is_null(dv))
        add_assignment(b_.str(declared_name(field(n, "declarator"))), b_.text(dv), "decl", n, ctx);
      return;
    }
    for_each_child(n, [&](TSNode d, const char* f) {
      if (!field_is(f, "declarator") || !is(type_of(d), "init_declarator")) return;
      add_assignment(b_.str(declared_name(field(d, "declarator"))), b_.text(field(d, "value")), "decl", n, ctx);
    });
  }

  void assign(TSNode n, const Ctx& ctx) {
    add_assignment(b_.flat(field(n, "left")), b_.text(field(n, "right")), b_.text(field(n, "operator")), n, ctx);
  }

  // Collapses runs of whitespace to one space and trims.
  static std::string collapse(std::string_view t) {
    std::string out;
    bool space = false;
    for (char c : t) {
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        space = true;
        continue;
      }
      if (space && !out.empty()) out += ' ';
      space = false;
      out += c;
    }
    return out;
  }

  static bool has_word(std::string_view text, std::string_view word) {
    if (word.empty()) return false;
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t p = text.find(word); p != std::string_view::npos; p = text.find(word, p + 1)) {
      bool left = p == 0 || !ident(text[p - 1]);
      bool right = p + word.size() >= text.size() || !ident(text[p + word.size()]);
      if (left && right) return true;
    }
    return false;
  }

  // Records a catch clause; returns its index. `rethrows`/`throws` are completed by the throw
  // statements of its body (throw_statement), the rest from the body's blanked text here.
  int handler(TSNode n, const Ctx& ctx) {
    CppHandler h;
    std::pair<uint32_t, uint32_t> body_range{0, 0};
    TSNode params = field(n, "parameters");
    for_each_child(params, [&](TSNode p, const char*) {
      std::string_view t = type_of(p);
      if (is(t, "...")) {
        h.catches_all = true;
      } else if (ts_node_is_named(p) && !is(t, "comment")) {
        h.type = b_.flat(p);
        h.name = b_.str(declared_name(field(p, "declarator")));
      }
    });
    if (h.catches_all) h.type = "...";
    h.line = start_line(n);
    h.end_line = end_line(n);
    TSNode body = field(n, "body");
    if (!ts_node_is_null(body)) {
      h.body_start = start_line(body);
      h.body_end = end_line(body);
      // The text is read after the walk, once comments and strings inside are blanked.
      uint32_t a = ts_node_start_byte(body), e = ts_node_end_byte(body);
      if (e > a + 1) body_range = {a + 1, e - 1};
    }
    h.function = b_.fn_name(ctx);
    b_.model.handlers.push_back(std::move(h));
    int index = static_cast<int>(b_.model.handlers.size()) - 1;
    pending_handlers_.push_back({index, body_range});
    return index;
  }

  // The constructed type of a throw operand: `T(...)`, `T{...}`, `new T(...)` -> "T"; "" for
  // other operands (a variable, a function's result is indistinguishable from a constructor call
  // only when named like a type, so calls count).
  std::string thrown_type(TSNode e) {
    std::string_view t = type_of(e);
    if (is(t, "call_expression")) return strip_spaces(b_.flat(field(e, "function")));
    if (is(t, "compound_literal_expression") || is(t, "new_expression")) return strip_spaces(b_.flat(field(e, "type")));
    return {};
  }

  void throw_statement(TSNode n, const Ctx& ctx) {
    CppThrow t;
    TSNode e = ts_node_named_child(n, 0);
    while (!ts_node_is_null(e) && is(type_of(e), "comment")) e = ts_node_next_named_sibling(e);
    if (!ts_node_is_null(e)) {
      t.expr = b_.flat(e);
      t.type = thrown_type(e);
    }
    t.handler = ctx.handler;
    t.line = start_line(n);
    t.end_line = end_line(n);
    t.function = b_.fn_name(ctx);
    if (ctx.handler >= 0) {
      CppHandler& h = b_.model.handlers[ctx.handler];
      if (t.expr.empty() || (!h.name.empty() && t.expr == h.name)) h.rethrows = true;
      else h.throws = true;
    }
    b_.model.throws.push_back(std::move(t));
  }

  // After the walk: the parts of each handler that read its body's blanked code.
  void finish_handlers() {
    for (const auto& [i, range] : pending_handlers_) {
      CppHandler& h = b_.model.handlers[i];
      h.body = collapse(b_.code_range(range.first, range.second));
      if (has_word(h.body, "rethrow_exception") || has_word(h.body, "rethrow_if_nested") ||
          has_word(h.body, "throw_with_nested"))
        h.rethrows = true;
      if (has_word(h.body, "current_exception") || has_word(h.body, h.name)) h.uses_cause = true;
    }
  }

  std::string condition_text(TSNode cond) {
    if (is(type_of(cond), "condition_clause")) {
      TSNode v = field(cond, "value");
      if (!ts_node_is_null(v)) return b_.flat(v);
      std::string t = b_.flat(cond);
      if (t.size() >= 2 && t.front() == '(' && t.back() == ')') t = t.substr(1, t.size() - 2);
      return t;
    }
    return b_.flat(cond);
  }

};

}  // namespace

void extract_cpp(TSNode root, Builder& b) { CppWalker(b).walk(root); }

}  // namespace review::lang::detail
