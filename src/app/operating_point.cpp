#include "app/operating_point.h"

#include <cstdio>

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

SimulatedPoint simulate_to(const dynamics::Model& model, const scenario::SimulationSpec& simulation, double time) {
  SimulatedPoint out;
  integrate::Settings settings = scenario::integration_settings(simulation);
  settings.duration = time;
  LastSample sink(model, out.point);
  out.result = integrate::run(model, settings, sink);
  return out;
}

std::string exact_number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

}  // namespace uwsim::app
