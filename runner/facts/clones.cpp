// Source `clones`: one fact per clone between an added block and an added block or existing code
// of another file (runner/analysis/clones.hpp).
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "runner/analysis/clones.hpp"
#include "runner/lang/python/tokens.hpp"
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using dsl::FactPtr;
using dsl::Scope;
using dsl::Value;
using T = dsl::Type;
using util::field;

// Clone tokens of `text` in the language of `path`.
std::vector<analysis::CloneToken> tokens_of(lang::Language language, const std::string& text) {
  return language == lang::Language::Python ? lang::python::clone_tokens(text) : analysis::generic_clone_tokens(text);
}

// Lines [a, b] (1-based) of `lines` as one block of `path`.
template <class Lines>
analysis::CodeBlock block_of(const std::string& path, lang::Language language, const Lines& lines, int a, int b,
                             bool added) {
  std::string text;
  for (int l = a; l <= b; ++l) {
    text += lines[l - 1];
    text += '\n';
  }
  auto tokens = tokens_of(language, text);
  return {path, a, b, std::move(text), std::move(tokens), added};
}

// Maximal runs of lines [1, n] whose `added` state is `want`, at least `min_lines` long, as
// (first, last) pairs.
std::vector<std::pair<int, int>> runs_of(int n, const change::LineSet& added, bool want, int min_lines) {
  std::vector<std::pair<int, int>> out;
  for (int a = 1; a <= n;) {
    if ((added.count(a) > 0) != want) {
      ++a;
      continue;
    }
    int b = a;
    while (b + 1 <= n && (added.count(b + 1) > 0) == want) ++b;
    if (b - a + 1 >= min_lines) out.emplace_back(a, b);
    a = b + 1;
  }
  return out;
}

class ClonesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"clones",
            "one fact per clone between an added block and an added block or existing code of another file "
            "(identifiers abstracted; imports, docstrings and constant tables never count). The scope says what "
            "an added block is compared with: `changed`, the changed files (their added blocks and the rest of "
            "their head text); `repo`, every head file of the repository (a glob list or file list: those "
            "files); existing code is read from Python and C/C++ files of a language some added block is in. "
            "Two existing blocks are never compared; `base` has no clones. Minimum size from "
            "`let clone_min_lines` (5), `clone_min_tokens` (50), `clone_min_similarity` (80, percent). A `for` that "
            "looks clones up by `c.file == f.path` (f bound by an earlier `for`) searches only the blocks of those files, "
            "and when a later `for` looks its facts up by `X == c.b.file` only the other blocks of the files it admits",
            true,
            {
                field("file", T::String, "path of the added block (the first block)"),
                field("line", T::Int, "first line of the added block"),
                field("a", T::Fact, "the added block (file, line, end_line, text; added is true)", "location"),
                field("b", T::Fact,
                      "the other block (file, line, end_line, text; added: true when it was added by the change too, "
                      "false when it is existing code of the head version)",
                      "location"),
                field("similarity", T::Int, "token similarity after renaming identifiers, percent"),
                field("lines", T::Int, "number of lines of the first block"),
                field("tokens", T::Int, "tokens of the shorter side (imports and docstrings not counted)"),
            },
            false,
            "",
            true,  // by_files: `where c.file == f.path` (f of an earlier `for`) searches only f's blocks
            "b"};  // partner: and `g.path == c.b.file` (g of a later `for`) only the other blocks of g's files
  }

  std::vector<FactPtr> build(SourceContext& ctx, const Scope& scope) const override {
    return search(ctx, scope, nullptr, nullptr);
  }

  // The clones whose added (first) block is in one of `files`: the blocks of those files are
  // compared with the rest of the scope read as existing code (find_clones_with_existing: one
  // token scan of every file, then only the regions that share a window with them), not every
  // pair of the scope's files with each other. The facts equal build()'s with such a `file`.
  // With `partners`, the second pass of that search (the regions of existing code around rare
  // windows shared with an added block) reads only those files: every file is still scanned
  // once for the windows' frequencies, so the facts equal build()'s with such a `file` and
  // such a `b.file` (find_clones_with_existing's `searched`).
  std::optional<std::vector<FactPtr>> build_in_files(SourceContext& ctx, const Scope& scope,
                                                     const std::vector<std::string>& files,
                                                     const std::vector<std::string>* partners) const override {
    return search(ctx, scope, &files, partners);
  }

 private:
  // build() when `focus` is null; else build_in_files(focus, partners).
  static std::vector<FactPtr> search(SourceContext& ctx, const Scope& scope, const std::vector<std::string>* focus,
                                     const std::vector<std::string>* partners) {
    std::vector<FactPtr> out;
    analysis::CloneOptions opts;  // jscpd's defaults unless the ruleset says otherwise
    auto setting = [&](const char* name, int fallback) {
      Value v = ctx.data().let(name);
      return v.is_int() && v.as_int() >= 0 && v.as_int() <= 1000000 ? static_cast<int>(v.as_int()) : fallback;
    };
    opts.min_lines = std::max(1, setting("clone_min_lines", opts.min_lines));
    opts.min_tokens = setting("clone_min_tokens", opts.min_tokens);
    opts.min_similarity = std::min(100, setting("clone_min_similarity", 80)) / 100.0;
    opts.jobs = ctx.jobs();  // `load` reads head_text and the models held in `existing`: thread-safe
    auto in_focus = [&](const std::string& path) {
      return !focus || std::binary_search(focus->begin(), focus->end(), path);
    };
    auto in_partners = [&](const std::string& path) {
      return !partners || std::binary_search(partners->begin(), partners->end(), path);
    };
    std::vector<analysis::CodeBlock> blocks;
    std::set<lang::Language> languages;  // of the added blocks
    // Existing code: the head text outside added lines of the scope's files (the changed ones'
    // parsed models; the others read as text, never parsed). With a focus, the added blocks of
    // the other changed files are read as existing code too (`added` set: kept whatever their
    // language), and their pairs with each other are not searched.
    struct Existing {
      std::string path;
      lang::Language language;
      std::shared_ptr<const lang::SourceModel> model;  // changed files
      const change::LineSet* added = nullptr;
      bool added_too = false;  // its added blocks as well (outside the focus)
    };
    std::vector<Existing> existing;
    std::map<std::string, const change::LineSet*> added_of;  // changed files outside the focus
    for (const auto& r : ctx.files(scope)) {
      if (r.base) continue;
      lang::Language language = lang::language_of(r.path);
      if (!r.changed) {
        existing.push_back({r.path, language, nullptr, nullptr});
        continue;
      }
      auto m = ctx.model(r.path, false);
      if (!m) continue;
      int n = static_cast<int>(m->text_lines.size());
      const auto& added = r.changed->added_lines;
      const auto runs = runs_of(n, added, true, opts.min_lines);
      const bool any = !runs.empty();
      if (any) languages.insert(m->language);
      if (!in_focus(r.path)) {
        if (any || added.size() < static_cast<size_t>(n)) existing.push_back({r.path, m->language, m, &added, any});
        added_of.emplace(r.path, &added);
        continue;
      }
      if (added.size() < static_cast<size_t>(n)) existing.push_back({r.path, m->language, m, &added});
      for (auto [a, b] : runs) blocks.push_back(block_of(r.path, m->language, m->text_lines, a, b, true));
    }
    // Existing code is read only of Python and C/C++, and of a language some added block is in.
    auto existing_read = [&](lang::Language l) {
      return (l == lang::Language::Python || l == lang::Language::Cpp) && languages.count(l) > 0;
    };
    std::erase_if(existing, [&](const Existing& e) { return !e.added_too && !existing_read(e.language); });
    auto load = [&](size_t i) {
      const Existing& e = existing[i];
      std::vector<analysis::CodeBlock> loaded;
      if (e.model) {
        const int n = static_cast<int>(e.model->text_lines.size());
        auto runs = runs_of(n, *e.added, false, opts.min_lines);
        if (e.added_too) {
          auto more = runs_of(n, *e.added, true, opts.min_lines);
          if (!existing_read(e.language)) runs.clear();  // its added blocks only, as without a focus
          runs.insert(runs.end(), more.begin(), more.end());
          std::sort(runs.begin(), runs.end());
        }
        for (auto [a, b] : runs) loaded.push_back(block_of(e.path, e.language, e.model->text_lines, a, b, false));
        return loaded;
      }
      auto text = ctx.head_text(e.path);
      if (!text) return loaded;
      auto lines = lang::split_lines(*text);
      int n = static_cast<int>(lines.size());
      if (n >= opts.min_lines) loaded.push_back(block_of(e.path, e.language, lines, 1, n, false));
      return loaded;
    };
    std::function<bool(size_t)> searched;  // all, unless a partner list names the other sides
    if (partners) searched = [&](size_t i) { return in_partners(existing[i].path); };
    auto pairs = existing.empty()
                     ? analysis::find_clones(std::move(blocks), opts)
                     : analysis::find_clones_with_existing(std::move(blocks), existing.size(), load, opts, searched);
    for (auto& p : pairs) {
      if (p.a.file == p.b.file) continue;
      // an added block of a changed file outside the focus was searched as existing code
      for (auto* side : {&p.a, &p.b})
        if (auto it = added_of.find(side->file); it != added_of.end()) side->added = it->second->count(side->start_line) > 0;
      if (!p.a.added) std::swap(p.a, p.b);  // the added side first: a finding lands on it
      if (!in_focus(p.a.file) || !in_partners(p.b.file)) continue;
      auto loc = [&](const analysis::CodeBlock& b) {
        auto f = dsl::make_fact("location", b.file, b.start_line);
        f->end_line = b.end_line;
        f->set("added", Value(b.added));
        f->set("text", Value(b.text));
        return FactPtr(f);
      };
      auto f = dsl::make_fact("clones", p.a.file, p.a.start_line);
      f->end_line = p.a.end_line;
      f->set("a", Value(loc(p.a)));
      f->set("b", Value(loc(p.b)));
      f->set("similarity", Value(static_cast<int>(std::lround(p.similarity * 100))));
      f->set("lines", Value(p.a.end_line - p.a.start_line + 1));
      f->set("tokens", Value(p.tokens));
      out.push_back(f);
    }
    // in file order, then line order
    std::stable_sort(out.begin(), out.end(), [](const FactPtr& x, const FactPtr& y) {
      return std::tie(x->file, x->line) < std::tie(y->file, y->line);
    });
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_clones_source() { return std::make_unique<ClonesSource>(); }

}  // namespace review::facts
