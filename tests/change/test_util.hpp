// Helpers shared by the change-model tests.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace review::change::test {

inline std::string fixture_path(const std::string& name) {
  return std::string(REVIEW_SOURCE_DIR) + "/tests/fixtures/change/" + name;
}

inline std::string read_fixture(const std::string& name) {
  std::ifstream in(fixture_path(name), std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace review::change::test
