// sim trim of the plant under its sampled controllers (issue 43, trap 1): the closed loop's fixed
// point, where the plant's rates vanish under the held outputs and a sample leaves the
// controllers' memory as it was. Closed forms: a buoyant BlueROV2 holding depth with integral
// action holds Z = B − W exactly at the setpoint depth; a pendulum held by a PID with Kolano's
// torque filter holds m·g·l·sin q_d at q_d. And the trimmed state is a rest of the running loop.
#include <doctest/doctest.h>

#include <cmath>

#include "analysis/trim.h"
#include "analysis/variables.h"
#include "support/depth_hold.h"
#include "support/linear_models.h"
#include "support/simulate.h"

using namespace uwsim;
using analysis::VariableKind;

namespace {

double value_of(const analysis::TrimResult& r, const std::string& name) {
  for (std::size_t i = 0; i < r.unknown_names.size(); ++i)
    if (r.unknown_names[i] == name) return r.solution[static_cast<Eigen::Index>(i)];
  FAIL("no unknown " << name);
  return 0.0;
}

analysis::TrimResult trim_of(const scenario::Scenario& s, std::vector<analysis::VariableRef> unknowns) {
  const dynamics::Model model = model::build_model(s);
  analysis::TrimProblem problem;
  problem.unknowns = std::move(unknowns);
  return analysis::trim(model, problem);
}

}  // namespace

TEST_CASE("trim under controllers: a buoyant BlueROV2 holding depth with integral action holds Z = B − W at the setpoint") {
  const scenario::Scenario s = test::scenario_from(test::depth_hold(false));
  const analysis::TrimResult r = trim_of(s, {{VariableKind::body, "v/rov", "down"}});
  REQUIRE(r.converged);
  const double B_minus_W = test::kBlueRov2NetBuoyancy;  // 1.9826 N: buoyant, so Z > 0 (down)
  // The depth is the setpoint (the integrator's rate K_I·e vanishes only there) ...
  CHECK(value_of(r, "bodies.v/rov.down") == doctest::Approx(5.0).epsilon(1e-10));
  // ... and the integral, which is all the PID holds there (e = 0, ė = 0), is the net buoyancy.
  CHECK(value_of(r, "controllers.depth.integral_z") == doctest::Approx(B_minus_W).epsilon(1e-9));
  REQUIRE(r.held.signals.size() == 1);
  CHECK(r.held.signals[0].output[2] == doctest::Approx(B_minus_W).epsilon(1e-9));
  for (int k : {0, 1, 3, 4, 5}) CHECK(std::abs(r.held.signals[0].output[k]) < 1e-9);
  // The memory is an unknown and its rate (z⁺ − z)/T a residual, named for the user.
  CHECK(r.residual_names.back() == "controllers.depth.integral_z");
  CHECK(r.residual_units.back() == "N/s");
  CHECK(r.free_directions == 0);

  // The old refusal is gone, and the held outputs make the trim a rest of the plant they hold:
  // linearised with them, every velocity's rate is zero.
  const dynamics::Model model = model::build_model(s);
  analysis::OperatingPoint point;
  point.x = r.x;
  point.held = r.held;
  const analysis::LinearModel linear = analysis::linearize(model, point);
  CHECK(linear.zdot0.tail(linear.zdot0.size() - linear.first_velocity).cwiseAbs().maxCoeff() < 1e-9);
}

TEST_CASE("trim under controllers: without integral action the depth hold rests (B − W)/K_P above its setpoint") {
  // A P-only loop has no memory: its output is a function of the state, and the trim still
  // takes it from the controller's sample.
  const scenario::Scenario s = test::scenario_from(test::depth_hold(false), {"controllers.depth.ki=[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]"});
  const analysis::TrimResult r = trim_of(s, {{VariableKind::body, "v/rov", "down"}});
  REQUIRE(r.converged);
  const double B_minus_W = test::kBlueRov2NetBuoyancy;
  CHECK(r.unknown_names.size() == 1);
  CHECK(value_of(r, "bodies.v/rov.down") == doctest::Approx(5.0 - B_minus_W / 60.0).epsilon(1e-10));
  CHECK(r.held.signals[0].output[2] == doctest::Approx(B_minus_W).epsilon(1e-9));
}

TEST_CASE("trim under controllers: through a thrust allocation, the four vertical T200s share B − W") {
  const analysis::TrimResult r = trim_of(test::scenario_from(test::depth_hold(true)), {{VariableKind::body, "v/rov", "down"}});
  REQUIRE(r.converged);
  const double B_minus_W = test::kBlueRov2NetBuoyancy;
  CHECK(value_of(r, "bodies.v/rov.down") == doctest::Approx(5.0).epsilon(1e-10));
  REQUIRE(r.held.signals.size() == 2);
  // The allocation's output is each thruster's thrust (N), pushing along +z (down): the
  // pseudo-inverse shares the symmetric demand equally.
  const Eigen::VectorXd thrust = r.held.signals[1].output;
  REQUIRE(thrust.size() == 4);
  CHECK(thrust.sum() == doctest::Approx(B_minus_W).epsilon(1e-8));
  for (Eigen::Index k = 0; k < 4; ++k) CHECK(thrust[k] == doctest::Approx(B_minus_W / 4.0).epsilon(1e-6));
}

TEST_CASE("trim under controllers: a pendulum held by a PID with a torque filter holds m·g·l·sin q_d at q_d") {
  // A 2 kg link on a horizontal axis from the world, CG 0.3 m below it at q = 0, in air; a
  // position PID at 100 Hz with integral action and Kolano et al.'s filter a = 0.75 (eq. 4),
  // no feed-forward. At rest the error is zero, the filter sits at its fixed point
  // τ = aτ + τ_PID (τ_PID = I), and τ balances gravity's −m·g·l·sin q.
  const char* yaml = R"(
name: pendulum_pid
simulation: {duration: 1.0}
environment: {water_density: 0.0}
bodies:
  - {name: link, mass: 2.0, inertia: [0.01, 0.02, 0.01], center_of_gravity: [0.0, 0.0, 0.3]}
joints:
  - {name: j, type: revolute, parent: world, child: link, axis: [0.0, 1.0, 0.0], initial: {position: 0.2}}
controllers:
  - {name: hold, type: pid, joint: j, rate: 100.0, setpoint: 0.6, kp: 8.0, ki: 4.0, kd: 0.5, torque_filter: 0.75}
)";
  const analysis::TrimResult r = trim_of(test::scenario_from(yaml), {{VariableKind::joint, "j", "position"}});
  REQUIRE(r.converged);
  const double tau = 2.0 * 9.81 * 0.3 * std::sin(0.6);
  CHECK(value_of(r, "joints.j.position") == doctest::Approx(0.6).epsilon(1e-10));
  CHECK(value_of(r, "controllers.hold.previous_output") == doctest::Approx(tau).epsilon(1e-9));
  CHECK(value_of(r, "controllers.hold.integral") == doctest::Approx((1.0 - 0.75) * tau).epsilon(1e-9));
  CHECK(r.held.signals[0].output[0] == doctest::Approx(tau).epsilon(1e-9));
  // Run from there with the controller's memory as trimmed: it stays (the trim is the running
  // loop's rest, not only a root of the residual). The run's integrator starts at 0, so the
  // check is on the first sample the loop takes from the trimmed state and memory: its output.
  const scenario::Scenario s = test::scenario_from(yaml);
  const dynamics::Model model = model::build_model(s);
  dynamics::ControllerSet set(model);
  dynamics::Workspace ws(model);
  const std::vector<dynamics::MemoryComponent> layout = dynamics::ControllerSet::memory_layout(model);
  REQUIRE(layout.size() == 2);
  Eigen::VectorXd z = r.solution.tail(2), z_next(2);
  set.set_memory(layout, z.data());
  std::vector<double> x = r.x;
  // Each sample moves the memory by at most what the trim's tolerance on its rate allows,
  // 1e-9 per second over T = 0.01 s.
  for (int k = 0; k < 50; ++k) {  // fifty samples with the plant at rest
    set.update(0.01 * k, x.data(), ws);
    set.memory(layout, z_next.data());
    CHECK((z_next - z).cwiseAbs().maxCoeff() <= 1e-9 * 0.01);
    z = z_next;
  }
  CHECK(ws.controllers[0].output[0] == doctest::Approx(tau).epsilon(1e-9));
}

TEST_CASE("trim under controllers: task_priority, line_of_sight and base_control are refused, saying why") {
  const scenario::Scenario s =
      scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/scenarios/sverdrup-thygeson2018/transport_method1.yaml");
  const dynamics::Model model = model::build_model(s);
  analysis::TrimProblem problem;
  problem.unknowns = {{VariableKind::body, model.bodies[0].name, "u"}};
  CHECK_THROWS_WITH_AS(analysis::trim(model, problem), doctest::Contains("are not trim unknowns"), analysis::TrimError);
}

// vehicles/bluerov2_heavy.yaml (0.98 N heavy) flown through ArduSub's mixer from six constant RC
// channels, throttle up (rc3 1600 µs), its commands 0.3 s late. The mixer's PWM is whole µs, as
// ArduSub's int16 output, so RC channels make poor unknowns; the steady rise speed is the unknown.
TEST_CASE("trim under controllers: a Heavy under the ArduSub mixer rises where the vertical T200s' thrust meets the heave drag") {
  std::string yaml = R"(
name: heavy_rise
simulation: {duration: 1.0}
include:
  - {file: )" + std::string(UWSIM_SOURCE_DIR) +
                     R"(/scenarios/vehicles/bluerov2_heavy.yaml, name: heavy, position: [0.0, 0.0, 2.0]}
inputs:
)";
  for (int k = 1; k <= 6; ++k)
    yaml += "  - {name: rc" + std::to_string(k) + ", type: constant, value: " + (k == 3 ? "1600.0" : "1500.0") + ", units: us}\n";
  yaml += "controllers:\n  - {name: sub, type: ardusub_mixer, frame: vectored_6dof, rate: 50.0, delay: 0.3, "
          "rc: [rc1, rc2, rc3, rc4, rc5, rc6]}\n";
  const analysis::TrimResult r = trim_of(test::scenario_from(yaml), {{VariableKind::body, "heavy/rov", "w"}});
  REQUIRE(r.converged);
  REQUIRE(r.held.signals.size() == 1);
  // Throttle (1600 − 1500)/400 = 0.25 on the vertical four (factor −1): 1500 − 0.25·400 µs.
  const Eigen::VectorXd pwm = r.held.signals[0].output;
  REQUIRE(pwm.size() == 8);
  for (Eigen::Index k = 0; k < 4; ++k) CHECK(pwm[k] == 1500.0);
  for (Eigen::Index k = 4; k < 8; ++k) CHECK(pwm[k] == 1400.0);
  // Heave balance: W − B + 4 T(1400 µs) = 33 w + 190 w|w|, T on the part's reverse branch,
  // linear between (1308 µs, −13.239 N) and (1472 µs, 0); rising, w = −s with
  // 190 s² + 33 s − (4|T| − (W − B)) = 0.
  const double W_minus_B = 13.5 * 9.81 - 1000.0 * 9.81 * 0.0134;  // 0.981 N
  const double T = -13.239 * (1472.0 - 1400.0) / (1472.0 - 1308.0);
  const double lift = -4.0 * T - W_minus_B;
  const double s = (-33.0 + std::sqrt(33.0 * 33.0 + 4.0 * 190.0 * lift)) / (2.0 * 190.0);  // 0.266 m/s
  CHECK(value_of(r, "bodies.heavy/rov.w") == doctest::Approx(-s).epsilon(1e-8));
}
