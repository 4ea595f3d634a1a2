// `sim run`: scenario file → model → integration → HDF5 result file.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace uwsim::app {

struct RunOptions {
  std::string scenario_path;
  std::optional<std::string> output_path;   // default: results/<scenario name>.h5
  std::optional<double> duration;          // overrides simulation.duration
  std::vector<std::string> overrides;      // --set key.path=value
  std::string command_line;                // stored in the result file
  bool force = false;                      // run even if its projected size is absurd
};

// Returns the process exit code (exit_codes.h). Reports problems through spdlog.
int run_scenario(const RunOptions& options);

}  // namespace uwsim::app
