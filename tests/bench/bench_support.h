// Shared timing helpers for the benchmarks (steady clock, medians of repeats).
#pragma once

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "dynamics/pipeline.h"
#include "integrate/driver.h"
#include "output/hdf5_file.h"
#include "output/recorder.h"

namespace uwsim::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// µs per dynamics evaluation, over about `budget` seconds.
inline double time_evaluations(const dynamics::Model& model, double budget = 0.2) {
  dynamics::Workspace ws(model);
  std::vector<double> x = model.x0, xdot(x.size());
  long n = 0;
  const auto start = Clock::now();
  do {
    for (int i = 0; i < 1000; ++i, ++n) {
      dynamics::evaluate(model, 0.0, x.data(), xdot.data(), ws);
      x[static_cast<std::size_t>(model.nq)] += 1e-12 * xdot[static_cast<std::size_t>(model.nq)];  // defeat hoisting
    }
  } while (seconds_since(start) < budget);
  return seconds_since(start) / static_cast<double>(n) * 1e6;
}

// µs per RK4 step through the full driver, HDF5 output included (by default committed to disk
// as `sim` does: at creation, at each chunk, every 2 s; options.durable = false: at close only).
inline double time_rk4_run(const dynamics::Model& model, const integrate::Settings& settings, long& steps,
                           output::Hdf5FileOptions options = {}) {
  const std::string path = (std::filesystem::temp_directory_path() / "uwsim_bench.h5").string();
  output::Hdf5File file(path, options);
  output::Recorder recorder(model, file);
  const auto start = Clock::now();
  const auto result = integrate::run(model, settings, recorder);
  file.close();
  const double wall = seconds_since(start);
  std::filesystem::remove(path);
  steps = result.steps;
  return wall / static_cast<double>(result.steps) * 1e6;
}

// µs per RK4 step through the driver with samples discarded: what MuJoCo's harness times.
inline double time_rk4_run_without_output(const dynamics::Model& model, const integrate::Settings& settings,
                                          long* steps = nullptr) {
  struct Discard : integrate::SampleSink {
    void on_sample(double, const double*, const double*, const dynamics::Workspace&) override {}
  } discard;
  const auto start = Clock::now();
  const auto result = integrate::run(model, settings, discard);
  if (steps) *steps = result.steps;
  return seconds_since(start) / static_cast<double>(result.steps) * 1e6;
}

struct Timing {
  double eval_us, step_us, step_without_output_us;
  long steps;
  double step_uncommitted_us;  // HDF5 output committed only at close
};

inline Timing measure(const dynamics::Model& model, integrate::Settings settings, int repeats = 5) {
  settings.method = integrate::Method::rk4;
  std::vector<double> eval, step, bare_step, uncommitted_step;
  long steps = 0;
  output::Hdf5FileOptions at_close_only;
  at_close_only.durable = false;
  for (int r = 0; r < repeats; ++r) {
    eval.push_back(time_evaluations(model));
    step.push_back(time_rk4_run(model, settings, steps));
    uncommitted_step.push_back(time_rk4_run(model, settings, steps, at_close_only));
    bare_step.push_back(time_rk4_run_without_output(model, settings));
  }
  return {median(eval), median(step), median(bare_step), steps, median(uncommitted_step)};
}

// Evaluation and driver without output only (bench_step --without-output): the dynamics-only
// figures tools/bench_vs_mujoco prints beside the whole program's.
inline Timing measure_without_output(const dynamics::Model& model, integrate::Settings settings, int repeats = 5) {
  settings.method = integrate::Method::rk4;
  std::vector<double> eval, bare_step;
  long steps = 0;
  for (int r = 0; r < repeats; ++r) {
    eval.push_back(time_evaluations(model));
    bare_step.push_back(time_rk4_run_without_output(model, settings, &steps));
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return {median(eval), nan, median(bare_step), steps, nan};
}

}  // namespace uwsim::bench
