// Test helper: the diagnostics a scenario file produces.
#pragma once

#include <doctest/doctest.h>

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

}  // namespace uwsim::test
