#include "runner/lang/model.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <mutex>
#include <stdexcept>

#include "runner/lang/cmake/cmake.hpp"
#include "runner/lang/cpp/branches.hpp"
#include "runner/lang/extract.hpp"
#include "runner/lang/markdown/markdown.hpp"
#include "runner/lang/python/branches.hpp"
#include "runner/lang/python/unbound.hpp"
#include "runner/lang/tree.hpp"

namespace review::lang {

std::string_view language_name(Language lang) {
  switch (lang) {
    case Language::Python: return "python";
    case Language::Cpp: return "cpp";
    case Language::CMake: return "cmake";
    case Language::Markdown: return "markdown";
    case Language::Text: return "text";
  }
  return "text";
}

namespace {
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
}  // namespace

std::string_view binary_format(std::string_view path) {
  static constexpr std::string_view kBinary[] = {
      "png", "jpg", "jpeg", "gif", "bmp", "ico", "webp", "tif", "tiff",                             // images
      "zip", "gz", "tgz", "bz2", "xz", "zst", "7z", "tar", "rar", "whl", "jar",                      // archives
      "o", "a", "so", "dylib", "dll", "exe", "lib", "obj", "pyc", "class",                           // compiled
      "co", "hsaco", "cubin", "fatbin",                                                              // GPU code objects
      "npy", "npz", "pt", "pth", "ckpt", "safetensors", "onnx", "h5", "pkl", "parquet",              // tensors, models
      "ttf", "otf", "woff", "woff2", "mp3", "mp4", "wav", "pdf"};                                    // fonts, media
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  size_t dot = base.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == base.size() || base.size() - dot - 1 > 11) return {};
  char lower[12] = {};
  std::string_view ext = base.substr(dot + 1);
  for (size_t i = 0; i < ext.size(); ++i) lower[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(ext[i])));
  std::string_view want(lower, ext.size());
  for (std::string_view b : kBinary)
    if (b == want) return b;
  return {};
}

Language language_of(std::string_view path) {
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (base == "CMakeLists.txt" || ends_with(base, ".cmake")) return Language::CMake;
  if (ends_with(base, ".py")) return Language::Python;
  if (ends_with(base, ".md") || ends_with(base, ".MD")) return Language::Markdown;
  static constexpr std::string_view kCpp[] = {".c", ".cc", ".cpp", ".cxx", ".h", ".hh",
                                              ".hpp", ".cu", ".cuh", ".hip"};
  for (std::string_view s : kCpp)
    if (ends_with(base, s) && base.size() > s.size()) return Language::Cpp;
  return Language::Text;
}

std::vector<std::string_view> split_line_views(std::string_view text) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    size_t stop = end;
    if (stop > pos && text[stop - 1] == '\r') --stop;
    out.push_back(text.substr(pos, stop - pos));
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return out;
}

LineViews::LineViews(std::string_view text) : text_(text.data()) {
  if (text.size() >= UINT32_MAX) throw std::length_error("a text of 4 GiB or more has no line views");
  size_t n = text.empty() ? 0 : static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + (text.back() != '\n');
  starts_.reserve(n);
  size_t pos = 0;
  while (pos < text.size()) {
    starts_.push_back(static_cast<uint32_t>(pos));
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  last_end_ = static_cast<uint32_t>(!text.empty() && text.back() == '\n' ? text.size() - 1 : text.size());
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string_view> views = split_line_views(text);
  return std::vector<std::string>(views.begin(), views.end());
}

namespace {

/// Frees the spare capacity of every list of a finished model: the lists grow by doubling while
/// the extraction appends, and a model is kept for the whole run (on ROCm/aiter's Python, calls,
/// assignments and statements held about 1.4 times the bytes their entries take).
void shrink(SourceModel& m) {
  auto fit = [](auto& v) { v.shrink_to_fit(); };
  fit(m.lines);
  fit(m.functions);
  fit(m.classes);
  fit(m.calls);
  fit(m.assignments);
  fit(m.statements);
  fit(m.imports);
  fit(m.cmake_commands);
  fit(m.sections);
  fit(m.handlers);
  fit(m.throws);
  fit(m.includes);
  fit(m.ifdefs);
  for (auto& f : m.functions) {
    fit(f.params);
    fit(f.decorators);
    fit(f.calls);
  }
  for (auto& c : m.classes) fit(c.bases);
  for (auto& c : m.calls) {
    fit(c.args);
    fit(c.kwargs);
  }
  for (auto& i : m.imports) fit(i.names);
  for (auto& c : m.cmake_commands) fit(c.args);
}

}  // namespace

void set_text(SourceModel& m, std::string_view text) {
  m.store = std::make_shared<LineStore>();
  m.store->text.assign(text);
  m.text_lines = LineViews(m.store->text);
  m.lines.clear();
}

void set_code(SourceModel& m, std::string code, const std::vector<std::string>& comments) {
  LineStore& st = *m.store;
  // `code` keeps the text's line starts: a line's code is cut at its text's offset. Only the
  // lines whose code differs from their text are kept.
  st.code.clear();
  st.code_at.clear();
  if (!code.empty()) {
    const size_t n = m.text_lines.size();
    std::vector<uint32_t> at(n, LineStore::kSameAsText);
    size_t bytes = 0, differ = 0;
    for (int pass = 0; pass < 2; ++pass) {  // count, then copy (one allocation)
      if (pass == 1) {
        if (differ == 0) break;
        st.code.reserve(bytes);
      }
      for (size_t i = 0; i < n; ++i) {
        std::string_view t = m.text_lines[i];
        size_t from = static_cast<size_t>(t.data() - st.text.data());
        if (from + t.size() > code.size()) continue;
        std::string_view c = std::string_view(code).substr(from, t.size());
        if (c == t) continue;
        if (pass == 0) {
          bytes += c.size();
          ++differ;
        } else {
          at[i] = static_cast<uint32_t>(st.code.size());
          st.code.append(c);
        }
      }
    }
    if (differ > 0) st.code_at = std::move(at);
  }
  size_t total = 0;
  for (const auto& c : comments) total += c.size();
  st.comments.clear();
  st.comments.reserve(total);
  for (const auto& c : comments) st.comments += c;
  const size_t n = m.text_lines.size();
  m.lines.assign(n, LineInfo{});
  st.comment_lines.clear();
  st.comment_starts.clear();
  size_t commented = 0;
  for (size_t i = 0; i < n && i < comments.size(); ++i) commented += !comments[i].empty();
  st.comment_lines.reserve(commented);
  st.comment_starts.reserve(commented + 1);
  size_t at = 0;
  for (size_t i = 0; i < n && i < comments.size(); ++i) {
    if (comments[i].empty()) continue;
    st.comment_lines.push_back(static_cast<uint32_t>(i));
    st.comment_starts.push_back(static_cast<uint32_t>(at));
    at += comments[i].size();
  }
  if (commented > 0) st.comment_starts.push_back(static_cast<uint32_t>(at));
}

std::string_view SourceModel::code(size_t i) const {
  if (i >= text_lines.size()) return {};
  std::string_view t = text_lines[i];
  if (i >= lines.size() || !store || i >= store->code_at.size()) return t;
  const uint32_t at = store->code_at[i];
  if (at == LineStore::kSameAsText || at + t.size() > store->code.size()) return t;
  return std::string_view(store->code).substr(at, t.size());
}

std::string_view SourceModel::comment(size_t i) const {
  if (i >= lines.size() || !store) return {};
  const auto& at = store->comment_lines;
  auto it = std::lower_bound(at.begin(), at.end(), static_cast<uint32_t>(i));
  if (it == at.end() || *it != i) return {};
  const size_t k = static_cast<size_t>(it - at.begin());
  const auto& starts = store->comment_starts;
  if (k + 1 >= starts.size() || starts[k + 1] > store->comments.size() || starts[k] > starts[k + 1]) return {};
  return std::string_view(store->comments).substr(starts[k], starts[k + 1] - starts[k]);
}

const std::string& SourceModel::function_at(int line) const {
  static const std::string kEmpty;
  if (line < 1 || line > static_cast<int>(lines.size())) return kEmpty;
  int f = lines[line - 1].function;
  return f >= 0 && f < static_cast<int>(functions.size()) ? functions[f].qualified : kEmpty;
}

const std::string& SourceModel::class_at(int line) const {
  static const std::string kEmpty;
  if (line < 1 || line > static_cast<int>(lines.size())) return kEmpty;
  int c = lines[line - 1].cls;
  return c >= 0 && c < static_cast<int>(classes.size()) ? classes[c].name : kEmpty;
}

namespace detail {

Builder::Builder(SourceModel& m, std::string_view src)
    : model(m), source(src), code(src), prefixes{""} {
  size_t n = m.text_lines.size();
  fn_.assign(n, -1);
  cls_.assign(n, -1);
  loop_.assign(n, 0);
  cond_.assign(n, 0);
  comments_.resize(n);
}

std::string Builder::flat(TSNode n) const {
  std::string_view t = text(n);
  std::string out;
  out.reserve(t.size());
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

std::string_view Builder::kept(TSNode n, std::string s) {
  std::string_view t = text(n);
  if (s == t) return t;
  return pool().emplace_back(std::move(s));
}

std::deque<std::string>& Builder::pool() {
  if (!model.function_names) model.function_names = std::make_shared<std::deque<std::string>>();
  return *model.function_names;
}

void Builder::blank(uint32_t a, uint32_t b) {
  b = std::min<uint32_t>(b, static_cast<uint32_t>(code.size()));
  for (uint32_t i = a; i < b; ++i)
    if (code[i] != '\n' && code[i] != '\r') code[i] = ' ';
}

void Builder::comment(TSNode n) {
  blank(ts_node_start_byte(n), ts_node_end_byte(n));
  std::string_view t = text(n);
  int row = static_cast<int>(ts_node_start_point(n).row);
  size_t pos = 0;
  while (pos <= t.size()) {
    size_t nl = t.find('\n', pos);
    std::string_view part = t.substr(pos, nl == std::string_view::npos ? t.npos : nl - pos);
    if (!part.empty() && part.back() == '\r') part.remove_suffix(1);
    if (pos > 0) {  // continuation line of a block comment: drop the indentation
      size_t k = part.find_first_not_of(" \t");
      part.remove_prefix(k == std::string_view::npos ? part.size() : k);
    }
    if (row >= 0 && row < static_cast<int>(comments_.size()) && !part.empty()) {
      std::string& c = comments_[row];
      if (!c.empty()) c += ' ';
      c.append(part);
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
    ++row;
  }
}

void Builder::mark(TSNode n, const Ctx& ctx, bool skip_first) {
  int a = start_line(n) - 1 + (skip_first ? 1 : 0), b = end_line(n) - 1;
  int size = static_cast<int>(fn_.size());
  a = std::max(a, 0);
  b = std::min(b, size - 1);
  for (int r = a; r <= b; ++r) {
    fn_[r] = ctx.function;
    cls_[r] = ctx.cls;
    loop_[r] = ctx.loop > 0;
    cond_[r] = ctx.cond > 0;
  }
}

std::string_view Builder::pooled(std::vector<std::string_view>& seen, int i, const std::string& name) {
  const auto k = static_cast<size_t>(i);
  if (k >= seen.size()) seen.resize(k + 1);
  if (seen[k].data() == nullptr) seen[k] = pool().emplace_back(name);
  return seen[k];
}

std::string_view Builder::fn_name(const Ctx& ctx) {
  if (ctx.function < 0 || ctx.function >= static_cast<int>(model.functions.size())) return {};
  return pooled(fn_names_, ctx.function, model.functions[static_cast<size_t>(ctx.function)].qualified);
}

std::string_view Builder::cls_name(const Ctx& ctx) {
  if (ctx.cls < 0 || ctx.cls >= static_cast<int>(model.classes.size())) return {};
  return pooled(cls_names_, ctx.cls, model.classes[static_cast<size_t>(ctx.cls)].name);
}

int Builder::add_prefix(std::string p) {
  prefixes.push_back(std::move(p));
  return static_cast<int>(prefixes.size()) - 1;
}

std::pair<uint32_t, uint32_t> Builder::add_statement(TSNode n, std::string_view type, const Ctx& ctx, TSNode body) {
  Statement s;
  s.kind = type;  // ts_node_type's name: static for the grammar's lifetime (the process)
  s.line = start_line(n);
  s.end_line = end_line(n);
  s.function = fn_name(ctx);
  uint32_t a = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (!ts_node_is_null(body)) {
    uint32_t h = ts_node_start_byte(body);
    while (h > a && (source[h - 1] == ' ' || source[h - 1] == '\t' || source[h - 1] == '\n' || source[h - 1] == '\r'))
      --h;
    e = h;
  }
  s.text = source.substr(a, e - a);
  size_t nl = a == 0 ? std::string_view::npos : source.rfind('\n', a - 1);
  s.column = static_cast<int>(nl == std::string_view::npos ? a : a - nl - 1);
  s.header_end = s.line;
  for (char ch : s.text) s.header_end += ch == '\n';
  model.statements.push_back(std::move(s));
  return {a, e};
}

Ctx Builder::add_function(Function f, const Ctx& ctx, std::string_view sep) {
  Ctx inner = ctx;
  inner.function = static_cast<int>(model.functions.size());
  inner.direct_class = -1;
  inner.loop = 0;
  inner.cond = 0;
  inner.comprehension = false;
  inner.prefix = add_prefix(f.qualified + std::string(sep));
  model.functions.push_back(std::move(f));
  return inner;
}

Ctx Builder::add_class(Class k, TSNode n, const Ctx& ctx, std::string_view sep) {
  k.start_line = start_line(n);
  k.end_line = end_line(n);
  Ctx inner = ctx;
  inner.cls = static_cast<int>(model.classes.size());
  inner.direct_class = inner.cls;
  inner.prefix = add_prefix(k.qualified + std::string(sep));
  model.classes.push_back(std::move(k));
  return inner;
}


std::string Builder::line_text(int line) const {
  if (line < 1 || line > static_cast<int>(model.text_lines.size())) return {};
  std::string_view s = model.text_lines[line - 1];
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string_view::npos) return {};
  size_t b = s.find_last_not_of(" \t");
  return std::string(s.substr(a, b - a + 1));
}

std::string Builder::code_range(uint32_t a, uint32_t b) const {
  b = std::min<uint32_t>(b, static_cast<uint32_t>(code.size()));
  if (a >= b) return {};
  return code.substr(a, b - a);
}

void Builder::finish() {
  set_code(model, std::move(code), comments_);
  code.clear();
  std::vector<std::string>().swap(comments_);
  for (size_t i = 0; i < model.lines.size(); ++i) {
    LineInfo& li = model.lines[i];
    li.function = fn_[i];
    li.cls = cls_[i];
    li.in_loop = loop_[i];
    li.in_condition = cond_[i];
  }
}

}  // namespace detail

struct SourceModel::Lazy {
  std::once_flag once;
  std::shared_ptr<const LineStore> store;  ///< holds the file's text until the analyses ran
  std::vector<analysis::UnboundRead> unbound_reads;
  std::vector<analysis::BranchChain> branch_chains;
  std::string note;  ///< why an analysis did not run ("" = all ran)
  std::atomic<bool> ran{false};  ///< the call_once above has run (analyses_ran)
  /// No node of the file's tree is deeper than this (Builder::deepest, when the extraction's
  /// walk was not stopped by its depth limit); -1 when unknown.
  int depth_bound = -1;
};

namespace {

void run_analyses(SourceModel::Lazy& z, Language lang, TSNode root, std::string_view text) {
  if (lang == Language::Python) {
    // the extraction's walk already measured the tree when it reached every node: no second walk
    const bool known_shallow = z.depth_bound >= 0 && z.depth_bound <= analysis::kMaxUnboundTreeDepth;
    if (!known_shallow && analysis::unbound_tree_too_deep(root)) {
      z.note = "unbound variables: the syntax tree nests deeper than " +
               std::to_string(analysis::kMaxUnboundTreeDepth) + " levels (an expression of hundreds of terms)";
    } else {
      analysis::UnboundOptions o;
      o.depth_checked = true;  // checked just above: one walk of the tree, not two
      // A read of an unbound name raises, so a later read on every path through it cannot:
      // only the first is a fact (the ATOM audit's hand read judged five blocks on such later
      // reads false; bench/RESULTS.md, Session 32).
      o.every_read = false;
      z.unbound_reads = analysis::find_unbound_reads(root, text, o);
    }
    z.branch_chains = analysis::find_python_branches(root, text);
  } else if (lang == Language::Cpp) {
    z.branch_chains = analysis::find_cpp_branches(root, text);
  }
}

const SourceModel::Lazy* ensure_analyses(const SourceModel& m) {
  if (!m.lazy) return nullptr;
  SourceModel::Lazy& z = *m.lazy;
  std::call_once(z.once, [&] {
    std::string_view text = z.store ? std::string_view(z.store->text) : std::string_view();
    Tree tree = parse_tree(m.language, text);
    if (!tree.empty()) run_analyses(z, m.language, tree.root(), text);
    z.store.reset();
    z.ran = true;
  });
  return &z;
}

}  // namespace

bool SourceModel::analyses_ran() const { return lazy && lazy->ran.load(); }

const std::vector<analysis::UnboundRead>& SourceModel::unbound_reads() const {
  static const std::vector<analysis::UnboundRead> kNone;
  const Lazy* z = ensure_analyses(*this);
  return z ? z->unbound_reads : kNone;
}

const std::string& SourceModel::analysis_note() const {
  static const std::string kNone;
  const Lazy* z = ensure_analyses(*this);
  return z ? z->note : kNone;
}

const std::vector<analysis::BranchChain>& SourceModel::branch_chains() const {
  static const std::vector<analysis::BranchChain> kNone;
  const Lazy* z = ensure_analyses(*this);
  return z ? z->branch_chains : kNone;
}

std::string statement_code(const SourceModel& m, const Statement& s) {
  std::string out;
  out.reserve(s.text.size());
  size_t from = 0;
  for (int line = s.line;; ++line) {
    size_t nl = s.text.find('\n', from);
    std::string_view seg = std::string_view(s.text).substr(from, nl == std::string::npos ? std::string::npos : nl - from);
    // a CRLF file: the segment keeps its '\r', which the lines (and their code) do not
    bool cr = !seg.empty() && seg.back() == '\r';
    std::string_view body = cr ? seg.substr(0, seg.size() - 1) : seg;
    size_t col = line == s.line ? static_cast<size_t>(s.column) : 0;
    std::string_view code = line >= 1 && static_cast<size_t>(line) <= m.lines.size() ? m.code(static_cast<size_t>(line - 1))
                                                                                    : std::string_view();
    if (!code.empty() && col + body.size() <= code.size()) out.append(code, col, body.size());
    else out.append(body);
    if (cr) out += '\r';
    if (nl == std::string::npos) break;
    out += '\n';
    from = nl + 1;
  }
  return out;
}

std::shared_ptr<const SourceModel> analyze_file(std::string_view path, std::string_view text,
                                                const AnalyzeOptions& opts) {
  auto m = std::make_shared<SourceModel>();
  m->path = std::string(path);
  m->language = language_of(path);
  // Binary first: a large image or archive is not source whatever its size, so it must not be
  // reported as "over the size limit" (which makes a review incomplete, see ChangeFacts). A
  // binary format is known by its name (binary_format), whatever text the caller holds.
  if (std::string_view ext = binary_format(path); !ext.empty()) {
    m->skipped = true;
    m->note = "skipped: binary file format (." + std::string(ext) + ")";
    return m;
  }
  if (text.find('\0') != std::string_view::npos) {
    m->skipped = true;
    m->note = "skipped: binary content (NUL byte)";
    return m;
  }
  // a model's line offsets are 32 bits (LineViews): no larger limit than 4 GiB - 1 holds
  const size_t limit = std::min<size_t>(opts.max_bytes, UINT32_MAX - 1);
  if (text.size() > limit) {
    m->skipped = true;
    m->note = "skipped: " + std::to_string(text.size()) + " bytes exceeds the limit of " + std::to_string(limit) +
              " bytes";
    return m;
  }
  set_text(*m, text);
  auto plain_lines = [&] { set_code(*m, std::string(), {}); };
  switch (m->language) {
    case Language::Python:
    case Language::Cpp: {
      Tree tree = parse_tree(m->language, text);
      if (tree.empty()) {
        plain_lines();
        m->has_errors = true;
        m->note = "the parser gave up (timeout)";
        if (m->language == Language::Cpp) detail::extract_cpp_preprocessor(*m);
        break;
      }
      detail::Builder b(*m, m->store->text);  // node texts are views into the store
      if (m->language == Language::Python)
        detail::extract_python(tree.root(), b);
      else
        detail::extract_cpp(tree.root(), b);
      b.finish();
      if (m->language == Language::Cpp) detail::extract_cpp_preprocessor(*m);
      m->has_errors = m->has_errors || tree.has_error();
      m->lazy = std::make_shared<SourceModel::Lazy>();
      if (m->language == Language::Python && b.deepest <= detail::kMaxDepth) m->lazy->depth_bound = b.deepest;
      if (opts.analyses)
        std::call_once(m->lazy->once, [&] {
          run_analyses(*m->lazy, m->language, tree.root(), text);
          m->lazy->ran = true;
        });
      else
        m->lazy->store = m->store;  // the text the lines point into: no copy
      break;
    }
    case Language::CMake: {
      CMakeParse p = parse_cmake(text);
      m->cmake_commands = std::move(p.commands);
      if (p.error) {
        m->has_errors = true;
        m->note = p.error->describe();
      }
      // the comments blanked in a copy of the text (lines start where the text's lines do)
      std::string code(text);
      std::vector<std::string> comments(m->text_lines.size());
      for (const auto& [line, col, len] : p.comments) {
        if (line < 1 || line > static_cast<int>(m->text_lines.size())) continue;
        std::string_view raw = m->text_lines[line - 1];
        size_t a = std::min<size_t>(col - 1, raw.size());
        size_t l = std::min<size_t>(len, raw.size() - a);
        std::string& c = comments[line - 1];
        if (!c.empty()) c += ' ';
        c += raw.substr(a, l);
        size_t start = static_cast<size_t>(raw.data() - m->store->text.data());
        for (size_t i = start + a; i < start + a + l; ++i) code[i] = ' ';
      }
      if (p.comments.empty()) code.clear();
      set_code(*m, std::move(code), comments);
      break;
    }
    case Language::Markdown:
      plain_lines();
      m->sections = markdown_sections(text);
      break;
    case Language::Text:
      plain_lines();
      break;
  }
  shrink(*m);
  return m;
}

}  // namespace review::lang
