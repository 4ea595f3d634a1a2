// Test helper: run a scenario (text or file) through the library and keep every sample — the
// state, its derivative, what the controllers hold, every thruster and every body pose — and,
// for tests that read bodies by name, the same run as per-body samples (record()).
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "integrate/driver.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"

namespace uwsim::test {

// Every sample: time, the state, and what the controllers hold.
struct Samples {
  std::vector<double> t;
  std::vector<std::vector<double>> x, xdot;
  std::vector<std::vector<dynamics::ControllerSignals>> signals;
  std::vector<std::vector<actuation::ThrusterState>> thrusters;
  std::vector<std::vector<spatial::Pose>> X_WB;  // every body's pose
  std::vector<std::vector<spatial::Vec6>> V_WB_B;  // every body's velocity, Fossen order [u v w p q r]
  std::vector<std::vector<double>> connector_distance, connector_angle;  // m, rad: each connector's error
  std::vector<std::vector<sensors::Reading>> sensors;  // every sensor's output (Workspace::sensors)
};

class RecordingSink : public integrate::SampleSink {
 public:
  RecordingSink(const dynamics::Model& model, Samples& r)
      : n_(static_cast<std::size_t>(model.state_size())), connectors_(model.connectors.size()), r_(r) {}
  void on_sample(double t, const double* x, const double* xdot, const dynamics::Workspace& ws) override {
    r_.t.push_back(t);
    r_.x.emplace_back(x, x + n_);
    r_.xdot.emplace_back(xdot, xdot + n_);
    r_.signals.push_back(ws.controllers);
    r_.sensors.push_back(ws.sensors);
    r_.thrusters.push_back(ws.thrusters);
    r_.X_WB.emplace_back();
    r_.connector_distance.emplace_back();
    r_.connector_angle.emplace_back();
    for (std::size_t c = 0; c < connectors_; ++c) {
      r_.connector_distance.back().push_back(ws.connectors.rows(c).distance);
      r_.connector_angle.back().push_back(ws.connectors.rows(c).angle);
    }
    r_.V_WB_B.emplace_back();
    for (const dynamics::BodyState& b : ws.bodies) {
      r_.X_WB.back().push_back(b.X_WB);
      r_.V_WB_B.back().push_back(spatial::to_fossen_order(b.motion.V_WB_B));
    }
  }

 private:
  std::size_t n_, connectors_;
  Samples& r_;
};

struct Run {
  scenario::Scenario scenario;
  dynamics::Model model;
  Samples rec;
  integrate::RunResult result;
};

inline Run run_scenario(scenario::Scenario loaded) {
  Run run;
  run.scenario = std::move(loaded);
  run.model = model::build_model(run.scenario);
  RecordingSink sink(run.model, run.rec);
  run.result = integrate::run(run.model, scenario::integration_settings(run.scenario.simulation), sink);
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

// One body at one sample, as the result file holds it.
struct BodySample {
  Eigen::Matrix3d R_WB;
  Eigen::Vector3d p_WB;
  Eigen::Matrix<double, 6, 1> nu;  // Fossen order [u v w p q r], body frame
};

// A run seen per body and per controller, looked up by name.
struct Recording {
  scenario::Scenario scenario;
  dynamics::Model model;
  integrate::RunResult result;
  std::vector<double> t;
  std::vector<std::vector<BodySample>> bodies;       // [sample][body], model order
  std::vector<std::vector<Eigen::VectorXd>> outputs;  // [sample][controller], model order
  std::vector<std::vector<double>> q, qd;             // [sample][body]: its joint's position, rate

  int body(const std::string& name) const {
    for (std::size_t i = 0; i < model.bodies.size(); ++i)
      if (model.bodies[i].name == name) return static_cast<int>(i);
    return -1;
  }
  int controller(const std::string& name) const {
    for (std::size_t i = 0; i < model.controllers.size(); ++i)
      if (model.controllers[i].name == name) return static_cast<int>(i);
    return -1;
  }
  const model::BodySpec& spec(const std::string& name) const {
    for (const auto& b : scenario.bodies)
      if (b.name == name) return b;
    return scenario.bodies.front();
  }
};

// The scenario at `path` (absolute) with --set overrides, run and seen per body.
inline Recording record(const std::string& path, const std::vector<std::string>& overrides = {}) {
  Run run = run_scenario(scenario::load_scenario(path, overrides));
  Recording r;
  r.t = run.rec.t;
  for (std::size_t k = 0; k < run.rec.t.size(); ++k) {
    std::vector<BodySample> bodies;
    std::vector<double> q, qd;
    for (std::size_t i = 0; i < run.model.bodies.size(); ++i) {
      const dynamics::Body& m = run.model.bodies[i];
      BodySample b;
      b.R_WB = run.rec.X_WB[k][i].R;
      b.p_WB = run.rec.X_WB[k][i].p;
      b.nu = run.rec.V_WB_B[k][i];
      bodies.push_back(b);
      const bool moves = m.joint.dof() == 1;
      q.push_back(moves ? run.rec.x[k][static_cast<std::size_t>(m.q_offset)] : 0.0);
      qd.push_back(moves ? run.rec.x[k][static_cast<std::size_t>(m.v_offset)] : 0.0);
    }
    r.bodies.push_back(std::move(bodies));
    r.q.push_back(std::move(q));
    r.qd.push_back(std::move(qd));
    std::vector<Eigen::VectorXd> outputs;
    for (const auto& c : run.rec.signals[k]) outputs.push_back(c.output);
    r.outputs.push_back(std::move(outputs));
  }
  r.scenario = std::move(run.scenario);
  r.model = std::move(run.model);
  r.result = std::move(run.result);
  return r;
}

}  // namespace uwsim::test
