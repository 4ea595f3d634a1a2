// `delay` on input channels (inputs/channel.h) and on controllers' commands
// (control/delay_line.h): a step delayed by d arrives exactly at its time + d for rk4 and
// dopri5 (the impulse it delivers is exact), a delayed CSV channel is the undelayed one shifted,
// the first value holds before d, and runs with delays are bit-identical when repeated.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <vector>

#include "control/delay_line.h"
#include "dynamics/pipeline.h"
#include "scenario/load_scenario.h"
#include "support/simulate.h"

using namespace uwsim;

namespace {

// A free body pushed along x by `channel` (N): no drag, so its momentum is the force's impulse.
scenario::Scenario pushed_body(const inputs::Channel& channel, scenario::IntegratorKind method) {
  scenario::Scenario s = test::scenario_with({test::plain_body("rov")}, 1.0, 1e-3, 7.0);
  s.simulation.integrator = method;
  s.inputs.push_back({channel, {}});
  model::ForceSpec f;
  f.name = "push";
  f.body = "rov";
  f.force = Eigen::Vector3d(1.0, 0.0, 0.0);
  f.input = channel.name;
  s.forces.push_back(f);
  return s;
}

inputs::Channel step_channel(double at, double value, double delay) {
  inputs::Channel c;
  c.name = "push";
  c.kind = inputs::ChannelKind::step;
  c.value = 0.0;
  c.table.x = {at};
  c.table.y = {value};
  c.delay = delay;
  return c;
}

struct InputSink : integrate::SampleSink {
  std::vector<double> t;
  std::vector<std::vector<double>> inputs, commands;
  void on_sample(double time, const double*, const double*, const dynamics::Workspace& ws) override {
    t.push_back(time);
    inputs.push_back(ws.inputs);
    std::vector<double> c;
    for (const actuation::ThrusterState& th : ws.thrusters) c.push_back(th.command);
    commands.push_back(c);
  }
};

}  // namespace

TEST_CASE("delay: a delayed step arrives exactly at its time + delay, for rk4 and dopri5 (exact impulse)") {
  for (auto method : {scenario::IntegratorKind::rk4, scenario::IntegratorKind::dopri5}) {
    CAPTURE(static_cast<int>(method));
    for (double delay : {0.0, 0.3, 0.2763}) {
      CAPTURE(delay);
      const scenario::Scenario s = pushed_body(step_channel(0.1237, 3.0, delay), method);
      const test::Trajectory tr = test::simulate(s);
      // Momentum at t = 1 s: 3 N over 1 − 0.1237 − delay.
      CHECK(tr.nu(tr.t.size() - 1)[0] * 11.5 == doctest::Approx(3.0 * (1.0 - 0.1237 - delay)).epsilon(1e-11));
      const std::vector<double> jumps = tr.model.discontinuities();
      CHECK(std::find(jumps.begin(), jumps.end(), 0.1237 + delay) != jumps.end());
    }
  }
}

TEST_CASE("delay: the initial value holds before the delay, also for a step at t = 0 and a sine") {
  inputs::Channel c = step_channel(0.0, 2.0, 0.25);  // a step at 0: c(0) = 2 from the start
  inputs::apply_delay(c);
  CHECK(c.initial == 2.0);
  CHECK(inputs::evaluate(c, 0.1, 0.0, nullptr) == 2.0);
  CHECK(inputs::evaluate(c, 0.3, 0.25, nullptr) == 2.0);
  inputs::Channel sine;
  sine.kind = inputs::ChannelKind::sine;
  sine.amplitude = 1.5, sine.frequency = 0.7, sine.phase = 0.4, sine.offset = 0.1, sine.delay = 0.5;
  inputs::Channel plain = sine;
  plain.delay = 0.0;
  inputs::apply_delay(sine);
  CHECK(sine.initial == doctest::Approx(0.1 + 1.5 * std::sin(0.4)).epsilon(1e-15));
  CHECK(inputs::evaluate(sine, 0.3, 0.0, nullptr) == sine.initial);
  for (double t : {0.5, 0.77, 1.9, 3.3}) {
    CAPTURE(t);
    CHECK(inputs::evaluate(sine, t, 0.5, nullptr) == doctest::Approx(inputs::evaluate(plain, t - 0.5, 0.0, nullptr)).epsilon(1e-12));
  }
}

TEST_CASE("delay: a delayed csv channel equals the undelayed one shifted, interpolated and held") {
  const std::string file = std::string(UWSIM_TEST_DATA_DIR) + "/inputs/replay.yaml";
  const double d = 0.25;
  const dynamics::Model plain = model::build_model(scenario::load_scenario(file));
  const dynamics::Model late = model::build_model(scenario::load_scenario(
      file, {"inputs.pwm_linear.delay=0.25", "inputs.pwm_held.delay=0.25"}));
  REQUIRE(late.inputs.channels[0].delay == d);
  std::vector<double> a(2), b(2);
  // Off the sample times (0, 0.1, … 0.8 in the file): the same values d later.
  for (int k = 0; k <= 100; ++k) {
    const double t = d + 0.0137 + 0.0091 * k;
    CAPTURE(t);
    late.inputs.sample(t, t, a.data());
    plain.inputs.sample(t - d, t - d, b.data());
    CHECK(a[0] == doctest::Approx(b[0]).epsilon(1e-12));
    CHECK(a[1] == b[1]);
  }
  // At each sample time + d exactly: the sample itself, for both.
  const inputs::Table& table = plain.inputs.channels[0].table;
  for (std::size_t k = 0; k < table.x.size(); ++k) {
    const double t = late.inputs.channels[0].table.x[k];
    CHECK(t == table.x[k] + d);
    late.inputs.sample(t, t, a.data());
    CHECK(a[0] == table.y[k]);
    CHECK(a[1] == table.y[k]);
  }
  // Before d: the value at t = 0.
  for (double t : {0.0, 0.1, 0.2499}) {
    late.inputs.sample(t, 0.0, a.data());
    CHECK(a[0] == table.y.front());
    CHECK(a[1] == table.y.front());
  }
  // The held channel's jumps move by d, and d itself is a breakpoint.
  std::vector<double> expected = {d};
  for (std::size_t k = 1; k < table.x.size(); ++k) expected.push_back(table.x[k] + d);
  CHECK(late.discontinuities() == expected);
  // Through a run: the thruster's command at each output sample is the file's value d earlier.
  InputSink sink;
  scenario::Scenario s = scenario::load_scenario(file, {"inputs.pwm_held.delay=0.25"});
  s.simulation.output_rate = 20.0;
  integrate::run(model::build_model(s), scenario::integration_settings(s.simulation), sink);
  for (std::size_t k = 0; k < sink.t.size(); ++k) {
    CAPTURE(sink.t[k]);
    const double source = std::max(0.0, sink.t[k] - d);
    CHECK(sink.commands[k][0] == plain.inputs.channels[1].table.hold(source + 1e-12));
  }
}

TEST_CASE("delay: a sum or scale takes the delays of its operands, not its own") {
  const std::string path = std::filesystem::temp_directory_path() / "uwsim_delay_sum.yaml";
  std::ofstream(path) << "name: delay_sum\nsimulation: {duration: 0.1}\n"
                         "inputs:\n  - {name: a, type: constant, value: 1}\n"
                         "  - {name: s, type: sum, inputs: [a], delay: 0.2}\n"
                         "bodies:\n  - {name: rov, mass: 11.5, inertia: [0.16, 0.16, 0.16], volume: 0.0115}\n";
  try {
    scenario::load_scenario(path);
    FAIL("a delayed sum was accepted");
  } catch (const scenario::ScenarioError& e) {
    CHECK(std::string(e.what()).find("put 'delay' on its operands") != std::string::npos);
  }
  std::filesystem::remove(path);
}

TEST_CASE("delay line: each sample comes out exactly d later, the first one at once, in a fixed ring") {
  control::DelayLine line(0.25, 0.1, 2);  // pending: samples of (t − 0.25, t], at most 3
  double held[2] = {0, 0};
  const double s0[2] = {1, 10}, s1[2] = {2, 20}, s2[2] = {3, 30}, s3[2] = {4, 40};
  line.push(0.0, s0, held);
  CHECK(held[0] == 1);  // before d: the first sample
  CHECK(line.next_release_time() == 0.25);
  line.push(0.1, s1, held);
  CHECK(held[0] == 1);
  line.push(0.2, s2, held);
  CHECK(!line.release_due(0.2499));
  CHECK(line.release(0.25, held));
  CHECK(held[0] == 1);  // sample 0, released at 0.25
  CHECK(line.next_release_time() == doctest::Approx(0.35).epsilon(1e-15));
  line.push(0.3, s3, held);
  CHECK(held[1] == 10);
  CHECK(line.release(0.1 + 0.25, held));
  CHECK(held[0] == 2);
  CHECK(line.release(0.2 + 0.25, held));
  CHECK(held[1] == 30);
  // A driver that stepped past two releases lets both out; the later one holds.
  control::DelayLine late(0.05, 0.01, 1);
  double h = 0;
  for (int k = 0; k < 5; ++k) {
    const double v = k;
    late.push(0.01 * k, &v, &h);
  }
  CHECK(late.release(0.0 + 0.05, &h));
  CHECK(h == 0);
  CHECK(late.release(0.03 + 0.05, &h));
  CHECK(h == 3);
  CHECK(!control::DelayLine(0.0, 0.01, 3).active());
}
