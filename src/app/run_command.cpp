#include "app/run_command.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>

#include "app/exit_codes.h"
#include "app/progress.h"
#include "integrate/driver.h"
#include "model/build_model.h"
#include "output/hdf5_file.h"
#include "output/recorder.h"
#include "scenario/load_scenario.h"
#include "version.h"

namespace uwsim::app {

namespace {

std::atomic<bool> g_interrupt{false};
std::atomic<int> g_signal{0};

// First Ctrl-C (or SIGTERM from a batch system): finish the current step, write what we have,
// exit 128 + signal. A second one: the default action.
extern "C" void on_stop_signal(int signal_number) {
  g_signal.store(signal_number);
  g_interrupt.store(true);
  std::signal(signal_number, SIG_DFL);
}

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string status_of(const integrate::RunResult& result) {
  switch (result.outcome) {
    case integrate::Outcome::completed: return "completed";
    case integrate::Outcome::interrupted: return "interrupted";
    case integrate::Outcome::diverged: return "failed: " + result.message;
  }
  return "failed";
}

void write_header(output::Hdf5File& file, const scenario::Scenario& scenario,
                  const RunOptions& options) {
  file.set_root_attribute("scenario", scenario.resolved_yaml);
  file.set_root_attribute("scenario_name", scenario.name);
  file.set_root_attribute("scenario_file", scenario.source_path);
  file.set_root_attribute("command_line", options.command_line);
  std::string overrides;  // one --set argument per line, for sweeps and for reading back what varied
  for (const std::string& o : options.overrides) overrides += o + "\n";
  file.set_root_attribute("overrides", overrides);
  file.set_root_attribute("simulator_version", UWSIM_VERSION);
  file.set_root_attribute("status", "running");
}

}  // namespace

int run_scenario(const RunOptions& options) {
  std::vector<std::string> overrides = options.overrides;
  if (options.duration) overrides.push_back("simulation.duration=" + format_number(*options.duration));

  scenario::Scenario scenario;
  try {
    scenario = scenario::load_scenario(options.scenario_path, overrides);
  } catch (const scenario::ScenarioError& error) {
    // Already "file:line:column: error: …", the form editors and compilers use: print as is.
    for (const scenario::Diagnostic& d : error.diagnostics()) std::fprintf(stderr, "%s\n", scenario::format(d).c_str());
    return kBadInput;
  }
  const model::Model model = model::build_model(scenario);
  const integrate::Settings settings = integrate::settings_from(scenario.simulation);

  const std::filesystem::path path =
      options.output_path ? std::filesystem::path(*options.output_path)
                          : std::filesystem::path("results") / (scenario.name + ".h5");
  std::optional<output::Hdf5File> file;
  try {
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
    file.emplace(path.string());
    write_header(*file, scenario, options);
  } catch (const std::exception& error) {
    spdlog::error("cannot write the output file {}: {}", path.string(), error.what());
    return kBadInput;
  }

  if (settings.method == integrate::Method::rk4) {
    for (const std::string& joint : model.joints_with_stiff_damping(settings.step)) {
      spdlog::warn("joint '{}': its damping is too stiff for a {} s step on this light a link and may make "
                   "rk4 unstable (damping·step > 2·inertia); use a smaller step or dopri5", joint, settings.step);
    }
    // The stops and connectors are critically damped at ω (double eigenvalue −ω): rk4 is stable
    // for ω·step up to about 2.8 (its real stability interval); warn with some margin.
    bool has_stops = false;
    for (const model::Body& body : model.bodies)
      has_stops = has_stops || std::isfinite(body.joint.lower) || std::isfinite(body.joint.upper) || body.joint.friction > 0.0;
    if (has_stops && model.limit_frequency * settings.step > 2.0)
      spdlog::warn("compliance.limit_frequency ({:.4g} Hz) is too stiff for a {} s rk4 step (ω·step > 2): joint stops "
                   "may go unstable; use a smaller step, dopri5 or a lower frequency",
                   model.limit_frequency / (2.0 * M_PI), settings.step);
    if (!model.connectors.empty() && model.constraint_frequency * settings.step > 2.0)
      spdlog::warn("compliance.constraint_frequency ({:.4g} Hz) is too stiff for a {} s rk4 step (ω·step > 2): "
                   "connectors may drift apart; use a smaller step, dopri5 or a lower frequency",
                   model.constraint_frequency / (2.0 * M_PI), settings.step);
  }
  spdlog::info("running '{}' for {} s ({} body(ies), {})", scenario.name, settings.duration,
               model.bodies.size(), settings.method == integrate::Method::rk4 ? "rk4" : "dopri5");
  g_interrupt.store(false);
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  const auto wall_start = std::chrono::steady_clock::now();
  integrate::RunResult result;
  try {
    output::Recorder recorder(model, *file);
    ProgressLine progress(recorder, settings.duration, isatty(STDERR_FILENO) == 1);
    result = integrate::run(model, settings, progress, &g_interrupt);
  } catch (const std::exception& error) {
    // A write that failed (disk full) or a stepper that gave up: still end with a valid file.
    result.outcome = integrate::Outcome::diverged;
    result.message = error.what();
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  std::string warnings;
  for (const std::string& w : result.warnings) {
    spdlog::warn("{}", w);
    warnings += w + "\n";
  }
  try {
    file->set_root_attribute("warnings", warnings);
    file->set_root_attribute("status", status_of(result));
    file->close();
  } catch (const std::exception& error) {
    spdlog::error("could not finish the output file {}: {}", path.string(), error.what());
    return kNumericalFailure;
  }

  switch (result.outcome) {
    case integrate::Outcome::completed:
      spdlog::info("completed {} s in {:.3f} s wall time ({} steps)", settings.duration, wall, result.steps);
      spdlog::info("output: {}", path.string());
      return kDone;
    case integrate::Outcome::interrupted:
      spdlog::warn("interrupted at t = {} s; output so far: {}", result.end_time, path.string());
      return 128 + g_signal.load();
    case integrate::Outcome::diverged:
      spdlog::error("run failed: {}", result.message);
      spdlog::error("output up to t = {} s: {}", result.end_time, path.string());
      return kNumericalFailure;
  }
  return kNumericalFailure;
}

}  // namespace uwsim::app
