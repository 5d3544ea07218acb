// Python front end: walks a tree-sitter-python 0.23.6 tree once and fills the SourceModel.
#include <cstring>

#include "runner/lang/extract.hpp"

namespace review::lang::detail {

namespace {

bool is(std::string_view t, const char* s) { return t == s; }

/// Node kinds the walker dispatches on, by symbol id (no string compares on the hot path).
enum Kind : uint8_t {
  kOther, kComment, kModule, kBlock, kString, kFunction, kClass, kDecorated, kCall, kAssign,
  kAugAssign, kNamedExpr, kImport, kImportFrom, kIf, kMatch, kFor, kWhile,
  kComprehension, kInterpolation
};

/// Kind of every symbol of the Python grammar, looked up by name once. Every symbol id with a
/// given name gets the same kind (aliases and duplicates included), so a kind test matches
/// exactly what comparing ts_node_type() with the name would.
const std::vector<Kind>& kind_table() {
  static const std::vector<Kind> table = [] {
    static constexpr std::pair<const char*, Kind> kNames[] = {
        {"comment", kComment}, {"module", kModule}, {"block", kBlock}, {"string", kString},
        {"function_definition", kFunction}, {"class_definition", kClass},
        {"decorated_definition", kDecorated}, {"call", kCall}, {"assignment", kAssign},
        {"augmented_assignment", kAugAssign}, {"named_expression", kNamedExpr},
        {"import_statement", kImport}, {"import_from_statement", kImportFrom},
        {"if_statement", kIf}, {"match_statement", kMatch}, {"for_statement", kFor},
        {"while_statement", kWhile},
        {"list_comprehension", kComprehension}, {"set_comprehension", kComprehension},
        {"dictionary_comprehension", kComprehension}, {"generator_expression", kComprehension},
        {"interpolation", kInterpolation}};
    const TSLanguage* lang = ts_language(Language::Python);
    uint32_t n = ts_language_symbol_count(lang);
    std::vector<Kind> t(n, kOther);
    for (uint32_t sym = 0; sym < n; ++sym) {
      const char* name = ts_language_symbol_name(lang, static_cast<TSSymbol>(sym));
      if (!name) continue;
      for (const auto& [k, v] : kNames)
        if (std::strcmp(name, k) == 0) t[sym] = v;
    }
    return t;
  }();
  return table;
}

Kind kind_of(TSNode n) {
  const auto& t = kind_table();
  TSSymbol s = ts_node_symbol(n);
  return s < t.size() ? t[s] : kOther;  // ERROR (65535) and the like
}

TSFieldId body_field() {
  static const TSFieldId id = ts_language_field_id_for_name(ts_language(Language::Python), "body", 4);
  return id;
}

class PyWalker {
 public:
  explicit PyWalker(Builder& b) : b_(b) {}

  void walk(TSNode root) {
    TSTreeCursor c = ts_tree_cursor_new(root);
    visit(&c, Ctx{}, kOther, 0);
    ts_tree_cursor_delete(&c);
  }

 private:
  Builder& b_;
  std::vector<std::string> pending_decorators_;

  void visit_children(TSTreeCursor* c, const Ctx& inner, Kind type, int depth) {
    if (!ts_tree_cursor_goto_first_child(c)) return;
    bool loop = type == kFor || type == kWhile;
    do {
      if (loop) {
        if (ts_tree_cursor_current_field_id(c) == body_field()) {
          Ctx in_body = inner;
          ++in_body.loop;
          visit(c, in_body, type, depth + 1);
          continue;
        }
      }
      visit(c, inner, type, depth + 1);
    } while (ts_tree_cursor_goto_next_sibling(c));
    ts_tree_cursor_goto_parent(c);
  }

  void visit(TSTreeCursor* c, const Ctx& ctx, Kind parent, int depth) {
    TSNode n = ts_tree_cursor_current_node(c);
    if (!ts_node_is_named(n)) {
      reached_tree(n, depth);  // a leaf, or a few leaves (`is not`, `not in`)
      return;
    }
    if (depth > kMaxDepth) {
      b_.reached(depth);  // past kMaxDepth: the measure is not the tree's any more
      b_.model.has_errors = true;
      return;
    }
    Kind type = kind_of(n);
    if (type == kComment) {
      reached_tree(n, depth);
      b_.comment(n);
      return;
    }
    b_.reached(depth);  // its children are visited below (a string's in string())
    if (parent == kModule || parent == kBlock) statement(n, ts_node_type(n), ctx);
    if (type == kString) {
      string(c, n, ctx, depth);
      return;
    }
    Ctx inner = ctx;
    switch (type) {
      case kFunction: inner = function(n, ctx); break;
      case kClass: inner = klass(n, ctx); break;
      case kDecorated: decorators(n); break;
      case kCall: call(n, ctx); break;
      case kAssign:
      case kAugAssign:
      case kNamedExpr: assignment(n, type, ctx); break;
      case kImport:
      case kImportFrom: import(n, type); break;
      case kIf:
      case kMatch: ++inner.cond; break;
      case kComprehension: inner.comprehension = true; break;
      default: break;
    }
    b_.mark(n, inner);
    visit_children(c, inner, type, depth);
  }

  // Counts `n` (at `depth`) and every node below it, which visit() does not reach (a string's
  // parts, an anonymous node's leaves): Builder::deepest stays the tree's.
  void reached_tree(TSNode n, int depth) { b_.reached(depth + depth_below(n)); }

  // A string: contents blanked, delimiters and f-string interpolations kept as code.
  void string(TSTreeCursor* c, TSNode n, const Ctx& ctx, int depth) {
    b_.mark(n, ctx);
    uint32_t count = ts_node_child_count(n);
    uint32_t a = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (count > 0) {
      TSNode first = ts_node_child(n, 0), last = ts_node_child(n, count - 1);
      if (is(type_of(first), "string_start")) a = ts_node_end_byte(first);
      if (is(type_of(last), "string_end")) e = ts_node_start_byte(last);
    }
    if (a < e) b_.blank(a, e);
    if (!ts_tree_cursor_goto_first_child(c)) return;
    do {
      TSNode ch = ts_tree_cursor_current_node(c);
      if (kind_of(ch) == kInterpolation) {
        for (uint32_t i = ts_node_start_byte(ch); i < ts_node_end_byte(ch) && i < b_.code.size(); ++i)
          b_.code[i] = b_.source[i];
        visit(c, ctx, kString, depth + 1);
      } else {
        // string_start, string_content (its escape sequences below it), string_end: not
        // visited, but their depth counts
        reached_tree(ch, depth + 1);
      }
    } while (ts_tree_cursor_goto_next_sibling(c));
    ts_tree_cursor_goto_parent(c);
  }

  void statement(TSNode n, std::string_view type, const Ctx& ctx) {
    TSNode def = is(type, "decorated_definition") ? field(n, "definition") : n;
    TSNode body = field(def, "body");
    if (ts_node_is_null(body)) body = field(def, "consequence");
    if (!ts_node_is_null(body) && !is(type_of(body), "block")) body = TSNode{};
    b_.add_statement(n, type, ctx, body);
  }

  void decorators(TSNode n) {
    pending_decorators_.clear();
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode d = ts_node_named_child(n, i);
      if (!is(type_of(d), "decorator")) continue;
      std::string t = b_.flat(d);
      if (!t.empty() && t[0] == '@') t.erase(0, 1);
      size_t k = t.find_first_not_of(' ');
      pending_decorators_.push_back(k == std::string::npos ? std::string() : t.substr(k));
    }
  }

  static Param param(Builder& b, TSNode p) {
    Param out;
    out.text = b.str(p);
    std::string_view t = type_of(p);
    TSNode name;
    if (is(t, "identifier")) {
      name = p;
    } else if (is(t, "default_parameter") || is(t, "typed_default_parameter")) {
      name = field(p, "name");
      out.default_value = b.str(field(p, "value"));
    } else if (is(t, "typed_parameter")) {
      name = ts_node_named_child(p, 0);
    } else {
      name = p;  // list_splat_pattern, dictionary_splat_pattern
    }
    if (!ts_node_is_null(name) &&
        (is(type_of(name), "list_splat_pattern") || is(type_of(name), "dictionary_splat_pattern")))
      name = ts_node_named_child(name, 0);
    out.name = b.str(name);
    return out;
  }

  Ctx function(TSNode n, const Ctx& ctx) {
    Function f;
    f.name = b_.str(field(n, "name"));
    f.qualified = b_.prefixes[ctx.prefix] + f.name;
    if (ctx.direct_class >= 0) f.cls = b_.model.classes[ctx.direct_class].name;
    TSNode ps = field(n, "parameters");
    each_named(ps, [&](TSNode p) {
      std::string_view t = type_of(p);
      if (is(t, "comment") || is(t, "keyword_separator") || is(t, "positional_separator")) return;
      f.params.push_back(param(b_, p));
    });
    f.decorators = std::move(pending_decorators_);
    pending_decorators_.clear();
    f.start_line = start_line(n);
    f.end_line = end_line(n);
    f.signature = b_.line_text(f.start_line);
    return b_.add_function(std::move(f), ctx, ".");
  }

  Ctx klass(TSNode n, const Ctx& ctx) {
    pending_decorators_.clear();
    Class k;
    k.name = b_.str(field(n, "name"));
    k.qualified = b_.prefixes[ctx.prefix] + k.name;
    TSNode sup = field(n, "superclasses");
    uint32_t count = ts_node_is_null(sup) ? 0 : ts_node_named_child_count(sup);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode s = ts_node_named_child(sup, i);
      if (!is(type_of(s), "comment")) k.bases.push_back(b_.flat(s));
    }
    return b_.add_class(std::move(k), n, ctx, ".");
  }

  void call(TSNode n, const Ctx& ctx) {
    Call c;
    TSNode callee = field(n, "function");
    c.callee = b_.kept(callee, b_.flat(callee));
    TSNode args = field(n, "arguments");
    if (!ts_node_is_null(args)) {
      if (is(type_of(args), "argument_list")) {
        each_named(args, [&](TSNode a) {  // one cursor: a call can pass thousands of arguments
          std::string_view t = type_of(a);
          if (is(t, "comment")) return;
          if (is(t, "keyword_argument"))
            c.kwargs.emplace_back(b_.text(field(a, "name")), b_.text(field(a, "value")));
          else
            c.args.push_back(b_.text(a));
        });
      } else {
        c.args.push_back(b_.text(args));
      }
    }
    TSPoint p = ts_node_start_point(n);
    c.line = static_cast<int>(p.row) + 1;
    c.column = static_cast<int>(p.column) + 1;
    c.end_line = end_line(n);
    c.function = b_.fn_name(ctx);
    c.in_loop = ctx.loop > 0 || ctx.comprehension;
    c.text = b_.text(n);
    if (ctx.function >= 0) b_.model.functions[ctx.function].calls.push_back(c.callee);
    b_.model.calls.push_back(std::move(c));
  }

  void targets(TSNode t, std::vector<std::string>& out) {
    if (ts_node_is_null(t)) return;
    std::string_view type = type_of(t);
    if (is(type, "pattern_list") || is(type, "tuple_pattern") || is(type, "list_pattern") ||
        is(type, "expression_list") || is(type, "tuple") || is(type, "list") ||
        is(type, "parenthesized_expression")) {
      uint32_t count = ts_node_named_child_count(t);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode ch = ts_node_named_child(t, i);
        if (!is(type_of(ch), "comment")) targets(ch, out);
      }
      return;
    }
    if (is(type, "list_splat_pattern") || is(type, "list_splat")) {
      targets(ts_node_named_child(t, 0), out);
      return;
    }
    out.push_back(b_.flat(t));
  }

  void assignment(TSNode n, Kind type, const Ctx& ctx) {
    std::vector<std::string> names;
    TSNode value;
    std::string_view op;  // a literal, or the operator's text in the source
    if (type == kNamedExpr) {
      names.push_back(b_.str(field(n, "name")));
      value = field(n, "value");
      op = ":=";
    } else {
      targets(field(n, "left"), names);
      value = field(n, "right");
      while (!ts_node_is_null(value) && is(type_of(value), "assignment")) value = field(value, "right");
      if (type == kAugAssign)
        op = b_.text(field(n, "operator"));
      else
        op = ts_node_is_null(value) ? ":" : "=";
    }
    std::string_view v = b_.text(value);
    std::string_view text = b_.text(n);
    for (auto& t : names) {
      Assignment a;
      a.target = std::move(t);
      a.value = v;
      a.op = op;
      a.line = start_line(n);
      a.function = b_.fn_name(ctx);
      a.cls = b_.cls_name(ctx);
      a.text = text;
      b_.model.assignments.push_back(std::move(a));
    }
  }

  void import(TSNode n, Kind type) {
    int line = start_line(n);
    uint32_t count = ts_node_named_child_count(n);
    if (type == kImport) {
      for (uint32_t i = 0; i < count; ++i) {
        TSNode ch = ts_node_named_child(n, i);
        std::string_view t = type_of(ch);
        if (is(t, "dotted_name")) {
          b_.model.imports.push_back(Import{b_.str(ch), {}, line});
        } else if (is(t, "aliased_import")) {
          b_.model.imports.push_back(Import{b_.str(field(ch, "name")), {b_.flat(ch)}, line});
        }
      }
      return;
    }
    Import imp;
    imp.line = line;
    TSNode mod = field(n, "module_name");
    imp.module = b_.str(mod);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode ch = ts_node_named_child(n, i);
      if (ts_node_eq(ch, mod)) continue;
      std::string_view t = type_of(ch);
      if (is(t, "dotted_name") || is(t, "aliased_import")) imp.names.push_back(b_.flat(ch));
      else if (is(t, "wildcard_import")) imp.names.push_back("*");
    }
    b_.model.imports.push_back(std::move(imp));
  }

};

}  // namespace

void extract_python(TSNode root, Builder& b) { PyWalker(b).walk(root); }

}  // namespace review::lang::detail
