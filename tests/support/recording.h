// Test helper: run a scenario (text or file) through the library and keep every sample — the
// state, its derivative, what the controllers hold, every thruster and every body pose.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "integrate/driver.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"

namespace uwsim::test {

// Every sample: time, the state, and what the controllers hold.
struct Recording {
  std::vector<double> t;
  std::vector<std::vector<double>> x, xdot;
  std::vector<std::vector<model::ControllerSignals>> signals;
  std::vector<std::vector<actuation::ThrusterState>> thrusters;
  std::vector<std::vector<spatial::Pose>> X_WB;  // every body's pose
};

class RecordingSink : public integrate::SampleSink {
 public:
  RecordingSink(const model::Model& model, Recording& r) : n_(static_cast<std::size_t>(model.state_size())), r_(r) {}
  void on_sample(double t, const double* x, const double* xdot, const dynamics::Workspace& ws) override {
    r_.t.push_back(t);
    r_.x.emplace_back(x, x + n_);
    r_.xdot.emplace_back(xdot, xdot + n_);
    r_.signals.push_back(ws.controllers);
    r_.thrusters.push_back(ws.thrusters);
    r_.X_WB.emplace_back();
    for (const dynamics::BodyState& b : ws.bodies) r_.X_WB.back().push_back(b.X_WB);
  }

 private:
  std::size_t n_;
  Recording& r_;
};

struct Run {
  scenario::Scenario scenario;
  model::Model model;
  Recording rec;
  integrate::RunResult result;
};

inline Run run_scenario(scenario::Scenario loaded) {
  Run run;
  run.scenario = std::move(loaded);
  run.model = model::build_model(run.scenario);
  RecordingSink sink(run.model, run.rec);
  run.result = integrate::run(run.model, integrate::settings_from(run.scenario.simulation), sink);
  REQUIRE(run.result.outcome == integrate::Outcome::completed);
  return run;
}

// A scenario written in the test, named inside scenarios/ so that includes resolve against
// the shipped parts.
inline Run run_text(const std::string& yaml) {
  return run_scenario(scenario::load_scenario_text(yaml, std::string(UWSIM_SOURCE_DIR) + "/scenarios/inline_test.yaml"));
}

// A shipped scenario, `path` relative to the source tree, with --set overrides.
inline Run run_file(const std::string& path, const std::vector<std::string>& overrides = {}) {
  return run_scenario(scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/" + path, overrides));
}

}  // namespace uwsim::test
