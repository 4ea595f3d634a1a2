// Paper 000 (Nielsen et al. 2018) in scenarios/nielsen2018: the rigidly joined pair of BlueROVs
// under PWM, with each vehicle's depth, roll and pitch hold. Every claim of the folder's
// README is checked here: the straight-path speed against the balance of eq. 12's thrust and
// the three bodies' drag, computed from the scenario's own parameters; the rotational trials'
// steady starboard circle; the hold; the connectors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "analysis/linearize.h"
#include "analysis/modes.h"
#include "app/operating_point.h"
#include "spatial/rotation.h"
#include "support/recording.h"

using namespace uwsim;
using spatial::Vec3;
using spatial::Vec6;

namespace {

constexpr double kDeg = 180.0 / std::numbers::pi;
const std::string kTrial = "scenarios/nielsen2018/trial.yaml";

test::Run trial(int delta_pwm, bool port_only, std::vector<std::string> more = {}) {
  more.push_back("inputs.delta_pwm.steps.0.1=" + std::to_string(delta_pwm));
  if (port_only) more.push_back("inputs.starboard_pwm.gain=0");
  return test::run_file(kTrial, more);
}

std::size_t body_index(const test::Run& run, const std::string& name) {
  for (std::size_t b = 0; b < run.model.bodies.size(); ++b)
    if (run.model.bodies[b].name == name) return b;
  FAIL("no body " << name);
  return 0;
}
std::size_t sample_at(const test::Run& run, double t) {
  return static_cast<std::size_t>(std::lower_bound(run.rec.t.begin(), run.rec.t.end(), t - 1e-9) - run.rec.t.begin());
}

// The steady surge speed of the straight trial at 1500 + ΔPWM µs, from the scenario's own
// numbers: eq. 39 gives ω = a·x^(−b) + c, eq. 12 each surge thruster's thrust
// T₁ω² + T₂ω·u at advance speed u, and the four of them balance the three bodies' surge drag
// Σ (X_uu u² + X_u u):  (Σ X_uu) u² + (Σ X_u − 4T₂ω) u − 4T₁ω² = 0.
double steady_straight_speed(const scenario::Scenario& s, int delta_pwm) {
  const actuation::ThrusterParameters& th = s.thrusters.at(0).thruster;  // port/thruster_1
  const actuation::PowerLawSpeedMap& law = th.power_law;
  const double w = law.a * std::pow(1500.0 + delta_pwm, -law.b) + law.c;
  double X_uu = 0, X_u = 0;
  for (const model::BodySpec& b : s.bodies) {
    X_uu += b.quadratic_damping[0];
    X_u += b.linear_damping[0];
  }
  const double B = X_u - 4 * th.advance_coefficient * w, C = -4 * th.thrust_coefficient * w * w;
  return (-B + std::sqrt(B * B - 4 * X_uu * C)) / (2 * X_uu);
}

}  // namespace

TEST_CASE("nielsen2018: the straight-path pair settles where eq. 12's thrust equals the three bodies' drag, faster with PWM") {
  double previous = 0, previous_pitch = 0;
  for (int delta : {100, 200, 300}) {
    CAPTURE(delta);
    const test::Run run = trial(delta, false);
    const std::size_t piece = body_index(run, "piece"), end = run.rec.t.size() - 1;
    const double expected = steady_straight_speed(run.scenario, delta);
    const Vec6 nu = run.rec.V_WB_B[end][piece];
    // The steady pitch (below 4°, next test case) tilts the pair's 6.2 N of net weight into surge:
    // at most 0.4 N against the 17–50 N of the four thrusters.
    CHECK(nu[0] == doctest::Approx(expected).epsilon(0.01));
    // Steady: the last 3 s of the 9 s of thrust change the speed by less than 0.1 %.
    CHECK(std::abs(nu[0] - run.rec.V_WB_B[sample_at(run, 9.0)][piece][0]) < 1e-3 * nu[0]);
    CHECK(nu[0] > previous);
    previous = nu[0];
    // The PD-only attitude hold leaves a nose-up pitch from the thrust 5 cm below the origin,
    // larger with more thrust.
    const double pitch = spatial::euler_zyx_from_rotation(run.rec.X_WB[end][piece].R)[1];
    CHECK(pitch > previous_pitch);
    previous_pitch = pitch;
    // The README's figures.
    const double claimed = delta == 100 ? 0.38 : delta == 200 ? 0.76 : 1.05;
    CHECK(nu[0] == doctest::Approx(claimed).epsilon(0.01));
  }
}

TEST_CASE("nielsen2018: under the hold the pair stays within 4° of level and 4 cm of its depth in all six trials") {
  for (bool port_only : {false, true}) {
    for (int delta : {100, 200, 300}) {
      CAPTURE(port_only);
      CAPTURE(delta);
      const test::Run run = trial(delta, port_only);
      double tilt = 0, depth = 0, apart = 0, twist = 0;
      for (std::size_t k = 0; k < run.rec.t.size(); ++k) {
        for (std::size_t b = 0; b < run.model.bodies.size(); ++b) {
          const Vec3 rpy = spatial::euler_zyx_from_rotation(run.rec.X_WB[k][b].R);
          tilt = std::max({tilt, std::abs(rpy[0]), std::abs(rpy[1])});
          depth = std::max(depth, std::abs(run.rec.X_WB[k][b].p.z() - 0.75));
        }
        for (std::size_t c = 0; c < run.model.connectors.size(); ++c) {
          apart = std::max(apart, run.rec.connector_distance[k][c]);
          twist = std::max(twist, run.rec.connector_angle[k][c]);
        }
      }
      CHECK(tilt * kDeg < 4.0);
      CHECK(depth < 0.04);
      // The connectors hold the pair together to 1e-8 m and 1e-8 rad.
      CHECK(apart < 1e-8);
      CHECK(twist < 1e-8);
      CHECK(run.result.warnings.empty());
    }
  }
}

TEST_CASE("nielsen2018: with only the port vehicle pushing, the pair turns to starboard and settles on a circle") {
  double previous_rate = 0, previous_radius = 1e9;
  for (int delta : {100, 200, 300}) {
    CAPTURE(delta);
    // Run on past the 12 s of a dataset, for a settled circle to compare two points of.
    const test::Run run = trial(delta, true, {"simulation.duration=30"});
    const std::size_t piece = body_index(run, "piece");
    CHECK(run.rec.V_WB_B[sample_at(run, 12.0)][piece][5] > 0);  // r > 0 in NED: to starboard
    const Vec6 a = run.rec.V_WB_B[sample_at(run, 24.0)][piece], b = run.rec.V_WB_B.back()[piece];
    CHECK(b[5] > 0);  // r > 0 in NED: to starboard
    CHECK(std::abs(b[5] - a[5]) < 0.01 * b[5]);  // steady over the last 6 s
    // On a circle: the centre p + R·n (n the horizontal unit normal to starboard of the
    // velocity, R = V/r) is the same point at 24 s and at 30 s.
    const auto centre = [&](std::size_t k) {
      const spatial::Mat3& R_WB = run.rec.X_WB[k][piece].R;
      const Vec3 v_W = R_WB * run.rec.V_WB_B[k][piece].head<3>();
      const Vec3 horizontal(v_W.x(), v_W.y(), 0.0);
      const Vec3 n = Vec3(-v_W.y(), v_W.x(), 0.0).normalized();  // velocity turned +90° about down
      const double radius = horizontal.norm() / run.rec.V_WB_B[k][piece][5];
      return Vec3(run.rec.X_WB[k][piece].p + radius * n);
    };
    const double radius = std::hypot(b[0], b[1]) / b[5];
    CHECK((centre(sample_at(run, 24.0)) - centre(run.rec.t.size() - 1)).norm() < 0.02 * radius);
    // Tighter and faster with PWM.
    CHECK(b[5] > previous_rate);
    CHECK(radius < previous_radius);
    previous_rate = b[5];
    previous_radius = radius;

  }
}

namespace {

// The log-slope of |r| of the piece over [t, t + 2.5 s], 1/s.
double yaw_growth(const test::Run& run, std::size_t piece, double t) {
  const double a = std::abs(run.rec.V_WB_B[sample_at(run, t)][piece][5]);
  const double b = std::abs(run.rec.V_WB_B[sample_at(run, t + 2.5)][piece][5]);
  return std::log(b / a) / 2.5;
}

// The real eigenvalue of the least stable mode in which the three bodies' sway, yaw rate and
// heading take most part, linearised as `sim linearize --at 11` does (the scenario simulated
// to 11 s, where the pair has settled at its steady speed; the controllers' outputs held).
double sway_yaw_mode(const std::vector<std::string>& overrides) {
  const scenario::Scenario s = scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/" + kTrial, overrides);
  const dynamics::Model model = model::build_model(s);
  const app::SimulatedPoint at = app::simulate_to(model, s.simulation, 11.0);
  REQUIRE(at.result.outcome == integrate::Outcome::completed);
  const analysis::LinearModel linear = analysis::linearize(model, at.point);
  const analysis::ModalAnalysis modes =
      analysis::modal_analysis(linear.system_matrix(), linear.constrained ? &linear.basis : nullptr);
  double best = -1e300;
  for (const analysis::Mode& m : modes.modes) {
    if (m.neutral || m.eigenvalue.imag() != 0.0) continue;
    double lateral = 0.0;
    for (std::size_t i = 0; i < linear.state_names.size(); ++i) {
      const std::string& n = linear.state_names[i];
      const std::string c = n.substr(n.rfind('.') + 1);
      if (c == "v" || c == "r" || c == "rot_z") lateral += m.participation[static_cast<Eigen::Index>(i)];
    }
    if (lateral > 0.5) best = std::max(best, m.eigenvalue.real());
  }
  REQUIRE(best > -1e300);
  return best;
}

}  // namespace

TEST_CASE("nielsen2018: the pair is directionally unstable at all three PWM levels: a yaw disturbance grows after the thrust starts, over the whole run, at the rate of its sway-yaw mode") {
  // README: a yaw rate of 0.05 rad/s given at rest has died away to 4.5e-6 rad/s when the
  // thrust starts at 3 s, and to 5e-8 rad/s at 1600 us by 5 s; from then on it grows e-fold at
  // 0.0949, 0.274 and 0.423 1/s, at 1600 us to 1.6e-4 rad/s by 90 s; sim linearize --at 11
  // gives the sway-yaw mode at +0.093, +0.27 and +0.42 1/s. Each figure is checked to the
  // digits stated (half a unit of the last one).
  struct Level {
    int delta;
    double duration, run_rate, run_digit, mode_rate, mode_digit;
  };
  const Level levels[] = {{100, 90.0, 0.0949, 0.00005, 0.093, 0.0005},
                          {200, 40.0, 0.274, 0.0005, 0.27, 0.005},
                          {300, 30.0, 0.423, 0.0005, 0.42, 0.005}};
  const std::vector<std::string> kick = {"bodies.port/rov.initial.velocity=[0,0,0,0,0,0.05]",
                                         "bodies.starboard/rov.initial.velocity=[0,0,0,0,0,0.05]",
                                         "bodies.piece.initial.velocity=[0,0,0,0,0,0.05]"};
  for (const Level& level : levels) {
    CAPTURE(level.delta);
    std::vector<std::string> overrides = kick;
    overrides.push_back("simulation.duration=" + std::to_string(level.duration));
    const test::Run run = trial(level.delta, false, overrides);
    const std::size_t piece = body_index(run, "piece");
    const auto r_at = [&](double t) { return std::abs(run.rec.V_WB_B[sample_at(run, t)][piece][5]); };
    // The kick dies away at rest (yaw damping is all there is before the thrust) ...
    CHECK(std::abs(r_at(3.0) - 4.5e-6) < 0.05e-6);
    if (level.delta == 100) {
      CHECK(std::abs(r_at(5.0) - 5e-8) < 0.5e-8);
      CHECK(std::abs(r_at(90.0) - 1.6e-4) < 0.05e-4);
    }
    // ... and grows once the pair is under way: every 2.5 s window from 7.5 s (the stable
    // modes, the slowest at -3.7 1/s, have died by then) grows at the stated rate, as long as
    // the yaw rate is below 1e-5 rad/s: there the slope of the sway's quadratic drag,
    // 2·103·|v| with |v| ≈ 1.5|r|, is below 1e-3 of the pair's sway inertia times the rate
    // (2·25.8 kg × 0.095 1/s), which moves the rate by less than its last stated digit ...
    int windows = 0;
    double growth = 0.0;
    for (double t = 7.5; t + 2.5 <= level.duration + 1e-9 && r_at(t + 2.5) < 1e-5; t += 2.5, ++windows) {
      CAPTURE(t);
      growth = yaw_growth(run, piece, t);
      CHECK(std::abs(growth - level.run_rate) < level.run_digit);
    }
    CHECK(windows >= 2);
    // ... and it never turns back: from 7 s on each sample's |r| is larger than the one 1 s
    // before, to the end of the run.
    for (double t = 7.0; t <= level.duration + 1e-9; t += 1.0) CHECK(r_at(t) > r_at(t - 1.0));
    // The same mode in the linear model at the steady speed.
    const double mode = sway_yaw_mode({"inputs.delta_pwm.steps.0.1=" + std::to_string(level.delta)});
    CHECK(std::abs(mode - level.mode_rate) < level.mode_digit);
    CHECK(std::abs(mode - growth) < 0.02 * growth);  // "within 2 % of the runs' rates"
  }
  // Undisturbed, nothing starts it but rounding: the pair and its thrust are symmetric about
  // its centre line, and at 1800 us its yaw rate stays below 1e-10 rad/s over 30 s.
  const test::Run straight = trial(300, false, {"simulation.duration=30"});
  const std::size_t piece = body_index(straight, "piece");
  double r_max = 0.0;
  for (const auto& sample : straight.rec.V_WB_B) r_max = std::max(r_max, std::abs(sample[piece][5]));
  CHECK(r_max < 1e-10);
}

TEST_CASE("nielsen2018: bluerov.yaml's T200 figures: eq. 39 with b = 4 fits the bollard data to 0.027 of full speed, and eq. 12 loses 25 % at 1800 us and 1 m/s") {
  const scenario::Scenario s = scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/" + kTrial);
  const actuation::ThrusterParameters& t200 = s.thrusters.at(0).thruster;  // every thruster: the &t200 block
  const actuation::PowerLawSpeedMap& law = t200.power_law;
  const auto omega = [&](double pwm) { return law.a * std::pow(pwm, -law.b) + law.c; };  // eq. 39
  // The end points the comment names: 0 at the dead band's edge, 3800 rev/min at 1900 us.
  CHECK(std::abs(omega(1525.0)) < 0.01);
  CHECK(omega(1900.0) == doctest::Approx(3800.0 * 2 * std::numbers::pi / 60).epsilon(1e-4));
  // "b = 4 fits √(bollard thrust) of Blue Robotics' T200 16 V data (the table of
  // scenarios/vehicles/bluerov2.yaml) to 0.027 of full speed": the largest gap between ω/ω(1900)
  // and √(T/T(1900)) over the table's forward points, to the digit stated.
  const scenario::Scenario bluerov2 = scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/scenarios/two_bluerov2.yaml");
  const inputs::Table& table = bluerov2.thrusters.at(0).thruster.thrust_table;
  const double full = table.linear(1900.0);
  double gap = 0.0;
  int forward = 0;
  for (std::size_t k = 0; k < table.x.size(); ++k) {
    if (table.x[k] < 1500.0) continue;
    gap = std::max(gap, std::abs(omega(table.x[k]) / omega(1900.0) - std::sqrt(table.y[k] / full)));
    ++forward;
  }
  CHECK(forward == 6);
  CHECK(std::abs(gap - 0.027) < 0.0005);
  // Eq. 12 at 1800 us and an advance speed of 1 m/s: the advance term T_|ω|u·|ω|·u against the
  // bollard thrust T_|ω|ω·ω², "loses 25 %", to the digit stated.
  const double w = omega(1800.0);
  const double loss = -t200.advance_coefficient * w * 1.0 / (t200.thrust_coefficient * w * w);
  CHECK(std::abs(100 * loss - 25.0) < 0.5);
}

TEST_CASE("nielsen2018: the hold's pitch loop is overdamped, omega_n 16 rad/s and zeta 1.3 on the pair's pitch inertia, and decays at its slow root") {
  // trial.yaml: "depth ω_n ≈ 2.2 rad/s, ζ ≈ 0.7 on one vehicle's heave mass; pitch ω_n ≈ 16
  // rad/s, ζ ≈ 1.3 on the pair's pitch inertia: overdamped, its error decays at the slower root,
  // 7.7 1/s (7.64 1/s with the 100 Hz sample and hold)". First from the scenario's numbers,
  // each to the digits stated.
  const scenario::Scenario s = scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/" + kTrial);
  const auto spec = [&](const std::string& name) -> const model::BodySpec& {
    for (const model::BodySpec& b : s.bodies)
      if (b.name == name) return b;
    FAIL("no body " << name);
    return s.bodies.front();
  };
  const auto hold = [&](const std::string& name) -> const control::PosePdSettings& {
    for (const model::ControllerSpec& c : s.controllers)
      if (c.name == name) return c.pose;
    FAIL("no controller " << name);
    return s.controllers.front().pose;
  };
  // Pitch about the y axis through the three origins (the vehicles sit on it, at ±0.35 m):
  // each vehicle's I_y about its CG, moved to its origin (m z_g²), plus M_q̇; the piece's.
  double inertia = 0.0, stiffness = 0.0, damping = 0.0;
  for (const std::string& name : {"port/rov", "starboard/rov", "piece"}) {
    const model::BodySpec& b = spec(name);
    const double z_g = b.p_BoBcm_B.z() - b.p_BoBcb_B.z();
    inertia += b.inertia_Bcm_B(1, 1) + b.mass * b.p_BoBcm_B.squaredNorm() + b.added_mass_B(4, 4);
    stiffness += b.mass * s.environment.gravity * z_g;  // righting W·BG (the piece: CG at CB)
    damping += b.linear_damping[4];
  }
  for (const std::string& name : {"port_hold", "starboard_hold"}) {
    stiffness += hold(name).kp[4];
    damping += hold(name).kd[4];
  }
  const double omega_n = std::sqrt(stiffness / inertia), zeta = damping / (2 * std::sqrt(stiffness * inertia));
  const double slow = omega_n * (zeta - std::sqrt(zeta * zeta - 1));
  CHECK(std::abs(omega_n - 16.0) < 0.5);
  CHECK(std::abs(zeta - 1.3) < 0.05);
  CHECK(std::abs(slow - 7.7) < 0.05);
  const model::BodySpec& rov = spec("port/rov");
  const double heave_mass = rov.mass + rov.added_mass_B(2, 2);
  const double depth_omega = std::sqrt(hold("port_hold").kp[2] / heave_mass);
  CHECK(std::abs(depth_omega - 2.2) < 0.05);
  CHECK(std::abs((hold("port_hold").kd[2] + rov.linear_damping[2]) / (2 * heave_mass * depth_omega) - 0.7) < 0.05);

  // The same loop sampled at 100 Hz with its command held, one axis, integrated here by RK4
  // at 10 µs: the error's decay rate between 0.2 and 0.6 s after a setpoint step.
  const double period = 1.0 / 100.0, h = 1e-5, passive_k = stiffness - 100.0, passive_c = damping - 16.0;
  double theta = 0.0, q = 0.0, step_at_sample = 0.0;
  const double target = 0.05, settled = target * 100.0 / stiffness;
  std::vector<double> model_error;  // every 1 ms
  for (int k = 0; k <= 600 * 100; ++k) {
    if (k % 1000 == 0) step_at_sample = 100.0 * (target - theta) - 16.0 * q;  // each 10 ms
    if (k % 100 == 0) model_error.push_back(settled - theta);
    const auto f = [&](double th, double w) { return (step_at_sample - passive_k * th - passive_c * w) / inertia; };
    const double k1q = f(theta, q), k1t = q;
    const double k2q = f(theta + 0.5 * h * k1t, q + 0.5 * h * k1q), k2t = q + 0.5 * h * k1q;
    const double k3q = f(theta + 0.5 * h * k2t, q + 0.5 * h * k2q), k3t = q + 0.5 * h * k2q;
    const double k4q = f(theta + h * k3t, q + h * k3q), k4t = q + h * k3q;
    theta += h / 6 * (k1t + 2 * k2t + 2 * k3t + k4t);
    q += h / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
  }
  const double sampled_rate = std::log(model_error[200] / model_error[600]) / 0.4;
  CHECK(std::abs(sampled_rate - 7.64) < 0.005);

  // The simulated pair, made neutral (the piece's 6.2 N would sink it while the depth
  // integrator learns its weight, which drags the pitch along), after a 0.05 rad step of both
  // holds' pitch setpoint at rest: no overshoot (an underdamped loop would pass its settled
  // value), and the same decay as the one-axis model within 1 % — what the one axis leaves out
  // is the surge the CG 2 cm below the origin couples in, (m z_g)² / (M_u J) ≈ 1 % of the
  // inertia.
  const test::Run run = trial(0, false, {"bodies.piece.volume=0.001", "controllers.port_hold.rpy=[0,0.05,0]",
                                         "controllers.starboard_hold.rpy=[0,0.05,0]", "simulation.duration=1",
                                         "simulation.output_rate=1000"});
  const std::size_t piece = body_index(run, "piece");
  std::vector<double> pitch;
  for (const auto& X : run.rec.X_WB) pitch.push_back(spatial::euler_zyx_from_rotation(X[piece].R)[1]);
  for (std::size_t k = 1; k < pitch.size(); ++k) CHECK(pitch[k] >= pitch[k - 1]);
  CHECK(pitch.back() < settled);
  const double run_rate = std::log((settled - pitch[sample_at(run, 0.2)]) / (settled - pitch[sample_at(run, 0.6)])) / 0.4;
  CHECK(run_rate == doctest::Approx(sampled_rate).epsilon(0.01));
}
