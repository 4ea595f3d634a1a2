// Speed benchmark (steady clock; not a test): µs per dynamics evaluation and per RK4 step,
// the latter through the full driver with HDF5 output at the scenario's output rate.
// Usage: bench_step [SCENARIO.yaml] [--duration S]   (default scenarios/bluerov2_push.yaml)
// Compare with MuJoCo 2.2.2 on the same machine: ../shared/bench/mujoco (single body ≈ 3.6 µs
// per RK4 step); compare ratios from one run, the machines are noisy.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "dynamics/pipeline.h"
#include "integrate/driver.h"
#include "model/build_model.h"
#include "output/hdf5_file.h"
#include "output/recorder.h"
#include "scenario/load_scenario.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double time_evaluations(const uwsim::model::Model& model) {
  uwsim::dynamics::Workspace ws(model);
  std::vector<double> x = model.x0, xdot(x.size());
  const int n = 2'000'000;
  const auto start = Clock::now();
  for (int i = 0; i < n; ++i) {
    uwsim::dynamics::evaluate(model, 0.0, x.data(), xdot.data(), ws);
    x[model.nq] += 1e-12 * xdot[model.nq];  // keep the compiler from hoisting the loop
  }
  return seconds_since(start) / n * 1e6;
}

double time_rk4_run(const uwsim::model::Model& model, const uwsim::integrate::Settings& settings,
                    long& steps) {
  const std::string path = (std::filesystem::temp_directory_path() / "uwsim_bench.h5").string();
  uwsim::output::Hdf5File file(path);
  uwsim::output::Recorder recorder(model, file);
  const auto start = Clock::now();
  const auto result = uwsim::integrate::run(model, settings, recorder);
  file.close();
  const double wall = seconds_since(start);
  std::filesystem::remove(path);
  steps = result.steps;
  return wall / static_cast<double>(result.steps) * 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  std::string scenario_path = std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_push.yaml";
  std::vector<std::string> overrides;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--duration" && i + 1 < argc) overrides.push_back(std::string("simulation.duration=") + argv[++i]);
    else scenario_path = arg;
  }
  try {
    const auto scenario = uwsim::scenario::load_scenario(scenario_path, overrides);
    const auto model = uwsim::model::build_model(scenario);
    uwsim::integrate::Settings settings = uwsim::integrate::settings_from(scenario.simulation);
    settings.method = uwsim::integrate::Method::rk4;

    std::vector<double> eval_us, step_us;
    long steps = 0;
    for (int repeat = 0; repeat < 5; ++repeat) {
      eval_us.push_back(time_evaluations(model));
      step_us.push_back(time_rk4_run(model, settings, steps));
    }
    std::printf("scenario %s: %zu body(ies), %d state values\n", scenario.name.c_str(),
                model.bodies.size(), model.state_size());
    std::printf("dynamics evaluation: %.3f us (median of 5)\n", median(eval_us));
    std::printf("RK4 step incl. HDF5 output at %.0f Hz: %.3f us (median of 5 runs of %ld steps)\n",
                settings.output_rate, median(step_us), steps);
  } catch (const uwsim::scenario::ScenarioError& e) {
    for (const auto& d : e.diagnostics()) std::fprintf(stderr, "%s\n", uwsim::scenario::format(d).c_str());
    return 2;
  }
  return 0;
}
