// The articulated-body algorithm against independent formulations and conservation laws.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>

#include "dynamics/crba.h"
#include "dynamics/joint_forces.h"
#include "dynamics/kinematics.h"
#include "dynamics/pipeline.h"
#include "dynamics/rnea.h"
#include "model/shape_hydrodynamics.h"
#include "spatial/rotation.h"
#include "support/trees.h"

using namespace uwsim;
using spatial::Vec6;

namespace {

using JT = model::JointType;

// A floating vehicle carrying a branched arm (revolute, prismatic, fixed; all three placement
// notations) and, as a second tree, a fixed-base two-link arm: every code path at once.
scenario::Scenario random_forest(test::RandomBodies& rnd) {
  scenario::Scenario s = test::scenario_with({}, 1.0);
  s.environment.current_W = rnd.vec3(0.3);
  s.bodies = {rnd.body("vehicle", 11.5), rnd.body("l1", 0.8), rnd.body("l2", 0.5), rnd.body("l3", 0.3),
              rnd.body("l4", 0.4),       rnd.body("tool", 0.2), rnd.body("b1", 1.0), rnd.body("b2", 0.6)};
  s.joints = {rnd.joint("j1", JT::revolute, "vehicle", "l1", 0), rnd.joint("j2", JT::revolute, "l1", "l2", 1),
              rnd.joint("j3", JT::prismatic, "l2", "l3", 2),     rnd.joint("j4", JT::revolute, "l1", "l4", 2),
              rnd.joint("j5", JT::fixed, "l3", "tool", 0),       rnd.joint("k1", JT::revolute, "world", "b1", 1),
              rnd.joint("k2", JT::prismatic, "b1", "b2", 0)};
  return s;
}

std::vector<double> random_state(const dynamics::Model& model, test::RandomBodies& rnd) {
  std::vector<double> x(static_cast<std::size_t>(model.state_size()));
  for (double& value : x) value = rnd.uniform(-1.0, 1.0);
  dynamics::normalize_quaternions(model, x.data());
  return x;
}

// The joint forces ABA should use, from the model and the state alone (not from ABA's
// workspace): the random joints carry a constant effort and viscous damping and nothing else
// (no friction, limits, saturation or actuator), so τ = effort − b·q̇ (joint_forces.h).
Eigen::VectorXd joint_forces_from_state(const dynamics::Model& model, const std::vector<double>& x) {
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv);
  for (const dynamics::Body& body : model.bodies) {
    if (body.joint.dof() != 1) continue;
    const dynamics::Joint& j = body.joint;
    REQUIRE(j.friction == 0.0);
    REQUIRE(std::isinf(j.lower));
    REQUIRE(std::isinf(j.upper));
    REQUIRE(std::isinf(j.max_effort));
    REQUIRE(j.actuator.kind == actuation::JointActuatorKind::none);
    tau[body.v_offset - model.nq] = j.effort - j.damping * x[static_cast<std::size_t>(body.v_offset)];
  }
  return tau;
}

// The joint forces ABA used, read from its workspace: only for the motors' test below, whose
// question is the armature and lever bias in the inertia, not the forces (their closed forms are
// in test_joint_force_closed_forms.cpp).
Eigen::VectorXd joint_forces_used(const dynamics::Model& model, const dynamics::Workspace& ws) {
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv);
  for (std::size_t b = 0; b < model.bodies.size(); ++b)
    if (model.bodies[b].joint.dof() == 1) tau[model.bodies[b].v_offset - model.nq] = ws.bodies[b].tau_total;
  return tau;
}

// One state evaluated by both formulations: ABA's accelerations and the joint forces it used,
// and H and h from CRBA and RNEA (their kinematics and forces left in `ws_crba`).
struct BothFormulations {
  Eigen::VectorXd vdot_aba, tau, h;
  Eigen::MatrixXd H;
};
enum class JointForces { from_state, from_aba_workspace };
BothFormulations evaluate_both_ways(const dynamics::Model& model, const std::vector<double>& x, dynamics::Workspace& ws_crba,
                                    JointForces forces = JointForces::from_state) {
  std::vector<double> xdot(x.size());
  dynamics::Workspace ws(model);
  dynamics::evaluate(model, 0.0, x.data(), xdot.data(), ws);
  BothFormulations out;
  out.vdot_aba = Eigen::Map<const Eigen::VectorXd>(xdot.data() + model.nq, model.nv);
  out.tau = forces == JointForces::from_state ? joint_forces_from_state(model, x) : joint_forces_used(model, ws);
  dynamics::compute_kinematics_and_forces(model, 0.0, x.data(), ws_crba);
  out.H = dynamics::mass_matrix(model, ws_crba);
  out.h = dynamics::inverse_dynamics(model, ws_crba, Eigen::VectorXd::Zero(model.nv));
  return out;
}

}  // namespace

TEST_CASE("aba: accelerations equal H⁻¹(τ − h) from CRBA and RNEA on random trees, fluid terms included") {
  test::RandomBodies rnd(7);
  for (int trial = 0; trial < 10; ++trial) {
    const dynamics::Model model = model::build_model(random_forest(rnd));
    const std::vector<double> x = random_state(model, rnd);
    dynamics::Workspace ws2(model);
    const auto [vdot_aba, tau, h, H] = evaluate_both_ways(model, x, ws2);
    const Eigen::VectorXd vdot_crba = H.ldlt().solve(tau - h);
    CHECK((H - H.transpose()).norm() < 1e-12 * H.norm());
    CHECK((vdot_aba - vdot_crba).norm() < 1e-10 * (1.0 + vdot_crba.norm()));
    // And RNEA inverts ABA: the forces that produce ABA's accelerations are the ones it used.
    CHECK((dynamics::inverse_dynamics(model, ws2, vdot_aba) - tau).norm() < 1e-10 * (1.0 + tau.norm()));
  }
}

TEST_CASE("aba: joints about frame axes (the plane-rotation inertia shift) agree with CRBA and RNEA") {
  // Origins without rotation and axes ±x, ±y, ±z: ABA moves these joints' articulated inertias
  // by the plane rotation (spatial::add_inertia_to_parent); CRBA uses the general shift throughout.
  test::RandomBodies rnd(11);
  const Eigen::Vector3d axes[] = {Eigen::Vector3d::UnitX(), -Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ(),
                                  -Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY(), -Eigen::Vector3d::UnitZ()};
  for (int trial = 0; trial < 6; ++trial) {
    scenario::Scenario s = random_forest(rnd);
    int n = trial;
    for (model::JointSpec& j : s.joints) {
      j.placement.kind = model::JointPlacementSpec::Kind::origin;
      j.placement.rpy.setZero();
      j.placement.mount_xyz.setZero();
      j.placement.axis = axes[n++ % 6];
    }
    const dynamics::Model model = model::build_model(s);
    for (const dynamics::Body& body : model.bodies)
      if (body.joint.type != dynamics::JointType::free) REQUIRE(body.joint.rotation_axis >= 0);
    const std::vector<double> x = random_state(model, rnd);
    dynamics::Workspace ws2(model);
    const auto [vdot_aba, tau, h, H] = evaluate_both_ways(model, x, ws2);
    const Eigen::VectorXd vdot_crba = H.ldlt().solve(tau - h);
    CHECK((vdot_aba - vdot_crba).norm() < 1e-10 * (1.0 + vdot_crba.norm()));
  }
}

TEST_CASE("joint: rotation_axis names the frame axis a joint turns about, and only then") {
  dynamics::Joint joint;
  joint.type = dynamics::JointType::revolute;
  const auto axis_of = [&](const Eigen::Vector3d& axis, const Eigen::Vector3d& rpy) {
    joint.axis_J = axis;
    joint.X_PJ = spatial::Pose{spatial::rotation_from_euler_zyx(rpy), Eigen::Vector3d(0.1, 0.2, 0.3)};
    joint.expand_pose();
    return joint.rotation_axis;
  };
  CHECK(axis_of(Eigen::Vector3d::UnitZ(), Eigen::Vector3d::Zero()) == 2);
  CHECK(axis_of(-Eigen::Vector3d::UnitY(), Eigen::Vector3d::Zero()) == 1);
  CHECK(axis_of(Eigen::Vector3d::UnitX(), Eigen::Vector3d::Zero()) == 0);
  CHECK(axis_of(Eigen::Vector3d::UnitZ(), Eigen::Vector3d(0.0, 0.0, 0.7)) == 2);  // a yaw in the origin keeps z
  CHECK(axis_of(Eigen::Vector3d::UnitZ(), Eigen::Vector3d(0.3, 0.0, 0.0)) == -1);
  CHECK(axis_of(Eigen::Vector3d(0.0, 0.6, 0.8), Eigen::Vector3d::Zero()) == -1);
}

TEST_CASE("aba and rnea: velocity-product forces equal Lagrange's Ḣq̇ − ½∂(q̇ᵀHq̇)/∂q, from finite differences of H") {
  // For a fixed-base tree in an ideal fluid without gravity the kinetic energy of bodies and
  // entrained water, T = ½q̇ᵀH(q)q̇ (H from CRBA, which uses the poses only), is the whole
  // Lagrangian (Kirchhoff's equations, [Fossen2011] Ch. 6), so the equations of motion are
  //   H q̈ + C(q, q̇)q̇ = τ,   C(q, q̇)q̇ = Ḣq̇ − ½ ∂(q̇ᵀHq̇)/∂q.
  // Both derivatives are taken here by central differences of H in q: nothing of ABA's or
  // RNEA's velocity-product term c = V × Sq̇ or of their Coriolis body forces is used, so a
  // sign error in either moves C(q, q̇)q̇ by O(|q̇|²).
  test::RandomBodies rnd(23);
  for (int trial = 0; trial < 5; ++trial) {
    scenario::Scenario s = test::scenario_with({}, 1.0);
    s.environment.gravity = 0.0;
    s.bodies = {rnd.body("l1", 2.0), rnd.body("l2", 1.2), rnd.body("l3", 0.8), rnd.body("l4", 0.5), rnd.body("l5", 0.6)};
    for (auto& b : s.bodies) b.linear_damping.setZero(), b.quadratic_damping.setZero();
    s.joints = {rnd.joint("j1", JT::revolute, "world", "l1", 0), rnd.joint("j2", JT::prismatic, "l1", "l2", 1),
                rnd.joint("j3", JT::revolute, "l2", "l3", 2),    rnd.joint("j4", JT::revolute, "l3", "l4", 0),
                rnd.joint("j5", JT::revolute, "l2", "l5", 1)};
    const dynamics::Model model = model::build_model(s);
    const std::vector<double> x = random_state(model, rnd);

    const auto H_at = [&](const std::vector<double>& state) {
      dynamics::Workspace w(model);
      dynamics::compute_kinematics(model, state.data(), w);
      return dynamics::mass_matrix(model, w);
    };
    Eigen::VectorXd qd(model.nv);
    std::vector<std::size_t> q_index(static_cast<std::size_t>(model.nv));
    for (const dynamics::Body& body : model.bodies) {
      const Eigen::Index i = body.v_offset - model.nq;
      qd[i] = x[static_cast<std::size_t>(body.v_offset)];
      q_index[static_cast<std::size_t>(i)] = static_cast<std::size_t>(body.q_offset);
    }
    const double eps = 1e-6;
    // Ḣq̇: H's derivative along the motion q̇.
    std::vector<double> xp = x, xm = x;
    for (Eigen::Index i = 0; i < model.nv; ++i) {
      xp[q_index[static_cast<std::size_t>(i)]] += eps * qd[i];
      xm[q_index[static_cast<std::size_t>(i)]] -= eps * qd[i];
    }
    const Eigen::VectorXd Hdot_qd = (H_at(xp) - H_at(xm)) / (2.0 * eps) * qd;
    // ∂(q̇ᵀHq̇)/∂q_k, one coordinate at a time.
    Eigen::VectorXd dT = Eigen::VectorXd::Zero(model.nv);
    for (Eigen::Index k = 0; k < model.nv; ++k) {
      xp = x, xm = x;
      xp[q_index[static_cast<std::size_t>(k)]] += eps;
      xm[q_index[static_cast<std::size_t>(k)]] -= eps;
      dT[k] = (qd.dot(H_at(xp) * qd) - qd.dot(H_at(xm) * qd)) / (2.0 * eps);
    }
    const Eigen::VectorXd C_qd = Hdot_qd - 0.5 * dT;
    const Eigen::MatrixXd H = H_at(x);
    REQUIRE(C_qd.norm() > 0.01);  // a real velocity product (~0.1 N m here), not a residue
    // Central differences: O(ε²) truncation and O(1e-16/ε) rounding, both far below 1e-7.
    const double tol = 1e-7 * (1.0 + C_qd.norm());

    // RNEA with q̈ = 0 is the velocity product (no gravity, no damping, no joint forces in it).
    dynamics::Workspace ws(model);
    dynamics::compute_kinematics_and_forces(model, 0.0, x.data(), ws);
    CHECK((dynamics::inverse_dynamics(model, ws, Eigen::VectorXd::Zero(model.nv)) - C_qd).norm() < tol);
    // ABA's q̈ satisfies H q̈ = τ − C(q, q̇)q̇ with τ from the state (effort − b·q̇).
    std::vector<double> xdot(x.size());
    dynamics::Workspace ws_aba(model);
    dynamics::evaluate(model, 0.0, x.data(), xdot.data(), ws_aba);
    const Eigen::VectorXd vdot = Eigen::Map<const Eigen::VectorXd>(xdot.data() + model.nq, model.nv);
    CHECK((H * vdot - (joint_forces_from_state(model, x) - C_qd)).norm() < tol);
  }
}

TEST_CASE("aba: in a vacuum without gravity, joint motors leave total momentum unchanged") {
  test::RandomBodies rnd(11);
  scenario::Scenario s = random_forest(rnd);
  s.bodies.resize(6);  // the floating tree only: the fixed-base arm is pushed by the world
  s.joints.resize(5);
  s.environment = {};
  s.environment.gravity = 0.0;
  s.environment.water_density = 0.0;
  for (auto& b : s.bodies) {
    b.added_mass_B.setZero();
    b.linear_damping.setZero();
    b.quadratic_damping.setZero();
  }
  for (auto& j : s.joints) j.effort = rnd.uniform(0.5, 1.0);  // motors pushing the whole time
  s.bodies[0].initial.nu_B << 0.1, -0.2, 0.05, 0.3, 0.1, -0.2;
  s.simulation.duration = 5.0;
  // Momentum is nonlinear in q, so a Runge–Kutta step conserves it only to its truncation
  // error (rk4 at 1 ms: ~5e-7 here, falling 16× per halved step). Integrate tightly enough that
  // what remains is the physics.
  s.simulation.integrator = scenario::IntegratorKind::dopri5;
  s.simulation.abs_tol = s.simulation.rel_tol = 1e-13;
  const test::Trajectory tr = test::simulate(s);
  REQUIRE(tr.result.outcome == integrate::Outcome::completed);
  const Vec6 h0 = test::total_momentum(tr.model, tr.x.front());
  double worst = 0.0;
  for (const auto& x : tr.x) worst = std::max(worst, (test::total_momentum(tr.model, x) - h0).norm());
  CHECK(worst < 1e-9 * (1.0 + h0.norm()));
  // The arm did move a lot, so momentum had every chance to change.
  CHECK(std::abs(tr.x.back()[static_cast<std::size_t>(tr.model.bodies[1].q_offset)] - tr.x.front()[static_cast<std::size_t>(tr.model.bodies[1].q_offset)]) > 0.5);
}

TEST_CASE("aba: with zero joint forces and no damping, ½ΣVᵀ(M_RB + M_A)V is conserved in an ideal fluid") {
  test::RandomBodies rnd(13);
  scenario::Scenario s = random_forest(rnd);
  s.environment.gravity = 0.0;
  s.environment.current_W.setZero();
  for (auto& b : s.bodies) {
    b.linear_damping.setZero();
    b.quadratic_damping.setZero();
  }
  for (auto& j : s.joints) j.effort = 0.0, j.damping = 0.0;
  s.bodies[0].initial.nu_B << 0.3, -0.2, 0.1, 0.4, 0.3, -0.5;
  s.joints[0].initial_velocity = 1.0;
  s.joints[2].initial_velocity = 0.2;
  s.joints[5].initial_velocity = -0.8;
  s.simulation.duration = 20.0;
  const test::Trajectory tr = test::simulate(s);
  const double T0 = test::kinetic_energy(tr.model, tr.x.front());
  double worst = 0.0;
  for (const auto& x : tr.x) worst = std::max(worst, std::abs(test::kinetic_energy(tr.model, x) / T0 - 1.0));
  CHECK(worst < 1e-9);
}

TEST_CASE("pendulum: a fixed-base link swings with period 2π√(I_pivot / ((m − ρ∇)·g·L)), in air and in water, rk4 and dopri5") {
  const double L = 0.4, m = 2.0;
  model::BodySpec bob = test::plain_body("bob");
  bob.mass = m;
  bob.inertia_Bcm_B = Eigen::Vector3d(0.01, 0.02, 0.01).asDiagonal();
  bob.p_BoBcm_B = Eigen::Vector3d(0.0, 0.0, L);  // hangs below the pivot (z down)
  bob.p_BoBcb_B = bob.p_BoBcm_B;
  // The pivot hangs from a stand welded to the world: a fixed root and a fixed-base tree.
  model::BodySpec stand = test::plain_body("stand");
  model::JointSpec weld;
  weld.name = "weld";
  weld.type = JT::fixed;
  weld.parent = "world";
  weld.child = "stand";
  weld.placement.xyz = Eigen::Vector3d(1.0, 2.0, 3.0);
  model::JointSpec pivot;
  pivot.name = "pivot";
  pivot.parent = "stand";
  pivot.child = "bob";
  pivot.placement.axis = Eigen::Vector3d::UnitY();
  pivot.initial_position = 0.01;
  double volume = 0.0;
  SUBCASE("in air") { volume = 0.0; }
  SUBCASE("in water, buoyancy at the CG") { volume = 0.6 * m / 1000.0; }
  bob.volume = volume;
  scenario::Scenario s = test::scenario_with({stand, bob}, 20.0, 1e-3, 1000.0);
  s.joints = {weld, pivot};
  for (const auto integrator : {scenario::IntegratorKind::rk4, scenario::IntegratorKind::dopri5}) {
  s.simulation.integrator = integrator;
  s.simulation.abs_tol = s.simulation.rel_tol = 1e-11;
  const test::Trajectory tr = test::simulate(s);
  REQUIRE(tr.result.outcome == integrate::Outcome::completed);

  std::vector<double> crossings;
  const auto q_at = [&](std::size_t k) { return tr.x[k][static_cast<std::size_t>(tr.model.bodies[1].q_offset)]; };
  for (std::size_t k = 1; k < tr.t.size(); ++k)
    if (q_at(k - 1) < 0.0 && q_at(k) >= 0.0)
      crossings.push_back(tr.t[k - 1] + (tr.t[k] - tr.t[k - 1]) * q_at(k - 1) / (q_at(k - 1) - q_at(k)));
  REQUIRE(crossings.size() >= 5);
  const double period = (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  const double I_pivot = bob.inertia_Bcm_B(1, 1) + m * L * L;
  const double net_weight = (m - s.environment.water_density * volume) * s.environment.gravity;
  CHECK(period == doctest::Approx(2.0 * M_PI * std::sqrt(I_pivot / (net_weight * L))).epsilon(1e-5));
  }
}

TEST_CASE("prismatic: a slider under constant force moves x = ½·F/(m + X_u̇)·t²") {
  model::BodySpec slider = test::plain_body("slider");
  slider.added_mass_B(0, 0) = 3.0;
  model::JointSpec rail;
  rail.name = "rail";
  rail.type = JT::prismatic;
  rail.parent = "world";
  rail.child = "slider";
  rail.placement.axis = Eigen::Vector3d::UnitX();
  rail.effort = 7.0;
  scenario::Scenario s = test::scenario_with({slider}, 3.0);
  s.joints = {rail};
  const test::Trajectory tr = test::simulate(s);
  const double a = rail.effort / (slider.mass + slider.added_mass_B(0, 0));
  for (std::size_t k = 0; k < tr.t.size(); k += 10) {
    CHECK(tr.x[k][0] == doctest::Approx(0.5 * a * tr.t[k] * tr.t[k]).epsilon(1e-12));
    CHECK(tr.xdot[k][1] == doctest::Approx(a).epsilon(1e-12));
  }
}

TEST_CASE("fixed joint: two welded bodies move exactly like one body with their combined inertia and added mass") {
  test::RandomBodies rnd(5);
  model::BodySpec a = rnd.body("a", 8.0), b = rnd.body("b", 3.0);
  for (auto* body : {&a, &b}) body->linear_damping.setZero(), body->quadratic_damping.setZero();
  a.initial.nu_B << 0.2, -0.1, 0.05, 0.4, -0.3, 0.2;
  a.initial.q_WB = Eigen::AngleAxisd(0.5, Eigen::Vector3d(1, -1, 2).normalized());
  model::JointSpec weld = rnd.joint("weld", JT::fixed, "a", "b", 0);

  // The combined body, expressed in a's frame: spatial inertias add after moving b's into a.
  const dynamics::Model parts = model::build_model([&] { auto s = test::scenario_with({a, b}, 1.0); s.joints = {weld}; return s; }());
  const spatial::Pose X_ab = parts.bodies[1].joint.pose_in_parent(0.0);
  const spatial::Mat6 M_RB = parts.bodies[0].M_RB_B + spatial::inertia_to_parent(X_ab, parts.bodies[1].M_RB_B);
  const spatial::Mat6 M_A = parts.bodies[0].M_A_B + spatial::inertia_to_parent(X_ab, parts.bodies[1].M_A_B);
  model::BodySpec ab = a;
  ab.name = "ab";
  ab.mass = M_RB(3, 3);
  const spatial::Mat3 mS = M_RB.topRightCorner<3, 3>();  // m·S(c)
  ab.p_BoBcm_B = Eigen::Vector3d(mS(2, 1), mS(0, 2), mS(1, 0)) / ab.mass;
  ab.inertia_Bcm_B = M_RB.topLeftCorner<3, 3>() + ab.mass * spatial::skew(ab.p_BoBcm_B) * spatial::skew(ab.p_BoBcm_B);
  ab.added_mass_B = spatial::from_fossen_order(M_A);  // the permutation is its own inverse
  ab.volume = a.volume + b.volume;
  ab.p_BoBcb_B = (a.volume * a.p_BoBcb_B + b.volume * (X_ab.p + X_ab.R * b.p_BoBcb_B)) / ab.volume;

  scenario::Scenario welded = test::scenario_with({a, b}, 10.0);
  welded.joints = {weld};
  const test::Trajectory two = test::simulate(welded), one = test::simulate(test::scenario_with({ab}, 10.0));
  double worst = 0.0;
  for (std::size_t k = 0; k < two.t.size(); ++k) {
    worst = std::max(worst, (two.position(k) - one.position(k)).norm());
    worst = std::max(worst, (two.quaternion(k) - one.quaternion(k)).norm());
    worst = std::max(worst, (two.nu(k) - one.nu(k)).norm());
  }
  CHECK(worst < 1e-9);
  CHECK((two.position(two.t.size() - 1) - two.position(0)).norm() > 0.1);
}

TEST_CASE("vehicle reaction: turning an arm joint turns the vehicle back so angular momentum stays zero") {
  model::BodySpec vehicle = test::plain_body("vehicle"), link = test::plain_body("link");
  vehicle.inertia_Bcm_B = Eigen::Vector3d(0.2, 0.3, 0.4).asDiagonal();
  link.mass = 1.0;
  link.inertia_Bcm_B = Eigen::Vector3d(0.05, 0.08, 0.1).asDiagonal();
  for (auto* b : {&vehicle, &link}) b->volume = 0.0;
  model::JointSpec joint;
  joint.name = "wrist";
  joint.parent = "vehicle";
  joint.child = "link";
  joint.placement.rpy = Eigen::Vector3d(0.3, -0.2, 0.5);
  joint.placement.axis = Eigen::Vector3d(1.0, 1.0, 0.0).normalized();  // both roll and pitch
  joint.effort = 0.05;
  scenario::Scenario s = test::scenario_with({vehicle, link}, 2.0);
  s.environment.gravity = 0.0;
  s.joints = {joint};
  const test::Trajectory tr = test::simulate(s);
  // Both CGs sit on the joint axis at the vehicle origin, so only rotation happens and
  // L = I_v ω_v + I_l (ω_v + a q̇) = 0 in vehicle axes (I_l rotated into them at each instant).
  for (std::size_t k = 10; k < tr.t.size(); k += 20) {
    const double q = tr.x[k][static_cast<std::size_t>(tr.model.bodies[1].q_offset)];
    const double qd = tr.x[k][static_cast<std::size_t>(tr.model.bodies[1].v_offset)];
    const spatial::Mat3 R_vl = tr.model.bodies[1].joint.pose_in_parent(q).R;
    const spatial::Mat3 I_l = R_vl * link.inertia_Bcm_B * R_vl.transpose();
    const Eigen::Vector3d a = R_vl * tr.model.bodies[1].joint.axis_J;  // the axis turns with nothing: X_JC = 1
    const Eigen::Vector3d expected = -(vehicle.inertia_Bcm_B + I_l).ldlt().solve(I_l * a * qd);
    const Eigen::Vector3d omega = tr.nu(k).tail<3>();
    CHECK((omega - expected).norm() < 1e-9);
    CHECK(omega.norm() > 0.1 * std::abs(qd));  // a large reaction, not a rounding residue
  }
}

TEST_CASE("added mass inside the inertia: a light link with ten times its mass in added mass stays stable at 1 ms") {
  model::BodySpec vehicle = test::plain_body("vehicle"), fin = test::plain_body("fin");
  fin.mass = 0.05;
  fin.inertia_Bcm_B = Eigen::Vector3d(1e-5, 2e-5, 2e-5).asDiagonal();
  fin.p_BoBcm_B = Eigen::Vector3d(0.05, 0.0, 0.0);
  // 10 × its mass in added mass, about its centre 5 cm out on the lever: at the hinge the
  // added inertia is ten times the rigid one too.
  Eigen::Matrix<double, 6, 6> added_at_centre = Eigen::Matrix<double, 6, 6>::Zero();
  added_at_centre.diagonal() << 0.5, 0.5, 0.5, 1e-4, 2e-4, 2e-4;
  fin.added_mass_B = model::move_inertia_to_origin(added_at_centre, fin.p_BoBcm_B);
  fin.volume = 0.0;

  // First, on a hinge fixed to the world, the joint sees (I_rb + I_a) about its axis.
  {
    model::JointSpec fixed_hinge;
    fixed_hinge.name = "hinge";
    fixed_hinge.parent = "world";
    fixed_hinge.child = "fin";
    fixed_hinge.effort = 1e-3;
    scenario::Scenario bench = test::scenario_with({fin}, 0.01);
    bench.environment.gravity = 0.0;
    bench.joints = {fixed_hinge};
    const test::Trajectory tr = test::simulate(bench);
    const double lever = fin.p_BoBcm_B.x();
    const double I_rigid = fin.inertia_Bcm_B(2, 2) + fin.mass * lever * lever;
    const double I_added = added_at_centre(5, 5) + added_at_centre(1, 1) * lever * lever;
    REQUIRE(I_added > 9.0 * I_rigid);
    CHECK(tr.xdot[0][1] == doctest::Approx(fixed_hinge.effort / (I_rigid + I_added)).epsilon(1e-12));
  }
  vehicle.added_mass_B.diagonal() << 5.5, 12.7, 14.57, 0.12, 0.12, 0.12;
  model::JointSpec hinge;
  hinge.name = "hinge";
  hinge.parent = "vehicle";
  hinge.child = "fin";
  hinge.placement.xyz = Eigen::Vector3d(0.2, 0.0, 0.0);
  hinge.initial_velocity = 5.0;  // flapping fast
  scenario::Scenario s = test::scenario_with({vehicle, fin}, 20.0);
  s.environment.gravity = 0.0;
  s.joints = {hinge};
  const test::Trajectory tr = test::simulate(s);
  REQUIRE(tr.result.outcome == integrate::Outcome::completed);
  // Ideal fluid, no forces: the kinetic energy of bodies and water stays put — a lagged
  // added-mass force would pump energy in and blow up at this mass ratio.
  const double T0 = test::kinetic_energy(tr.model, tr.x.front());
  for (const auto& x : tr.x) CHECK(test::kinetic_energy(tr.model, x) == doctest::Approx(T0).epsilon(1e-9));
}

TEST_CASE("joint limits: a link driven into its limit stops there, without clamping the state") {
  model::BodySpec link = test::plain_body("link");
  link.mass = 1.0;
  link.inertia_Bcm_B = Eigen::Vector3d(0.01, 0.01, 0.01).asDiagonal();
  link.p_BoBcm_B = Eigen::Vector3d(0.2, 0.0, 0.0);
  model::JointSpec joint;
  joint.name = "elbow";
  joint.parent = "world";
  joint.child = "link";
  joint.effort = 0.5;
  joint.limits.upper = 0.5;
  joint.limits.lower = -0.5;
  scenario::Scenario s = test::scenario_with({link}, 3.0);
  s.environment.gravity = 0.0;
  s.joints = {joint};
  const test::Trajectory tr = test::simulate(s);
  const auto q = [&](std::size_t k) { return tr.x[k][0]; };
  double peak = 0.0;
  for (std::size_t k = 0; k < tr.t.size(); ++k) peak = std::max(peak, q(k));
  // Resting where the effort balances the spring: Δ = τ / (D ω²), D the joint's inertia.
  const double D = 0.01 + 1.0 * 0.2 * 0.2, omega = tr.model.limit_frequency;
  CHECK(q(tr.t.size() - 1) == doctest::Approx(0.5 + joint.effort / (D * omega * omega)).epsilon(1e-6));
  CHECK(peak < 0.5 + 0.01);  // critically damped: no deep overshoot
  CHECK(std::abs(tr.x.back()[1]) < 1e-9);  // at rest against the stop
}

TEST_CASE("joint friction: below F_c a joint creeps at ε·atanh(τ/F_c) — above it accelerates at (τ − F_c)/I") {
  // A heavy wheel keeps the nominal ε = 1e-3; on a light one ε widens so the friction slope
  // through zero stays integrable at the step (joint_forces.h).
  for (const double I : {2.0, 0.05}) {
    CAPTURE(I);
    model::BodySpec wheel = test::plain_body("wheel");
    wheel.mass = 1.0;
    wheel.inertia_Bcm_B = Eigen::Vector3d(0.5 * I, 0.5 * I, I).asDiagonal();
    model::JointSpec axle;
    axle.name = "axle";
    axle.parent = "world";
    axle.child = "wheel";
    axle.friction = 0.2;
    scenario::Scenario s = test::scenario_with({wheel}, 2.0);
    s.environment.gravity = 0.0;
    const double omega = 2.0 * M_PI * s.compliance.limit_frequency;  // the model's, in rad/s
    const double epsilon = std::max(dynamics::kFrictionSpeedScale, axle.friction / (I * omega));

    axle.effort = 0.1;  // below friction: creeps
    s.joints = {axle};
    const test::Trajectory stuck = test::simulate(s);
    CHECK(stuck.x.back()[1] == doctest::Approx(epsilon * std::atanh(axle.effort / axle.friction)).epsilon(1e-6));

    axle.effort = 0.5;  // above friction, already sliding far above ε: fully developed friction
    axle.initial_velocity = 1.0;
    s.joints = {axle};
    const test::Trajectory sliding = test::simulate(s);
    CHECK(sliding.x.back()[1] == doctest::Approx(1.0 + (axle.effort - axle.friction) / I * 2.0).epsilon(1e-9));
  }
}

TEST_CASE("current: a vehicle with an arm in a uniform current moves as in still water, carried by it") {
  test::RandomBodies rnd(17);
  scenario::Scenario still = random_forest(rnd);
  still.bodies.resize(6);  // the floating tree: a fixed base cannot drift with the water
  still.joints.resize(5);
  still.environment.current_W.setZero();
  still.bodies[0].initial.q_WB = Eigen::AngleAxisd(0.6, Eigen::Vector3d(1, -2, 0.5).normalized());
  still.bodies[0].initial.nu_B << 0.2, -0.1, 0.05, 0.3, -0.2, 0.4;
  still.joints[0].initial_velocity = 0.5;
  still.simulation.duration = 5.0;
  scenario::Scenario moving = still;
  const Eigen::Vector3d current_W(0.3, -0.2, 0.1);
  moving.environment.current_W = current_W;
  moving.bodies[0].initial.nu_B.head<3>() += still.bodies[0].initial.q_WB.toRotationMatrix().transpose() * current_W;

  const test::Trajectory a = test::simulate(still), b = test::simulate(moving);
  double worst_position = 0.0, worst_joint = 0.0;
  for (std::size_t k = 0; k < a.t.size(); ++k) {
    worst_position = std::max(worst_position, (b.position(k) - a.position(k) - current_W * a.t[k]).norm());
    for (const dynamics::Body& body : a.model.bodies)
      if (body.joint.dof() == 1)
        worst_joint = std::max(worst_joint, std::abs(b.x[k][static_cast<std::size_t>(body.q_offset)] -
                                                     a.x[k][static_cast<std::size_t>(body.q_offset)]));
  }
  CHECK(worst_position < 1e-9);
  CHECK(worst_joint < 1e-9);
  CHECK((a.position(a.t.size() - 1) - a.position(0)).norm() > 0.1);  // it moved
}

TEST_CASE("aba with motors: armature and lever bias agree with CRBA and RNEA (gear motor and linear actuator)") {
  test::RandomBodies rnd(11);
  for (int trial = 0; trial < 10; ++trial) {
    scenario::Scenario s = random_forest(rnd);
    // j1: a gear motor; j4: a ball-screw linear actuator (θ = π/2 + q stays in (0, π) for |q| ≤ 1).
    s.joints[0].actuator.kind = actuation::JointActuatorKind::gear_motor;
    s.joints[0].actuator.input.constant = rnd.uniform(-2.0, 2.0);
    s.joints[0].actuator.motor = {0.03, 50.0, 3e-5, 1e-4, 2e-3};
    s.joints[3].actuator.kind = actuation::JointActuatorKind::linear_actuator;
    s.joints[3].actuator.input.constant = rnd.uniform(-2.0, 2.0);
    s.joints[3].actuator.linear.motor = {0.02, 5.0, 4e-6, 1e-5, 1e-3};
    s.joints[3].actuator.linear.lever = {0.05, 0.12, M_PI / 2.0, 0.002};
    s.joints[3].actuator.linear.nut_mass = 0.3;
    const dynamics::Model model = model::build_model(s);
    const std::vector<double> x = random_state(model, rnd);
    dynamics::Workspace ws2(model);
    const auto [vdot_aba, tau, h, H] = evaluate_both_ways(model, x, ws2, JointForces::from_aba_workspace);
    CHECK((vdot_aba - H.ldlt().solve(tau - h)).norm() < 1e-10 * (1.0 + vdot_aba.norm()));
    CHECK((dynamics::inverse_dynamics(model, ws2, vdot_aba) - tau).norm() < 1e-10 * (1.0 + tau.norm()));
    // The armature is in H: the same model without the rotors' inertia has a smaller diagonal.
    const dynamics::Body& b1 = model.bodies[static_cast<std::size_t>(model.body_index("l1"))];
    scenario::Scenario bare = s;
    bare.joints[0].actuator.motor.rotor_inertia = 0.0;
    const dynamics::Model bare_model = model::build_model(bare);
    dynamics::Workspace ws3(bare_model);
    dynamics::compute_kinematics_and_forces(bare_model, 0.0, x.data(), ws3);
    const Eigen::Index i = b1.v_offset - model.nq;
    CHECK(H(i, i) - dynamics::mass_matrix(bare_model, ws3)(i, i) == doctest::Approx(50.0 * 50.0 * 3e-5).epsilon(1e-12));
  }
}
