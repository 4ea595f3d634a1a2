// The validated content of a scenario file: the model's spec (model/spec.h: bodies, joints,
// forces, inputs, actuators, connectors, controllers), and what the file says about its run
// and itself: the integration settings, the `trim` block, its name, where it came from and the
// warnings of its load. Plain data.
#pragma once

#include <string>
#include <vector>

#include "analysis/trim_spec.h"
#include "integrate/settings.h"
#include "model/spec.h"

namespace uwsim::scenario {

enum class IntegratorKind { rk4, dopri5 };

struct SimulationSpec {
  double duration = 10.0;                 // s
  IntegratorKind integrator = IntegratorKind::rk4;
  double step = 0.001;                    // s: the fixed step (rk4), the first trial step (dopri5)
  double max_step = 0.0;                  // s: dopri5 step bound, 0 = none
  double abs_tol = 1e-8;                  // dopri5 only
  double rel_tol = 1e-8;                  // dopri5 only
  double output_rate = 50.0;              // Hz: samples at exactly k / output_rate
};

// The integrator's settings the `simulation` section asks for.
inline integrate::Settings integration_settings(const SimulationSpec& simulation) {
  integrate::Settings s;
  s.method = simulation.integrator == IntegratorKind::dopri5 ? integrate::Method::dopri5 : integrate::Method::rk4;
  s.duration = simulation.duration;
  s.step = simulation.step;
  s.max_step = simulation.max_step;
  s.abs_tol = simulation.abs_tol;
  s.rel_tol = simulation.rel_tol;
  s.output_rate = simulation.output_rate;
  return s;
}

// A scenario is the spec the model builder takes (its base, so model::build_model(scenario)
// builds it) with the file's own data around it.
struct Scenario : model::Spec {
  std::string name;
  std::string description;
  std::string source_path;    // the file it was read from
  std::string resolved_yaml;  // the whole scenario after includes and --set overrides, as YAML
                              // text (no `include` left)
  SimulationSpec simulation;
  // Every file the load read (the scenario, its parts, CSV files), as opened; an output may
  // not be one of them. Warnings: problems that do not stop a run (file:line:column).
  std::vector<std::string> input_files;
  std::vector<std::string> warnings;
  analysis::TrimSpec trim;          // the `trim` block: sim trim's unknowns and steady rates
};

}  // namespace uwsim::scenario
