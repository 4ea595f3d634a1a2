// A cascaded position → velocity loop (a velocity pid whose setpoint is a position pid, the
// arrangement of Leborne et al. 2018 Sec. IV-B) against the single PD it equals when both loops
// run at one rate, and the zero-order hold between loops at different rates.
#include <doctest/doctest.h>

#include <string>

#include "integrate/driver.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"

using namespace uwsim;

namespace {

struct Samples {
  std::vector<double> q;
  std::vector<double> outer_output, inner_setpoint;
};

class Sink : public integrate::SampleSink {
 public:
  explicit Sink(Samples& s) : s_(s) {}
  void on_sample(double, const double* x, const double*, const dynamics::Workspace& ws) override {
    s_.q.push_back(x[0]);
    if (ws.controllers.size() == 2) {
      s_.outer_output.push_back(ws.controllers[0].output[0]);
      s_.inner_setpoint.push_back(ws.controllers[1].setpoint[0]);
    }
  }

 private:
  Samples& s_;
};

Samples run(const std::string& controllers, std::vector<std::string>* order = nullptr) {
  const std::string yaml =
      "name: cascade\n"
      "simulation: {duration: 4.0, step: 0.001, output_rate: 100.0}\n"
      "inputs:\n"
      "  - {name: path, type: sine, amplitude: 0.5, frequency: 0.4}\n"
      "bodies:\n"
      "  - {name: link, mass: 2.0, inertia: [0.3, 0.3, 0.5]}\n"
      "joints:\n"
      "  - {name: j, type: revolute, parent: world, child: link}\n"
      "controllers:\n" + controllers;
  const scenario::Scenario s = scenario::load_scenario_text(yaml, "cascade.yaml");
  const dynamics::Model m = model::build_model(s);
  if (order)
    for (const dynamics::Controller& c : m.controllers) order->push_back(c.name);
  Samples out;
  Sink sink(out);
  REQUIRE(integrate::run(m, scenario::integration_settings(s.simulation), sink).outcome == integrate::Outcome::completed);
  return out;
}

}  // namespace

TEST_CASE("cascade: P position loop with velocity feed-forward into a P velocity loop is the PD with kp = Kv·Kp, kd = Kv") {
  // τ = Kv·(q̇_d + Kp·(q_d − q) − q̇) = Kv·Kp·e + Kv·ė, both loops sampling at 100 Hz.
  std::vector<std::string> order;
  const Samples cascade = run("  - {name: velocity, type: pid, joint: j, rate: 100.0, mode: velocity, setpoint: position, kp: 2.0}\n"
                              "  - {name: position, type: pid, joint: j, rate: 100.0, setpoint: path, kp: 4.0, feed_forward: true}\n",
                              &order);
  // Listed inner first in the file; the outer loop still updates first.
  REQUIRE(order == std::vector<std::string>{"position", "velocity"});
  const Samples pd = run("  - {name: pd, type: pid, joint: j, rate: 100.0, setpoint: path, kp: 8.0, kd: 2.0}\n");
  REQUIRE(cascade.q.size() == pd.q.size());
  double worst = 0.0, moved = 0.0;
  for (std::size_t k = 0; k < pd.q.size(); ++k) worst = std::max(worst, std::abs(cascade.q[k] - pd.q[k])), moved = std::max(moved, std::abs(pd.q[k]));
  CHECK(worst < 1e-12);
  CHECK(moved > 0.3);
}

TEST_CASE("cascade: the inner loop holds the outer loop's output between the outer samples") {
  const Samples s = run("  - {name: position, type: pid, joint: j, rate: 20.0, setpoint: path, kp: 4.0, ki: 1.0, feed_forward: true}\n"
                        "  - {name: velocity, type: pid, joint: j, rate: 500.0, mode: velocity, setpoint: position, kp: 2.0, ki: 5.0}\n");
  REQUIRE(s.outer_output.size() == s.inner_setpoint.size());
  for (std::size_t k = 0; k < s.outer_output.size(); ++k) CHECK(s.inner_setpoint[k] == s.outer_output[k]);
  // The outer output changes only every 5 output samples (20 Hz against 100 Hz).
  int changes = 0;
  for (std::size_t k = 1; k < s.outer_output.size(); ++k) changes += s.outer_output[k] != s.outer_output[k - 1];
  CHECK(changes <= static_cast<int>(s.outer_output.size() / 5) + 1);
  CHECK(changes > 10);
}
