// Test helper: run a loaded scenario and keep, at every output sample, each body's world pose
// and velocity and each controller's held output (what the result file holds, in memory).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "integrate/driver.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"

namespace uwsim::test {

struct BodySample {
  Eigen::Matrix3d R_WB;
  Eigen::Vector3d p_WB;
  Eigen::Matrix<double, 6, 1> nu;  // Fossen order [u v w p q r], body frame
};

struct Recording {
  scenario::Scenario scenario;
  model::Model model;
  integrate::RunResult result;
  std::vector<double> t;
  std::vector<std::vector<BodySample>> bodies;          // [sample][body], model order
  std::vector<std::vector<Eigen::VectorXd>> outputs;     // [sample][controller], model order
  std::vector<std::vector<double>> q, qd;                // [sample][body]: its joint's position, rate

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
  const scenario::BodySpec& spec(const std::string& name) const {
    for (const auto& b : scenario.bodies)
      if (b.name == name) return b;
    return scenario.bodies.front();
  }
};

class RecordingSink : public integrate::SampleSink {
 public:
  explicit RecordingSink(Recording& r) : r_(r) {}
  void on_sample(double t, const double* x, const double*, const dynamics::Workspace& ws) override {
    r_.t.push_back(t);
    std::vector<BodySample> bodies;
    std::vector<double> q, qd;
    for (std::size_t i = 0; i < ws.bodies.size(); ++i) {
      const auto& s = ws.bodies[i];
      BodySample b;
      b.R_WB = s.X_WB.R;
      b.p_WB = s.X_WB.p;
      b.nu << s.motion.V_WB_B.tail<3>(), s.motion.V_WB_B.head<3>();
      bodies.push_back(b);
      const model::Body& m = r_.model.bodies[i];
      const bool moves = m.joint.dof() == 1;
      q.push_back(moves ? x[m.q_offset] : 0.0);
      qd.push_back(moves ? x[m.v_offset] : 0.0);
    }
    r_.bodies.push_back(std::move(bodies));
    r_.q.push_back(std::move(q));
    r_.qd.push_back(std::move(qd));
    std::vector<Eigen::VectorXd> outputs;
    for (const auto& c : ws.controllers) outputs.push_back(c.output);
    r_.outputs.push_back(std::move(outputs));
  }

 private:
  Recording& r_;
};

inline Recording record(const std::string& path, const std::vector<std::string>& overrides = {}) {
  Recording r;
  r.scenario = scenario::load_scenario(path, overrides);
  r.model = model::build_model(r.scenario);
  RecordingSink sink(r);
  r.result = integrate::run(r.model, integrate::settings_from(r.scenario.simulation), sink);
  return r;
}

}  // namespace uwsim::test
