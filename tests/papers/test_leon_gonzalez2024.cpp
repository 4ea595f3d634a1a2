// Paper 001 (León-González et al. 2024) as shipped in scenarios/leon-gonzalez2024/: what its
// README says each run does. Sec. 6.5's vehicle yaw is checked against angular momentum
// conservation, computed here from the scenario's own parameters; Sec. 6.6's tool point against
// its circle, computed here from the link poses.
#include <doctest/doctest.h>

#include <cmath>

#include "support/recording.h"

using namespace uwsim;
using Eigen::Matrix3d;
using Eigen::Vector3d;
using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Vector6 = Eigen::Matrix<double, 6, 1>;

namespace {

const std::string kDir = std::string(UWSIM_SOURCE_DIR) + "/scenarios/leon-gonzalez2024/";

Matrix3d skew(const Vector3d& a) {
  Matrix3d S;
  S << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return S;
}

// Fossen's 6×6 inertia about the body origin, rigid body (eq. 3.44) plus added mass.
Matrix6 inertia_about_origin(const model::BodySpec& b) {
  const Matrix3d S = skew(b.p_BoBcm_B);
  Matrix6 M;
  M << b.mass * Matrix3d::Identity(), -b.mass * S,  //
      b.mass * S, b.inertia_Bcm_B - b.mass * S * S;
  return M + b.added_mass_B;
}

// The world z component of the moment about the world origin of a body-frame wrench
// [F; τ] (Fossen order) acting at body point r.
double moment_z(const test::BodySample& s, const Vector6& wrench, const Vector3d& r = Vector3d::Zero()) {
  const Vector3d f_W = s.R_WB * wrench.head<3>();
  const Vector3d tau_W = s.R_WB * (wrench.tail<3>() + r.cross(Vector3d(wrench.head<3>())));
  return (tau_W + s.p_WB.cross(f_W)).z();
}

double max_abs(const test::Recording& r, int body, std::size_t from = 0) {
  double m = 0.0;
  for (std::size_t k = from; k < r.t.size(); ++k) m = std::max(m, std::abs(r.q[k][static_cast<std::size_t>(body)]));
  return m;
}

double euler_max_deg(const test::Recording& r, int body, int axis, double t0, double t1) {
  double m = 0.0;
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    if (r.t[k] < t0 || r.t[k] > t1) continue;
    const Matrix3d& R = r.bodies[k][static_cast<std::size_t>(body)].R_WB;
    const double angle[3] = {std::atan2(R(2, 1), R(2, 2)), std::asin(-R(2, 0)), std::atan2(R(1, 0), R(0, 0))};
    m = std::max(m, std::abs(angle[axis]));
  }
  return m * 180.0 / M_PI;
}

}  // namespace

TEST_CASE("paper 001 Sec. 6.5: the vehicle yaws against joint 1 as angular momentum conservation predicts") {
  // 0-20 s: the arms hang still, then every joint 1 turns (π/4) sin(2πt/5) for 10-20 s. Only
  // vertical forces (weight, buoyancy), joint torques (internal), damping and the depth PD's
  // wrench act, so the world-vertical angular momentum H_z of all bodies, added mass included,
  // changes only by the impulse of damping and the PD about that axis.
  const test::Recording r =
      test::record(kDir + "uvms_arm_motions.yaml", {"simulation.duration=20", "simulation.output_rate=500"});
  REQUIRE(r.result.outcome == integrate::Outcome::completed);
  const std::size_t n = r.t.size();
  const std::size_t nb = r.model.bodies.size();
  const int rov = r.body("uvms/rov");
  const int depth = r.controller("depth");
  REQUIRE(rov == 0);
  REQUIRE(depth >= 0);

  std::vector<Matrix6> M(nb);
  for (std::size_t b = 0; b < nb; ++b) {
    const model::BodySpec& spec = r.spec(r.model.bodies[b].name);
    REQUIRE(spec.quadratic_damping.isZero());
    M[b] = inertia_about_origin(spec);
  }
  auto H_z = [&](std::size_t k, std::size_t b) {
    const test::BodySample& s = r.bodies[k][b];
    const Vector6 h = M[b] * s.nu;  // [linear momentum; angular momentum about Bo], body frame
    return (s.R_WB * h.tail<3>() + s.p_WB.cross(s.R_WB * h.head<3>())).z();
  };
  auto external_z = [&](std::size_t k) {
    double m = 0.0;
    for (std::size_t b = 0; b < nb; ++b) {
      const model::BodySpec& spec = r.spec(r.model.bodies[b].name);
      const Vector6 damping = -spec.linear_damping.cwiseProduct(r.bodies[k][b].nu);
      m += moment_z(r.bodies[k][b], damping, spec.p_BoBcd_B);
    }
    return m + moment_z(r.bodies[k][0], r.outputs[k][static_cast<std::size_t>(depth)]);
  };

  // Conservation solved for the vehicle's yaw rate: everything else is as simulated.
  // k = ∂H_z,vehicle/∂r: the world-z momentum a unit body yaw rate gives the vehicle.
  double H0 = 0.0;
  for (std::size_t b = 0; b < nb; ++b) H0 += H_z(0, b);
  double impulse = 0.0, worst = 0.0, r_amplitude = 0.0, correlation = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    if (k > 0) impulse += 0.5 * (external_z(k) + external_z(k - 1)) * (r.t[k] - r.t[k - 1]);
    double H = 0.0;
    for (std::size_t b = 0; b < nb; ++b) H += H_z(k, b);
    const test::BodySample& v = r.bodies[k][0];
    Vector6 unit_yaw = Vector6::Zero();
    unit_yaw[5] = 1.0;
    const Vector6 h = M[0] * unit_yaw;
    const double dH_dr = (v.R_WB * h.tail<3>() + v.p_WB.cross(v.R_WB * h.head<3>())).z();
    const double r_sim = v.nu[5];
    const double r_predicted = r_sim + (H0 + impulse - H) / dH_dr;
    worst = std::max(worst, std::abs(r_predicted - r_sim));
    if (r.t[k] < 10.0 || r.t[k] > 20.0) continue;
    r_amplitude = std::max(r_amplitude, std::abs(r_sim));
    double arms = 0.0;  // Σ q̇1 over the four arms
    for (int a = 1; a <= 4; ++a) arms += r.qd[k][static_cast<std::size_t>(r.body("uvms/arm" + std::to_string(a) + "/link1"))];
    correlation += r_sim * arms;
  }
  // The arms turn the vehicle by a few mrad (README), at a yaw rate of mrad/s, opposite to
  // the arms' rotation ...
  const double yaw = euler_max_deg(r, rov, 2, 10.0, 20.0) * M_PI / 180.0;
  CHECK(yaw > 1e-3);
  CHECK(yaw < 1e-2);
  CHECK(r_amplitude > 1e-3);
  CHECK(correlation < 0.0);
  // ... of the size conservation predicts: within 0.1 % of its amplitude (what is left is
  // the trapezoid rule's error on the impulse of a wrench the PD changes every 2 ms, sampled
  // every 2 ms).
  CHECK(worst < 1e-3 * r_amplitude);
}

TEST_CASE("paper 001 Sec. 6.5: joints track in turn — the vehicle pitches as joints 2 and 3 swing the arms") {
  const test::Recording r = test::record(kDir + "uvms_arm_motions.yaml");
  REQUIRE(r.result.outcome == integrate::Outcome::completed);
  const double windows[3][2] = {{10.0, 20.0}, {25.0, 35.0}, {40.0, 50.0}};
  for (int a = 1; a <= 4; ++a)
    for (int j = 1; j <= 3; ++j) {
      const auto b = static_cast<std::size_t>(r.body("uvms/arm" + std::to_string(a) + "/link" + std::to_string(j)));
      double sum = 0.0;
      int count = 0;
      for (std::size_t k = 0; k < r.t.size(); ++k) {
        const double t = r.t[k];
        if (t <= windows[j - 1][0] || t > windows[j - 1][1]) continue;
        const double e = r.q[k][b] - M_PI / 4 * std::sin(2 * M_PI * t / 5);
        sum += e * e;
        ++count;
      }
      CAPTURE(a);
      CAPTURE(j);
      // README: within 0.05 rad RMS of (π/4) sin(2πt/5) in its window.
      CHECK(std::sqrt(sum / count) < 0.05);
    }
  const int rov = r.body("uvms/rov");
  // README: the vehicle pitches by about 20° while joints 2 swing the arms, 15° with joints 3,
  // and yaws by less than a degree.
  const double pitch2 = euler_max_deg(r, rov, 1, 25.0, 37.0);
  const double pitch3 = euler_max_deg(r, rov, 1, 40.0, 52.0);
  CHECK(pitch2 > 17.0);
  CHECK(pitch2 < 25.0);
  CHECK(pitch3 > 12.0);
  CHECK(pitch3 < 18.0);
  CHECK(euler_max_deg(r, rov, 2, 0.0, 55.0) < 1.0);
}

TEST_CASE("paper 001 Sec. 6.5 read literally: Table 5's joint-1 gain does not hold joint 1") {
  const test::Recording r = test::record(kDir + "uvms_arm_motions_table5.yaml");
  REQUIRE(r.result.outcome == integrate::Outcome::completed);
  for (int a = 1; a <= 4; ++a) {
    CAPTURE(a);
    // into its ±3 rad stop (by less than the stop's own give)
    CHECK(max_abs(r, r.body("uvms/arm" + std::to_string(a) + "/link1")) > 2.95);
  }
  CHECK(euler_max_deg(r, r.body("uvms/rov"), 2, 0.0, 55.0) > 20.0);
}

namespace {

// Arm 1's tool point in the vehicle frame, relative to the arm's mount, at every sample.
std::vector<Vector3d> tool_points(const test::Recording& r) {
  const int rov = r.body("uvms/rov");
  const int link3 = r.body("uvms/arm1/link3");
  Vector3d point = Vector3d::Zero();
  for (const auto& c : r.scenario.controllers)
    if (c.name == "tool") point = c.point;
  const Vector3d mount(0.08, 0.18, 0.32);
  std::vector<Vector3d> out;
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    const test::BodySample& v = r.bodies[k][static_cast<std::size_t>(rov)];
    const test::BodySample& l = r.bodies[k][static_cast<std::size_t>(link3)];
    out.push_back(v.R_WB.transpose() * (l.p_WB + l.R_WB * point - v.p_WB) - mount);
  }
  return out;
}

// Distance from the circle of radius 0.08 m about (0.24, 0, 0.11) in the x-z plane.
double off_circle(const Vector3d& p) {
  return std::hypot(std::hypot(p.x() - 0.24, p.z() - 0.11) - 0.08, p.y());
}

}  // namespace

TEST_CASE("paper 001 Sec. 6.6: arm 1's tool point stays on its circle while the vehicle spirals") {
  const test::Recording r = test::record(kDir + "uvms_spiral.yaml");
  REQUIRE(r.result.outcome == integrate::Outcome::completed);
  const std::vector<Vector3d> tool = tool_points(r);
  double worst = 0.0, sum = 0.0, lag = 0.0;
  for (std::size_t k = 0; k < tool.size(); ++k) {
    const double t = r.t[k];
    worst = std::max(worst, off_circle(tool[k]));
    sum += off_circle(tool[k]) * off_circle(tool[k]);
    const Vector3d target(0.08 * std::sin(2 * M_PI * t / 5) + 0.24, 0.0, 0.08 * std::cos(2 * M_PI * t / 5) + 0.11);
    lag = std::max(lag, (tool[k] - target).norm());
  }
  // README: within 4 cm (half the circle's radius) of the circle at every sample, 1.5 cm RMS,
  // and within 6 cm of the moving path point.
  CHECK(worst < 0.04);
  CHECK(std::sqrt(sum / static_cast<double>(tool.size())) < 0.015);
  CHECK(lag < 0.06);
  // The vehicle follows its spiral within 5 cm and faces the centre within 5°.
  const int rov = r.body("uvms/rov");
  double position = 0.0, heading = 0.0;
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    const double t = r.t[k];
    const test::BodySample& v = r.bodies[k][static_cast<std::size_t>(rov)];
    const Vector3d wanted(0.5 * std::sin(2 * M_PI * t / 10), 0.5 * std::cos(2 * M_PI * t / 10), 2.0 + 0.5 * t / 20);
    position = std::max(position, (v.p_WB - wanted).norm());
    const Vector3d to_centre = Vector3d(-wanted.x(), -wanted.y(), 0.0).normalized();
    heading = std::max(heading, std::acos(std::clamp(v.R_WB.col(0).dot(to_centre), -1.0, 1.0)));
  }
  CHECK(position < 0.05);
  CHECK(heading * 180.0 / M_PI < 5.0);
}

TEST_CASE("paper 001 Sec. 6.6 read literally: with Table 5's joint-1 gain the tool point misses its circle") {
  const test::Recording r = test::record(kDir + "uvms_spiral_table5.yaml");
  REQUIRE(r.result.outcome == integrate::Outcome::completed);
  const std::vector<Vector3d> tool = tool_points(r);
  double sum = 0.0;
  for (const Vector3d& p : tool) sum += off_circle(p) * off_circle(p);
  // README: by decimetres (0.3 m RMS).
  CHECK(std::sqrt(sum / static_cast<double>(tool.size())) > 0.2);
}

TEST_CASE("paper 001 Sec. 6.4: with the assumed joint damping the passive arms swing — without it joints 1 hit their stops") {
  const test::Recording damped = test::record(kDir + "uvms_four_arms_manoeuvres.yaml");
  const test::Recording literal = test::record(kDir + "uvms_four_arms_manoeuvres_undamped.yaml");
  REQUIRE(damped.result.outcome == integrate::Outcome::completed);
  REQUIRE(literal.result.outcome == integrate::Outcome::completed);
  for (int a = 1; a <= 4; ++a) {
    const std::string arm = "uvms/arm" + std::to_string(a);
    CAPTURE(a);
    // README: joints 2 and 3 swing the arms by up to about 70°, clear of their stops ...
    for (const char* link : {"/link2", "/link3"}) {
      CHECK(max_abs(damped, damped.body(arm + link)) > 1.0);
      CHECK(max_abs(damped, damped.body(arm + link)) < 1.5);
    }
    // ... while the joints 1, hinges about the vertical, wander by more than 1 rad; ...
    CHECK(max_abs(damped, damped.body(arm + "/link1")) > 1.0);
    // ... and without damping every joint 1 runs into its ±3 rad stop.
    CHECK(max_abs(literal, literal.body(arm + "/link1")) > 2.95);
  }
  // The vehicle itself follows its sines: 0.5 m of sway and surge, 45° of yaw.
  const int rov = damped.body("uvms/rov");
  CHECK(euler_max_deg(damped, rov, 2, 15.0, 25.0) == doctest::Approx(45.0).epsilon(0.02));
}
