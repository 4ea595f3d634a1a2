// Connectors: Udwadia–Kalaba constraint forces against independent formulations (a fixed
// joint, one edge fewer of a redundant loop), conservation laws and closed forms.
#include <doctest/doctest.h>

#include <Eigen/QR>

#include "dynamics/connector_rows.h"
#include "dynamics/envelope_ldlt.h"
#include "dynamics/kinematics.h"
#include "dynamics/pipeline.h"
#include "scenario/load_scenario.h"
#include "support/trees.h"

using namespace uwsim;
using JT = model::JointType;
using spatial::Pose;
using spatial::Vec3;
using spatial::Vec6;

namespace {

std::vector<Pose> poses_at(const dynamics::Model& model, const std::vector<double>& x) {
  dynamics::Workspace ws(model);
  dynamics::compute_kinematics(model, x.data(), ws);
  std::vector<Pose> poses;
  for (const auto& s : ws.bodies) poses.push_back(s.X_WB);
  return poses;
}

double rotation_angle(const spatial::Mat3& R) {
  return Eigen::AngleAxisd(R).angle();
}

model::ConnectorSpec connector(const std::string& name, const std::string& first, const std::string& second,
                                  const Vec3& point, model::ConnectorType type = model::ConnectorType::rigid) {
  model::ConnectorSpec c;
  c.name = name;
  c.first = first;
  c.second = second;
  c.point_B = point;
  c.type = type;
  return c;
}

model::ForceSpec push_on(const std::string& body, const Vec3& force, const Vec3& moment) {
  model::ForceSpec f;
  f.name = body;
  f.body = body;
  f.force = force;
  f.moment = moment;
  return f;
}

// Places `b` at X_ab from `a` and gives it the velocity of a point rigidly carried by a.
void place_rigidly(const model::BodySpec& a, const Pose& X_ab, model::BodySpec& b) {
  const spatial::Mat3 R_Wa = a.initial.q_WB.toRotationMatrix();
  b.initial.p_WB_W = a.initial.p_WB_W + R_Wa * X_ab.p;
  b.initial.q_WB = Eigen::Quaterniond(R_Wa * X_ab.R);
  const Vec6 V_a = spatial::from_fossen_order(a.initial.nu_B);
  b.initial.nu_B = spatial::to_fossen_order(spatial::motion_to_child(X_ab, V_a));
}

// Sample k's connector errors, by a fresh evaluation.
std::pair<double, double> worst_violation(const test::Trajectory& tr) {
  dynamics::Workspace ws(tr.model);
  std::vector<double> xdot(tr.x[0].size());
  double distance = 0.0, angle = 0.0;
  for (const auto& x : tr.x) {
    dynamics::evaluate(tr.model, 0.0, x.data(), xdot.data(), ws);
    for (std::size_t c = 0; c < tr.model.connectors.size(); ++c) {
      distance = std::max(distance, ws.connectors.rows(c).distance);
      angle = std::max(angle, ws.connectors.rows(c).angle);
    }
  }
  return {distance, angle};
}

// The body `name` of `bolted`, made free: its start pose and velocity are those the welded
// model's kinematics give it at t = 0.
void start_where_welded(const dynamics::Model& welded, const std::string& name, scenario::Scenario& bolted) {
  dynamics::Workspace ws(welded);
  dynamics::compute_kinematics(welded, welded.x0.data(), ws);
  const dynamics::BodyState& s = ws.bodies[static_cast<std::size_t>(welded.body_index(name))];
  for (model::BodySpec& body : bolted.bodies) {
    if (body.name != name) continue;
    body.initial.p_WB_W = s.X_WB.p;
    body.initial.q_WB = Eigen::Quaterniond(s.X_WB.R);
    body.initial.nu_B = spatial::to_fossen_order(s.motion.V_WB_B);
  }
}

// Largest position (m) or rotation (rad) difference of any body, matched by name, over all
// samples of two runs of the same system.
double worst_pose_difference(const test::Trajectory& one, const test::Trajectory& two) {
  REQUIRE(one.t.size() == two.t.size());
  double worst = 0.0;
  for (std::size_t k = 0; k < one.t.size(); ++k) {
    const auto P1 = poses_at(one.model, one.x[k]), P2 = poses_at(two.model, two.x[k]);
    for (std::size_t i = 0; i < P1.size(); ++i) {
      const auto j = static_cast<std::size_t>(two.model.body_index(one.model.bodies[i].name));
      worst = std::max({worst, (P1[i].p - P2[j].p).norm(), rotation_angle(P1[i].R.transpose() * P2[j].R)});
    }
  }
  return worst;
}

// Runs `welded`, then the same system with its joint `weld` removed and the body `held`
// bolted on by `bolt` instead, starting where the welded model puts it. Returns the welded
// run; `worst` is the largest pose difference between the two runs.
test::Trajectory bolted_vs_welded(const scenario::Scenario& welded, const std::string& weld, const std::string& held,
                                  const model::ConnectorSpec& bolt, double& worst) {
  test::Trajectory one = test::simulate(welded);
  REQUIRE(one.result.outcome == integrate::Outcome::completed);
  scenario::Scenario bolted = welded;
  std::erase_if(bolted.joints, [&](const model::JointSpec& j) { return j.name == weld; });
  REQUIRE(bolted.joints.size() + 1 == welded.joints.size());
  start_where_welded(one.model, held, bolted);
  bolted.connectors = {bolt};
  const test::Trajectory two = test::simulate(bolted);
  REQUIRE(two.result.outcome == integrate::Outcome::completed);
  worst = worst_pose_difference(one, two);
  return one;
}

// A vehicle "base" with a one-hinge arm ("shoulder", turning at 0.5 rad/s) whose link
// holds a vehicle "held" through the fixed joint "weld".
scenario::Scenario arm_holding_vehicle(test::RandomBodies& rnd, double duration) {
  model::BodySpec base = rnd.body("base", 11.5), link = rnd.body("link", 1.5), held = rnd.body("held", 2.0);
  base.initial.nu_B << 0.1, 0.0, 0.05, 0.2, -0.1, 0.3;
  model::JointSpec shoulder = rnd.joint("shoulder", JT::revolute, "base", "link", 1);
  shoulder.initial_velocity = 0.5;
  model::JointSpec weld = rnd.joint("weld", JT::fixed, "link", "held", 0);
  scenario::Scenario s = test::scenario_with({base, link, held}, duration, 1e-3, 10.0);
  s.joints = {shoulder, weld};
  return s;
}

}  // namespace

TEST_CASE("envelope LDLT: solves W λ = r with the minimum norm of the pseudo-inverse, redundant rows included") {
  test::RandomBodies rnd(3);
  for (int trial = 0; trial < 20; ++trial) {
    // Block-banded PSD W = B Bᵀ with blocks of 6 and 3 rows, rank-deficient when some rows
    // of B repeat others.
    const std::vector<int> sizes = {6, 3, 6, 6, 3, 6};
    std::vector<int> offset = {0};
    for (int d : sizes) offset.push_back(offset.back() + d);
    const int blocks = static_cast<int>(sizes.size()), n = offset.back();
    auto block_of = [&](int i) { return static_cast<int>(std::upper_bound(offset.begin(), offset.end(), i) - offset.begin()) - 1; };
    Eigen::MatrixXd B = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (std::abs(block_of(i) - block_of(j)) <= 1 && block_of(j) >= block_of(i)) B(i, j) = rnd.uniform(-1, 1);
    B.diagonal().array() += 3.0;  // well conditioned, unless rows are made dependent below
    if (trial % 2 == 1) {
      B.row(4) = 0.5 * B.row(3) - 2.0 * B.row(5);  // dependent rows: W singular
      B.row(16) = B.row(15);
    }
    const Eigen::MatrixXd W = B * B.transpose();
    std::vector<int> first(static_cast<std::size_t>(blocks));
    for (int I = 0; I < blocks; ++I) first[I] = std::max(0, I - 1);
    dynamics::EnvelopeLdlt ldlt(sizes, first);
    for (int I = 0; I < blocks; ++I)
      for (int J = first[I]; J <= I; ++J)
        ldlt.block(I, J).topLeftCorner(sizes[I], sizes[J]) = W.block(offset[I], offset[J], sizes[I], sizes[J]);
    ldlt.factor();
    CHECK(ldlt.rank_deficiency() == (trial % 2 == 1 ? 2 : 0));
    // A consistent right-hand side (in the range of W), as constraints give.
    Eigen::VectorXd y(n);
    for (int i = 0; i < n; ++i) y[i] = rnd.uniform(-1, 1);
    const Eigen::VectorXd r = W * y;
    Eigen::VectorXd lambda(n);
    ldlt.solve(r.data(), lambda.data());
    const Eigen::VectorXd expected = W.completeOrthogonalDecomposition().pseudoInverse() * r;
    CHECK((lambda - expected).norm() <= 1e-8 * expected.norm());
    CHECK((W * lambda - r).norm() <= 1e-10 * r.norm());
  }
}

TEST_CASE("envelope LDLT: a whole block depending on others, in a full envelope, with a right-hand side outside the range") {
  // Like a loop of connectors: block 3 (6 rows) is a combination of blocks 0 and 1. W⁺ r is
  // then the minimum-norm least-squares answer, which the dense pseudo-inverse gives too.
  test::RandomBodies rnd(5);
  const std::vector<int> sizes = {6, 6, 3, 6};
  const std::vector<int> offset = {0, 6, 12, 15, 21};
  const int n = 21;
  Eigen::MatrixXd B(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) B(i, j) = rnd.uniform(-1, 1);
  B.diagonal().array() += 3.0;
  B.middleRows(15, 6) = 0.7 * B.middleRows(0, 6) - 1.3 * B.middleRows(6, 6);
  const Eigen::MatrixXd W = B * B.transpose();
  dynamics::EnvelopeLdlt ldlt(sizes, {0, 0, 0, 0});
  for (int I = 0; I < 4; ++I)
    for (int J = 0; J <= I; ++J) ldlt.block(I, J).topLeftCorner(sizes[I], sizes[J]) = W.block(offset[I], offset[J], sizes[I], sizes[J]);
  ldlt.factor();
  CHECK(ldlt.rank_deficiency() == 6);
  Eigen::VectorXd r(n);
  for (int i = 0; i < n; ++i) r[i] = rnd.uniform(-1, 1);  // generic: not in the range of W
  Eigen::VectorXd lambda(n);
  ldlt.solve(r.data(), lambda.data());
  const Eigen::VectorXd expected = W.completeOrthogonalDecomposition().pseudoInverse() * r;
  CHECK((lambda - expected).norm() <= 1e-8 * expected.norm());
}

TEST_CASE("connector rows: the structured product G·U equals the dense one, for both bodies, rigid and ball") {
  test::RandomBodies rnd(7);
  for (const auto type : {dynamics::ConnectorType::rigid, dynamics::ConnectorType::ball}) {
    dynamics::Connector c;
    c.type = type;
    c.p_AK_A = rnd.vec3(0.5);
    c.X_BK = Pose{spatial::rotation_from_euler_zyx(rnd.vec3(1.0)), rnd.vec3(0.5)};
    dynamics::BodyState A, B;
    A.X_WB = Pose{spatial::rotation_from_euler_zyx(rnd.vec3(1.0)), rnd.vec3(2.0)};
    B.X_WB = Pose{spatial::rotation_from_euler_zyx(rnd.vec3(1.0)), rnd.vec3(2.0)};
    A.motion.V_WB_B << rnd.vec3(1.0), rnd.vec3(1.0);
    B.motion.V_WB_B << rnd.vec3(1.0), rnd.vec3(1.0);
    dynamics::ConnectorRows rows;
    dynamics::connector_rows(c, 10.0, A, &B, rows);
    spatial::Mat6 U;
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) U(i, j) = rnd.uniform(-1, 1);
    spatial::Mat6 out;
    dynamics::multiply_rows(rows, false, U, out);
    CHECK((out - rows.G_A * U).norm() < 1e-14 * U.norm());
    dynamics::multiply_rows(rows, true, U, out);
    CHECK((out - rows.G_B * U).norm() < 1e-14 * U.norm());
  }
}

TEST_CASE("connector rows: ė and G_A·A_A + G_B·A_B − b(ω = 0) are the first and second derivatives of e along a free motion") {
  // Two bodies tumbling freely (no connector), an imaginary connector between them: its error
  // e(t) from the poses, differentiated numerically, must match (3) and the left side of (4)
  // with the velocity-product terms κ = −b at zero Baumgarte frequency.
  test::RandomBodies rnd(81);
  model::BodySpec a = rnd.body("a", 11.5), b = rnd.body("b", 4.0);
  a.initial.nu_B << 0.8, -0.4, 0.3, 1.2, -0.9, 1.5;
  b.initial.nu_B << -0.5, 0.6, 0.2, -1.1, 0.7, 2.0;
  b.initial.p_WB_W = Vec3(0.4, 0.3, -0.2);
  b.initial.q_WB = Eigen::Quaterniond(spatial::rotation_from_euler_zyx(Vec3(0.3, -0.5, 1.1)));
  scenario::Scenario s = test::scenario_with({a, b}, 2.0, 1e-3, 1000.0);
  s.simulation.integrator = scenario::IntegratorKind::dopri5;
  s.simulation.abs_tol = s.simulation.rel_tol = 1e-13;
  const test::Trajectory tr = test::simulate(s);
  REQUIRE(tr.result.outcome == integrate::Outcome::completed);
  for (const auto type : {dynamics::ConnectorType::rigid, dynamics::ConnectorType::ball}) {
    dynamics::Connector c;
    c.type = type;
    c.p_AK_A = Vec3(0.2, -0.1, 0.3);
    c.X_BK = Pose{spatial::rotation_from_euler_zyx(Vec3(0.2, 0.1, -0.4)), Vec3(-0.1, 0.25, 0.05)};
    dynamics::Workspace ws(tr.model);
    std::vector<double> xdot(tr.x[0].size());
    auto rows_at = [&](std::size_t k, double frequency) {
      dynamics::evaluate(tr.model, 0.0, tr.x[k].data(), xdot.data(), ws);
      dynamics::ConnectorRows r;
      dynamics::connector_rows(c, frequency, ws.bodies[0], &ws.bodies[1], r);
      return std::make_pair(r, Vec6(r.G_A * ws.bodies[0].A_WB_B + r.G_B * ws.bodies[1].A_WB_B));
    };
    const double dt = tr.t[1] - tr.t[0];
    const int t = type == dynamics::ConnectorType::rigid ? 3 : 0;  // first translation row
    double worst_v = 0.0, worst_a = 0.0, scale_a = 0.0;
    for (std::size_t k = 100; k + 1 < tr.t.size(); k += 100) {
      const auto [r0, ga0] = rows_at(k, 0.0);
      const auto r_minus = rows_at(k - 1, 0.0).first, r_plus = rows_at(k + 1, 0.0).first;
      const Vec6 acceleration = ga0 - r0.b;
      // Translation rows: e_p, ė_p, ë_p.
      const Vec3 e_minus = r_minus.position_error.segment<3>(t), e_plus = r_plus.position_error.segment<3>(t);
      const Vec3 e_dot = (e_plus - e_minus) / (2 * dt);
      const Vec3 e_ddot = (e_plus - 2 * Vec3(r0.position_error.segment<3>(t)) + e_minus) / (dt * dt);
      worst_v = std::max(worst_v, (e_dot - r0.velocity_error.segment<3>(t)).norm());
      worst_a = std::max(worst_a, (e_ddot - acceleration.segment<3>(t)).norm());
      scale_a = std::max(scale_a, e_ddot.norm());
      // Rotation rows: ω_rel (the attitude error's rate only near zero error) and its rate.
      if (t == 3) {
        const Vec3 w_dot = (r_plus.velocity_error.head<3>() - r_minus.velocity_error.head<3>()) / (2 * dt);
        worst_a = std::max(worst_a, (w_dot - acceleration.head<3>()).norm());
        scale_a = std::max(scale_a, w_dot.norm());
      }
    }
    MESSAGE("finite differences vs (3), (4): ", worst_v, " (velocity), ", worst_a, " of ", scale_a, " (acceleration)");
    // Central differences at 1 ms: errors ~ dt²·(third/fourth derivatives) ≈ 1e-5 here.
    CHECK(worst_v < 1e-4);
    CHECK(worst_a < 1e-4 * scale_a);
  }
}

TEST_CASE("rigid connector: two vehicles move exactly like the same two joined by a fixed joint, for 20 s") {
  test::RandomBodies rnd(11);
  model::BodySpec a = rnd.body("a", 11.5), b = rnd.body("b", 4.0);
  a.initial.nu_B << 0.3, -0.1, 0.05, 0.2, -0.3, 0.4;
  a.initial.q_WB = Eigen::AngleAxisd(0.4, Vec3(1, 2, -1).normalized());
  a.initial.p_WB_W = Vec3(1, -2, 3);
  model::JointSpec weld = rnd.joint("weld", JT::fixed, "a", "b", 0);
  model::ForceSpec push = push_on("b", Vec3(5, -3, 2), Vec3::Zero());
  push.point_B = Vec3(0.1, 0.2, -0.1), push.stop = 7.0;

  scenario::Scenario welded = test::scenario_with({a, b}, 20.0, 1e-3, 10.0);
  welded.environment.current_W = Vec3(0.2, -0.1, 0.05);
  welded.joints = {weld};
  welded.forces = {push};
  const test::Trajectory one = test::simulate(welded);
  REQUIRE(one.result.outcome == integrate::Outcome::completed);

  scenario::Scenario joined = welded;
  joined.joints.clear();
  const Pose X_ab = one.model.bodies[1].joint.pose_in_parent(0.0);
  place_rigidly(a, X_ab, joined.bodies[1]);
  joined.connectors = {connector("bolt", "a", "b", Vec3(0.1, 0.05, -0.02))};
  const test::Trajectory two = test::simulate(joined);
  REQUIRE(two.result.outcome == integrate::Outcome::completed);
  REQUIRE(two.t.size() == one.t.size());

  double worst_p = 0.0, worst_R = 0.0;
  for (std::size_t k = 0; k < one.t.size(); ++k) {
    const auto P1 = poses_at(one.model, one.x[k]), P2 = poses_at(two.model, two.x[k]);
    for (std::size_t i = 0; i < 2; ++i) {
      worst_p = std::max(worst_p, (P1[i].p - P2[i].p).norm());
      worst_R = std::max(worst_R, rotation_angle(P1[i].R.transpose() * P2[i].R));
    }
  }
  MESSAGE("connector vs fixed joint over 20 s: ", worst_p, " m, ", worst_R, " rad");
  CHECK(worst_p < 1e-7);
  CHECK(worst_R < 1e-7);
  // It moved: the comparison is not between two bodies at rest.
  CHECK((poses_at(one.model, one.x.back())[0].p - a.initial.p_WB_W).norm() > 0.5);
}

TEST_CASE("rigid connectors: a redundant triangle moves like the same triangle with one edge removed") {
  test::RandomBodies rnd(21);
  std::vector<model::BodySpec> bodies = {rnd.body("a", 11.5), rnd.body("b", 11.5), rnd.body("c", 3.0)};
  bodies[0].initial.nu_B << 0.2, 0.1, -0.1, 0.3, 0.2, -0.4;
  place_rigidly(bodies[0], Pose{spatial::rotation_from_euler_zyx(Vec3(0.1, 0.2, 0.3)), Vec3(0.0, 0.6, 0.0)}, bodies[1]);
  place_rigidly(bodies[0], Pose{spatial::rotation_from_euler_zyx(Vec3(-0.3, 0.1, 1.0)), Vec3(0.4, 0.3, 0.1)}, bodies[2]);
  const model::ForceSpec push = push_on("c", Vec3(10, 4, -2), Vec3(0.5, 0, 1));
  scenario::Scenario open = test::scenario_with(bodies, 10.0, 1e-3, 10.0);
  open.forces = {push};
  open.connectors = {connector("ab", "a", "b", Vec3(0, 0.3, 0)), connector("ac", "a", "c", Vec3(0.2, 0.15, 0))};
  scenario::Scenario closed = open;
  closed.connectors.push_back(connector("bc", "b", "c", Vec3(0.2, -0.15, 0)));

  const test::Trajectory t_open = test::simulate(open), t_closed = test::simulate(closed);
  REQUIRE(t_closed.result.outcome == integrate::Outcome::completed);
  double worst = 0.0;
  for (std::size_t k = 0; k < t_open.t.size(); ++k)
    for (std::size_t i = 0; i < t_open.x[k].size(); ++i) worst = std::max(worst, std::abs(t_open.x[k][i] - t_closed.x[k][i]));
  MESSAGE("redundant triangle vs open chain: ", worst);
  CHECK(worst < 1e-9);

  // The loop shares the load among its three connectors: what each carries is the minimum-norm
  // split, and together they still hold c exactly as the two of the open chain do.
  dynamics::Workspace ws_open(t_open.model), ws_closed(t_closed.model);
  std::vector<double> xdot(t_open.x[0].size());
  dynamics::evaluate(t_open.model, 0.0, t_open.x.back().data(), xdot.data(), ws_open);
  dynamics::evaluate(t_closed.model, 0.0, t_closed.x.back().data(), xdot.data(), ws_closed);
  for (std::size_t body = 0; body < 3; ++body) CHECK((ws_open.bodies[body].A_WB_B - ws_closed.bodies[body].A_WB_B).norm() < 1e-9);
  CHECK(ws_closed.connectors.dependent_rows() == 6);
  CHECK(ws_open.connectors.dependent_rows() == 0);
  CHECK(ws_closed.connectors.wrench_on_first(2).norm() > 1e-3);
  // The split among the loop's connectors is a convention, the total on each body is not: a is
  // the first body of ab and ac in both layouts.
  const Vec6 on_a_open = ws_open.connectors.wrench_on_first(0) + ws_open.connectors.wrench_on_first(1);
  const Vec6 on_a_closed = ws_closed.connectors.wrench_on_first(0) + ws_closed.connectors.wrench_on_first(1);
  CHECK((on_a_open - on_a_closed).norm() < 1e-7 * on_a_open.norm());
}

TEST_CASE("connectors: in a vacuum without gravity, connector forces leave total momentum unchanged") {
  test::RandomBodies rnd(31);
  std::vector<model::BodySpec> bodies;
  for (const char* name : {"a", "b", "c", "d"}) {
    model::BodySpec body = rnd.body(name, rnd.uniform(2.0, 12.0));
    body.added_mass_B.setZero(), body.linear_damping.setZero(), body.quadratic_damping.setZero();
    body.volume = 0.0;
    body.initial.p_WB_W = rnd.vec3(2.0);
    body.initial.q_WB = Eigen::Quaterniond(spatial::rotation_from_euler_zyx(rnd.vec3(1.0)));
    bodies.push_back(body);
  }
  // a–b rigid, b–c ball, c–d rigid: the chain folds at the ball while it tumbles.
  bodies[0].initial.nu_B << 0.5, -0.2, 0.1, 1.0, -0.7, 0.4;
  place_rigidly(bodies[0], Pose{spatial::rotation_from_euler_zyx(Vec3(0.2, 0, 0.4)), Vec3(0.5, 0.2, 0)}, bodies[1]);
  place_rigidly(bodies[1], Pose{spatial::rotation_from_euler_zyx(Vec3(0, 0.3, 0)), Vec3(0.4, 0, 0.1)}, bodies[2]);
  place_rigidly(bodies[2], Pose{spatial::rotation_from_euler_zyx(Vec3(0.5, 0, 0)), Vec3(0, 0.4, 0)}, bodies[3]);
  bodies[2].initial.nu_B(3) += 2.0;  // c spins about the ball: projected at the start
  bodies[3].initial.nu_B = Vec6::Zero();
  scenario::Scenario s = test::scenario_with(bodies, 10.0, 1e-3, 10.0);
  s.environment.gravity = 0.0;
  // Momentum is nonlinear in q: integrate tightly so that the truncation error of a Runge–Kutta
  // step (rk4 at 1 ms: ~1e-7 here) does not hide what the connector forces do.
  s.simulation.integrator = scenario::IntegratorKind::dopri5;
  s.simulation.abs_tol = s.simulation.rel_tol = 1e-13;
  s.connectors = {connector("ab", "a", "b", Vec3(0.25, 0.1, 0)),
                  connector("bc", "b", "c", Vec3(0.2, 0, 0.05), model::ConnectorType::ball),
                  connector("cd", "c", "d", Vec3(0, 0.2, 0))};
  const test::Trajectory tr = test::simulate(s);
  REQUIRE(tr.result.outcome == integrate::Outcome::completed);
  // The start projection is an internal impulse too: momentum is that of the initial state.
  std::vector<double> x0 = tr.model.x0;
  const Vec6 h0 = test::total_momentum(tr.model, x0);
  double worst = 0.0;
  for (const auto& x : tr.x) worst = std::max(worst, (test::total_momentum(tr.model, x) - h0).norm());
  MESSAGE("momentum drift: ", worst, " of ", h0.norm());
  CHECK(worst < 1e-9);
  // It folded: the ball connector turned c relative to b.
  const auto P_end = poses_at(tr.model, tr.x.back()), P_0 = poses_at(tr.model, tr.x.front());
  CHECK(rotation_angle((P_end[1].R.transpose() * P_end[2].R).transpose() * (P_0[1].R.transpose() * P_0[2].R)) > 0.1);
  const auto [distance, angle] = worst_violation(tr);
  CHECK(distance < 1e-9);
  CHECK(angle < 1e-9);
}

TEST_CASE("connectors: drift stays below 1e-8 m and 1e-8 rad over 600 s at 1 kHz RK4") {
  test::RandomBodies rnd(41);
  std::vector<model::BodySpec> bodies = {rnd.body("a", 11.5), rnd.body("b", 11.5), rnd.body("c", 3.0)};
  bodies[0].initial.nu_B << 0.5, 0.1, -0.1, 0.6, 0.4, -0.8;
  place_rigidly(bodies[0], Pose{spatial::rotation_from_euler_zyx(Vec3(0.1, 0.2, 0.3)), Vec3(0.0, 0.6, 0.0)}, bodies[1]);
  place_rigidly(bodies[1], Pose{spatial::rotation_from_euler_zyx(Vec3(0.0, 0.0, 0.5)), Vec3(0.3, 0.3, 0.0)}, bodies[2]);
  const model::ForceSpec push = push_on("c", Vec3(20, 4, -2), Vec3(2, -1, 3));
  scenario::Scenario s = test::scenario_with(bodies, 600.0, 1e-3, 5.0);
  s.environment.current_W = Vec3(0.3, 0.1, 0);
  s.forces = {push};
  s.connectors = {connector("ab", "a", "b", Vec3(0, 0.3, 0)),
                  connector("bc", "b", "c", Vec3(0.15, 0.15, 0), model::ConnectorType::ball)};
  const test::Trajectory tr = test::simulate(s);
  REQUIRE(tr.result.outcome == integrate::Outcome::completed);
  const auto [distance, angle] = worst_violation(tr);
  MESSAGE("600 s drift: ", distance, " m, ", angle, " rad");
  CHECK(distance < 1e-8);
  CHECK(angle < 1e-8);
}

TEST_CASE("ball connector: a body hung from the world swings with the physical-pendulum period") {
  // A ball joint at the origin, the body's CG a distance L below it; small swings in a vacuum:
  // T = 2π √(I_pivot / (m g L)), I_pivot = I_cg + m L² (spherical pendulum, small amplitude,
  // with the (1 + θ₀²/16) amplitude correction).
  model::BodySpec bob = test::plain_body("bob");
  const double L = 0.7, m = bob.mass, theta0 = 0.05;
  bob.volume = 0.0;
  bob.p_BoBcm_B = Vec3(0, 0, L);
  bob.initial.q_WB = Eigen::AngleAxisd(theta0, Vec3::UnitX());
  const double I_pivot = bob.inertia_Bcm_B(0, 0) + m * L * L;
  const double omega_n = std::sqrt(m * 9.81 * L / I_pivot);
  double correction = 1.0 + theta0 * theta0 / 16.0;  // planar swing of amplitude θ₀
  SUBCASE("planar swing") {}
  SUBCASE("conical swing") {
    // Tilted in roll and swinging in pitch a quarter period ahead: the CG circles below the
    // pivot, and roll still oscillates with the small-amplitude period (constant tilt: no
    // amplitude correction to first order).
    bob.initial.nu_B(4) = theta0 * omega_n;
    correction = 1.0;
  }
  scenario::Scenario s = test::scenario_with({bob}, 20.0, 1e-3, 1000.0);
  s.connectors = {connector("hook", "bob", "world", Vec3::Zero(), model::ConnectorType::ball)};
  const test::Trajectory tr = test::simulate(s);
  REQUIRE(tr.result.outcome == integrate::Outcome::completed);
  std::vector<double> crossings;
  const auto roll = [&](std::size_t k) { return tr.quaternion(k)[1]; };
  for (std::size_t k = 1; k < tr.t.size(); ++k)
    if (roll(k - 1) < 0.0 && roll(k) >= 0.0)
      crossings.push_back(tr.t[k - 1] + (tr.t[k] - tr.t[k - 1]) * roll(k - 1) / (roll(k - 1) - roll(k)));
  REQUIRE(crossings.size() >= 5);
  const double period = (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  const double expected = 2.0 * M_PI / omega_n * correction;
  CHECK(period == doctest::Approx(expected).epsilon(2e-5));
  // The ball point stays at the origin.
  for (std::size_t k = 0; k < tr.t.size(); k += 100) CHECK(tr.position(k).norm() < 1e-9);
}

TEST_CASE("rigid connector: a body hanging at rest carries its weight minus buoyancy, and the moment about the point") {
  model::BodySpec body = test::plain_body("crate");
  body.volume = 0.004;  // B < W
  body.p_BoBcm_B = Vec3(0.1, -0.05, 0.2);
  body.p_BoBcb_B = Vec3(-0.05, 0.0, 0.1);
  body.initial.q_WB = Eigen::Quaterniond(spatial::rotation_from_euler_zyx(Vec3(0.3, -0.2, 0.8)));
  const Vec3 point(0.2, 0.1, -0.3);
  scenario::Scenario s = test::scenario_with({body}, 2.0);
  s.connectors = {connector("hook", "crate", "world", point)};
  const dynamics::Model model = model::build_model(s);
  dynamics::Workspace ws(model);
  std::vector<double> xdot(model.x0.size());
  dynamics::evaluate(model, 0.0, model.x0.data(), xdot.data(), ws);
  const spatial::Mat3 R_WB = body.initial.q_WB.toRotationMatrix();
  const double W = body.mass * 9.81, B = 1000.0 * 9.81 * body.volume;
  const Vec3 weight_B = R_WB.transpose() * Vec3(0, 0, W), buoyancy_B = R_WB.transpose() * Vec3(0, 0, -B);
  const Vec6 wrench = ws.connectors.wrench_on_first(0);
  const Vec3 force = spatial::linear(wrench);
  const Vec3 moment_at_point = spatial::angular(wrench) - point.cross(force);
  CHECK((force + weight_B + buoyancy_B).norm() < 1e-9 * W);
  const Vec3 gravity_moment = (body.p_BoBcm_B - point).cross(weight_B) + (body.p_BoBcb_B - point).cross(buoyancy_B);
  CHECK((moment_at_point + gravity_moment).norm() < 1e-9 * W);
  // At rest: the Baumgarte terms see only rounding (ω² · 1e-16 m ≈ 1e-11 m/s²).
  CHECK(Eigen::Map<const Vec6>(xdot.data() + model.bodies[0].v_offset).norm() < 1e-10);
}

TEST_CASE("rigid connector on an arm link: a vehicle held by an arm moves like the same vehicle welded to the link") {
  test::RandomBodies rnd(51);
  const scenario::Scenario welded = arm_holding_vehicle(rnd, 10.0);
  double worst = 0.0;
  bolted_vs_welded(welded, "weld", "held", connector("gripper", "link", "held", Vec3(0.05, 0.0, 0.1)), worst);
  MESSAGE("connector on a link vs fixed joint: ", worst);
  CHECK(worst < 1e-7);
}

TEST_CASE("rigid connector inside one tree: locking a joint with a redundant loop moves like a fixed joint") {
  // base –revolute– link, plus a rigid connector base–link: the connector's 6 rows overlap the
  // joint's 5 constraints (5 dependent rows), and the pair moves as base –fixed– link.
  test::RandomBodies rnd(61);
  model::BodySpec base = rnd.body("base", 11.5), link = rnd.body("link", 2.0);
  base.initial.nu_B << 0.2, -0.1, 0.05, 0.3, 0.2, -0.4;
  model::JointSpec weld = rnd.joint("hinge", JT::fixed, "base", "link", 0);
  model::ForceSpec push = push_on("link", Vec3(3, -2, 1), Vec3(0.2, 0.1, -0.3));
  scenario::Scenario welded = test::scenario_with({base, link}, 10.0, 1e-3, 10.0);
  welded.joints = {weld};
  welded.forces = {push};
  scenario::Scenario locked = welded;
  locked.joints[0].type = JT::revolute;
  locked.joints[0].effort = 0.7;  // pushes against the lock the whole time
  locked.connectors = {connector("lock", "base", "link", Vec3(0.1, 0.0, 0.05))};
  const test::Trajectory one = test::simulate(welded), two = test::simulate(locked);
  REQUIRE(two.result.outcome == integrate::Outcome::completed);
  const double worst = worst_pose_difference(one, two);
  MESSAGE("joint locked by a connector vs fixed joint: ", worst);
  CHECK(worst < 1e-7);
  CHECK((poses_at(one.model, one.x.back())[0].p - poses_at(one.model, one.x.front())[0].p).norm() > 0.5);
}

TEST_CASE("ball connector closing a loop in one tree: no work, so ½ΣVᵀMV is conserved in an ideal fluid") {
  // A vehicle with a three-link arm, hinges all about y, whose tip is held to the vehicle by a
  // ball connector: a planar four-bar loop with one degree of freedom (the ball's y row repeats
  // what the hinges already hold: a dependent row). No gravity, no damping, no motors: the
  // connector force is workless, and the loop keeps moving with constant kinetic energy.
  test::RandomBodies rnd(71);
  model::BodySpec base = rnd.body("base", 11.5), upper = rnd.body("upper", 1.5), middle = rnd.body("middle", 1.2),
                     lower = rnd.body("lower", 1.0);
  for (auto* b : {&base, &upper, &middle, &lower}) b->linear_damping.setZero(), b->quadratic_damping.setZero();
  base.initial.nu_B << 0.3, -0.1, 0.2, 0.5, -0.4, 0.6;
  auto hinge = [](const std::string& parent, const std::string& child, const Vec3& xyz, double q0, double qd0) {
    model::JointSpec j;
    j.name = child, j.parent = parent, j.child = child;
    j.placement.xyz = xyz, j.placement.axis = Vec3::UnitY();
    j.initial_position = q0, j.initial_velocity = qd0;
    return j;
  };
  scenario::Scenario s = test::scenario_with({base, upper, middle, lower}, 10.0, 1e-3, 10.0);
  s.environment.gravity = 0.0;
  s.joints = {hinge("base", "upper", Vec3(0.2, 0.0, 0.1), -0.6, 1.5), hinge("upper", "middle", Vec3(0.3, 0.0, 0.0), 1.4, 0.0),
              hinge("middle", "lower", Vec3(0.25, 0.0, 0.0), 1.2, 0.0)};
  s.connectors = {connector("tip", "lower", "base", Vec3(0.2, 0.0, 0.0), model::ConnectorType::ball)};
  s.simulation.integrator = scenario::IntegratorKind::dopri5;
  s.simulation.abs_tol = s.simulation.rel_tol = 1e-12;
  const test::Trajectory tr = test::simulate(s);
  REQUIRE(tr.result.outcome == integrate::Outcome::completed);
  const double T0 = test::kinetic_energy(tr.model, tr.x.front());
  double worst = 0.0;
  for (const auto& x : tr.x) worst = std::max(worst, std::abs(test::kinetic_energy(tr.model, x) - T0));
  MESSAGE("loop energy drift: ", worst, " of ", T0);
  CHECK(worst < 1e-8 * T0);
  // The loop moved: the first hinge turned, and the tip stayed on the vehicle.
  const auto q = [&](std::size_t k) { return tr.x[k][static_cast<std::size_t>(tr.model.bodies[1].q_offset)]; };
  double range = 0.0;
  for (std::size_t k = 0; k < tr.t.size(); ++k) range = std::max(range, std::abs(q(k) - q(0)));
  MESSAGE("first hinge range: ", range);
  CHECK(range > 0.2);
  const auto [distance, angle] = worst_violation(tr);
  CHECK(distance < 1e-9);
}

TEST_CASE("rigid connector between two trees with children, one fixed-base: moves like a fixed joint") {
  // A fixed-base arm (hinged to the world) holds a vehicle that carries its own hinged link.
  // Bolted by a connector vs welded by a fixed joint: same motion.
  test::RandomBodies rnd(91);
  model::BodySpec link = rnd.body("link", 2.0), vehicle = rnd.body("vehicle", 6.0), fin = rnd.body("fin", 0.5);
  model::JointSpec base = rnd.joint("base", JT::revolute, "world", "link", 0);
  base.initial_velocity = 0.4;
  model::JointSpec hinge = rnd.joint("hinge", JT::revolute, "vehicle", "fin", 2);
  hinge.initial_velocity = -0.8;
  model::JointSpec weld = rnd.joint("weld", JT::fixed, "link", "vehicle", 0);
  scenario::Scenario welded = test::scenario_with({link, vehicle, fin}, 8.0, 1e-3, 10.0);
  welded.joints = {base, weld, hinge};
  double worst = 0.0;
  bolted_vs_welded(welded, "weld", "vehicle", connector("grip", "link", "vehicle", Vec3(0.1, 0.0, 0.0)), worst);
  MESSAGE("connector between trees with children vs fixed joint: ", worst);
  CHECK(worst < 1e-7);
}

TEST_CASE("connectors with actuator states in x: two BlueROV2s with lagged thrusters, bolted together") {
  // x = [q; v; a]: the thrusters' spin-up states follow the velocities; the start projection
  // and the connector rows must leave them alone.
  const std::string text = R"(name: pair
simulation: {duration: 5.0, step: 0.001, output_rate: 20.0}
include:
  - file: vehicles/bluerov2.yaml
    name: left
    position: [0.0, -0.4, 5.0]
    set: {thrusters.front_right.input: 1750.0, thrusters.front_right.time_constant: 0.3}
  - file: vehicles/bluerov2.yaml
    name: right
    position: [0.0, 0.4, 5.0]
connectors:
  - {name: bar, type: rigid, bodies: [left/rov, right/rov], point: [0.0, 0.4, 0.0]}
)";
  const scenario::Scenario s = scenario::load_scenario_text(text, std::string(UWSIM_SOURCE_DIR) + "/scenarios/pair.yaml");
  test::Trajectory tr = test::simulate(s);
  REQUIRE(tr.result.outcome == integrate::Outcome::completed);
  CHECK(tr.model.state_size() > tr.model.nq + tr.model.nv);  // the thruster lag is a state
  const auto [distance, angle] = worst_violation(tr);
  CHECK(distance < 1e-9);
  CHECK(angle < 1e-9);
  // The lagged thrust built up (the state was integrated, not reset by the connectors) and
  // turned the pair.
  const double lag_state = tr.x.back()[static_cast<std::size_t>(tr.model.nq + tr.model.nv)];
  CHECK(std::abs(lag_state) > 1.0);
  CHECK((tr.position(tr.t.size() - 1) - tr.position(0)).norm() > 0.05);
}

TEST_CASE("rigid connector on a motor-driven arm: the armature is in the connector solver's inertia too") {
  // As "a vehicle held by an arm", with the shoulder driven by a gear motor whose reflected
  // rotor inertia (N²J_m = 0.5 kg m²) is several times the link's: if the connector solver's
  // M⁻¹ left it out, the bolted system would move differently from the welded one.
  test::RandomBodies rnd(53);
  scenario::Scenario welded = arm_holding_vehicle(rnd, 5.0);
  welded.joints[0].actuator.kind = actuation::JointActuatorKind::gear_motor;
  welded.joints[0].actuator.input.constant = 1.5;
  welded.joints[0].actuator.motor = {0.02, 100.0, 5e-5, 1e-5, 0.0};
  double worst = 0.0;
  const test::Trajectory one =
      bolted_vs_welded(welded, "weld", "held", connector("gripper", "link", "held", Vec3(0.05, 0.0, 0.1)), worst);
  MESSAGE("connector on a motor-driven link vs fixed joint: ", worst);
  CHECK(worst < 1e-7);
  // The motor does move the arm: the shoulder turns by more than a radian.
  CHECK(std::abs(one.x.back()[static_cast<std::size_t>(one.model.bodies[1].q_offset)] - one.x.front()[static_cast<std::size_t>(one.model.bodies[1].q_offset)]) > 1.0);
}
