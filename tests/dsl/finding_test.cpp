// Finding::witness: a flat list kept sorted by name, a later value of a name replacing the first.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "catch.hpp"
#include "dsl/finding.hpp"

using namespace review::dsl;

TEST_CASE("a witness lists its names in order, whatever order they were set in") {
  Witness w;
  w.set("n.line", "160");
  w.set("val", "NaN");
  w.set("n.file", "a.py");
  std::vector<std::string> names;
  for (const auto& [k, v] : w) names.push_back(k);
  CHECK(names == std::vector<std::string>{"n.file", "n.line", "val"});
  CHECK(w.size() == 3);
}

TEST_CASE("setting a name a witness already has replaces its value") {
  Witness w{{"x", "1"}, {"y", "2"}};
  w.set("x", "3");
  REQUIRE(w.find("x"));
  CHECK(*w.find("x") == "3");
  CHECK(w.size() == 2);
  CHECK(w.find("z") == nullptr);
  CHECK(Witness{{"x", "1"}, {"x", "4"}} == Witness{{"x", "4"}});
}

TEST_CASE("a witness answers like a map on random names") {
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    Witness w;
    std::vector<std::pair<std::string, std::string>> model;  // last value per name, by search
    for (int i = 0; i < 20; ++i) {
      std::string k(1, static_cast<char>('a' + rng() % 8)), v = std::to_string(rng() % 100);
      w.set(k, v);
      bool found = false;
      for (auto& e : model)
        if (e.first == k) e.second = v, found = true;
      if (!found) model.emplace_back(k, v);
    }
    std::sort(model.begin(), model.end());
    std::vector<std::pair<std::string, std::string>> got(w.begin(), w.end());
    CHECK(got == model);
  }
}
