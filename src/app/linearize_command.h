// `sim linearize SCENARIO [--at TIME | --trim]`: A, B and the modes at an operating point.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace uwsim::app {

struct LinearizeOptions {
  std::string scenario_path;
  std::optional<std::string> output_path;  // FILE.h5, with FILE.json beside it; default results/<name>_linear.h5
  std::optional<double> at_time;           // simulate to this time first
  bool trim = false;                       // solve the scenario's trim problem first
  std::vector<std::string> overrides, unknowns, steady;
  double relative_step = 1e-5;
  bool inside_limits = false;              // move joints at or beyond a limit inside their range first
  bool quiet = false;                      // no table
  std::string command_line;
};

// Exit codes: 0; 2 bad input or unwritable output; 3 the simulation to --at failed or the
// model's rates are not finite there; 4 --trim found no equilibrium.
int linearize_scenario(const LinearizeOptions& options);

}  // namespace uwsim::app
