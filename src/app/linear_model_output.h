// How `sim linearize` reports a linear model: a table on stdout, an HDF5 file and a JSON file
// with the same content (README "Equilibria and linear models" lists the layout).
#pragma once

#include <cstdio>
#include <string>

#include "analysis/linearize.h"
#include "analysis/modes.h"
#include "scenario/spec.h"

namespace uwsim::app {

struct LinearReport {
  const scenario::Scenario& scenario;
  const analysis::OperatingPoint& point;
  std::string operating_point;  // how it was found: "initial state", "simulated to t = 30 s", "trim"
  const analysis::LinearModel& model;
  const analysis::ModalAnalysis& modes;
  std::string command_line;
  std::string overrides;        // the --set arguments, one per line
  // --inside-limits: the joints moved inside their range before linearising, as they were found
  // (analysis/joint_limits.h), and by how much.
  std::vector<analysis::LimitContact> moved_inside_limits = {};
  double limit_margin = 0.0;
};

void print_linear_model(std::FILE* out, const LinearReport& report);
// Creates the HDF5 file at `path`, which must not exist (it is a fresh temporary of
// output::OutputFile::write_with); throws output::OutputError.
void write_linear_model_hdf5(const std::string& path, const LinearReport& report);
// The JSON file's text.
std::string linear_model_json(const LinearReport& report);

}  // namespace uwsim::app
