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
// there (`stop`, may be null, is polled after each step: Outcome::interrupted).
struct SimulatedPoint {
  integrate::RunResult result;
  analysis::OperatingPoint point;
};
SimulatedPoint simulate_to(const dynamics::Model& model, const scenario::SimulationSpec& simulation, double time,
                           const std::atomic<bool>* stop = nullptr);

// "%.17g": the shortest form is not needed, only a number that reads back exactly.
std::string exact_number(double value);

// The largest problem sim trim and sim linearize take: state coordinates z (state_chart.h: 12
// per free body, 2 per joint, 1 per thruster state) and input channels. Their cost is the linear
// model's (trim checks the stability of what it finds): memory as n², time as n³ (the modes).
inline constexpr int kMaxLinearStates = 600;  // 50 free bodies
inline constexpr int kMaxLinearInputs = 600;
// Why `model` is beyond those limits (its size, the limit, and the time and memory it would
// take), or nothing. Checked before anything of that size is allocated.
std::optional<std::string> linear_size_problem(const dynamics::Model& model);

// A stop asked for by a signal (stop_signals.h) inside trim or linearize: said, nothing written;
// the exit code is the signal's, as sim run's (130 for SIGINT, 143 for SIGTERM).
int report_interrupted();

}  // namespace uwsim::app
