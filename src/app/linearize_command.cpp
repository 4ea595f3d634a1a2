#include "app/linearize_command.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <utility>

#include "analysis/finite_difference.h"
#include "analysis/modes.h"
#include "app/exit_codes.h"
#include "app/linear_model_output.h"
#include "app/operating_point.h"
#include "app/stop_signals.h"
#include "app/trim_command.h"
#include "model/build_model.h"
#include "output/output_file.h"

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

// The HDF5 file and the JSON file beside it, checked and locked before the work
// (output/output_file.h); false after saying why they cannot be used.
struct Outputs {
  std::optional<output::OutputFile> h5, json;
};

bool open_outputs(const LinearizeOptions& options, const scenario::Scenario& scenario, Outputs& out) {
  const auto [h5, json] = output_paths(options, scenario);
  if (json == h5) {
    spdlog::error("-o {}: give the HDF5 file (FILE.h5); the JSON file is written beside it", h5.string());
    return false;
  }
  const output::InputFiles inputs(scenario.input_files);
  try {
    out.h5.emplace(h5.string(), "-o", inputs, options.command_line);
    out.json.emplace(json.string(), "-o, its JSON file", inputs, options.command_line);
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return false;
  }
  return true;
}

// With --inside-limits, each joint at or beyond a limit is first moved this many of its
// finite-difference steps inside the range (1e-3 rad or m at the default --fd-step): far enough
// that no difference reaches the stop.
constexpr double kLimitMarginSteps = 100.0;

int report_linear_model(const LinearizeOptions& options, const scenario::Scenario& scenario, const dynamics::Model& model,
                        analysis::OperatingPoint point, const std::string& description, Outputs& outputs) {
  std::vector<analysis::LimitContact> moved;
  const double margin = kLimitMarginSteps * options.relative_step;
  if (options.inside_limits) {
    moved = analysis::joints_at_limits(model, point.x, options.relative_step);
    analysis::move_inside_limits(model, point.x, moved, margin);
  }
  const analysis::LinearModel linear =
      analysis::linearize(model, point, {options.relative_step, &StopSignals::requested()});
  if (!linear.A.allFinite() || !linear.B.allFinite()) {
    spdlog::error("the model's rates are not finite near {}", description);
    return kNumericalFailure;
  }
  const analysis::ModalAnalysis modes =
      analysis::modal_analysis(linear.system_matrix(), linear.constrained ? &linear.basis : nullptr);
  std::string overrides;
  for (const std::string& o : options.overrides) overrides += o + "\n";
  if (StopSignals::requested()) return report_interrupted();  // during the modes, which do not poll
  const LinearReport report{scenario, point, description, linear, modes, options.command_line, overrides, moved, margin};
  if (!options.quiet) print_linear_model(stdout, report);

  try {
    outputs.h5->write_with([&](const std::string& path) { write_linear_model_hdf5(path, report); });
    outputs.json->write(linear_model_json(report));
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return exit_code_for(error);
  }
  spdlog::info("output: {} and {}", outputs.h5->target(), outputs.json->target());
  return kDone;
}

// The operating point (simulated, trimmed or initial), A and B there, and the outputs.
int linearize_model(const LinearizeOptions& options, const scenario::Scenario& scenario, const dynamics::Model& model,
                    Outputs& outputs) {
  const std::atomic<bool>* stop = &StopSignals::requested();

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
    point.held = trimmed.held;  // controllers: their outputs at the equilibrium, held (trim.h)
    description = "the trim solution";
    return report_linear_model(options, scenario, trimmed_model, point, description, outputs);
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
  return report_linear_model(options, scenario, model, point, description, outputs);
}

}  // namespace

int linearize_scenario(const LinearizeOptions& options) {
  const StopSignals signals;  // Ctrl-C and SIGTERM stop the loops: exit 130 or 143, nothing written
  const auto scenario = load_or_report(options.scenario_path, options.overrides);
  Outputs outputs;
  if (!scenario || !open_outputs(options, *scenario, outputs)) return kBadInput;
  const dynamics::Model model = model::build_model(*scenario);
  if (const auto too_large = linear_size_problem(model)) {
    spdlog::error("{}: {}", options.scenario_path, *too_large);
    return kBadInput;
  }
  try {
    return linearize_model(options, *scenario, model, outputs);
  } catch (const analysis::Interrupted&) {
    return report_interrupted();
  }
}

}  // namespace uwsim::app
