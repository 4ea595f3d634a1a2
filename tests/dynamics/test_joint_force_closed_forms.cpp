// The forces a joint applies along its axis (dynamics/joint_forces.h), each against a closed-form
// motion of a single wheel on a hinge fixed to the world, run through the whole simulator (the
// path `sim` takes: articulated_body.cpp's joint forces).
// The wheel's CG is on the axis, gravity is off and it has no fluid terms, so the axis sees only
// its own inertia I and the joint's forces: I·q̈ = τ(q, q̇).
#include <doctest/doctest.h>

#include <cmath>

#include "support/simulate.h"

using namespace uwsim;

namespace {

constexpr double kWheelInertia = 0.5;  // kg m² about the hinge axis

scenario::Scenario wheel_on_hinge(const model::JointSpec& hinge, double duration, double step = 1e-3) {
  model::BodySpec wheel = test::plain_body("wheel");
  wheel.mass = 1.0;
  wheel.volume = 0.0;
  wheel.inertia_Bcm_B = Eigen::Vector3d(0.3, 0.3, kWheelInertia).asDiagonal();
  scenario::Scenario s = test::scenario_with({wheel}, duration, step, 1.0 / step);  // every step
  s.environment.gravity = 0.0;
  s.environment.water_density = 0.0;
  s.joints = {hinge};
  return s;
}

model::JointSpec hinge_joint() {
  model::JointSpec hinge;
  hinge.name = "hinge";
  hinge.parent = "world";
  hinge.child = "wheel";
  hinge.placement.axis = Eigen::Vector3d::UnitZ();
  return hinge;
}

double joint_velocity(const test::Trajectory& tr, std::size_t k) {
  return tr.x[k][static_cast<std::size_t>(tr.model.bodies[0].v_offset)];
}
double joint_position(const test::Trajectory& tr, std::size_t k) {
  return tr.x[k][static_cast<std::size_t>(tr.model.bodies[0].q_offset)];
}

}  // namespace

TEST_CASE("joint viscous damping: a spinning wheel slows as q̇₀·exp(−b·t/I), taking energy out") {
  model::JointSpec hinge = hinge_joint();
  hinge.damping = 0.25;  // N m s/rad: time constant I/b = 2 s
  for (const double qd0 : {1.5, -1.5}) {
    CAPTURE(qd0);
    hinge.initial_velocity = qd0;
    const test::Trajectory tr = test::simulate(wheel_on_hinge(hinge, 2.0));
    REQUIRE(tr.result.outcome == integrate::Outcome::completed);
    double worst = 0.0;
    for (std::size_t k = 0; k < tr.t.size(); ++k)
      worst = std::max(worst, std::abs(joint_velocity(tr, k) - qd0 * std::exp(-hinge.damping * tr.t[k] / kWheelInertia)));
    // rk4 on an exponential at 1 ms: error ~ (h/τ)⁵ per step, far below 1e-9; a damping force
    // with the wrong sign would grow q̇ by e instead of shrinking it by 1/e.
    CHECK(worst < 1e-9);
    CHECK(std::abs(joint_velocity(tr, tr.t.size() - 1)) < 0.4 * std::abs(qd0));
  }
}

TEST_CASE("gear motor's dry friction: an unpowered motor decelerates its joint at N·f_s / (I + N²·J_m) against the motion") {
  // [Leborne2018] eq. 2 as actuation/gear_motor.h writes it: dry friction f_s on the motor shaft
  // reflects to N·f_s at the joint; the rotor adds N²·J_m to the inertia the joint sees.
  model::JointSpec hinge = hinge_joint();
  hinge.actuator.kind = actuation::JointActuatorKind::gear_motor;
  hinge.actuator.has_input = true;
  hinge.actuator.input.constant = 0.0;  // no current: only friction
  hinge.actuator.motor = {0.03, 50.0, 3e-5, 0.0, 2e-3};  // k_T, N, J_m, f_v, f_s
  const double N = 50.0, f_s = 2e-3, J_m = 3e-5;
  const double deceleration = N * f_s / (kWheelInertia + N * N * J_m);
  for (const double qd0 : {2.0, -2.0}) {
    CAPTURE(qd0);
    hinge.initial_velocity = qd0;
    const test::Trajectory tr = test::simulate(wheel_on_hinge(hinge, 2.0));
    REQUIRE(tr.result.outcome == integrate::Outcome::completed);
    // It keeps sliding (|q̇| ≥ 1.6 rad/s, thousands of times the regularisation width), so the
    // friction is fully developed and constant: q̇ falls linearly, which rk4 integrates exactly.
    double worst = 0.0;
    for (std::size_t k = 0; k < tr.t.size(); ++k)
      worst = std::max(worst, std::abs(joint_velocity(tr, k) - (qd0 - std::copysign(deceleration, qd0) * tr.t[k])));
    CHECK(worst < 1e-9);
    CHECK(std::abs(joint_velocity(tr, tr.t.size() - 1)) < std::abs(qd0) - 0.3);  // slowed, both ways
  }
}

TEST_CASE("joint limit: critically damped (ζ = 1) — the stop holds the wheel to v₀/(e·ω) and returns it at v₀·e⁻²") {
  // Beyond the limit by Δ the joint feels D·(−ω²Δ − 2ζωΔ̇) with ζ = 1, D = I here, and only while
  // that pushes back (joint_forces.h). Entering at Δ̇ = v₀: Δ = v₀·t·e^(−ωt), deepest v₀/(eω) at
  // t = 1/ω; at t = 2/ω the spring-damper would start to pull, the force stops and the wheel
  // leaves the stop coasting at Δ̇ = −v₀·e⁻², free of forces after that.
  // Sensitivity: ζ = 0.9 / 1.1 would give depths 1.07 / 0.94 and exit speeds 1.15 / 0.88 of
  // these (ζ = 0.25: 1.93 and 3.7), so 3 % bands resolve ζ to a few percent. What the bands
  // allow: rk4 across the entry, where the damping force jumps from 0 to 2ωD·v₀ inside a step
  // (an O(ω·h) error: 10 % at 1 ms, hence the 0.1 ms step here, ω·h ≈ 0.03 — the stop's
  // stiffness is the model's, not the step's, so a finer step resolves the same stop), and
  // sampling the deepest point at the steps only (depth ∝ 1 − ½ω²δt², δt ≤ h/2).
  model::JointSpec hinge = hinge_joint();
  hinge.limits.upper = 0.5;
  hinge.limits.lower = -0.5;
  const double v0 = 0.4;
  for (const double direction : {1.0, -1.0}) {
    CAPTURE(direction);
    hinge.initial_position = direction * 0.48;  // 0.02 rad from the stop, heading into it
    hinge.initial_velocity = direction * v0;
    const test::Trajectory tr = test::simulate(wheel_on_hinge(hinge, 0.2, 1e-4));
    REQUIRE(tr.result.outcome == integrate::Outcome::completed);
    const double omega = tr.model.limit_frequency;
    REQUIRE(1.0 / omega < 0.02);  // the whole contact (2/ω after entry at 0.05 s) is over well before the end
    double depth = 0.0;
    for (std::size_t k = 0; k < tr.t.size(); ++k) depth = std::max(depth, direction * joint_position(tr, k) - 0.5);
    // Relative errors (doctest's Approx would add an absolute 0.03 on these sub-millimetre sizes).
    const double expected_depth = v0 / (M_E * omega), expected_exit = v0 * std::exp(-2.0);
    CAPTURE(depth);
    CHECK(std::abs(depth / expected_depth - 1.0) < 0.03);
    const double exit_speed = -direction * joint_velocity(tr, tr.t.size() - 1);
    CAPTURE(exit_speed);
    CHECK(std::abs(exit_speed / expected_exit - 1.0) < 0.03);
  }
}
