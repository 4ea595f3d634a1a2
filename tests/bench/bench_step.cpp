// Speed benchmark (steady clock; not a test): µs per dynamics evaluation and per RK4 step,
// the latter through the full driver with HDF5 output at the scenario's output rate.
// Usage: bench_step [SCENARIO.yaml] [--duration S] [--repeats N] [--without-output]
//        (default scenarios/bluerov2_push.yaml, 5 repeats; --without-output: only the evaluation
//        and the driver with samples discarded, the dynamics-only figures of tools/bench_vs_mujoco)
// MuJoCo 2.2.2 on the same models, side by side in one run: tools/bench_vs_mujoco (the machines
// are noisy: compare ratios from one run).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_support.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"

int main(int argc, char** argv) {
  std::string scenario_path = std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_push.yaml";
  std::vector<std::string> overrides;
  int repeats = 5;  // a 30 s run takes some 25 ms: --repeats 31 steadies the commit's share
  bool without_output = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--duration" && i + 1 < argc) overrides.push_back(std::string("simulation.duration=") + argv[++i]);
    else if (arg == "--repeats" && i + 1 < argc) repeats = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--without-output") without_output = true;
    else if (arg == "--help" || arg == "-h") {
      std::printf("usage: bench_step [SCENARIO.yaml] [--duration S] [--repeats N] [--without-output]\n");
      return 0;
    } else scenario_path = arg;
  }
  try {
    const auto scenario = uwsim::scenario::load_scenario(scenario_path, overrides);
    const auto model = uwsim::model::build_model(scenario);
    const auto settings = uwsim::scenario::integration_settings(scenario.simulation);
    if (without_output) {
      const uwsim::bench::Timing timing = uwsim::bench::measure_without_output(model, settings, repeats);
      std::printf("scenario %s: %zu body(ies), %d state values\n", scenario.name.c_str(), model.bodies.size(),
                  model.state_size());
      std::printf("dynamics evaluation: %.3f us (median of %d)\n", timing.eval_us, repeats);
      std::printf("RK4 step without output: %.3f us (median of %d runs of %ld steps)\n",
                  timing.step_without_output_us, repeats, timing.steps);
      return 0;
    }
    const uwsim::bench::Timing timing = uwsim::bench::measure(model, settings, repeats);
    std::printf("scenario %s: %zu body(ies), %d state values\n", scenario.name.c_str(),
                model.bodies.size(), model.state_size());
    std::printf("dynamics evaluation: %.3f us (median of %d)\n", timing.eval_us, repeats);
    std::printf("RK4 step incl. HDF5 output at %.0f Hz: %.3f us (median of %d runs of %ld steps)\n",
                settings.output_rate, timing.step_us, repeats, timing.steps);
    // What the durability of the output costs (src/output/hdf5_file.h): the same run with the
    // file committed only at close.
    std::printf("  of which committing to disk at creation, each chunk and every 2 s: %.3f us (%+.1f %%; "
                "%.3f us with commits at close only)\n",
                timing.step_us - timing.step_uncommitted_us,
                100.0 * (timing.step_us - timing.step_uncommitted_us) / timing.step_uncommitted_us,
                timing.step_uncommitted_us);
  } catch (const uwsim::scenario::ScenarioError& e) {
    for (const auto& d : e.diagnostics()) std::fprintf(stderr, "%s\n", uwsim::scenario::format(d).c_str());
    return 2;
  }
  return 0;
}
