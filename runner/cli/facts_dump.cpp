#include "runner/cli/facts_dump.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "dsl/diagnostic.hpp"
#include "runner/change/memory.hpp"
#include "runner/facts/change_facts.hpp"
#include "runner/facts/schema.hpp"
#include "runner/report/json.hpp"

namespace review::cli {
namespace {

nlohmann::json to_json(const dsl::Value& v) {
  if (v.is_bool()) return v.as_bool();
  if (v.is_int()) return v.as_int();
  if (v.is_string()) return v.as_string();
  if (v.is_list()) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& x : v.as_list()) a.push_back(to_json(x));
    return a;
  }
  if (v.is_fact() && v.as_fact()) {
    const auto& f = *v.as_fact();
    return {{"source", f.source}, {"file", f.file}, {"line", f.line}};
  }
  return nullptr;
}

std::string to_display(const dsl::Value& v) {
  if (v.is_string()) return nlohmann::json(v.as_string()).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (v.is_fact() && v.as_fact()) {
    const auto& f = *v.as_fact();
    return "<" + f.source + " " + f.file + ":" + std::to_string(f.line) + ">";
  }
  return to_json(v).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

int dump_facts(const std::string& path, const std::string& source, bool json, std::ostream& out, std::ostream& err) {
  std::vector<std::string> names;
  for (const auto& s : facts::fact_schema())
    if (!facts::is_nested_only(s) && s.takes_scope) names.push_back(s.name);
  if (!source.empty() && std::find(names.begin(), names.end(), source) == names.end()) {
    err << "runner: no fact source `" << source << "` answers for a file" << dsl::did_you_mean(source, names)
        << " (`runner sources` lists them)\n";
    return 2;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    err << path << ": is a folder; name one file\n";
    return 3;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err << path << ": cannot read the file\n";
    return 3;
  }
  std::ostringstream text;
  text << in.rdbuf();
  auto change = std::make_shared<change::Change>(change::make_snippet_change(path, text.str()));
  facts::ChangeFacts facts(change);
  facts.configure({});
  nlohmann::json all = nlohmann::json::array();
  for (const auto& schema : facts::fact_schema()) {
    if (std::find(names.begin(), names.end(), schema.name) == names.end()) continue;
    if (!source.empty() && schema.name != source) continue;
    const std::vector<dsl::FactPtr>* got = nullptr;
    try {
      got = &facts.query(schema.name, dsl::Scope{});
    } catch (const dsl::FactsError& e) {
      err << "warning: " << schema.name << ": " << e.message << "\n";
      continue;
    }
    for (const auto& f : *got) {
      if (json) {
        nlohmann::json fields = nlohmann::json::object();
        for (const auto& field : schema.fields) fields[field.name] = to_json(f->get(field.name));
        all.push_back({{"source", schema.name}, {"file", f->file}, {"line", f->line},
                       {"end_line", f->end_line}, {"column", f->column}, {"fields", fields}});
        continue;
      }
      std::string where = f->file + ":" + std::to_string(f->line);
      if (f->end_line > f->line) where += "-" + std::to_string(f->end_line);
      if (f->column > 0) where += ":" + std::to_string(f->column);
      out << schema.name << std::string(schema.name.size() < 16 ? 16 - schema.name.size() : 1, ' ') << where;
      for (const auto& field : schema.fields) {
        dsl::Value v = f->get(field.name);
        if (v.is_null()) continue;
        out << "  " << field.name << "=" << to_display(v);
      }
      out << "\n";
    }
  }
  if (json) out << report::dump_json({{"file", path}, {"facts", all}}) << "\n";
  return 0;
}

}  // namespace review::cli
