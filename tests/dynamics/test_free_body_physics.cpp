// Physics of one free body against closed-form solutions and conservation laws.
// Every expected value is derived here from the parameters, not pasted.
#include <doctest/doctest.h>

#include <cmath>

#include "dynamics/hydrodynamics.h"
#include "spatial/rotation.h"
#include "support/simulate.h"

using namespace uwsim;
using spatial::Vec6;

namespace {

scenario::Scenario vacuum_scenario(const model::BodySpec& body, double duration,
                                   double output_rate = 50.0) {
  scenario::Scenario s = test::scenario_with({body}, duration, 1e-3, output_rate);
  s.environment.gravity = 0.0;
  return s;
}

// ½νᵀMν with M assembled here in Fossen order [Fossen2011 eq. 3.44] — not the model's own M,
// so a wrong inertia block or ordering in the model cannot cancel out of the check.
double kinetic_energy(const model::BodySpec& body, const Vec6& nu) {
  const Eigen::Matrix3d S = spatial::skew(body.p_BoBcm_B);
  Eigen::Matrix<double, 6, 6> M;
  M << body.mass * Eigen::Matrix3d::Identity(), -body.mass * S, body.mass * S,
      body.inertia_Bcm_B - body.mass * S * S;
  return 0.5 * nu.dot((M + body.added_mass_B) * nu);
}

}  // namespace

TEST_CASE("free body: surge velocity settles where F = X_u·u + X_|u|u·u|u|") {
  model::BodySpec body = test::plain_body();
  body.added_mass_B.diagonal() << 5.5, 12.7, 14.57, 0.12, 0.12, 0.12;
  body.linear_damping << 4.03, 6.22, 5.18, 0.07, 0.07, 0.07;
  body.quadratic_damping << 18.18, 21.66, 36.99, 1.55, 1.55, 1.55;
  scenario::Scenario s = vacuum_scenario(body, 30.0);
  model::ForceSpec push;
  push.name = "push";
  push.body = body.name;
  push.force = Eigen::Vector3d(10.0, 0.0, 0.0);
  s.forces.push_back(push);

  const test::Trajectory tr = test::simulate(s);
  const double Xu = body.linear_damping[0], Xuu = body.quadratic_damping[0], F = 10.0;
  const double u_terminal = (-Xu + std::sqrt(Xu * Xu + 4.0 * Xuu * F)) / (2.0 * Xuu);
  const Vec6 nu_end = tr.nu(tr.t.size() - 1);
  CHECK(nu_end[0] == doctest::Approx(u_terminal).epsilon(1e-10));
  CHECK(nu_end.tail<5>().norm() < 1e-12);
  CHECK(tr.nu_dot(tr.t.size() - 1)[0] == doctest::Approx(0.0).epsilon(1e-9));
}

TEST_CASE("free body: heave free decay with linear damping is w0·exp(−Z_w·t / (m + Z_ẇ))") {
  model::BodySpec body = test::plain_body();
  body.added_mass_B(2, 2) = 14.57;
  body.linear_damping[2] = 5.18;
  body.initial.nu_B[2] = 0.5;
  const test::Trajectory tr = test::simulate(vacuum_scenario(body, 20.0));
  const double tau = (body.mass + body.added_mass_B(2, 2)) / body.linear_damping[2];
  double worst = 0.0;
  for (std::size_t k = 0; k < tr.t.size(); ++k) {
    worst = std::max(worst, std::abs(tr.nu(k)[2] - 0.5 * std::exp(-tr.t[k] / tau)));
  }
  CHECK(worst < 1e-12);
  // The depth is the integral of w: z(t) = w0·τ·(1 − exp(−t/τ)).
  const std::size_t last = tr.t.size() - 1;
  CHECK(tr.position(last)[2] == doctest::Approx(0.5 * tau * (1.0 - std::exp(-tr.t[last] / tau))).epsilon(1e-10));
}

TEST_CASE("free body: a buoyant body rises at the speed where B − W = Z_w·|w| + Z_|w|w·w²") {
  model::BodySpec body = test::plain_body();  // BlueROV2: B = 114.8 N > W = 112.8 N
  body.volume = 0.011702;
  body.p_BoBcm_B = Eigen::Vector3d(0.0, 0.0, 0.02);
  body.added_mass_B.diagonal() << 5.5, 12.7, 14.57, 0.12, 0.12, 0.12;
  body.linear_damping << 4.03, 6.22, 5.18, 0.07, 0.07, 0.07;
  body.quadratic_damping << 18.18, 21.66, 36.99, 1.55, 1.55, 1.55;
  scenario::Scenario s = test::scenario_with({body}, 40.0);
  const test::Trajectory tr = test::simulate(s);

  const double g = s.environment.gravity;
  const double net_lift = s.environment.water_density * g * body.volume - body.mass * g;
  REQUIRE(net_lift > 0.0);
  const double Zw = body.linear_damping[2], Zww = body.quadratic_damping[2];
  const double rise_speed = (-Zw + std::sqrt(Zw * Zw + 4.0 * Zww * net_lift)) / (2.0 * Zww);
  const std::size_t last = tr.t.size() - 1;
  CHECK(tr.nu(last)[2] == doctest::Approx(-rise_speed).epsilon(1e-10));  // up is −z in NED
  CHECK(tr.position(last)[2] < -rise_speed * 30.0);
  CHECK(std::abs(tr.nu(last)[0]) < 1e-12);
  CHECK(std::abs(tr.nu(last)[4]) < 1e-12);
}

TEST_CASE("free body: ½νᵀ(M_RB + M_A)ν is conserved in an ideal fluid with anisotropic added mass") {
  model::BodySpec body = test::plain_body();
  body.p_BoBcm_B = Eigen::Vector3d(0.03, -0.01, 0.05);
  body.inertia_Bcm_B << 0.21, 0.01, -0.02, 0.01, 0.35, 0.015, -0.02, 0.015, 0.28;
  // A full symmetric positive-definite added mass with every coupling present.
  Eigen::Matrix<double, 6, 6> L = Eigen::Matrix<double, 6, 6>::Zero();
  L.diagonal() << 2.0, 4.0, 3.5, 0.3, 0.5, 0.4;
  L(1, 0) = 0.7, L(2, 1) = -0.4, L(4, 1) = 0.2, L(5, 0) = 0.3, L(3, 2) = 0.1, L(5, 4) = -0.05;
  body.added_mass_B = L * L.transpose();
  body.initial.nu_B << 0.4, -0.2, 0.3, 0.8, -0.6, 0.5;
  const test::Trajectory tr = test::simulate(vacuum_scenario(body, 100.0));

  const double T0 = kinetic_energy(body, tr.nu(0));
  double worst = 0.0;
  for (std::size_t k = 0; k < tr.t.size(); ++k) worst = std::max(worst, std::abs(kinetic_energy(body, tr.nu(k)) / T0 - 1.0));
  CHECK(worst < 1e-9);
  // The motion must be non-trivial for this to mean anything: the velocity keeps changing.
  CHECK((tr.nu(tr.t.size() - 1) - tr.nu(0)).norm() > 0.1);
}

TEST_CASE("hydrodynamics: the Munk moment is (X_u̇ − Y_v̇)·u·v magnitudes, turning a slender body broadside") {
  model::BodySpec body = test::plain_body();
  body.added_mass_B.diagonal() << 1.0, 20.0, 20.0, 0.01, 0.3, 0.3;  // slender along x
  const dynamics::Model model = model::build_model(test::scenario_with({body}, 1.0));
  const double u = 1.0, v = 0.2;
  const Vec6 V = spatial::from_fossen_order((Vec6() << u, v, 0, 0, 0, 0).finished());
  const auto motion = dynamics::body_motion(Eigen::Matrix3d::Identity(), V, Eigen::Vector3d::Zero());
  const Vec6 F = spatial::to_fossen_order(dynamics::added_mass_coriolis(model.bodies[0], motion));
  // Kirchhoff: moment = −v × ∂T/∂v with T = ½(A11 u² + A22 v²).
  const Eigen::Vector3d p(body.added_mass_B(0, 0) * u, body.added_mass_B(1, 1) * v, 0.0);
  const Eigen::Vector3d expected_moment = -Eigen::Vector3d(u, v, 0.0).cross(p);
  CHECK(F[5] == doctest::Approx(expected_moment.z()).epsilon(1e-14));
  CHECK(F[5] < 0.0);  // u, v > 0: yaws to port, increasing the sideslip angle
  CHECK(F.head<3>().norm() < 1e-15);

  // In motion: a small sideslip grows (the ideal-fluid instability of a slender body).
  body.initial.nu_B << u, 0.01, 0, 0, 0, 0;
  scenario::Scenario s = test::scenario_with({body}, 3.0);
  s.environment.gravity = 0.0;
  const test::Trajectory tr = test::simulate(s);
  const std::size_t last = tr.t.size() - 1;
  CHECK(std::atan2(tr.nu(last)[1], tr.nu(last)[0]) > 5.0 * std::atan2(0.01, u));
}

TEST_CASE("free body: a small roll oscillation has the period 2π·√((I_x + K_ṗ) / (W·BG))") {
  model::BodySpec body = test::plain_body();
  body.added_mass_B.diagonal() << 5.5, 12.7, 14.57, 0.12, 0.12, 0.12;
  const double BG = 0.05;
  body.p_BoBcb_B = Eigen::Vector3d(0.0, 0.0, -BG);  // CB above the CG (origin)
  body.initial.q_WB = Eigen::AngleAxisd(0.01, Eigen::Vector3d::UnitX());
  scenario::Scenario s = test::scenario_with({body}, 20.0, 1e-3, 1000.0);
  const test::Trajectory tr = test::simulate(s);

  std::vector<double> upward_crossings;
  double previous_roll = 0.0;
  for (std::size_t k = 0; k < tr.t.size(); ++k) {
    const Eigen::Vector4d q = tr.quaternion(k);
    const double roll = spatial::euler_zyx_from_rotation(spatial::rotation_from_quaternion(q))[0];
    if (k > 0 && previous_roll < 0.0 && roll >= 0.0) {
      const double h = tr.t[k] - tr.t[k - 1];
      upward_crossings.push_back(tr.t[k - 1] + h * previous_roll / (previous_roll - roll));
    }
    previous_roll = roll;
  }
  REQUIRE(upward_crossings.size() >= 10);
  const double measured = (upward_crossings.back() - upward_crossings.front()) /
                          static_cast<double>(upward_crossings.size() - 1);
  const double W = body.mass * s.environment.gravity;
  const double roll_inertia = body.inertia_Bcm_B(0, 0) + body.added_mass_B(3, 3);
  const double expected = 2.0 * M_PI * std::sqrt(roll_inertia / (W * BG));
  CHECK(measured == doctest::Approx(expected).epsilon(1e-5));
}

TEST_CASE("free body: in a uniform current it moves as in still water, carried by the current") {
  model::BodySpec body = test::plain_body();  // BlueROV2 with CG offset, positive buoyancy
  body.volume = 0.011702;
  body.p_BoBcm_B = Eigen::Vector3d(0.0, 0.0, 0.02);
  body.added_mass_B.diagonal() << 5.5, 12.7, 14.57, 0.12, 0.12, 0.12;
  body.linear_damping << 4.03, 6.22, 5.18, 0.07, 0.07, 0.07;
  body.quadratic_damping << 18.18, 21.66, 36.99, 1.55, 1.55, 1.55;
  body.initial.q_WB = Eigen::AngleAxisd(0.7, Eigen::Vector3d(0.2, 0.3, 1.0).normalized());
  const Eigen::Vector3d current_W(0.3, -0.2, 0.1);

  SUBCASE("a body at rest in the water drifts with the current") {}
  SUBCASE("a tumbling body: same relative motion, offset by the drift") { body.initial.nu_B << 0.5, -0.1, 0.2, 0.6, -0.4, 0.9; }

  scenario::Scenario still = test::scenario_with({body}, 10.0);
  scenario::Scenario moving = still;
  moving.environment.current_W = current_W;
  const Eigen::Matrix3d R_WB0 = body.initial.q_WB.toRotationMatrix();
  moving.bodies[0].initial.nu_B.head<3>() += R_WB0.transpose() * current_W;

  const test::Trajectory a = test::simulate(still), b = test::simulate(moving);
  double worst_position = 0.0, worst_attitude = 0.0, worst_relative_velocity = 0.0;
  for (std::size_t k = 0; k < a.t.size(); ++k) {
    worst_position = std::max(worst_position, (b.position(k) - a.position(k) - current_W * a.t[k]).norm());
    worst_attitude = std::max(worst_attitude, (b.quaternion(k) - a.quaternion(k)).norm());
    const Eigen::Matrix3d R_WB = spatial::rotation_from_quaternion(b.quaternion(k));
    Vec6 nu_rel = b.nu(k);
    nu_rel.head<3>() -= R_WB.transpose() * current_W;
    worst_relative_velocity = std::max(worst_relative_velocity, (nu_rel - a.nu(k)).norm());
  }
  CHECK(worst_position < 1e-9);
  CHECK(worst_attitude < 1e-9);
  CHECK(worst_relative_velocity < 1e-9);
}

TEST_CASE("free body: a spin about a principal axis keeps q(t) = q0 ⊗ exp(ωt/2), unit to 1e-12, with rk4 and dopri5") {
  model::BodySpec body = test::plain_body();
  body.inertia_Bcm_B.diagonal() << 0.1, 0.3, 0.5;
  body.added_mass_B.diagonal() << 5.5, 12.7, 14.57, 0.12, 0.2, 0.3;
  const Eigen::Vector3d w_B(0.0, 0.0, 1.3);  // about the z principal axis: ω stays constant
  body.initial.nu_B.tail<3>() = w_B;
  body.initial.q_WB = Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 2, 0.5).normalized());
  scenario::Scenario s = vacuum_scenario(body, 100.0);
  SUBCASE("rk4") {}
  SUBCASE("dopri5") {
    s.simulation.integrator = scenario::IntegratorKind::dopri5;
    s.simulation.abs_tol = s.simulation.rel_tol = 1e-12;
  }
  const test::Trajectory tr = test::simulate(s);
  double worst_attitude = 0.0, worst_norm = 0.0;
  for (std::size_t k = 0; k < tr.t.size(); ++k) {
    const Eigen::Quaterniond q = body.initial.q_WB * Eigen::Quaterniond(Eigen::AngleAxisd(w_B.norm() * tr.t[k], w_B.normalized()));
    const Eigen::Vector4d expected(q.w(), q.x(), q.y(), q.z());
    const Eigen::Vector4d actual = tr.quaternion(k);
    worst_attitude = std::max(worst_attitude, std::min((actual - expected).norm(), (actual + expected).norm()));
    worst_norm = std::max(worst_norm, std::abs(actual.norm() - 1.0));
  }
  CHECK(worst_attitude < 1e-8);  // 130 rad of rotation
  CHECK(worst_norm < 1e-12);
}

TEST_CASE("restoring: a neutral body with the CB straight above the CG stays at rest") {
  model::BodySpec body = test::plain_body();
  body.p_BoBcm_B = Eigen::Vector3d(0.01, -0.02, 0.03);
  body.p_BoBcb_B = Eigen::Vector3d(0.01, -0.02, -0.01);
  body.added_mass_B.diagonal() << 5.5, 12.7, 14.57, 0.12, 0.12, 0.12;
  const test::Trajectory tr = test::simulate(test::scenario_with({body}, 10.0));
  // W and B agree only to rounding (ρ·(m/ρ) ≠ m in floating point): an imbalance of ~1e-14 N
  // moves it ~1e-13 m in 10 s. A wrong sign or lever arm would move it by metres.
  const std::size_t last = tr.t.size() - 1;
  CHECK(tr.position(last).norm() < 1e-12);
  CHECK(tr.nu(last).norm() < 1e-12);
}

TEST_CASE("restoring: weight and buoyancy are W·R_WBᵀe_z at the CG and −B·R_WBᵀe_z at the CB") {
  model::BodySpec body = test::plain_body();
  body.volume = 0.02;
  body.p_BoBcm_B = Eigen::Vector3d(0.1, 0.0, 0.02);
  body.p_BoBcb_B = Eigen::Vector3d(0.0, 0.05, -0.01);
  const scenario::Scenario s = test::scenario_with({body}, 1.0);
  const dynamics::Model model = model::build_model(s);
  const Eigen::Matrix3d R_WB = Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  const Vec6 F = spatial::to_fossen_order(dynamics::restoring(model.bodies[0], R_WB));
  const double W = body.mass * s.environment.gravity;
  const double B = s.environment.water_density * s.environment.gravity * body.volume;
  // Independent route: the forces in NED, then rotated into the body and taken about Bo.
  const Eigen::Vector3d f_weight_B = R_WB.transpose() * Eigen::Vector3d(0, 0, W);
  const Eigen::Vector3d f_buoyancy_B = R_WB.transpose() * Eigen::Vector3d(0, 0, -B);
  CHECK((F.head<3>() - (f_weight_B + f_buoyancy_B)).norm() < 1e-12);
  const Eigen::Vector3d moment = body.p_BoBcm_B.cross(f_weight_B) + body.p_BoBcb_B.cross(f_buoyancy_B);
  CHECK((F.tail<3>() - moment).norm() < 1e-12);
}
