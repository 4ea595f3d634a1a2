// `sim identify`: dynamic parameters from measurements (analysis/identification.h).
//   arm mode:  SCENARIO + DATA (result file or CSV of joint positions and motor currents or
//              joint efforts) → base parameters with standard deviations, cond(F), and the RMSE
//              of predicted currents on a validation record, with and without the actuator
//              dynamics ([Leborne2018] Table IV's comparison); optionally the predictions as
//              CSV and the estimates as a scenario part (identified_part.h).
//   drag mode: a CSV of speeds and forces → f = c₁|u|u + c₂u ([Nielsen2018] eq. 38;
//              analysis/drag_fit.h); with SCENARIO, --body and --axis, --write-part writes the
//              scenario's part with them (identified_part.h), and without them is refused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace uwsim::app {

struct IdentifyOptions {
  std::string scenario;                  // arm mode
  std::vector<std::string> overrides;    // --set
  std::string data, validation;          // result files or CSV
  std::vector<std::string> columns;      // "SERIES=COLUMN": where a series is in a CSV
  std::string time_column = "time";
  std::optional<double> from, to;        // s: the part of DATA (and of the validation record) used
  int filter_order = 3;
  double cutoff = 0.0;                   // Hz; 0: f_s/20
  double min_speed = 0.0;                // rad/s or m/s: slower joints' rows are left out of the fit
  std::uint32_t seed = 1;                // random states of the base-parameter search
  std::string format = "table";          // table, json
  std::string output, predictions, write_part;
  std::string drag, speed, force, variance;  // drag mode
  std::string body, axis;                    // drag mode's --write-part: where c₁, c₂ go (axis u v w p q r)
  std::string command_line;              // for the outputs' locks (output/output_file.h)
};

int identify(const IdentifyOptions& options);

}  // namespace uwsim::app
