#include "runner/cli/merge.hpp"

#include <algorithm>
#include <set>

#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "runner/cli/atomic_file.hpp"
#include "runner/cli/review.hpp"

namespace review::cli {

namespace {

using nlohmann::json;

// The more severe of two verdicts ("lgtm" < "needs-work" < "block"; unknown text counts as lgtm).
std::string worse_verdict(const std::string& a, const std::string& b) {
  auto rank = [](const std::string& v) { return v == "block" ? 2 : v == "needs-work" ? 1 : 0; };
  return rank(b) > rank(a) ? b : a;
}

// What makes two results the same finding: rule, fingerprints, locations and message.
std::string result_key(const json& r) {
  return json::array({r.value("ruleId", ""), r.value("partialFingerprints", json::object()),
                      r.value("locations", json::array()), r.value("/message/text"_json_pointer, std::string())})
      .dump();
}

// Joins the run properties of `run` into `into`: the verdict is the worse of the two (a merged
// run holds every shard's findings), pull-request findings and notes are united.
void merge_properties(json& into, const json& run) {
  const json src = run.value("properties", json::object());
  if (!src.is_object() || src.empty()) return;
  json& dst = into["properties"];
  if (!dst.is_object()) dst = json::object();
  if (src.contains("verdict") && src["verdict"].is_string())
    dst["verdict"] = worse_verdict(dst.value("verdict", std::string("lgtm")), src["verdict"].get<std::string>());
  for (const char* list : {"pullRequestFindings", "notes"}) {
    if (!src.contains(list) || !src[list].is_array()) continue;
    if (!dst.contains(list) || !dst[list].is_array()) dst[list] = json::array();
    for (const auto& x : src[list])
      if (std::find(dst[list].begin(), dst[list].end(), x) == dst[list].end()) dst[list].push_back(x);
  }
}

// Appends the runs of one SARIF log to `merged`, joining runs of the same tool and category.
// Throws json::type_error when a field read here has the wrong JSON type.
// `seen` holds, per merged run, the keys of its results (filled when the run is first joined).
void merge_runs(json& doc, json& merged, std::map<std::string, size_t>& run_of,
                std::map<size_t, std::set<std::string>>& seen) {
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
    merge_properties(into, run);
    auto [keys, fresh] = seen.try_emplace(it->second);
    if (fresh && into["results"].is_array())
      for (const auto& x : into["results"]) keys->second.insert(result_key(x));
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
      // The same finding from two shards (a rule that reports into a file both shards reach)
      // is kept once.
      if (!keys->second.insert(result_key(r)).second) continue;
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
  std::map<size_t, std::set<std::string>> seen;  // merged run -> keys of its results
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
      merge_runs(doc, merged, run_of, seen);
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
