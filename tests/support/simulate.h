// Test helpers: build bodies and scenarios in code, run them, keep every sample in memory.
#pragma once

#include <vector>

#include "integrate/driver.h"
#include "model/build_model.h"
#include "scenario/spec.h"
#include "spatial/spatial.h"

namespace uwsim::test {

// A BlueROV2-sized body (León-González et al. 2024 Sec. 6 / Wu 2018 figures) with its CG at
// the origin, no damping, no added mass, neutrally buoyant: tests switch on what they check.
inline model::BodySpec plain_body(const std::string& name = "body") {
  model::BodySpec b;
  b.name = name;
  b.mass = 11.5;
  b.inertia_Bcm_B = Eigen::Vector3d(0.16, 0.16, 0.16).asDiagonal();
  b.volume = b.mass / 1000.0;
  return b;
}

inline scenario::Scenario scenario_with(const std::vector<model::BodySpec>& bodies,
                                        double duration, double step = 1e-3,
                                        double output_rate = 50.0) {
  scenario::Scenario s;
  s.name = "test";
  s.bodies = bodies;
  s.simulation.duration = duration;
  s.simulation.step = step;
  s.simulation.output_rate = output_rate;
  return s;
}

struct Trajectory {
  std::vector<double> t;
  std::vector<std::vector<double>> x, xdot;
  integrate::RunResult result;
  dynamics::Model model;

  // Sample k of body b: position, quaternion, Fossen-ordered ν and ν̇.
  Eigen::Vector3d position(std::size_t k, std::size_t b = 0) const {
    return Eigen::Map<const Eigen::Vector3d>(x[k].data() + model.bodies[b].q_offset);
  }
  Eigen::Vector4d quaternion(std::size_t k, std::size_t b = 0) const {
    return Eigen::Map<const Eigen::Vector4d>(x[k].data() + model.bodies[b].q_offset + 3);
  }
  spatial::Vec6 nu(std::size_t k, std::size_t b = 0) const {
    return spatial::to_fossen_order(Eigen::Map<const spatial::Vec6>(x[k].data() + model.bodies[b].v_offset));
  }
  spatial::Vec6 nu_dot(std::size_t k, std::size_t b = 0) const {
    return spatial::to_fossen_order(Eigen::Map<const spatial::Vec6>(xdot[k].data() + model.bodies[b].v_offset));
  }
};

class CollectingSink : public integrate::SampleSink {
 public:
  explicit CollectingSink(Trajectory& trajectory) : trajectory_(trajectory) {}
  void on_sample(double t, const double* x, const double* xdot, const dynamics::Workspace&) override {
    const auto n = static_cast<std::size_t>(trajectory_.model.state_size());
    trajectory_.t.push_back(t);
    trajectory_.x.emplace_back(x, x + n);
    trajectory_.xdot.emplace_back(xdot, xdot + n);
  }

 private:
  Trajectory& trajectory_;
};

inline Trajectory simulate(const scenario::Scenario& scenario) {
  Trajectory trajectory;
  trajectory.model = model::build_model(scenario);
  CollectingSink sink(trajectory);
  trajectory.result = integrate::run(trajectory.model, scenario::integration_settings(scenario.simulation), sink);
  return trajectory;
}

}  // namespace uwsim::test
