// What `sim trim` and `sim linearize` share: loading, the trim problem from the scenario and
// the command line, and the state at a simulated time.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/linearize.h"
#include "analysis/trim.h"
#include "integrate/driver.h"
#include "scenario/spec.h"

namespace uwsim::app {

// The scenario, or nothing after printing each of its problems to stderr (file:line:column).
std::optional<scenario::Scenario> load_or_report(const std::string& path, const std::vector<std::string>& overrides);

// The scenario's trim block, with the command line's --unknown and --steady lists in place of
// its own when given. Throws analysis::TrimError for a name that is no variable.
analysis::TrimProblem trim_problem(const scenario::Scenario& scenario, const std::vector<std::string>& unknowns,
                                   const std::vector<std::string>& steady);

// Runs the scenario from its initial state to `time` with its own integrator settings and
// returns the state there, with what its controllers hold. result.outcome says whether it got
// there.
struct SimulatedPoint {
  integrate::RunResult result;
  analysis::OperatingPoint point;
};
SimulatedPoint simulate_to(const dynamics::Model& model, const scenario::SimulationSpec& simulation, double time);

// "%.17g": the shortest form is not needed, only a number that reads back exactly.
std::string exact_number(double value);

}  // namespace uwsim::app
