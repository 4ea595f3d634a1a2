// Test helpers: the diagnostics a scenario file produces, and the YAML files to try things on.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "scenario/load_scenario.h"

namespace uwsim::test {

// Loads and returns the diagnostics; fails the test if the load succeeds or throws anything
// other than ScenarioError.
inline std::vector<scenario::Diagnostic> diagnostics_of(const std::string& path,
                                                        const std::vector<std::string>& overrides = {}) {
  try {
    scenario::load_scenario(path, overrides);
  } catch (const scenario::ScenarioError& e) {
    return e.diagnostics();
  } catch (const std::exception& e) {
    FAIL("unexpected exception: " << e.what());
  }
  FAIL("no ScenarioError for " << path);
  return {};
}

// Every diagnostic formatted as the command line prints it, one per line.
inline std::string all_text(const std::vector<scenario::Diagnostic>& diagnostics) {
  std::string out;
  for (const auto& d : diagnostics) out += scenario::format(d) + "\n";
  return out;
}

// A part (included by scenarios, not run by itself): its schema modeline names part.schema.json.
inline bool is_part_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  return first.find("part.schema.json") != std::string::npos;
}

// Every .yaml file of the repository's scenarios/ and tests/data/ (parts, malformed cases and
// all), in a fixed order.
inline std::vector<std::filesystem::path> repository_yaml_files() {
  std::vector<std::filesystem::path> files;
  for (const char* root : {UWSIM_SOURCE_DIR "/scenarios", UWSIM_TEST_DATA_DIR})
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
      if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace uwsim::test
