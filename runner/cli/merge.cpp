#include "runner/cli/merge.hpp"

#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "runner/cli/review.hpp"

namespace review::cli {

namespace {

using nlohmann::json;

// Appends the runs of one SARIF log to `merged`, joining runs of the same tool and category.
// Throws json::type_error when a field read here has the wrong JSON type.
void merge_runs(json& doc, json& merged, std::map<std::string, size_t>& run_of) {
  for (auto& run : doc["runs"]) {
    if (!run.is_object()) continue;
    std::string tool = run.value("/tool/driver/name"_json_pointer, std::string());
    std::string cat = run.value("/automationDetails/id"_json_pointer, std::string());
    auto key = tool + "\n" + cat;
    auto it = run_of.find(key);
    if (it == run_of.end()) {
      run_of[key] = merged["runs"].size();
      if (!run.contains("results")) run["results"] = json::array();
      merged["runs"].push_back(run);
      continue;
    }
    json& into = merged["runs"][it->second];
    json& rules = into["tool"]["driver"]["rules"];
    if (!rules.is_array()) rules = json::array();
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < rules.size(); ++i) index[rules[i].value("id", "")] = i;
    const json src_rules = run.value("/tool/driver/rules"_json_pointer, json::array());
    for (auto r : run.value("results", json::array())) {
      std::string id = r.value("ruleId", "");
      if (!index.count(id)) {
        for (const auto& sr : src_rules)
          if (sr.value("id", "") == id) {
            index[id] = rules.size();
            rules.push_back(sr);
          }
      }
      if (index.count(id)) r["ruleIndex"] = index[id];
      into["results"].push_back(r);
    }
  }
}

}  // namespace

int merge_sarif_files(const std::vector<std::string>& inputs, const std::string& output, std::ostream& out,
                      std::ostream& err) {
  using nlohmann::json;
  json merged = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", json::array()}};
  std::map<std::string, size_t> run_of;  // tool name + category -> index in merged.runs
  for (const auto& path : inputs) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      err << path << ": cannot read the file\n";
      return 3;
    }
    json doc;
    try {
      doc = json::parse(in);
    } catch (const json::parse_error& e) {
      err << path << ":byte " << e.byte << ": not JSON (" << e.what() << ")\n";
      return 3;
    } catch (const json::exception&) {  // out_of_range 406: a number such as 1e400
      err << path << ": not JSON (a number too large to read)\n";
      return 3;
    }
    const auto version = doc.is_object() && doc.contains("version") ? doc["version"] : json();
    if (version != "2.1.0" || !doc.contains("runs") || !doc["runs"].is_array()) {
      err << path << ": not a SARIF 2.1.0 log (no \"version\": \"2.1.0\" with a \"runs\" array)\n";
      return 3;
    }
    try {
      merge_runs(doc, merged, run_of);
    } catch (const json::exception&) {  // type_error: a field of the wrong JSON type
      err << path << ": not a SARIF 2.1.0 log (a field has the wrong type)\n";
      return 3;
    }
  }
  std::string text = merged.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  if (output.empty() || output == "-") {
    out << text;
    return 0;
  }
  std::string e;
  if (!write_file_atomically(output, text, e)) {
    err << "runner: " << e << "\n";
    return 3;
  }
  return 0;
}

}  // namespace review::cli
