#include "app/linearize_command.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <filesystem>
#include <utility>

#include "analysis/finite_difference.h"
#include "analysis/modes.h"
#include "app/exit_codes.h"
#include "app/linear_model_output.h"
#include "app/operating_point.h"
#include "app/stop_signals.h"
#include "app/trim_command.h"
#include "model/build_model.h"
#include "output/result_target.h"

namespace uwsim::app {

namespace {

// The HDF5 file and the JSON file written beside it.
std::pair<std::filesystem::path, std::filesystem::path> output_paths(const LinearizeOptions& options,
                                                                     const scenario::Scenario& scenario) {
  const std::filesystem::path h5 = options.output_path
                                       ? std::filesystem::path(*options.output_path)
                                       : std::filesystem::path("results") / (scenario.name + "_linear.h5");
  std::filesystem::path json = h5;
  json.replace_extension(".json");
  return {h5, json};
}

// Outputs that would be refused after the work are refused before it (exit 2, nothing done).
bool outputs_acceptable(const LinearizeOptions& options, const scenario::Scenario& scenario) {
  const auto [h5, json] = output_paths(options, scenario);
  if (json == h5) {
    spdlog::error("-o {}: give the HDF5 file (FILE.h5); the JSON file is written beside it", h5.string());
    return false;
  }
  try {
    for (const std::filesystem::path& path : {h5, json})
      output::require_absent_or_regular(path.string(), "the output " + path.string());
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return false;
  }
  return true;
}

int report_linear_model(const LinearizeOptions& options, const scenario::Scenario& scenario,
                        const analysis::OperatingPoint& point, const std::string& description,
                        const analysis::LinearModel& linear) {
  if (!linear.A.allFinite() || !linear.B.allFinite()) {
    spdlog::error("the model's rates are not finite near {}", description);
    return kNumericalFailure;
  }
  const analysis::ModalAnalysis modes =
      analysis::modal_analysis(linear.system_matrix(), linear.constrained ? &linear.basis : nullptr);
  std::string overrides;
  for (const std::string& o : options.overrides) overrides += o + "\n";
  if (StopSignals::requested()) return report_interrupted();  // during the modes, which do not poll
  const LinearReport report{scenario, point, description, linear, modes, options.command_line, overrides};
  if (!options.quiet) print_linear_model(stdout, report);

  const auto [h5, json] = output_paths(options, scenario);
  try {
    write_replacing(h5, [&](const std::string& path) { write_linear_model_hdf5(path, report); });
    write_replacing(json, [&](const std::string& path) { write_linear_model_json(path, report); });
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return kBadInput;
  }
  spdlog::info("output: {} and {}", h5.string(), json.string());
  return kDone;
}

// The operating point (simulated, trimmed or initial), A and B there, and the outputs.
int linearize_model(const LinearizeOptions& options, const scenario::Scenario& scenario, const dynamics::Model& model) {
  const std::atomic<bool>* stop = &StopSignals::requested();
  analysis::LinearizeOptions linearize_options{options.relative_step, stop};

  analysis::OperatingPoint point;
  std::string description;
  if (options.trim) {
    analysis::TrimResult trimmed;
    try {
      analysis::TrimProblem problem = trim_problem(scenario, options.unknowns, options.steady);
      problem.stop = stop;
      trimmed = analysis::trim(model, problem);
    } catch (const analysis::TrimError& error) {
      spdlog::error("trim: {}", error.what());
      return kBadInput;
    }
    if (!options.quiet) print_trim(stdout, scenario, trimmed);
    if (!trimmed.converged) {
      spdlog::error("no equilibrium found, so nothing to linearise about ({})", trimmed.message);
      return kNoEquilibrium;
    }
    // Channels that were unknowns enter as constants at their trimmed values (analysis/trim.h).
    const dynamics::Model trimmed_model = analysis::with_trimmed_inputs(model, trimmed);
    point.time = scenario.trim.time;
    point.x = trimmed.x;
    description = "the trim solution";
    const analysis::LinearModel linear = analysis::linearize(trimmed_model, point, linearize_options);
    return report_linear_model(options, scenario, point, description, linear);
  }
  const double time = options.at_time.value_or(0.0);
  const SimulatedPoint simulated = simulate_to(model, scenario.simulation, time, stop);
  if (simulated.result.outcome == integrate::Outcome::interrupted) return report_interrupted();
  if (simulated.result.outcome != integrate::Outcome::completed) {
    spdlog::error("the simulation to t = {} s failed: {}", time, simulated.result.message);
    return kNumericalFailure;
  }
  point = simulated.point;
  description = time > 0.0 ? "the state simulated to t = " + exact_number(time) + " s" : "the initial state";
  const analysis::LinearModel linear = analysis::linearize(model, point, linearize_options);
  return report_linear_model(options, scenario, point, description, linear);
}


}  // namespace

int linearize_scenario(const LinearizeOptions& options) {
  const StopSignals signals;  // Ctrl-C and SIGTERM stop the loops: exit 130 or 143, nothing written
  const auto scenario = load_or_report(options.scenario_path, options.overrides);
  if (!scenario || !outputs_acceptable(options, *scenario)) return kBadInput;
  const dynamics::Model model = model::build_model(*scenario);
  if (const auto too_large = linear_size_problem(model)) {
    spdlog::error("{}: {}", options.scenario_path, *too_large);
    return kBadInput;
  }
  try {
    return linearize_model(options, *scenario, model);
  } catch (const analysis::Interrupted&) {
    return report_interrupted();
  }
}

}  // namespace uwsim::app
