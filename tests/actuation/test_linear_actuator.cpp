// Ball-screw + lever actuator (paper 003 eq. 3–7): the lever arm of eq. 4 against the triangle
// built from coordinates, the transmission ratio against finite differences over the Ariane
// arm's joint ranges (Table II–III), and energy bookkeeping of armature and bias.
#include <doctest/doctest.h>

#include <Eigen/Core>
#include <cmath>
#include <numbers>

#include "actuation/linear_actuator.h"
#include "dynamics/joint_forces.h"

using namespace uwsim::actuation;
using std::numbers::pi;

namespace {

constexpr double deg = pi / 180.0;

struct ArianeJoint {
  double l1, l2, lower, upper;  // m, m, rad, rad
};
// Leborne et al. Table II (l1, l2) and Table III (ranges).
const ArianeJoint ariane[3] = {{0.323, 0.058, -90 * deg, 32 * deg},
                               {0.073, 0.537, 7 * deg, 94 * deg},
                               {0.489, 0.054, 110 * deg, 244 * deg}};

// θ0 is not in the paper: centre each range on θ = 90°, so θ stays inside (0, π).
BallScrewLever lever_of(const ArianeJoint& j) {
  return {.l1 = j.l1, .l2 = j.l2, .angle_offset = pi / 2 - 0.5 * (j.lower + j.upper), .pitch = 0.002};
}

// The triangle from coordinates: O at the origin, A = (l1, 0), B = l2 (cos θ, sin θ).
Eigen::Vector2d point_A(const BallScrewLever& g) { return {g.l1, 0.0}; }
Eigen::Vector2d point_B(const BallScrewLever& g, double q) {
  const double theta = g.angle_offset + q;
  return g.l2 * Eigen::Vector2d(std::cos(theta), std::sin(theta));
}
double length_from_points(const BallScrewLever& g, double q) { return (point_B(g, q) - point_A(g)).norm(); }

}  // namespace

TEST_CASE("ball-screw lever: eq. 4's l2·sin α is dL/dq of the triangle over Ariane's joint ranges") {
  for (const ArianeJoint& j : ariane) {
    const BallScrewLever g = lever_of(j);
    for (int k = 0; k <= 40; ++k) {
      const double q = j.lower + (j.upper - j.lower) * k / 40.0;
      const LeverState st = lever_state(g, q);
      const Eigen::Vector2d A = point_A(g), B = point_B(g, q);
      CHECK(st.length == doctest::Approx(length_from_points(g, q)).epsilon(1e-14));
      // α = angle OBA, from the two vectors at B.
      const Eigen::Vector2d BO = -B, BA = A - B;
      const double alpha = std::acos(BO.dot(BA) / (BO.norm() * BA.norm()));
      CHECK(st.sin_alpha == doctest::Approx(std::sin(alpha)).epsilon(1e-9));
      // Eq. 4's conversion factor is the derivative of the length (finite difference of the
      // coordinates) …
      const double h = 1e-6;
      const double fd = (length_from_points(g, q + h) - length_from_points(g, q - h)) / (2 * h);
      CHECK(j.l2 * std::sin(alpha) == doctest::Approx(fd).epsilon(1e-7));
      CHECK(st.dlength == doctest::Approx(fd).epsilon(1e-7));
      // … and the torque of a unit push along A→B at B, about O, by the cross product.
      const Eigen::Vector2d f = (B - A).normalized();
      CHECK(B.x() * f.y() - B.y() * f.x() == doctest::Approx(st.dlength).epsilon(1e-12));
      const double fd2 = (lever_state(g, q + h).dlength - lever_state(g, q - h).dlength) / (2 * h);
      CHECK(st.d2length == doctest::Approx(fd2).epsilon(1e-6).scale(j.l1 * j.l2));
    }
  }
}

TEST_CASE("linear actuator: k1 = dq_m/dq of eq. 7 matches the motor angle's finite difference") {
  for (const ArianeJoint& j : ariane) {
    LinearActuator act;
    act.motor = {.torque_constant = 0.03, .gear_ratio = 7.0};
    act.lever = lever_of(j);
    // Motor angle from the geometry alone: N turns per screw turn, 2π/p screw radians per metre.
    auto motor_angle = [&](double q) {
      return act.motor.gear_ratio * 2 * pi / act.lever.pitch * length_from_points(act.lever, q);
    };
    for (int k = 0; k <= 20; ++k) {
      const double q = j.lower + (j.upper - j.lower) * k / 20.0, h = 1e-6;
      const double fd = (motor_angle(q + h) - motor_angle(q - h)) / (2 * h);
      CHECK(linear_actuator_ratio(act, q) == doctest::Approx(fd).epsilon(1e-7));
      // Eq. 5–6: the current's torque is k^L i with k^L = (2π/p)(N k_T) l2 sin α.
      const LeverState st = lever_state(act.lever, q);
      CHECK(linear_actuator_actuation(act, 2.0, q, 0.0).drive ==
            doctest::Approx(2 * pi / act.lever.pitch * act.motor.gear_ratio * 0.03 * j.l2 * st.sin_alpha * 2.0));
    }
  }
}

TEST_CASE("linear actuator: armature and bias do the work of the current and nothing else") {
  // A link of inertia I on Ariane's joint 2, driven through the actuator with friction off:
  //   (I + armature(q)) q̈ = drive − bias(q, q̇)
  // The kinetic energy ½(I + armature) q̇² must change by exactly the motor's work
  // k_T i · Δq_m; a wrong bias (sign or factor) would make or lose energy.
  LinearActuator act;
  act.motor = {.torque_constant = 0.02, .gear_ratio = 5.0, .rotor_inertia = 4e-7};
  act.lever = lever_of(ariane[1]);
  act.nut_mass = 0.4;
  const double I = 0.3, current = 0.05;
  auto accel = [&](double q, double qd) {
    const JointActuation a = linear_actuator_actuation(act, current, q, qd);
    return (a.drive - a.bias) / (I + a.armature);
  };
  auto energy = [&](double q, double qd) {
    return 0.5 * (I + linear_actuator_actuation(act, 0.0, q, 0.0).armature) * qd * qd;
  };
  auto motor_angle = [&](double q) {
    return act.motor.gear_ratio * 2 * pi / act.lever.pitch * lever_state(act.lever, q).length;
  };
  const double q0 = 10 * deg, qd0 = 0.05;
  double q = q0, qd = qd0;
  const double h = 1e-4;
  for (int n = 0; n < 20000 && q < 90 * deg; ++n) {  // RK4
    const double a1 = accel(q, qd);
    const double a2 = accel(q + h / 2 * qd, qd + h / 2 * a1);
    const double a3 = accel(q + h / 2 * (qd + h / 2 * a1), qd + h / 2 * a2);
    const double a4 = accel(q + h * (qd + h / 2 * a2), qd + h * a3);
    q += h * qd + h * h / 6 * (a1 + a2 + a3);
    qd += h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
  }
  REQUIRE(q - q0 > 20 * deg);  // it travelled through a good part of the range
  const double work = act.motor.torque_constant * current * (motor_angle(q) - motor_angle(q0));
  CHECK(energy(q, qd) - energy(q0, qd0) == doctest::Approx(work).epsilon(1e-8));
  // The reflected inertia varies several-fold along the way: the bias term matters.
  const double arm0 = linear_actuator_actuation(act, 0, q0, 0).armature;
  const double arm1 = linear_actuator_actuation(act, 0, q, 0).armature;
  CHECK(std::abs(arm1 - arm0) > 0.1 * (I + arm0));
  CHECK(linear_actuator_motor_speed(act, q, qd) == doctest::Approx(linear_actuator_ratio(act, q) * qd));
}

TEST_CASE("linear actuator: friction reflects through the transmission with the right sign") {
  LinearActuator act;
  act.motor = {.gear_ratio = 5.0, .viscous_friction = 1e-6, .dry_friction = 1e-3};
  act.lever = lever_of(ariane[1]);
  act.screw_viscous_friction = 20.0;
  act.screw_dry_friction = 5.0;
  const double q = 40 * deg;
  const LeverState st = lever_state(act.lever, q);
  const double k1 = linear_actuator_ratio(act, q);
  const JointActuation a = linear_actuator_actuation(act, 0.0, q, 0.3);
  // Power balance: joint-side friction power = motor-side + screw-side friction power.
  const double qd = 0.3, qd_m = k1 * qd, xd = st.dlength * qd;
  CHECK(a.viscous * qd * qd ==
        doctest::Approx(act.motor.viscous_friction * qd_m * qd_m + act.screw_viscous_friction * xd * xd));
  CHECK(a.coulomb * std::abs(qd) ==
        doctest::Approx(act.motor.dry_friction * std::abs(qd_m) + act.screw_dry_friction * std::abs(xd)));
  // Friction opposes motion in both directions, as the dynamics applies it (joint_forces.h:
  // −viscous·q̇ − coulomb·tanh(q̇/ε), ε = max(1e-3, coulomb/(D·ω))): at 0.3 rad/s, hundreds of ε,
  // the dry friction is whole.
  const double D = 1.0, omega = 2.0 * pi * 50.0;
  const double backward = uwsim::dynamics::actuator_passive_force(linear_actuator_actuation(act, 0.0, q, -qd), -qd, D, omega);
  CHECK(uwsim::dynamics::actuator_passive_force(a, qd, D, omega) == doctest::Approx(-(a.viscous * qd + a.coulomb)).epsilon(1e-12));
  CHECK(backward == doctest::Approx(a.viscous * qd + a.coulomb).epsilon(1e-12));
}
