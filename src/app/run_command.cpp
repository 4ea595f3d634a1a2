#include "app/run_command.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app/exit_codes.h"
#include "app/progress.h"
#include "app/rk4_stiffness.h"
#include "app/stop_signals.h"
#include "app/visual_output.h"
#include "integrate/driver.h"
#include "model/build_model.h"
#include "output/hdf5_file.h"
#include "output/recorder.h"
#include "output/result_target.h"
#include "scenario/load_scenario.h"
#include "version.h"

namespace uwsim::app {

namespace {

// Beyond these a run is almost surely a slip (a duration in ms typed as s, a step in s typed as
// ms); it is refused unless --force.
constexpr double kMaxProjectedBytes = 10e9;
constexpr double kMaxProjectedSteps = 1e9;

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// Times in messages: nine significant digits, so 12.340000000000002 reads 12.34.
std::string format_time(double t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", t);
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
  // Every attribute the run sets at its end exists from the first commit: set then, a new one
  // would grow the root group's header, and a kill during that commit could leave a file whose
  // datasets do not open. Set again, it only takes a new value.
  file.set_root_attribute("warnings", "");
}

// At most the samples a run writes: one per 1/rate from t = 0, and one at the end.
double sample_bound(const integrate::Settings& settings) {
  return std::floor(settings.duration * settings.output_rate) + 2.0;
}

// What the run would write and how many steps it would take, if either is absurd.
std::optional<std::string> absurd_size(const dynamics::Model& model, const integrate::Settings& settings) {
  const double samples = sample_bound(settings);
  const double values = static_cast<double>(output::Recorder::values_per_sample(model));
  const double bytes = samples * values * sizeof(double);
  const bool rk4 = settings.method == integrate::Method::rk4;
  const double steps = rk4 ? settings.duration / settings.step : 0.0;
  if (bytes <= kMaxProjectedBytes && steps <= kMaxProjectedSteps) return std::nullopt;
  char text[160];
  std::snprintf(text, sizeof text, "the run would write about %.3g GB (%.3g samples of %.0f values, before compression)",
                bytes / 1e9, samples, values);
  std::string message = text;
  if (rk4) {
    std::snprintf(text, sizeof text, " and take %.3g rk4 steps", steps);
    message += text;
  }
  return message + "; more than 10 GB or 1e9 steps is taken for a slip in simulation.duration, step or "
                   "output_rate. Add --force to run it anyway";
}

// The scenario with --duration as one more override, or nullopt after printing its problems.
std::optional<scenario::Scenario> load(const RunOptions& options) {
  std::vector<std::string> overrides = options.overrides;
  if (options.duration) overrides.push_back("simulation.duration=" + format_number(*options.duration));
  try {
    return scenario::load_scenario(options.scenario_path, overrides);
  } catch (const scenario::ScenarioError& error) {
    // Already "file:line:column: error: …", the form editors and compilers use: print as is.
    for (const scenario::Diagnostic& d : error.diagnostics()) std::fprintf(stderr, "%s\n", scenario::format(d).c_str());
    return std::nullopt;
  }
}

// Takes the result's place at `path` (its folder made first) into `target`; false after saying
// why not.
bool claim_output(const std::filesystem::path& path, const scenario::Scenario& scenario, const RunOptions& options,
                  std::optional<output::ResultTarget>& target) {
  try {
    std::error_code ec;
    if (path.has_parent_path() && !std::filesystem::create_directories(path.parent_path(), ec) && ec)
      throw output::OutputRefused("cannot create the folder " + path.parent_path().string() + ": " + ec.message());
    target.emplace(path.string(), scenario.input_files, options.command_line);
  } catch (const output::OutputRefused& error) {
    spdlog::error("{}", error.what());
    return false;
  }
  if (!target->lock_warning().empty()) spdlog::warn("{}", target->lock_warning());
  if (target->had_stale_partial())
    spdlog::warn("{} is left from an earlier run that did not finish; this run replaces it", target->partial());
  return true;
}

// The file, with its structure on disk, becomes <output>.partial; the result is untouched.
// kDone, or the exit code after saying why nothing was written.
int create_partial(const scenario::Scenario& scenario, const dynamics::Model& model, const integrate::Settings& settings,
                   const RunOptions& options, output::ResultTarget& target, std::optional<output::Hdf5File>& file,
                   std::optional<output::Recorder>& recorder) {
  try {
    output::Hdf5FileOptions file_options;
    const double samples = sample_bound(settings);  // a short run gets short chunks
    file_options.expected_rows = samples < 1e6 ? static_cast<std::size_t>(samples) : 0;
    file_options.exclusive = true;  // the lock's holder removed any earlier one
    file.emplace(target.creating(), file_options);
    write_header(*file, scenario, options);
    recorder.emplace(model, *file);
    write_visuals(*file, scenario.bodies);  // what sim replay draws, so that it reads this file alone
    file->flush();
    target.publish_partial();
    file->renamed(target.partial());
  } catch (const std::exception& error) {
    recorder.reset();
    file.reset();  // closes; never throws
    target.discard_creating();
    spdlog::error("{}; nothing was written", error.what());
    return exit_code_for(error);
  }
  return kDone;
}

struct Stepped {
  integrate::RunResult result;
  std::optional<std::string> write_failure;  // the file could not take a sample
  double wall_seconds = 0.0;
};

// The integration, with the progress line, until the end, a stop signal or a failure.
Stepped step(const dynamics::Model& model, const integrate::Settings& settings, output::Recorder& recorder) {
  Stepped stepped;
  const auto wall_start = std::chrono::steady_clock::now();
  try {
    ProgressLine progress(recorder, settings.duration, isatty(STDERR_FILENO) == 1);
    stepped.result = integrate::run(model, settings, progress, &StopSignals::requested());
  } catch (const output::OutputError& error) {
    stepped.write_failure = error.what();
  } catch (const std::exception& error) {
    // A stepper that gave up: still end with a valid file.
    stepped.result.outcome = integrate::Outcome::diverged;
    stepped.result.message = error.what();
  }
  stepped.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return stepped;
}

// Ends the file (its warnings, its status, closed) and puts it in the result's place. kDone, or
// kOutputFailure after saying what is where.
int finish_result(const scenario::Scenario& scenario, Stepped& stepped, output::Hdf5File& file,
                  const output::Recorder& recorder, output::ResultTarget& target) {
  // Warnings that do not stop a run (the scenario's, then the run's) are kept in the file.
  std::string warnings;
  for (const std::string& w : scenario.warnings) warnings += w + "\n";
  for (const std::string& w : stepped.result.warnings) {
    spdlog::warn("{}", w);
    warnings += w + "\n";
  }
  if (!stepped.write_failure) {
    try {
      file.set_root_attribute("warnings", warnings);
      file.set_root_attribute("status", status_of(stepped.result));
      file.close();
    } catch (const output::OutputError& error) {
      stepped.write_failure = error.what();
    }
  }
  if (stepped.write_failure) {
    // The file keeps what was committed before the failure; the previous result stays.
    try {
      file.set_root_attribute("status", "failed: " + *stepped.write_failure);
    } catch (const std::exception&) {
    }
    try {
      file.close();
    } catch (const std::exception&) {
    }
    spdlog::error("{}", *stepped.write_failure);
    spdlog::error("the run stopped at t = {} s; what was written before the failure is in {}, and {} is "
                  "as it was before this run", format_time(recorder.last_time()), target.partial(), target.target());
    return kOutputFailure;
  }
  if (!file.canonical())
    spdlog::warn("{} was flushed on a timer and could not be rewritten afterwards: its bytes may differ "
                 "from a rerun's (its content does not)", target.target());
  try {
    target.publish_result();
  } catch (const output::OutputRefused& error) {
    spdlog::error("{}; the complete result is in {}", error.what(), target.partial());
    return kOutputFailure;
  }
  return kDone;
}

// How the run ended, in its last lines and its exit code.
int report_outcome(const integrate::RunResult& result, const integrate::Settings& settings,
                   const std::filesystem::path& path, double wall_seconds) {
  switch (result.outcome) {
    case integrate::Outcome::completed:
      spdlog::info("completed {} s in {:.3f} s wall time ({} steps)", format_time(settings.duration), wall_seconds,
                   result.steps);
      spdlog::info("output: {}", path.string());
      return kDone;
    case integrate::Outcome::interrupted:
      spdlog::warn("interrupted at t = {} s; output so far: {}", format_time(result.end_time), path.string());
      return exit_code_for_signal(StopSignals::signal_number());
    case integrate::Outcome::diverged:
      spdlog::error("run failed: {}", result.message);
      spdlog::error("output up to t = {} s: {}", format_time(result.end_time), path.string());
      return kNumericalFailure;
  }
  return kNumericalFailure;
}

}  // namespace

int run_scenario(const RunOptions& options) {
  const StopSignals signals;  // from the start: a broken stderr must not end the run
  const std::optional<scenario::Scenario> scenario = load(options);
  if (!scenario) return kBadInput;
  // Printed unless -q (errors only); kept in the result's `warnings` attribute either way.
  if (spdlog::should_log(spdlog::level::warn))
    for (const std::string& warning : scenario->warnings) std::fprintf(stderr, "%s\n", warning.c_str());
  const dynamics::Model model = model::build_model(*scenario);
  const integrate::Settings settings = scenario::integration_settings(scenario->simulation);
  if (!options.force) {
    if (const auto problem = absurd_size(model, settings)) {
      spdlog::error("{}: {}", options.scenario_path, *problem);
      return kBadInput;
    }
  }

  const std::filesystem::path path =
      options.output_path ? std::filesystem::path(*options.output_path)
                          : std::filesystem::path("results") / (scenario->name + ".h5");
  std::optional<output::ResultTarget> target;
  if (!claim_output(path, *scenario, options, target)) return kBadInput;
  std::optional<output::Hdf5File> file;
  std::optional<output::Recorder> recorder;
  if (const int code = create_partial(*scenario, model, settings, options, *target, file, recorder); code != kDone)
    return code;

  for (const std::string& warning : rk4_stiffness_warnings(model, settings)) spdlog::warn("{}", warning);
  spdlog::info("running '{}' for {} s ({} body(ies), {})", scenario->name, format_time(settings.duration),
               model.bodies.size(), settings.method == integrate::Method::rk4 ? "rk4" : "dopri5");
  Stepped stepped = step(model, settings, *recorder);
  if (const int code = finish_result(*scenario, stepped, *file, *recorder, *target); code != kDone) return code;
  return report_outcome(stepped.result, settings, path, stepped.wall_seconds);
}

}  // namespace uwsim::app
