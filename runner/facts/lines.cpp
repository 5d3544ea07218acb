// Sources `lines`, `added_lines` and `removed_lines`: one fact per line, fields computed on demand
// by one shared provider per file side (LineFields).
#include <algorithm>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <string_view>

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

// What the line facts of one file side read from its parsed model, copied into a few flat
// buffers so that the model itself can be dropped once the facts are built (a model is about 20
// times its text; this table is about its text plus 22 bytes a line). Line `i` (0-based) is
// `text[text_at[i], text_at[i+1])`; its code and comment likewise, where a line whose code is
// its text stores no code (kCodeIsText).
class LineTable {
 public:
  explicit LineTable(const lang::SourceModel& m) {
    size_t n = m.text_lines.size();
    size_t bytes = 0;
    for (const auto& t : m.text_lines) bytes += t.size();
    text_.reserve(bytes);
    text_at_.reserve(n + 1);
    code_at_.reserve(n + 1);
    comment_at_.reserve(n + 1);
    info_.reserve(n);
    text_at_.push_back(0);
    code_at_.push_back(0);
    comment_at_.push_back(0);
    for (size_t i = 0; i < n; ++i) {
      const std::string& t = m.text_lines[i];
      text_ += t;
      text_at_.push_back(static_cast<uint32_t>(text_.size()));
      Info info;
      if (i < m.lines.size()) {
        const lang::LineInfo& li = m.lines[i];
        info.flags = kHasInfo | (li.in_loop ? kInLoop : 0) | (li.in_condition ? kInCondition : 0);
        if (li.code == t) info.flags |= kCodeIsText;
        else code_ += li.code;
        comment_ += li.comment;
        info.function = intern(m.function_at(static_cast<int>(i) + 1));
        info.cls = intern(m.class_at(static_cast<int>(i) + 1));
      }
      code_at_.push_back(static_cast<uint32_t>(code_.size()));
      comment_at_.push_back(static_cast<uint32_t>(comment_.size()));
      info_.push_back(info);
    }
    code_.shrink_to_fit();
    comment_.shrink_to_fit();
  }

  int size() const { return static_cast<int>(info_.size()); }
  /// Line `line` (1-based, within [1, size()]) as written.
  std::string_view text(int line) const { return slice(text_, text_at_, line); }
  /// Its code (the text when the model had no line info for it).
  std::string_view code(int line) const {
    return info_[line - 1].flags & kCodeIsText || !(info_[line - 1].flags & kHasInfo) ? text(line)
                                                                                        : slice(code_, code_at_, line);
  }
  std::string_view comment(int line) const { return slice(comment_, comment_at_, line); }
  const std::string& function(int line) const { return names_[info_[line - 1].function]; }
  const std::string& cls(int line) const { return names_[info_[line - 1].cls]; }
  bool has_info(int line) const { return info_[line - 1].flags & kHasInfo; }
  bool in_loop(int line) const { return info_[line - 1].flags & kInLoop; }
  bool in_condition(int line) const { return info_[line - 1].flags & kInCondition; }

 private:
  enum : uint8_t { kHasInfo = 1, kInLoop = 2, kInCondition = 4, kCodeIsText = 8 };
  struct Info {
    uint32_t function = 0;  // into names_ ("" is 0)
    uint32_t cls = 0;
    uint8_t flags = 0;
  };

  static std::string_view slice(const std::string& buf, const std::vector<uint32_t>& at, int line) {
    return std::string_view(buf).substr(at[line - 1], at[line] - at[line - 1]);
  }
  // consecutive lines mostly share their function and class: look at the last name first
  uint32_t intern(const std::string& name) {
    if (name == names_.back()) return static_cast<uint32_t>(names_.size() - 1);
    for (uint32_t k = 0; k < names_.size(); ++k)
      if (names_[k] == name) return k;
    names_.push_back(name);
    return static_cast<uint32_t>(names_.size() - 1);
  }

  std::string text_, code_, comment_;
  std::vector<uint32_t> text_at_, code_at_, comment_at_;
  std::vector<Info> info_;
  std::vector<std::string> names_{std::string()};
};

// The fields of the line facts of one file side, computed on `get` from the file's LineTable
// instead of stored per line (a repository-wide `lines` query makes one fact per line: storing
// ten named values each took about a gigabyte on an 18.9 MB repository). The provider holds no
// parsed model. Record `index` is the line number, or, for removed lines, the position in
// `removed`.
class LineFields final : public dsl::FieldProvider {
 public:
  struct Removed {
    int line;
    const std::string* text;  // the hunk's line, owned by `keep_`
  };

  /// `table` may be null (an added file's base side): lines then have no table.
  LineFields(std::shared_ptr<const change::Change> keep, std::shared_ptr<const LineTable> table,
             const ChangedFile* cf, bool base, std::vector<Removed> removed = {})
      : keep_(std::move(keep)),
        table_(std::move(table)),
        cf_(cf),
        base_(base),
        removed_(std::move(removed)),
        removed_mode_(!removed_.empty()) {}

  Value field(int index, std::string_view name) const override {
    int line = index;
    std::string_view text;
    int n = table_ ? table_->size() : 0;
    bool in_table = line >= 1 && line <= n;
    if (removed_mode_) {
      if (index < 0 || index >= static_cast<int>(removed_.size())) return {};
      line = removed_[index].line;
      text = *removed_[index].text;
      in_table = line >= 1 && line <= n;
    } else {
      if (!in_table) return {};
      text = table_->text(line);
    }
    bool info = in_table && table_->has_info(line);
    if (name == "text") return Value(std::string(text));
    if (name == "code") return Value(std::string(info ? table_->code(line) : text));
    if (name == "comment") return Value(std::string(info ? table_->comment(line) : std::string_view()));
    if (name == "function") return Value(info ? table_->function(line) : std::string());
    if (name == "class") return Value(info ? table_->cls(line) : std::string());
    if (name == "in_loop") return Value(info && table_->in_loop(line));
    if (name == "in_condition") return Value(info && table_->in_condition(line));
    if (name == "added") return Value(added(line));
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
    return {};
  }

  std::vector<std::string> names() const override {
    return {"added", "class", "code", "comment", "function", "head_line", "in_condition", "in_loop", "kind", "text"};
  }

 private:
  bool added(int line) const { return !removed_mode_ && !base_ && cf_ && cf_->added_lines.count(line); }

  std::shared_ptr<const change::Change> keep_;  // owns `cf_` and the removed lines' text
  std::shared_ptr<const LineTable> table_;
  const ChangedFile* cf_;
  bool base_;
  std::vector<Removed> removed_;
  bool removed_mode_;
};

// The LineTable of one file side, shared by the line sources of one context (`lines` and
// `added_lines` of a file side read the same table) while some fact holds it: a table still
// alive is handed out without asking for the model (no parse); null when the file side has no
// model. The cache holds weak references only, and is dropped when another context (or another
// change) asks.
std::shared_ptr<const LineTable> line_table(SourceContext& ctx, const std::string& path, bool base) {
  static std::mutex mu;
  static std::weak_ptr<const change::Change> owner;
  static const SourceContext* owner_ctx = nullptr;
  static std::unordered_map<std::string, std::weak_ptr<const LineTable>> tables;
  std::string key = (base ? "b:" : "h:") + path;
  auto change = ctx.change_ptr();
  {
    std::lock_guard lock(mu);
    if (owner.lock() != change || owner_ctx != &ctx) {
      tables.clear();
      owner = change;
      owner_ctx = &ctx;
    }
    if (auto it = tables.find(key); it != tables.end())
      if (auto t = it->second.lock()) return t;
  }
  auto m = ctx.model(path, base);
  if (!m) return nullptr;
  auto t = std::make_shared<const LineTable>(*m);
  std::lock_guard lock(mu);
  if (owner.lock() == change && owner_ctx == &ctx) {
    auto& slot = tables[key];
    if (auto other = slot.lock()) return other;  // built meanwhile by another thread
    slot = t;
  }
  return t;
}

FactPtr lazy_line(const char* source, const std::string& file, int line,
                  const std::shared_ptr<const LineFields>& p, int index) {
  auto f = dsl::make_fact(source, file, line);
  f->provider = p;
  f->provider_index = index;
  return f;
}

bool has_added(const FileRef& r) { return !r.base && r.changed && !r.changed->added_lines.empty(); }

class LinesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"lines", "every line of the scope's files (changed: head lines, kind added or context)", true,
            line_fields()};
  }
  bool builds_per_file() const override { return true; }

  std::vector<FactPtr> build_file(SourceContext& ctx, const FileRef& r) const override {
    std::vector<FactPtr> out;
    auto t = line_table(ctx, r.path, r.base);
    if (!t) return out;
    int n = t->size();
    auto p = std::make_shared<const LineFields>(ctx.change_ptr(), std::move(t), r.changed, r.base);
    out.reserve(n);
    for (int line = 1; line <= n; ++line) out.push_back(lazy_line("lines", r.path, line, p, line));
    return out;
  }
};

class AddedLinesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"added_lines", "the added lines of the scope's changed files", true, line_fields()};
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
    auto t = line_table(ctx, r.path, r.base);
    if (!t) return out;
    int n = t->size();
    auto p = std::make_shared<const LineFields>(ctx.change_ptr(), std::move(t), r.changed, r.base);
    for (int line : r.changed->added_lines)
      if (line >= 1 && line <= n) out.push_back(lazy_line("added_lines", r.path, line, p, line));
    return out;
  }
};

class RemovedLinesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"removed_lines",
            "the removed lines of the scope's changed files (base line numbers, base-side function)", true,
            line_fields()};
  }

  std::vector<FactPtr> build(SourceContext& ctx, const Scope& scope) const override {
    std::vector<FactPtr> out;
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
      std::string file = scope.kind == Scope::Kind::Base ? util::base_path(cf) : cf.path;
      auto bt = cf.status == FileStatus::Added ? nullptr : line_table(ctx, util::base_path(cf), true);
      std::vector<LineFields::Removed> removed;
      for (const auto& h : cf.hunks)
        for (const auto& l : h.lines)
          if (l.kind == LineKind::Removed) removed.push_back({l.old_line, &l.text});
      if (removed.empty()) continue;
      auto p = std::make_shared<const LineFields>(ctx.change_ptr(), std::move(bt), &cf, true, removed);
      for (size_t i = 0; i < removed.size(); ++i)
        out.push_back(lazy_line("removed_lines", file, removed[i].line, p, static_cast<int>(i)));
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_lines_source() { return std::make_unique<LinesSource>(); }
std::unique_ptr<Source> make_added_lines_source() { return std::make_unique<AddedLinesSource>(); }
std::unique_ptr<Source> make_removed_lines_source() { return std::make_unique<RemovedLinesSource>(); }

}  // namespace review::facts
