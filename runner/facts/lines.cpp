// Sources `lines`, `added_lines` and `removed_lines`: one fact per line, fields computed on demand
// by one shared provider per file side (LineFields).
#include <algorithm>

#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using change::ChangedFile;
using change::FileStatus;
using change::LineKind;
using dsl::FactPtr;
using dsl::Scope;
using dsl::Value;
using T = dsl::Type;
using util::field;
using util::in_text;

// Fields shared by every line-level record.
std::vector<dsl::FieldSchema> line_fields() {
  return {
      field("file", T::String, "repository-relative path ('/'-separated)"),
      field("line", T::Int, "1-based line (head line; base line for base-scope and removed lines)"),
      in_text(field("text", T::String, "the line as written, without its line ending")),
      in_text(field("code", T::String, "the line with comments and string contents blanked by spaces (columns kept)")),
      in_text(field("comment", T::String, "comment text on the line, comment markers included; \"\" when none")),
      field("kind", T::String, "added, removed or context"),
      field("head_line", T::Int, "head line at this line's place: the line itself at head; for a removed line the first head line after the deleted block; base lines mapped through the hunks"),
      field("added", T::Bool, "the line is an added line of the change"),
      field("function", T::String, "qualified name of the innermost enclosing function, \"\" outside any"),
      field("class", T::String, "name of the innermost enclosing class, \"\" outside any"),
      field("in_loop", T::Bool, "inside a loop body of the same function"),
      field("in_condition", T::Bool, "inside an if/elif/else, match/case or switch of the same function"),
  };
}

// The fields of the line facts of one file side, computed on `get` from the file's model instead
// of stored per line (a repository-wide `lines` query makes one fact per line: storing ten named
// values each took about a gigabyte on an 18.9 MB repository). Record `index` is the line number,
// or, for removed lines, the position in `removed`.
class LineFields final : public dsl::FieldProvider {
 public:
  struct Removed {
    int line;
    const std::string* text;  // the hunk's line, owned by `keep_`
  };

  LineFields(std::shared_ptr<const change::Change> keep, std::shared_ptr<const lang::SourceModel> m,
             const ChangedFile* cf, bool base, std::vector<Removed> removed = {})
      : keep_(std::move(keep)), m_(std::move(m)), cf_(cf), base_(base), removed_(std::move(removed)),
        removed_mode_(!removed_.empty()) {}

  Value field(int index, std::string_view name) const override {
    int line = 0;
    std::string_view text;
    if (!locate(index, line, text)) return {};
    // `added` first: most rules ask it of every line they read
    if (name == "added") return Value(added(line));
    const lang::LineInfo* li = modelled(line) ? &m_->lines[line - 1] : nullptr;
    if (name == "in_loop") return Value(li && li->in_loop);
    if (name == "in_condition") return Value(li && li->in_condition);
    if (name == "head_line") {
      if (removed_mode_) return Value(cf_ ? cf_->head_line_of(line) : 0);
      return Value(base_ && cf_ ? cf_->head_line_of(line) : line);
    }
    if (name == "kind") {
      if (removed_mode_) return Value("removed");
      return Value(added(line) ? "added"
                   : base_ && cf_ && cf_->removed_lines.count(line) ? "removed"
                                                                    : "context");
    }
    if (auto t = this->text(index, name)) return Value(std::string(*t));  // the string fields
    return {};
  }

  /// The string fields (text, code, comment, function, class) as views of the model's text.
  std::optional<std::string_view> text(int index, std::string_view name) const override {
    int line = 0;
    std::string_view text;
    if (!locate(index, line, text)) return std::nullopt;
    const size_t at = static_cast<size_t>(line - 1);
    if (name == "text") return text;
    if (name == "code") return modelled(line) ? m_->code(at) : text;
    if (name == "comment") return modelled(line) ? m_->comment(at) : std::string_view();
    if (name == "function") return m_ ? std::string_view(m_->function_at(line)) : std::string_view();
    if (name == "class") return m_ ? std::string_view(m_->class_at(line)) : std::string_view();
    return std::nullopt;
  }

  std::vector<std::string> names() const override {
    return {"added", "class", "code", "comment", "function", "head_line", "in_condition", "in_loop", "kind", "text"};
  }

 private:
  /// The line number and text of record `index`; false when there is no such record.
  bool locate(int index, int& line, std::string_view& text) const {
    if (removed_mode_) {
      if (index < 0 || index >= static_cast<int>(removed_.size())) return false;
      line = removed_[index].line;
      text = *removed_[index].text;
      return true;
    }
    if (!m_ || index < 1 || index > static_cast<int>(m_->text_lines.size())) return false;
    line = index;
    text = m_->text_lines[index - 1];
    return true;
  }

  /// Whether the model has a LineInfo (code/comment split, loop and condition flags) for `line`.
  bool modelled(int line) const { return m_ && line >= 1 && line <= static_cast<int>(m_->lines.size()); }

  bool added(int line) const { return !removed_mode_ && !base_ && cf_ && cf_->added_lines.count(line); }

  std::shared_ptr<const change::Change> keep_;  // owns `cf_` and the removed lines' text
  std::shared_ptr<const lang::SourceModel> m_;
  const ChangedFile* cf_;
  bool base_;
  std::vector<Removed> removed_;
  bool removed_mode_;
};

bool has_added(const FileRef& r) { return !r.base && r.changed && !r.changed->added_lines.empty(); }

// True when the head side of `r` has `n` lines (n > 0) and every one of them is added.
bool every_line_added(const FileRef& r, int n) {
  if (n <= 0 || !has_added(r)) return false;
  const auto& added = r.changed->added_lines;
  return added.size() == static_cast<std::size_t>(n) && *added.begin() == 1 && *added.rbegin() == n;
}

class LinesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"lines", "every line of the scope's files (changed: head lines, kind added or context)", true,
            line_fields()};
  }
  bool builds_per_file() const override { return true; }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    auto p = std::make_shared<const LineFields>(ctx.change_ptr(), m, r.changed, r.base);
    int n = static_cast<int>(m->text_lines.size());
    static const dsl::Interned source("lines");
    util::FactBlock block(source, dsl::Interned(r.path), std::move(p), static_cast<size_t>(n));
    for (int line = 1; line <= n; ++line) block.add(line, line);
    block.share(out);
    return out;
  }
};

class AddedLinesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    dsl::SourceSchema s{"added_lines", "the added lines of the scope's changed files", true, line_fields()};
    s.changed_only = true;
    s.fact_source = "lines";  // the `lines` facts of those lines (shared when every line is added)
    return s;
  }

  // Only changed files have added lines: never parse the rest of a glob or repo scope.
  std::vector<FactPtr> build(SourceContext& ctx, const Scope& scope) const override {
    auto refs = ctx.files(scope);
    refs.erase(std::remove_if(refs.begin(), refs.end(), [](const FileRef& r) { return !has_added(r); }), refs.end());
    ctx.prefetch(refs, false);
    std::vector<FactPtr> out;
    for (const auto& r : refs) {
      const auto& fs = ctx.file_facts(name(), r);
      out.insert(out.end(), fs.begin(), fs.end());
    }
    return out;
  }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    if (!has_added(r)) return out;
    auto m = ctx.model(r.path, r.base);
    if (!m) return out;
    int n = static_cast<int>(m->text_lines.size());
    // A file whose every line is added (a new file; every file of an audit): its added lines are
    // its lines, and their facts are the `lines` facts of the file (the same fields and values),
    // taken from that source, not made a second time. The facts outlive whichever of the two
    // sources is released first; `lines(changed)` after `added_lines(changed)` finds them made.
    if (every_line_added(r, n)) return ctx.file_facts("lines", r);
    auto p = std::make_shared<const LineFields>(ctx.change_ptr(), m, r.changed, r.base);
    static const dsl::Interned source("lines");  // schema().fact_source
    util::FactBlock block(source, dsl::Interned(r.path), std::move(p), r.changed->added_lines.size());
    for (int line : r.changed->added_lines)
      if (line >= 1 && line <= n) block.add(line, line);
    block.share(out);
    return out;
  }
};

class RemovedLinesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    dsl::SourceSchema s{"removed_lines",
                        "the removed lines of the scope's changed files (base line numbers, base-side function)",
                        true, line_fields()};
    s.changed_only = true;
    return s;
  }

  std::vector<FactPtr> build(SourceContext& ctx, const Scope& scope) const override {
    std::vector<FactPtr> out;
    std::vector<const ChangedFile*> files;  // in scope, with removed lines
    for (const auto& cf : ctx.change().files) {
      if (!util::analysable(cf)) continue;
      bool in_scope = false;
      switch (scope.kind) {
        case Scope::Kind::Changed:
        case Scope::Kind::Base:
        case Scope::Kind::Repo: in_scope = true; break;
        case Scope::Kind::Globs: in_scope = util::any_glob(scope.patterns, cf.path); break;
        case Scope::Kind::Files:
          in_scope = std::find(scope.patterns.begin(), scope.patterns.end(), cf.path) != scope.patterns.end();
          break;
        case Scope::Kind::Named: break;  // answered by the named repository's own facts
      }
      if (!in_scope || cf.removed_lines.empty()) continue;
      files.push_back(&cf);
    }
    // the base sides parsed together, on the parser threads, before the first one is read
    std::vector<FileRef> bases;
    for (const ChangedFile* cf : files)
      if (cf->status != FileStatus::Added) bases.push_back({util::base_path(*cf), true, cf});
    ctx.prefetch(bases, false);
    for (const ChangedFile* f : files) {
      const ChangedFile& cf = *f;
      std::string file = scope.kind == Scope::Kind::Base ? util::base_path(cf) : cf.path;
      auto bm = cf.status == FileStatus::Added ? nullptr : ctx.model(util::base_path(cf), true);
      std::vector<LineFields::Removed> removed;
      for (const auto& h : cf.hunks)
        for (const auto& l : h.lines)
          if (l.kind == LineKind::Removed) removed.push_back({l.old_line, &l.text});
      if (removed.empty()) continue;
      auto p = std::make_shared<const LineFields>(ctx.change_ptr(), bm, &cf, true, removed);
      static const dsl::Interned source("removed_lines");
      util::FactBlock block(source, dsl::Interned(file), std::move(p), removed.size());
      for (size_t i = 0; i < removed.size(); ++i) block.add(removed[i].line, static_cast<int>(i));
      block.share(out);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_lines_source() { return std::make_unique<LinesSource>(); }
std::unique_ptr<Source> make_added_lines_source() { return std::make_unique<AddedLinesSource>(); }
std::unique_ptr<Source> make_removed_lines_source() { return std::make_unique<RemovedLinesSource>(); }

}  // namespace review::facts
