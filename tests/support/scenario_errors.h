// Test helpers: the diagnostics a scenario file produces, and the YAML files to try things on.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>
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

// The --set overrides a shipped scenario needs to load here: scenarios/validation/kth_*.yaml
// read RC CSVs made from recordings that are not shipped (scenarios/validation/README.md), so a
// neutral one (every stick centred) stands in, written once per process. Empty for the others.
inline std::vector<std::string> stand_in_overrides(const std::filesystem::path& scenario) {
  if (scenario.parent_path().filename() != "validation" || scenario.filename().string().rfind("kth_", 0) != 0) return {};
  static const std::filesystem::path csv = [] {
    const auto path = std::filesystem::temp_directory_path() / ("uwsim_neutral_rc_" + std::to_string(::getpid()) + ".csv");
    std::ofstream(path) << "time,rc1 [us],rc2 [us],rc3 [us],rc4 [us],rc5 [us],rc6 [us]\n0,1500,1500,1500,1500,1500,1500\n";
    return path;
  }();
  std::vector<std::string> overrides;
  for (int k = 1; k <= 6; ++k) overrides.push_back("inputs.rc" + std::to_string(k) + ".file=" + csv.string());
  return overrides;
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
