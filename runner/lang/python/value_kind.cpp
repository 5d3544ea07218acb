#include "runner/lang/python/value_kind.hpp"

#include <algorithm>
#include <cctype>
#include <unordered_set>

namespace review::lang {
namespace {

constexpr int kMaxDepth = 12;  // name-to-value hops and nested receivers followed

bool word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string_view trim(std::string_view t) {
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  return t;
}

// Depth of brackets before each byte (strings skipped: their bytes get depth -1).
std::vector<int> depths(std::string_view t) {
  std::vector<int> d(t.size(), 0);
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (quote) {
      d[i] = -1;
      if (c == '\\' && i + 1 < t.size()) d[++i] = -1;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      d[i] = -1;
      continue;
    }
    if (c == ')' || c == ']' || c == '}') depth = std::max(0, depth - 1);
    d[i] = depth;
    if (c == '(' || c == '[' || c == '{') ++depth;
  }
  return d;
}

// The index of the bracket opening the one that closes at `close` (t[close] is ')' or ']').
size_t opening(std::string_view t, const std::vector<int>& d, size_t close) {
  for (size_t i = close; i-- > 0;)
    if (d[i] == d[close] && (t[i] == '(' || t[i] == '[')) return i;
  return std::string_view::npos;
}

std::string_view strip_parens(std::string_view t) {
  for (;;) {
    t = trim(t);
    if (t.size() < 2 || t.front() != '(' || t.back() != ')') return t;
    auto d = depths(t);
    if (opening(t, d, t.size() - 1) != 0) return t;
    // A one-element tuple `(x,)` is not a parenthesised expression.
    std::string_view in = t.substr(1, t.size() - 2);
    auto di = depths(in);
    for (size_t i = 0; i < in.size(); ++i)
      if (in[i] == ',' && di[i] == 0) return t;
    t = in;
  }
}

// The first depth-0 argument of an argument list text.
std::string_view first_arg(std::string_view args) {
  auto d = depths(args);
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i] == ',' && d[i] == 0) return trim(args.substr(0, i));
  return trim(args);
}

bool keyword_at(std::string_view t, size_t i, std::string_view w) {
  return t.substr(i, w.size()) == w && (i == 0 || !word(t[i - 1])) &&
         (i + w.size() >= t.size() || !word(t[i + w.size()]));
}

const std::unordered_set<std::string_view>& view_methods() {
  static const std::unordered_set<std::string_view> s = {
      "view", "view_as", "reshape", "reshape_as", "t", "transpose", "permute", "expand", "expand_as", "narrow",
      "unsqueeze", "squeeze", "flatten", "unflatten", "detach", "as_strided", "unfold", "chunk", "split",
      "tensor_split", "select", "diagonal", "movedim", "moveaxis", "swapaxes", "swapdims", "unbind", "adjoint"};
  return s;
}
// Steps that leave a non-contiguous view (so a later `.contiguous()` copies).
const std::unordered_set<std::string_view>& strided_steps() {
  static const std::unordered_set<std::string_view> s = {
      "t", "transpose", "permute", "expand", "expand_as", "narrow", "movedim", "moveaxis", "swapaxes", "swapdims",
      "diagonal", "as_strided", "unfold", "T", "mT", "H", "mH", "adjoint"};
  return s;
}
const std::unordered_set<std::string_view>& copy_methods() {
  static const std::unordered_set<std::string_view> s = {
      "clone", "copy", "float", "half", "bfloat16", "double", "int", "long", "short", "bool", "byte", "char",
      "cpu", "cuda", "numpy", "tolist", "sum", "mean", "abs", "sqrt", "exp", "softmax", "matmul", "mm", "bmm"};
  return s;
}
const std::unordered_set<std::string_view>& view_attributes() {
  static const std::unordered_set<std::string_view> s = {"data", "T", "mT", "H", "mH", "real", "imag"};
  return s;
}
// torch.<name>(…) that allocate new storage.
const std::unordered_set<std::string_view>& factories() {
  static const std::unordered_set<std::string_view> s = {
      "empty", "zeros", "ones", "full", "rand", "randn", "randint", "randperm", "arange", "linspace", "logspace",
      "tensor", "as_tensor_copy", "empty_like", "zeros_like", "ones_like", "full_like", "rand_like", "randn_like",
      "randint_like", "empty_strided", "cat", "concat", "concatenate", "stack", "hstack", "vstack", "clone",
      "matmul", "mm", "bmm", "einsum", "where", "eye", "repeat_interleave"};
  return s;
}
// torch.<name>(x, …) that return a view of x.
const std::unordered_set<std::string_view>& view_functions() {
  static const std::unordered_set<std::string_view> s = {
      "transpose", "permute", "narrow", "reshape", "flatten", "squeeze", "unsqueeze", "view_as_real",
      "view_as_complex", "as_strided", "chunk", "split", "tensor_split", "t", "select", "detach", "movedim",
      "moveaxis", "swapaxes", "swapdims", "unbind", "diagonal", "unflatten"};
  return s;
}

struct Classifier {
  const SourceModel& m;
  const FunctionIndex* repo;
  bool follow_calls;

  // The value last assigned to local `name` above `line` in `function`.
  const Assignment* local(std::string_view function, std::string_view name, int line) const {
    const Assignment* best = nullptr;
    for (const auto& a : m.assignments)
      if (a.function == function && a.target == name && a.line < line && (a.op == "=" || a.op == ":=") &&
          !a.value.empty() && (!best || a.line >= best->line))
        best = &a;
    return best;
  }

  ValueKind of_receiver(std::string_view fn, int line, std::string_view recv, int depth, const std::string& step) {
    ValueKind r = classify(fn, line, recv, depth + 1);
    if (r.kind == "copy") return {"copy", step + " of a new tensor (" + r.why + ")"};
    if (r.kind == "view") return {"view", step};
    return {"unknown", step + " of a value of unknown kind"};
  }

  // Whether the value `recv` is a strided (non-contiguous) view: its last step, or the value a
  // local name holds.
  bool strided(std::string_view fn, int line, std::string_view recv, int depth) {
    recv = strip_parens(recv);
    if (depth > kMaxDepth || recv.empty()) return false;
    auto d = depths(recv);
    if (recv.back() == ')') {
      size_t open = opening(recv, d, recv.size() - 1);
      if (open == std::string_view::npos) return false;
      std::string_view callee = recv.substr(0, open);
      size_t dot = callee.rfind('.');
      std::string_view name = dot == std::string_view::npos ? callee : callee.substr(dot + 1);
      return strided_steps().count(trim(name)) > 0;
    }
    if (recv.back() == ']') {
      size_t open = opening(recv, d, recv.size() - 1);
      if (open == std::string_view::npos) return false;
      std::string_view idx = recv.substr(open + 1, recv.size() - open - 2);
      // Slicing past the first dimension (`w[:, :k]`) or with a step leaves gaps.
      auto di = depths(idx);
      for (size_t i = 0; i < idx.size(); ++i)
        if (di[i] == 0 && idx[i] == ',') return true;
      return std::count(idx.begin(), idx.end(), ':') >= 2;
    }
    size_t dot = recv.rfind('.');
    if (dot != std::string_view::npos && strided_steps().count(recv.substr(dot + 1))) return true;
    bool ident = std::all_of(recv.begin(), recv.end(), word);
    if (ident)
      if (const Assignment* a = local(fn, recv, line)) return strided(fn, a->line, a->value, depth + 1);
    return false;
  }

  ValueKind call_of_repository(std::string_view callee, int depth) {
    if (!follow_calls) return {"unknown", "`" + std::string(callee) + "(…)`: calls are followed one level deep"};
    size_t dot = callee.rfind('.');
    std::string name(trim(dot == std::string_view::npos ? callee : callee.substr(dot + 1)));
    FunctionIndex own;
    const FunctionIndex* index = repo;
    if (!index) {
      own.add(m);
      index = &own;
    }
    const auto* found = index->find(name);
    if (!found || found->empty()) return {"unknown", "`" + std::string(callee) + "(…)` is not a function of the repository"};
    std::string kind;
    std::string why;
    for (const auto& [model, qualified] : *found) {
      Classifier inner{*model, nullptr, false};
      bool any = false;
      for (const auto& s : model->statements) {
        if (s.kind != "return_statement" || s.function != qualified) continue;
        std::string_view e = trim(std::string_view(s.text).substr(std::min<size_t>(6, s.text.size())));
        if (e.empty()) continue;
        any = true;
        ValueKind r = inner.classify(qualified, s.line, e, depth + 1);
        if (kind.empty()) {
          kind = r.kind;
          why = "`" + name + "` returns `" + std::string(e.substr(0, 60)) + "`: " + r.why;
        } else if (kind != r.kind) {
          kind = "unknown";
        }
      }
      if (!any) return {"unknown", "`" + name + "` returns nothing we can read"};
    }
    if (kind == "unknown" || kind.empty()) return {"unknown", "`" + name + "` returns copies on some paths and views on others"};
    return {kind, why};
  }

  ValueKind classify(std::string_view fn, int line, std::string_view text, int depth) {
    std::string_view t = strip_parens(text);
    if (t.empty() || depth > kMaxDepth) return {"unknown", "nothing to read"};
    auto d = depths(t);
    // `a if c else b`: both arms must agree.
    for (size_t i = 0; i < t.size(); ++i) {
      if (d[i] != 0 || !keyword_at(t, i, "if")) continue;
      for (size_t j = i + 2; j < t.size(); ++j) {
        if (d[j] != 0 || !keyword_at(t, j, "else")) continue;
        ValueKind a = classify(fn, line, t.substr(0, i), depth + 1);
        ValueKind b = classify(fn, line, t.substr(j + 4), depth + 1);
        if (a.kind == b.kind) return a;
        return {"unknown", "the two arms of the conditional expression differ"};
      }
      break;
    }
    // Arithmetic at depth 0 makes a new tensor.
    for (size_t i = 1; i < t.size(); ++i) {
      if (d[i] != 0) continue;
      char c = t[i];
      if (c == '+' || c == '-' || c == '*' || c == '/' || c == '@' || c == '%') {
        // not an exponent sign (1e-3) nor a unary sign after an operator
        size_t k = i;
        while (k > 0 && t[k - 1] == ' ') --k;
        if (k == 0) continue;
        char p = t[k - 1];
        if ((c == '-' || c == '+') && (p == 'e' || p == 'E') && k >= 2 && std::isdigit(static_cast<unsigned char>(t[k - 2])))
          continue;
        if (std::string_view("+-*/@%(,=<>").find(p) != std::string_view::npos) continue;
        return {"copy", "arithmetic makes a new tensor"};
      }
    }
    if (t.back() == ')') {
      size_t open = opening(t, d, t.size() - 1);
      if (open == std::string_view::npos || open == 0) return {"unknown", "not an expression we read"};
      std::string_view callee = trim(t.substr(0, open));
      std::string_view args = t.substr(open + 1, t.size() - open - 2);
      size_t dot = std::string_view::npos;
      {
        auto dc = depths(callee);
        for (size_t i = callee.size(); i-- > 0;)
          if (callee[i] == '.' && dc[i] == 0) {
            dot = i;
            break;
          }
      }
      std::string_view name = dot == std::string_view::npos ? callee : callee.substr(dot + 1);
      std::string_view owner = dot == std::string_view::npos ? std::string_view() : callee.substr(0, dot);
      bool torch_fn = owner == "torch" || owner == "th";
      if (torch_fn && factories().count(name)) return {"copy", "`torch." + std::string(name) + "(…)` allocates"};
      if ((owner == "copy" && name == "deepcopy") || (owner.empty() && name == "deepcopy"))
        return {"copy", "`deepcopy(…)`"};
      if (torch_fn && view_functions().count(name))
        return of_receiver(fn, line, first_arg(args), depth, "`torch." + std::string(name) + "(…)`");
      if (name == "Parameter" || name == "Buffer")
        return of_receiver(fn, line, first_arg(args), depth, "`" + std::string(name) + "` wraps the same storage");
      if (!owner.empty() && !torch_fn) {
        // A method call on a value (`w.view(…)`), or a function of a module (`ops.shuffle(…)`).
        if (view_methods().count(name)) return of_receiver(fn, line, owner, depth, "`." + std::string(name) + "()`");
        if (name == "contiguous") {
          if (strided(fn, line, owner, depth + 1)) return {"copy", "`.contiguous()` of a strided view copies"};
          ValueKind r = classify(fn, line, owner, depth + 1);
          if (r.kind == "copy") return {"copy", "`.contiguous()` of a new tensor (" + r.why + ")"};
          return {"unknown", "`.contiguous()` returns its input when it is already contiguous"};
        }
        if (copy_methods().count(name)) return {"copy", "`." + std::string(name) + "()`"};
        if (name == "to") {
          if (args.find("dtype") != std::string_view::npos || args.find("torch.") != std::string_view::npos)
            return {"copy", "`.to(…)` converting the dtype"};
          return {"unknown", "`.to(…)` returns its input when nothing changes"};
        }
        if (name.size() > 1 && name.back() == '_' && name.front() != '_')
          return of_receiver(fn, line, owner, depth, "`." + std::string(name) + "()` returns its receiver");
      }
      if (torch_fn) return {"unknown", "`torch." + std::string(name) + "(…)`"};
      return call_of_repository(callee, depth);
    }
    if (t.back() == ']') {
      size_t open = opening(t, d, t.size() - 1);
      if (open == std::string_view::npos) return {"unknown", "not an expression we read"};
      if (open == 0) return {"copy", "a new list"};
      std::string_view idx = trim(t.substr(open + 1, t.size() - open - 2));
      bool basic = idx.find(':') != std::string_view::npos || idx == "..." || idx == "None" ||
                   (!idx.empty() && std::all_of(idx.begin(), idx.end(), [](char c) {
                     return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == ' ' || c == ',';
                   }));
      if (!basic) return {"unknown", "indexing with a value (a tensor index copies, an integer does not)"};
      return of_receiver(fn, line, t.substr(0, open), depth, "indexing `[" + std::string(idx.substr(0, 30)) + "]`");
    }
    if (std::isdigit(static_cast<unsigned char>(t.front())) || t.front() == '"' || t.front() == '\'' ||
        t.front() == '{' || t == "None" || t == "True" || t == "False")
      return {"unknown", "not a tensor"};
    // A name or an attribute chain.
    bool chain = std::all_of(t.begin(), t.end(), [](char c) { return word(c) || c == '.'; });
    if (!chain) return {"unknown", "not an expression we read"};
    size_t dot = t.rfind('.');
    if (dot != std::string_view::npos && view_attributes().count(t.substr(dot + 1)))
      return of_receiver(fn, line, t.substr(0, dot), depth, "`." + std::string(t.substr(dot + 1)) + "`");
    if (dot == std::string_view::npos)
      if (const Assignment* a = local(fn, t, line)) return classify(fn, a->line, a->value, depth + 1);
    return {"view", "`" + std::string(t) + "` is an existing value (same storage)"};
  }
};

}  // namespace

void FunctionIndex::add(const SourceModel& m) {
  if (m.language != Language::Python) return;
  for (const auto& f : m.functions) by_name_[f.name].emplace_back(&m, f.qualified);
}

const std::vector<std::pair<const SourceModel*, std::string>>* FunctionIndex::find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : &it->second;
}

ValueKind value_kind(const SourceModel& m, std::string_view function, int line, std::string_view expr,
                     const FunctionIndex* repo) {
  Classifier c{m, repo, true};
  return c.classify(function, line, expr, 0);
}

}  // namespace review::lang
