#include "runner/lang/python/noreturn.hpp"

#include <utility>
#include <vector>

#include "runner/lang/tree.hpp"

namespace review::analysis {

using lang::each_named;
using lang::field;
using lang::is;
using lang::node_text;

bool is_noreturn_annotation(std::string_view t) {
  return t == "NoReturn" || t == "Never" || t == "typing.NoReturn" || t == "typing.Never" ||
         t == "typing_extensions.NoReturn" || t == "typing_extensions.Never" || t == "\"NoReturn\"" ||
         t == "'NoReturn'";
}

namespace {

// True when the body is (after an optional docstring) only `raise NotImplementedError…`.
bool only_not_implemented(TSNode body, std::string_view src) {
  uint32_t k = ts_node_named_child_count(body);
  uint32_t i = 0;
  while (i < k && is(ts_node_named_child(body, i), "comment")) ++i;
  if (i < k && is(ts_node_named_child(body, i), "expression_statement") &&
      is(ts_node_named_child(ts_node_named_child(body, i), 0), "string"))
    ++i;
  while (i < k && is(ts_node_named_child(body, i), "comment")) ++i;
  if (i + 1 != k) return false;
  TSNode r = ts_node_named_child(body, i);
  return is(r, "raise_statement") && node_text(r, src).find("NotImplementedError") != std::string_view::npos;
}

// A `yield` inside `n`, outside nested functions, classes and lambdas. A text without the word
// has none: most bodies are decided without a walk.
bool contains_yield(TSNode n, std::string_view src) {
  if (node_text(n, src).find("yield") == std::string_view::npos) return false;
  if (is(n, "yield")) return true;
  if (is(n, "function_definition") || is(n, "class_definition") || is(n, "lambda")) return false;
  bool found = false;
  each_named(n, [&](TSNode k) { found = found || contains_yield(k, src); });
  return found;
}

// Every function definition under `n`, in source order, with whether it is a method (directly in
// a class body). A statement whose text lacks "def" holds none and is not walked.
void collect_functions(TSNode n, std::string_view src, std::vector<std::pair<TSNode, bool>>& out, bool in_class) {
  each_named(n, [&](TSNode c) {
    if (is(c, "decorated_definition")) c = field(c, "definition");
    if (is(c, "function_definition")) {
      out.emplace_back(c, in_class);
      collect_functions(field(c, "body"), src, out, false);
    } else if (is(c, "class_definition")) {
      collect_functions(field(c, "body"), src, out, true);
    } else if (!ts_node_is_null(c) && !is(c, "expression_statement") && !is(c, "comment") &&
               node_text(c, src).find("def") != std::string_view::npos) {
      collect_functions(c, src, out, in_class);
    }
  });
}

}  // namespace

NoReturnNames find_noreturn(TSNode root, std::string_view source, const EndsAbnormally& ends_abnormally) {
  NoReturnNames nr;
  if (ts_node_is_null(root)) return nr;
  std::vector<std::pair<TSNode, bool>> funcs;
  collect_functions(root, source, funcs, false);
  std::vector<std::pair<TSNode, bool>> candidates;
  for (auto& [f, in_class] : funcs) {
    TSNode rt = field(f, "return_type");
    std::string name(node_text(field(f, "name"), source));
    if (!ts_node_is_null(rt)) {
      if (is_noreturn_annotation(node_text(rt, source))) (in_class ? nr.methods : nr.functions).insert(name);
      continue;
    }
    TSNode body = field(f, "body");
    if (ts_node_is_null(body)) continue;
    // Only a body whose last statement can end every path abnormally is worth analysing.
    TSNode last{};
    each_named(body, [&](TSNode k) {
      if (!is(k, "comment")) last = k;
    });
    if (ts_node_is_null(last) || is(last, "return_statement") || is(last, "pass_statement") ||
        is(last, "function_definition") || is(last, "class_definition") || is(last, "decorated_definition") ||
        (is(last, "expression_statement") && !is(ts_node_named_child(last, 0), "call")))
      continue;
    if (only_not_implemented(body, source) || contains_yield(body, source)) continue;
    if (ts_node_start_byte(f) > 0 && node_text(f, source).substr(0, 5) == "async") continue;
    candidates.emplace_back(f, in_class);
  }
  // A candidate's answer depends on the names found so far only through the calls in its own
  // text: one decided false is asked again only when a name found since (`added` past its
  // `seen`) occurs in its text. The same answers as asking every candidate every round.
  std::vector<std::string> added;
  std::vector<size_t> seen(candidates.size(), 0);
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    for (size_t k = 0; k < candidates.size(); ++k) {
      auto& [f, in_class] = candidates[k];
      std::string name(node_text(field(f, "name"), source));
      auto& set = in_class ? nr.methods : nr.functions;
      if (set.count(name)) continue;
      if (round > 0) {
        std::string_view text = node_text(f, source);
        bool mentions = false;
        for (size_t i = seen[k]; i < added.size() && !mentions; ++i) mentions = text.find(added[i]) != std::string_view::npos;
        if (!mentions) continue;
      }
      seen[k] = added.size();
      if (ends_abnormally(f, nr)) {
        set.insert(name);
        added.push_back(name);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return nr;
}

}  // namespace review::analysis
