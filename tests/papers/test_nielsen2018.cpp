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

TEST_CASE("nielsen2018: a disturbed straight path straightens out at 1600 us and turns away at 1800 us") {
  // A small yaw rate on all three bodies at the start; the pair left to itself (no heading hold,
  // as in the paper) for 30 s.
  const std::vector<std::string> spin = {"bodies.port/rov.initial.velocity=[0,0,0,0,0,0.05]",
                                         "bodies.starboard/rov.initial.velocity=[0,0,0,0,0,0.05]",
                                         "bodies.piece.initial.velocity=[0,0,0,0,0,0.05]", "simulation.duration=30"};
  const test::Run slow = trial(100, false, spin), fast = trial(300, false, spin);
  const std::size_t piece = body_index(slow, "piece");
  const auto yaw_rate = [&](const test::Run& run, double t) { return std::abs(run.rec.V_WB_B[sample_at(run, t)][piece][5]); };
  CHECK(yaw_rate(slow, 30) < 1e-4);
  CHECK(yaw_rate(fast, 30) > 10 * yaw_rate(fast, 15));
}
