// Source `files`: one fact per file of the scope (changed or not), with the ruleset's tier data.
#include <algorithm>

#include "runner/facts/change_facts.hpp"
#include "runner/facts/sources.hpp"
#include "runner/facts/util.hpp"

namespace review::facts {
namespace {

using change::ChangedFile;
using change::FileStatus;
using dsl::Scope;
using dsl::Value;
using T = dsl::Type;
using util::field;

class FilesSource final : public Source {
 public:
  dsl::SourceSchema schema() const override {
    return {"files", "one fact per file of the scope", true,
            {
                field("file", T::String, "repository-relative path (same as path)"),
                field("path", T::String, "repository-relative path at head (base path for deleted files)"),
                field("status", T::String, "added, modified, deleted, renamed, copied, or unchanged (repo scope)"),
                field("old_path", T::String, "base path (differs from path for renames and copies)"),
                field("language", T::String, "python, cpp, cmake, markdown or text"),
                field("tier", T::Int, "tier of the first matching ruleset tier glob, 0 when none"),
                field("blast", T::String, "blast radius text of that tier entry, \"\" when none"),
                field("fails", T::String, "failure modes text of that tier entry, \"\" when none"),
                field("is_test", T::Bool, "matches the ruleset's test globs or the built-in test-path rule"),
                field("is_tooling", T::Bool, "under scripts/, tools/, bench*/, examples/, docs/, .github/ or recipes/"),
                field("added_count", T::Int, "number of added lines"),
                field("removed_count", T::Int, "number of removed lines"),
                field("has_errors", T::Bool, "the parser found syntax errors (changed files only; false otherwise)"),
                field("binary", T::Bool, "binary file"),
                field("skipped", T::Bool, "not analysed (size limit, binary, vendored); see the run notes"),
            }};
  }

  std::vector<dsl::FactPtr> build(SourceContext& ctx, const Scope& scope) const override {
    const auto& change = ctx.change();
    const auto& data = ctx.data();
    struct Entry { std::string path; const ChangedFile* cf; };
    std::vector<Entry> entries;
    switch (scope.kind) {
      case Scope::Kind::Changed:
      case Scope::Kind::Base:
        for (const auto& f : change.files) entries.push_back({f.path, &f});
        break;
      case Scope::Kind::Repo:
      case Scope::Kind::Globs:
        for (const auto& p : ctx.repo_files())
          if (scope.kind == Scope::Kind::Repo || util::any_glob(scope.patterns, p))
            entries.push_back({p, change.find(p)});
        break;
      case Scope::Kind::Files:
        for (const auto& p : scope.patterns) entries.push_back({p, change.find(p)});
        break;
      case Scope::Kind::Named: break;  // answered by the named repository's own facts
    }
    std::vector<dsl::FactPtr> out;
    for (const auto& e : entries) {
      auto f = dsl::make_fact("files", e.path);
      f->set("path", Value(e.path));
      f->set("status", Value(std::string(e.cf ? change::status_name(e.cf->status) : "unchanged")));
      f->set("old_path", Value(e.cf ? util::base_path(*e.cf) : e.path));
      f->set("language", Value(std::string(lang::language_name(lang::language_of(e.path)))));
      const dsl::TierEntry* tier = nullptr;
      for (const auto& t : data.tiers)
        if (dsl::glob_match(t.glob, e.path)) {
          tier = &t;
          break;
        }
      f->set("tier", Value(tier ? tier->tier : 0));
      f->set("blast", Value(tier ? tier->blast : std::string()));
      f->set("fails", Value(tier ? tier->fails : std::string()));
      f->set("is_test", Value(builtin_is_test(e.path) || util::any_glob(data.test_globs, e.path)));
      f->set("is_tooling", Value(builtin_is_tooling(e.path)));
      f->set("added_count", Value(e.cf ? e.cf->added_count : 0));
      f->set("removed_count", Value(e.cf ? e.cf->removed_count : 0));
      bool errors = false, skipped = e.cf && e.cf->skipped;
      if (e.cf && e.cf->status != FileStatus::Deleted && util::analysable(*e.cf)) {
        auto m = ctx.model(e.path, false);
        errors = m && m->has_errors;
        skipped = skipped || (m && m->skipped);
      }
      f->set("has_errors", Value(errors));
      f->set("binary", Value(e.cf && e.cf->binary));
      f->set("skipped", Value(skipped));
      out.push_back(f);
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Source> make_files_source() { return std::make_unique<FilesSource>(); }

}  // namespace review::facts
