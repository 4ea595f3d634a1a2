// The integration driver: convergence order, tolerances, exact sample times, force switching,
// divergence and interruption.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "dynamics/pipeline.h"
#include "scenario/load_scenario.h"
#include "support/simulate.h"

using namespace uwsim;

namespace {

// Heave with quadratic damping only: (m + Z_ẇ)ẇ = −Z_|w|w·w|w|, so for w0 > 0
// w(t) = w0 / (1 + k·w0·t) with k = Z_|w|w / (m + Z_ẇ).
struct QuadraticDecay {
  model::BodySpec body = test::plain_body();
  double w0 = 1.0;
  QuadraticDecay() {
    body.added_mass_B(2, 2) = 14.57;
    body.quadratic_damping[2] = 36.99;
    body.initial.nu_B[2] = w0;
  }
  double k() const { return body.quadratic_damping[2] / (body.mass + body.added_mass_B(2, 2)); }
  double w(double t) const { return w0 / (1.0 + k() * w0 * t); }
  scenario::Scenario scenario(double duration, double step, double output_rate) const {
    scenario::Scenario s = test::scenario_with({body}, duration, step, output_rate);
    s.environment.gravity = 0.0;
    return s;
  }
};

double final_error(const QuadraticDecay& problem, const scenario::Scenario& s) {
  const test::Trajectory tr = test::simulate(s);
  const std::size_t last = tr.t.size() - 1;
  return std::abs(tr.nu(last)[2] - problem.w(tr.t[last]));
}

}  // namespace

TEST_CASE("rk4: the error falls by 2^4 when the step halves") {
  const QuadraticDecay problem;
  const double e1 = final_error(problem, problem.scenario(5.0, 0.1, 10.0));
  const double e2 = final_error(problem, problem.scenario(5.0, 0.05, 10.0));
  REQUIRE(e2 > 1e-13);  // well above rounding, so the ratio is meaningful
  CHECK(e1 / e2 == doctest::Approx(16.0).epsilon(0.1));
}

TEST_CASE("dopri5: meets its tolerance against the closed form, sampled at exactly k / rate") {
  const QuadraticDecay problem;
  scenario::Scenario s = problem.scenario(10.0, 1e-3, 7.0);
  s.simulation.integrator = scenario::IntegratorKind::dopri5;
  s.simulation.abs_tol = s.simulation.rel_tol = 1e-10;
  const test::Trajectory tr = test::simulate(s);
  REQUIRE(tr.t.size() == 71);
  double worst = 0.0;
  for (std::size_t k = 0; k < tr.t.size(); ++k) {
    CHECK(tr.t[k] == (k == 70 ? 10.0 : static_cast<double>(k) / 7.0));
    worst = std::max(worst, std::abs(tr.nu(k)[2] - problem.w(tr.t[k])));
  }
  CHECK(worst < 1e-8);
  // Far fewer steps than a fixed 1 ms step would take: the step adapts.
  CHECK(tr.result.steps < 1000);
}

TEST_CASE("driver: the last sample lands on the end time when the duration is off the sample grid") {
  const QuadraticDecay problem;
  const test::Trajectory tr = test::simulate(problem.scenario(1.01, 1e-3, 50.0));
  REQUIRE(tr.t.size() == 52);
  CHECK(tr.t[50] == 1.0);
  CHECK(tr.t[51] == 1.01);
}

TEST_CASE("driver: a force on for start ≤ t < stop gives exactly the impulse F·(stop − start)") {
  model::BodySpec body = test::plain_body();
  body.added_mass_B(0, 0) = 5.5;
  scenario::Scenario s = test::scenario_with({body}, 2.0, 1e-3, 50.0);
  s.environment.gravity = 0.0;
  model::ForceSpec push;
  push.name = "push";
  push.body = body.name;
  push.force = Eigen::Vector3d(3.0, 0.0, 0.0);
  push.start = 0.5;
  push.stop = 1.25;  // between samples: the driver must still switch exactly here
  s.forces.push_back(push);
  SUBCASE("rk4") {}
  SUBCASE("dopri5") { s.simulation.integrator = scenario::IntegratorKind::dopri5; }

  const test::Trajectory tr = test::simulate(s);
  const double m = body.mass + body.added_mass_B(0, 0);
  const double u_end = push.force.x() * (push.stop - push.start) / m;
  CHECK(tr.nu(tr.t.size() - 1)[0] == doctest::Approx(u_end).epsilon(1e-12));
  // Position: ½a(stop − start)² while pushed, then coasting at u_end.
  const double x_end = 0.5 * push.force.x() / m * std::pow(push.stop - push.start, 2) + u_end * (2.0 - push.stop);
  CHECK(tr.position(tr.t.size() - 1).x() == doctest::Approx(x_end).epsilon(1e-10));
  CHECK(tr.nu(25)[0] == 0.0);                                        // t = 0.5: not yet pushed
  CHECK(tr.nu_dot(25)[0] == doctest::Approx(push.force.x() / m));    // …but the force is on at 0.5
}

TEST_CASE("driver: an exploding state stops the run and names the body, the component and the time") {
  model::BodySpec body = test::plain_body("runaway");
  scenario::Scenario s = test::scenario_with({body}, 10.0);
  model::ForceSpec push;
  push.name = "huge";
  push.body = body.name;
  push.force = Eigen::Vector3d(0.0, 1e9, 0.0);
  s.forces.push_back(push);
  const test::Trajectory tr = test::simulate(s);
  CHECK(tr.result.outcome == integrate::Outcome::diverged);
  CHECK(tr.result.message.find("body 'runaway'") != std::string::npos);
  CHECK(tr.result.message.find("velocity v") != std::string::npos);
  CHECK(tr.result.message.find("t = ") != std::string::npos);
  CHECK(tr.t.back() < 1.0);  // the samples written before the failure remain
}

TEST_CASE("driver: a stop request ends the run after the current step, sampling where it stopped") {
  const QuadraticDecay problem;
  const scenario::Scenario s = problem.scenario(100.0, 1e-3, 50.0);
  const dynamics::Model model = model::build_model(s);
  test::Trajectory tr;
  tr.model = model;
  test::CollectingSink sink(tr);
  std::atomic<bool> stop{true};
  const integrate::RunResult result = integrate::run(model, scenario::integration_settings(s.simulation), sink, &stop);
  CHECK(result.outcome == integrate::Outcome::interrupted);
  REQUIRE(tr.t.size() == 2);
  CHECK(tr.t[1] == doctest::Approx(1e-3));
}

namespace {

// A vehicle with a one-link arm, pushed by a force that a quintic channel ramps up: f depends
// on t, on every coordinate and on the quaternion.
scenario::Scenario ramped_arm(double output_rate) {
  scenario::Scenario s = scenario::load_scenario_text(
      "name: ramped_arm\n"
      "simulation: {duration: 0.05, step: 0.001, output_rate: 50.0}\n"
      "bodies:\n"
      "  - {name: rov, mass: 11.5, inertia: [0.16, 0.16, 0.16], center_of_gravity: [0.0, 0.0, 0.02],\n"
      "     volume: 0.0117, added_mass: [5.5, 12.7, 14.57, 0.12, 0.12, 0.12],\n"
      "     quadratic_damping: [18.18, 21.66, 36.99, 1.55, 1.55, 1.55],\n"
      "     initial: {velocity: [0.2, 0.0, 0.1, 0.3, -0.2, 0.5]}}\n"
      "  - {name: link, mass: 0.35, inertia: [0.001, 0.002, 0.002], center_of_gravity: [0.05, 0.0, 0.0]}\n"
      "joints:\n"
      "  - {name: q, type: revolute, parent: rov, child: link, origin: {xyz: [0.15, 0.0, 0.1]},\n"
      "     axis: [0.0, 1.0, 0.0], initial: {position: 0.3, velocity: -1.0}}\n"
      "inputs:\n"
      "  - {name: ramp, type: quintic, start: 0.0, stop: 0.05, from: 0.0, to: 1.0}\n"
      "forces:\n"
      "  - {name: push, body: rov, force: [20.0, 5.0, -3.0], moment: [0.0, 0.0, 2.0], input: ramp}\n",
      "ramped_arm.yaml");
  s.simulation.output_rate = output_rate;
  return s;
}

}  // namespace

TEST_CASE("driver: rk4's samples are classic RK4 over dynamics::evaluate, to the bit, however often it samples") {
  // The reference: the scheme written out here, with the driver's step schedule (a step lands
  // on each sample time k / rate; between them t advances by h) and its projection after each
  // step. A sample's f(t, x) is the next step's first stage in the driver: taken at the wrong
  // state, time or schedule, it would change every later bit.
  for (const double rate : {1000.0, 200.0, 50.0}) {
    CAPTURE(rate);
    const scenario::Scenario s = ramped_arm(rate);
    const test::Trajectory run = test::simulate(s);
    REQUIRE(run.result.outcome == integrate::Outcome::completed);
    const dynamics::Model& m = run.model;
    const std::size_t n = m.x0.size();
    dynamics::Workspace ws(m);
    std::vector<double> x = m.x0, k1(n), k2(n), k3(n), k4(n), x_tmp(n), xdot(n);
    const auto f = [&](const std::vector<double>& at, std::vector<double>& out, double t) {
      dynamics::evaluate(m, t, 0.0, at.data(), out.data(), ws);  // one segment: schedule at 0
    };
    const double h = s.simulation.step;
    const long last = std::max(1L, static_cast<long>(std::ceil(s.simulation.duration * rate - 1e-9)));  // as the driver
    double t = 0.0;
    std::size_t sample = 1;  // sample 0 is the initial state, projected for the sink
    REQUIRE(run.t.size() == static_cast<std::size_t>(last) + 1);
    for (long k = 1; k <= last; ++k) {
      const double next = k == last ? s.simulation.duration : static_cast<double>(k) / rate;
      while (t < next) {
        const bool lands = next - t <= h * (1.0 + 1e-6);
        const double dt = lands ? next - t : h, dh = 0.5 * dt, dt6 = (1.0 / 6.0) * dt, dt3 = (1.0 / 3.0) * dt;
        f(x, k1, t);
        for (std::size_t i = 0; i < n; ++i) x_tmp[i] = x[i] + dh * k1[i];
        f(x_tmp, k2, t + dh);
        for (std::size_t i = 0; i < n; ++i) x_tmp[i] = x[i] + dh * k2[i];
        f(x_tmp, k3, t + dh);
        for (std::size_t i = 0; i < n; ++i) x_tmp[i] = x[i] + dt * k3[i];
        f(x_tmp, k4, t + dt);
        for (std::size_t i = 0; i < n; ++i) x[i] = x[i] + dt6 * k1[i] + dt3 * k2[i] + dt3 * k3[i] + dt6 * k4[i];
        dynamics::normalize_quaternions(m, x.data());
        t = lands ? next : t + h;
      }
      f(x, xdot, t);
      CAPTURE(k);
      REQUIRE(run.t[sample] == t);
      CHECK(run.x[sample] == x);
      CHECK(run.xdot[sample] == xdot);
      ++sample;
    }
  }
}
