// The model does not depend on the step: halving rk4's step twice on a system with a joint held
// against its stop, a joint sliding with Coulomb friction and a connector, the three solutions
// converge to one trajectory with differences shrinking as step⁴ (rk4's order). When the stop's
// stiffness, the friction regularisation or the Baumgarte frequency followed the step (as they
// did before issue 17), each halving changed the model and the differences did not shrink so.
#include <doctest/doctest.h>

#include <cmath>

#include "support/simulate.h"

using namespace uwsim;
using Eigen::Vector3d;

namespace {

scenario::Scenario vehicle_arm_and_pod(double step) {
  model::BodySpec rov = test::plain_body("rov");
  rov.added_mass_B.diagonal() << 5.5, 12.7, 14.57, 0.12, 0.12, 0.12;
  rov.linear_damping << 4.03, 6.22, 5.18, 0.07, 0.07, 0.07;
  // Linear damping only: |ν|ν is not twice differentiable where a component passes zero,
  // which would cost rk4 an order there (that is the drag law's, not the model's, doing).
  rov.p_BoBcm_B = Vector3d(0.0, 0.0, 0.02);
  rov.initial.nu_B << 0.3, 0.0, 0.1, 0.0, 0.1, 0.2;
  model::BodySpec l1 = test::plain_body("l1"), l2 = test::plain_body("l2"), pod = test::plain_body("pod");
  for (auto* b : {&l1, &l2}) {
    b->mass = 0.8;
    b->inertia_Bcm_B = Vector3d(0.002, 0.01, 0.01).asDiagonal();
    b->p_BoBcm_B = Vector3d(0.1, 0.0, 0.0);
    b->volume = 0.0006;
    b->linear_damping << 2.0, 2.0, 2.0, 0.01, 0.01, 0.01;
  }
  pod.mass = 2.0;
  pod.inertia_Bcm_B = Vector3d(0.01, 0.02, 0.02).asDiagonal();
  pod.volume = 0.0015;
  pod.linear_damping << 5.0, 5.0, 5.0, 0.05, 0.05, 0.05;
  // The shoulder is pressed against its upper stop by a steady effort and starts at the rest
  // depth τ/(D·ω²) (D ≈ its inertia about the axis): it stays in contact throughout, where the
  // stop force is smooth. Entering or leaving a stop switches the damping term on or off (a jump
  // of the force), which no fixed-step method integrates at its full order.
  model::JointSpec shoulder;
  shoulder.name = "shoulder";
  shoulder.parent = "rov";
  shoulder.child = "l1";
  shoulder.placement.xyz = Vector3d(0.2, 0.0, 0.1);
  shoulder.placement.axis = Vector3d::UnitY();
  shoulder.limits.upper = 0.3;
  shoulder.effort = 4.0;
  const double D = 0.01 + 0.8 * 0.1 * 0.1;
  const double omega = 2.0 * M_PI * model::ComplianceSpec{}.limit_frequency;
  shoulder.initial_position = 0.3 + shoulder.effort / (D * omega * omega);
  // The elbow slides against Coulomb friction and damping, slows, and reverses under gravity.
  model::JointSpec elbow;
  elbow.name = "elbow";
  elbow.parent = "l1";
  elbow.child = "l2";
  elbow.placement.xyz = Vector3d(0.2, 0.0, 0.0);
  elbow.placement.axis = Vector3d::UnitY();
  elbow.friction = 0.05;
  elbow.damping = 0.01;
  elbow.initial_velocity = 1.5;
  model::ConnectorSpec ball;
  ball.name = "hitch";
  ball.type = model::ConnectorType::ball;
  ball.first = "rov";
  ball.second = "pod";
  ball.point_B = Vector3d(-0.3, 0.0, 0.1);
  pod.initial.p_WB_W = Vector3d(-0.45, 0.05, 0.2);  // hangs off the hitch, heavier than water
  scenario::Scenario s = test::scenario_with({rov, l1, l2, pod}, 1.0, step, 20.0);
  s.joints = {shoulder, elbow};
  s.connectors = {ball};
  return s;
}

double largest_difference(const test::Trajectory& a, const test::Trajectory& b) {
  REQUIRE(a.t.size() == b.t.size());
  double worst = 0.0;
  for (std::size_t k = 0; k < a.t.size(); ++k) {
    REQUIRE(a.t[k] == b.t[k]);
    for (std::size_t i = 0; i < a.x[k].size(); ++i) worst = std::max(worst, std::abs(a.x[k][i] - b.x[k][i]));
  }
  return worst;
}

}  // namespace

TEST_CASE("step convergence: halving rk4's step twice with a joint stop, friction and a connector converges as step⁴") {
  const test::Trajectory coarse = test::simulate(vehicle_arm_and_pod(1e-3));
  const test::Trajectory medium = test::simulate(vehicle_arm_and_pod(0.5e-3));
  const test::Trajectory fine = test::simulate(vehicle_arm_and_pod(0.25e-3));
  for (const auto* tr : {&coarse, &medium, &fine}) REQUIRE(tr->result.outcome == integrate::Outcome::completed);
  // One model for all three steps.
  CHECK(coarse.model.limit_frequency == fine.model.limit_frequency);
  CHECK(coarse.model.constraint_frequency == fine.model.constraint_frequency);
  // The shoulder stayed on its stop and the elbow really slid and turned back, so all three
  // effects were exercised (else the test would say nothing about them).
  const auto q = [&](std::size_t k, int body) { return coarse.x[k][static_cast<std::size_t>(coarse.model.bodies[static_cast<std::size_t>(body)].q_offset)]; };
  const auto qd = [&](std::size_t k, int body) { return coarse.x[k][static_cast<std::size_t>(coarse.model.bodies[static_cast<std::size_t>(body)].v_offset)]; };
  const int l1 = coarse.model.body_index("l1"), l2 = coarse.model.body_index("l2");
  double elbow_slowest = 1e9;
  for (std::size_t k = 0; k < coarse.t.size(); ++k) {
    CHECK(q(k, l1) > 0.3);
    elbow_slowest = std::min(elbow_slowest, qd(k, l2));
  }
  CHECK(elbow_slowest < 0.0);

  const double d1 = largest_difference(coarse, medium), d2 = largest_difference(medium, fine);
  CAPTURE(d1);
  CAPTURE(d2);
  CHECK(d1 > 1e-12);  // above rounding, so the ratio means something
  // rk4's global error ∝ h⁴: each halving divides the difference by 16. The band 11–22
  // (order 3.5–4.5) leaves room for the pre-asymptotic part at ω·h up to 0.3 (ω the stop's
  // and the connector's 2π·50 Hz); a model that changed with h would converge at best at
  // order 1–2 here (the stop's rest depth alone moves as ω⁻² ∝ h²).
  CHECK(d1 / d2 > 11.0);
  CHECK(d1 / d2 < 22.0);
}
