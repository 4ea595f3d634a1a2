// `sim trim SCENARIO`: the equilibrium of the scenario's trim problem (analysis/trim.h).
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "analysis/trim.h"
#include "scenario/spec.h"

namespace uwsim::app {

struct TrimOptions {
  std::string scenario_path;
  std::vector<std::string> overrides, unknowns, steady;
  std::optional<std::string> scenario_output;  // write the solution as a new scenario's initial state
  std::optional<std::string> json_output;
  double tolerance = 1e-9;
  bool quiet = false;
  std::string command_line;
};

// Exit codes: 0 converged; 2 bad input, a problem trim cannot pose, or an output that cannot be
// used (output/output_file.h: one of the scenario's input files, a link, taken by another
// writer…); 4 no equilibrium found; 5 an output could not be written (a full disk).
int trim_scenario(const TrimOptions& options);

// The unknowns with their start and solution values, and the steady rates left.
void print_trim(std::FILE* out, const scenario::Scenario& scenario, const analysis::TrimResult& result);

}  // namespace uwsim::app
