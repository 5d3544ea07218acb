// The composite action and the workflows: the harness run, SHA pins, required keys, YAML syntax.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "catch.hpp"
#include "mock_server.hpp"

namespace {

std::string source(const std::string& rel) { return std::string(REVIEW_SOURCE_DIR) + "/" + rel; }

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream s(text);
  for (std::string l; std::getline(s, l);) out.push_back(l);
  return out;
}

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t-");
  auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool is_sha_pin(const std::string& ref) {
  // owner/repo[/path]@<40 hex> # vX...
  auto at = ref.find('@');
  if (at == std::string::npos || ref.size() < at + 41) return false;
  for (size_t i = at + 1; i < at + 41; ++i)
    if (!std::isxdigit(static_cast<unsigned char>(ref[i])) || std::isupper(static_cast<unsigned char>(ref[i]))) return false;
  auto rest = ref.substr(at + 41);
  return rest.rfind(" # v", 0) == 0;
}

const std::vector<std::string> kYamlFiles = {"action.yml", ".github/workflows/ci.yml", ".github/workflows/review.yml",
                                             ".github/workflows/release.yml", ".github/workflows/fuzz.yml"};

int run_shell(const std::string& cmd, std::string* output) {
  review::test::TempDir dir;
  auto log = (dir.path() / "out.txt").string();
  int rc = std::system((cmd + " > '" + log + "' 2>&1").c_str());
  *output = slurp(log);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

}  // namespace

TEST_CASE("every third-party action is pinned to a commit SHA with a version comment", "[github][action]") {
  for (const auto& f : kYamlFiles) {
    auto text = slurp(source(f));
    REQUIRE_FALSE(text.empty());
    for (const auto& line : lines_of(text)) {
      auto t = trim(line);
      if (t.rfind("uses:", 0) != 0) continue;
      auto ref = trim(t.substr(5));
      INFO(f << ": " << line);
      CHECK((ref == "./" || is_sha_pin(ref)));
    }
  }
}

TEST_CASE("action.yml declares the inputs and outputs of the contract", "[github][action]") {
  auto text = slurp(source("action.yml"));
  for (const char* key : {"  ruleset:", "  fail-on:", "  filter:", "  github-token:", "  annotations:", "  comment:",
                          "  sarif-file:", "  upload-sarif:", "  category:", "  config:", "  version:", "  verdict:",
                          "  findings:", "using: composite", "actions/obtain.sh", "actions/build.sh", "actions/run.sh",
                          "actions/gate.sh", "github/codeql-action/upload-sarif@"}) {
    INFO(key);
    CHECK(text.find(key) != std::string::npos);
  }
  // Inputs reach shell code only through env: no ${{ inputs.* }} inside a run: line.
  for (const auto& line : lines_of(text)) {
    if (trim(line).rfind("run:", 0) == 0) {
      INFO(line);
      CHECK(line.find("${{") == std::string::npos);
    }
  }
}

TEST_CASE("review.yml: permissions and pull_request event types", "[github][action]") {
  auto text = slurp(source(".github/workflows/review.yml"));
  for (const char* key : {"contents: read", "checks: write", "pull-requests: write", "security-events: write",
                          "types: [opened, synchronize, reopened, edited, labeled, unlabeled]", "uses: ./"}) {
    INFO(key);
    CHECK(text.find(key) != std::string::npos);
  }
  for (const auto& line : lines_of(text)) {  // pull_request_target only ever named in a comment
    auto pos = line.find("pull_request_target");
    INFO(line);
    CHECK((pos == std::string::npos || line.find('#') < pos));
  }
}

TEST_CASE("review.yml reviews with rulesets that ship", "[github][action]") {
  YAML::Node wf = YAML::LoadFile(source(".github/workflows/review.yml"));
  int named = 0;
  for (const auto& step : wf["jobs"]["review"]["steps"]) {
    if (!step["uses"] || step["uses"].as<std::string>() != "./") continue;
    std::istringstream names(step["with"]["ruleset"].as<std::string>(""));
    for (std::string name; names >> name; ++named) {
      INFO(name);
      // A shipped name is a file rulesets/<name>.rules (embedded in the binary at build time).
      CHECK(std::ifstream(source("rulesets/" + name + ".rules")).good());
    }
  }
  CHECK(named > 0);
  // The config's `rulesets:` may stand in for the input (actions/run.sh), so it is not required.
  YAML::Node action = YAML::LoadFile(source("action.yml"));
  CHECK_FALSE(action["inputs"]["ruleset"]["required"].as<bool>());
}

TEST_CASE("action.yml and the workflows are valid YAML", "[github][action]") {
  // yaml-cpp (the library the runner's config reader uses), so the check never depends on
  // what Python modules a machine happens to have.
  for (const auto& f : kYamlFiles) {
    INFO(f);
    YAML::Node doc;
    std::string error;
    try {
      doc = YAML::LoadFile(std::string(REVIEW_SOURCE_DIR) + "/" + f);
    } catch (const YAML::Exception& e) {
      error = e.what();
    }
    CHECK(error.empty());
    CHECK(doc.IsMap());
  }
  // A broken file is caught (the check can fail).
  CHECK_THROWS_AS(YAML::Load("on: [push\njobs: {"), YAML::Exception);
}

TEST_CASE("action harness: the composite action's scripts in a faked Actions environment", "[github][action]") {
  std::string out;
  int rc = run_shell("REVIEW_RUNNER_PATH='" REVIEW_RUNNER_PATH "' bash '" + source("tests/github/action_harness.sh") + "'",
                     &out);
  INFO(out);
  CHECK(rc == 0);
  CHECK(out.find(" passed, 0 failed") != std::string::npos);
}
