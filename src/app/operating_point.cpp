#include "app/operating_point.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "analysis/state_chart.h"
#include "app/exit_codes.h"
#include "app/stop_signals.h"
#include "scenario/load_scenario.h"

namespace uwsim::app {

std::optional<scenario::Scenario> load_or_report(const std::string& path, const std::vector<std::string>& overrides) {
  try {
    return scenario::load_scenario(path, overrides);
  } catch (const scenario::ScenarioError& error) {
    for (const scenario::Diagnostic& d : error.diagnostics()) std::fprintf(stderr, "%s\n", scenario::format(d).c_str());
    return std::nullopt;
  }
}

namespace {

std::vector<analysis::VariableRef> parse_all(const std::vector<std::string>& names, const char* option) {
  std::vector<analysis::VariableRef> out;
  for (const std::string& name : names) {
    std::string why;
    auto v = analysis::parse_variable(name, why);
    if (!v) throw analysis::TrimError(std::string(option) + " " + name + ": " + why);
    out.push_back(*v);
  }
  return out;
}

class LastSample : public integrate::SampleSink {
 public:
  LastSample(const dynamics::Model& model, analysis::OperatingPoint& point) : model_(model), point_(point) {}
  void on_sample(double t, const double* x, const double*, const dynamics::Workspace& ws) override {
    point_.time = t;
    point_.x.assign(x, x + model_.state_size());
    point_.held = analysis::held_controls_of(model_, ws);
  }

 private:
  const dynamics::Model& model_;
  analysis::OperatingPoint& point_;
};

}  // namespace

analysis::TrimProblem trim_problem(const scenario::Scenario& scenario, const std::vector<std::string>& unknowns,
                                   const std::vector<std::string>& steady) {
  analysis::TrimProblem problem;
  problem.unknowns = unknowns.empty() ? scenario.trim.unknowns : parse_all(unknowns, "--unknown");
  problem.steady = steady.empty() ? scenario.trim.steady : parse_all(steady, "--steady");
  problem.time = scenario.trim.time;
  return problem;
}

SimulatedPoint simulate_to(const dynamics::Model& model, const scenario::SimulationSpec& simulation, double time,
                           const std::atomic<bool>* stop) {
  SimulatedPoint out;
  integrate::Settings settings = scenario::integration_settings(simulation);
  settings.duration = time;
  LastSample sink(model, out.point);
  out.result = integrate::run(model, settings, sink, stop);
  return out;
}

namespace {

// Measured on this project's machines (2 cores, 2026-12): sim linearize of free bodies with
// damping took 0.7 s of CPU and 36 MB at 300 coordinates, 4.7 s and 81 MB at 600, 54 s and
// 295 MB at 1200; the modes (complex eigenvectors and their inverse) grow as n³, the matrices
// (A, its error, the eigenvectors...) as n².
constexpr double kSecondsPerCube = 2.2e-8;
constexpr double kBytesPerSquare = 175.0;
constexpr double kBaseBytes = 20e6;

std::string rounded(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", x);
  return text;
}

std::string duration_text(double seconds) {
  if (seconds < 120.0) return rounded(seconds) + " s";
  if (seconds < 7200.0) return rounded(seconds / 60.0) + " min";
  if (seconds < 2.0 * 86400.0) return rounded(seconds / 3600.0) + " h";
  return rounded(seconds / 86400.0) + " days";
}

std::string memory_text(double bytes) {
  return bytes < 2e9 ? rounded(bytes / 1e6) + " MB" : rounded(bytes / 1e9) + " GB";
}

}  // namespace

std::optional<std::string> linear_size_problem(const dynamics::Model& model) {
  const double n = analysis::StateChart(model).size();
  const auto channels = static_cast<double>(model.inputs.channels.size());
  if (n <= kMaxLinearStates && channels <= kMaxLinearInputs) return std::nullopt;
  const double limit = kMaxLinearStates;
  std::string text = "the linear model would have " + exact_number(n) + " state coordinates and " + exact_number(channels) +
                     " input channels (" + std::to_string(model.bodies.size()) + " bodies); sim trim and sim linearize take at most " +
                     std::to_string(kMaxLinearStates) + " coordinates (50 free bodies) and " + std::to_string(kMaxLinearInputs) +
                     " channels";
  if (n > limit)
    text += ": at the limit they take about " + duration_text(kSecondsPerCube * limit * limit * limit) + " of CPU and " +
            memory_text(kBaseBytes + kBytesPerSquare * limit * limit) + ", time growing as the cube of the size and memory as its "
            "square, and this one would take about " + duration_text(kSecondsPerCube * n * n * n) + " and " +
            memory_text(kBaseBytes + kBytesPerSquare * n * n);
  return text;
}

int report_interrupted() {
  const int signal_number = StopSignals::signal_number();
  spdlog::warn("interrupted ({}): nothing written", strsignal(signal_number));
  return exit_code_for_signal(signal_number);
}

std::string exact_number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

}  // namespace uwsim::app
