// Start-up benchmark (CPU time of this thread, so that other processes on a busy machine count
// less; not a test): what a run does before its first step, phase
// by phase, in this process, as `sim` does it once per run. The first load of a scenario also
// parses and compiles the sections of the embedded JSON Schema it uses; a second load shows the rest.
// Usage: bench_startup [SCENARIO.yaml]   (default scenarios/bluerov2_push.yaml)
// Process start (exec, dynamic loading) is not in these figures: time `sim --version` for it.
#include <time.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "model/build_model.h"
#include "output/hdf5_file.h"
#include "output/recorder.h"
#include "scenario/load_scenario.h"

namespace {

struct Clock {
  using time_point = double;
  static double now() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
  }
};

double ms_since(double start) { return Clock::now() - start; }

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_push.yaml";
  namespace scenario = uwsim::scenario;
  try {
    // The first load parses and compiles the schema's sections the scenario (and its parts) use.
    auto t = Clock::now();
    const scenario::Scenario s = scenario::load_scenario(path);
    const double load = ms_since(t);
    t = Clock::now();
    const auto model = uwsim::model::build_model(s);
    const double build = ms_since(t);
    const std::string out = (std::filesystem::temp_directory_path() / "bench_startup.h5").string();
    t = Clock::now();
    {
      uwsim::output::Hdf5File file(out);
      uwsim::output::Recorder recorder(model, file);
      file.flush();
      file.close();
    }
    const double output = ms_since(t);
    std::filesystem::remove(out);
    t = Clock::now();
    scenario::load_scenario(path);
    const double reload = ms_since(t);
    std::printf("scenario %s\n", path.c_str());
    std::printf("  load, validate (compiling what it uses) %5.2f ms  (again, compiled: %.2f ms)\n", load, reload);
    std::printf("  build the model                      %7.2f ms\n", build);
    std::printf("  create the result file, its structure %6.2f ms\n", output);
    std::printf("  total                                %7.2f ms\n",
                load + build + output);
  } catch (const scenario::ScenarioError& e) {
    for (const auto& d : e.diagnostics()) std::fprintf(stderr, "%s\n", scenario::format(d).c_str());
    return 2;
  }
  return 0;
}
