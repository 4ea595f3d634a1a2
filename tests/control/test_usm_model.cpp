// The swimming manipulator of paper 002 (scenarios/sverdrup-thygeson2018/usm.yaml) and the
// model-side parts of its control framework, each against a derivation that shares no code with
// what it checks:
//   - the thruster configuration matrix T(q) and the thrust the simulator applies, against the
//     virtual work of the thrust forces under finite differences of the thruster positions, those
//     positions from the USM's own forward kinematics written here from Table II's lengths;
//   - T(q) has rank 6 when bent and rank 5 when straight; the damped allocation stays bounded
//     through the straight body, the pseudo-inverse does not;
//   - M₁₁ (composite_inertia) against the mass matrix and against Table II's sums;
//   - the end-effector Jacobian (eq. 18) against finite differences of that forward kinematics;
//   - the terms of n (eq. 35) against closed forms for a straight body in surge and in yaw.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>

#include "dynamics/controller_set.h"
#include "control/task_priority.h"
#include "control/thrust_allocation.h"
#include "control/thruster_configuration.h"
#include "dynamics/crba.h"
#include "dynamics/kinematics.h"
#include "dynamics/pipeline.h"
#include "dynamics/rnea.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"

using namespace uwsim;
using spatial::Mat3;
using spatial::Vec3;
using spatial::Vec6;

namespace {

// Table II (Sverdrup-Thygeson et al. 2018): link0, module1, link1, …, link4, tail to head.
const double kLength[9] = {0.62, 0.104, 0.584, 0.104, 0.726, 0.104, 0.584, 0.104, 0.37};
const double kMass[9] = {14.3, 6.0, 12.7, 6.0, 9.8, 6.0, 12.7, 6.0, 7.8};
const double kDragX[9] = {0.8, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.8};
const double kRadius = 0.085, kRho = 1026.0;

std::string usm_scenario(const std::string& extra = "", const std::string& set = "") {
  return "name: usm_test\nenvironment: {water_density: 1026.0}\nsimulation: {duration: 1.0}\ninclude:\n"
         "  - {file: sverdrup-thygeson2018/usm.yaml, name: usm, position: [0.0, 0.0, 20.0]" +
         (set.empty() ? std::string() : ", set: {" + set + "}") + "}\n" + extra;
}

dynamics::Model usm_model(const std::string& extra = "", const std::string& set = "") {
  return model::build_model(scenario::load_scenario_text(
      usm_scenario(extra, set), std::string(UWSIM_SOURCE_DIR) + "/scenarios/inline_test.yaml"));
}

Mat3 rotation(const Vec3& axis, double angle) { return Eigen::AngleAxisd(angle, axis).toRotationMatrix(); }

// The USM's forward kinematics written from its description, not from the model: body k's frame
// in the base frame (link0's tail), bodies in series along x, joint k (k = 1..8) at the front end
// of body k−1, turning body k about z (odd k: yaw) or y (even k: pitch).
struct Frames {
  Mat3 R[9];
  Vec3 p[9];
};
Frames usm_frames(const double* q) {
  Frames f;
  f.R[0].setIdentity();
  f.p[0].setZero();
  for (int k = 1; k < 9; ++k) {
    f.p[k] = f.p[k - 1] + f.R[k - 1] * Vec3(kLength[k - 1], 0, 0);
    f.R[k] = f.R[k - 1] * rotation(k % 2 ? Vec3::UnitZ() : Vec3::UnitY(), q[k - 1]);
  }
  return f;
}

// The state x of `m` with the base at the origin of NED, level, and joint angles q.
std::vector<double> state_at(const dynamics::Model& m, const double* q) {
  std::vector<double> x(m.x0);
  const dynamics::Body& base = m.bodies[0];
  for (int k = 0; k < 3; ++k) x[static_cast<std::size_t>(base.q_offset + k)] = 0.0;
  for (std::size_t b = 1; b < m.bodies.size(); ++b) x[static_cast<std::size_t>(m.bodies[b].q_offset)] = q[b - 1];
  return x;
}

std::vector<std::array<double, 8>> random_shapes(int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> angle(-1.4, 1.4);
  std::vector<std::array<double, 8>> out(static_cast<std::size_t>(count));
  for (auto& q : out)
    for (double& a : q) a = angle(rng);
  return out;
}

// T(q) as the allocation builds it (controller_set.cpp): columns from the thrusters' link poses.
control::ConfigurationMatrix configuration(const dynamics::Model& m, const dynamics::Workspace& ws) {
  control::ConfigurationMatrix T(6, static_cast<Eigen::Index>(m.thrusters.size()));
  const spatial::Pose X_BW = ws.bodies[0].X_WB.inverse();
  for (std::size_t j = 0; j < m.thrusters.size(); ++j) {
    const actuation::Thruster& th = m.thrusters[j];
    T.col(static_cast<Eigen::Index>(j)) = control::thruster_column_on_link(
        X_BW * ws.bodies[static_cast<std::size_t>(th.body)].X_WB, th.p_BoT_B, th.axis_B, th.reaction_torque);
  }
  return T;
}

}  // namespace

TEST_CASE("USM T(q) and the applied thrust equal the virtual work of the thrust forces (finite differences over base and joints)") {
  // Each thruster pushes u_j N along d_j at p_j. The generalized force of coordinate k is the
  // virtual work per unit displacement, Q_k = Σ_j u_j d_j · ∂p_j/∂ξ_k, here by central
  // differences: over the joint angles of the forward kinematics above, and over the base's
  // body-fixed motions (a shift along e_k, a turn about e_k through the base origin). The base
  // rows are T(q) u ([SverdrupThygeson2018] eq. 25–26); all rows are what the dynamics applies:
  // the inverse dynamics' bias without thrust minus with it.
  const double thrust[7] = {3.0, -2.0, 5.0, -4.0, 1.5, 2.5, -3.5};
  std::string set;
  const char* names[7] = {"tail_port", "tail_starboard", "tail_sway", "tail_heave", "middle_heave", "head_sway", "head_heave"};
  for (int j = 0; j < 7; ++j) set += std::string(j ? ", " : "") + "thrusters." + names[j] + ".input: " + std::to_string(thrust[j]);
  const dynamics::Model pushed = usm_model("", set), idle = usm_model();
  REQUIRE(pushed.thrusters.size() == 7);
  dynamics::Workspace ws_pushed(pushed), ws_idle(idle);
  std::vector<Vec6> f(pushed.bodies.size());
  std::vector<double> h_pushed(static_cast<std::size_t>(pushed.nv)), h_idle(h_pushed.size());
  const double h = 1e-6;
  for (const auto& shape : random_shapes(5, 7)) {
    const double* q = shape.data();
    // Virtual work from the kinematics written above.
    auto positions = [&](const double* angles, const Mat3& R_turn, const Vec3& shift) {
      const Frames fr = usm_frames(angles);
      std::vector<Vec3> p;
      for (const actuation::Thruster& th : pushed.thrusters) {
        const auto b = static_cast<std::size_t>(th.body);
        p.push_back(R_turn * (fr.p[b] + fr.R[b] * th.p_BoT_B) + shift);
      }
      return p;
    };
    const Frames fr = usm_frames(q);
    auto work = [&](const std::vector<Vec3>& plus, const std::vector<Vec3>& minus) {
      double Q = 0.0;
      for (std::size_t j = 0; j < 7; ++j) {
        const auto b = static_cast<std::size_t>(pushed.thrusters[j].body);
        const Vec3 d = fr.R[b] * pushed.thrusters[j].axis_B;
        Q += thrust[j] * d.dot((plus[j] - minus[j]) / (2 * h));
      }
      return Q;
    };
    Eigen::Matrix<double, 14, 1> Q;  // [X Y Z K M N], then the 8 joints
    for (int k = 0; k < 3; ++k) {
      const Vec3 e = Vec3::Unit(k);
      Q[k] = work(positions(q, Mat3::Identity(), h * e), positions(q, Mat3::Identity(), -h * e));
      Q[3 + k] = work(positions(q, rotation(e, h), Vec3::Zero()), positions(q, rotation(e, -h), Vec3::Zero()));
    }
    for (int i = 0; i < 8; ++i) {
      double qp[8], qm[8];
      std::copy(q, q + 8, qp);
      std::copy(q, q + 8, qm);
      qp[i] += h;
      qm[i] -= h;
      Q[6 + i] = work(positions(qp, Mat3::Identity(), Vec3::Zero()), positions(qm, Mat3::Identity(), Vec3::Zero()));
    }
    CAPTURE(Q.transpose());

    // The allocation's T(q) u.
    const std::vector<double> x = state_at(pushed, q);
    dynamics::compute_kinematics_and_forces(pushed, 0.0, x.data(), ws_pushed);
    const control::ConfigurationMatrix T = configuration(pushed, ws_pushed);
    const Eigen::Matrix<double, 7, 1> u(thrust);
    const Vec6 Tu = T * u;
    CHECK((Tu - Q.head<6>()).norm() < 1e-7 * Q.norm());

    // What the dynamics applies: h(no thrust) − h(thrust), base rows in spatial order.
    dynamics::inverse_dynamics(pushed, ws_pushed, nullptr, f.data(), h_pushed.data());
    dynamics::compute_kinematics_and_forces(idle, 0.0, x.data(), ws_idle);
    dynamics::inverse_dynamics(idle, ws_idle, nullptr, f.data(), h_idle.data());
    Eigen::Matrix<double, 14, 1> applied;
    for (int k = 0; k < 14; ++k) applied[k] = h_idle[static_cast<std::size_t>(k)] - h_pushed[static_cast<std::size_t>(k)];
    applied.head<6>() = spatial::to_fossen_order(Vec6(applied.head<6>()));
    CHECK((applied - Q).norm() < 1e-7 * Q.norm());
    CHECK(Q.tail<8>().norm() > 1.0);  // the joint rows are not trivially zero
  }
}

TEST_CASE("USM T(q) has rank 6 when bent and rank 5 when straight, the roll direction growing with the bend") {
  const dynamics::Model m = usm_model();
  dynamics::Workspace ws(m);
  auto singular_values = [&](const double* q) {
    const std::vector<double> x = state_at(m, q);
    dynamics::compute_kinematics(m, x.data(), ws);
    return Eigen::JacobiSVD<Eigen::MatrixXd>(Eigen::MatrixXd(configuration(m, ws))).singularValues();
  };
  const double straight[8] = {};
  const Eigen::VectorXd s0 = singular_values(straight);
  CHECK(s0[5] < 1e-12 * s0[0]);  // no thruster line of action can give a roll moment (usm.yaml)
  CHECK(s0[4] > 0.05 * s0[0]);   // the other five directions are well actuated
  double smallest = 1e9;
  for (const auto& shape : random_shapes(50, 11)) smallest = std::min(smallest, singular_values(shape.data())[5]);
  CHECK(smallest > 1e-3);
  // A small bend moves the tunnel thrusters off link0's axis by an offset proportional to it, so
  // the sixth singular value grows linearly from the straight body: rank 5 only there.
  const double bend[8] = {0.3, 0.2, -0.3, 0.1, 0.3, -0.2, 0.3, 0.1};
  double small[8], twice[8];
  for (int k = 0; k < 8; ++k) small[k] = 0.01 * bend[k], twice[k] = 0.02 * bend[k];
  const double ratio = singular_values(small)[5] / singular_values(twice)[5];
  CHECK(ratio == doctest::Approx(0.5).epsilon(0.02));
}

TEST_CASE("USM damped allocation (eq. 36-37, lambda = 0.1) stays bounded through the straight body, the pseudo-inverse does not") {
  // The body bends through straight: q = s·q0 for s from −1 to 1. The commanded wrench asks for a
  // roll moment, which a straight body cannot give.
  const dynamics::Model m = usm_model();
  dynamics::Workspace ws(m);
  const double q0[8] = {0.4, 0.0, 0.4, 0.0, 0.4, 0.0, 0.4, 0.0};  // a yaw bend
  Vec6 tau;
  tau << 5.0, 2.0, -3.0, 1.0, 2.0, -4.0;  // [X Y Z K M N]
  const double bound = tau.norm() / (2 * 0.1);  // damped_pseudo_inverse.h: ‖u‖ ≤ ‖τ‖/(2λ)
  double damped_max = 0.0, damped_jump = 0.0, pinv_near = 0.0, pinv_far = 0.0;
  control::ColumnVector previous;
  for (int i = -200; i <= 200; ++i) {
    const double s = i / 200.0;
    double q[8];
    for (int k = 0; k < 8; ++k) q[k] = s * q0[k];
    const std::vector<double> x = state_at(m, q);
    dynamics::compute_kinematics(m, x.data(), ws);
    const control::ConfigurationMatrix T = configuration(m, ws);
    const control::ColumnVector u = control::allocate_unsaturated(T, tau, 0.1);
    damped_max = std::max(damped_max, u.norm());
    if (previous.size() > 0) damped_jump = std::max(damped_jump, (u - previous).norm());
    previous = u;
    const double pinv = control::allocate_unsaturated(T, tau, 0.0).norm();
    if (std::abs(i) == 1) pinv_near = std::max(pinv_near, pinv);
    if (std::abs(i) == 100) pinv_far = std::max(pinv_far, pinv);
  }
  CHECK(damped_max <= bound);
  CHECK(damped_jump < 0.5);        // continuous in q: no thrust jumps at the singularity
  CHECK(pinv_near > 10 * pinv_far);  // the undamped solution blows up as 1/s near the straight body
  CHECK(pinv_near > 500.0);
}

TEST_CASE("USM M11 (composite_inertia) equals the mass matrix's base block and Table II's sums for a straight body") {
  const dynamics::Model m = usm_model();
  dynamics::Workspace ws(m);
  for (const auto& shape : random_shapes(3, 5)) {
    const std::vector<double> x = state_at(m, shape.data());
    dynamics::compute_kinematics(m, x.data(), ws);
    const Eigen::MatrixXd H = dynamics::mass_matrix(m, ws);
    CHECK((dynamics::composite_inertia(m, ws, 0) - H.topLeftCorner<6, 6>()).norm() < 1e-10 * H.norm());
  }
  // Straight: each part a homogeneous cylinder centred at x_c from the tail, added mass
  // diag(0.1 m, a, a, 0, a l²/12, a l²/12) with a = πρr²l (Sec. VI-A).
  const double straight[8] = {};
  const std::vector<double> x = state_at(m, straight);
  dynamics::compute_kinematics(m, x.data(), ws);
  // In Fossen's order (the block swap is its own inverse).
  const spatial::Mat6 M11 = spatial::from_fossen_order(dynamics::composite_inertia(m, ws, 0));
  double surge = 0, sway = 0, roll = 0, yaw = 0, coupling = 0, x_c = 0;
  for (int i = 0; i < 9; ++i) {
    const double l = kLength[i], mass = kMass[i], a = M_PI * kRho * kRadius * kRadius * l;
    const double centre = x_c + l / 2;
    surge += 1.1 * mass;
    sway += mass + a;
    roll += 0.5 * mass * kRadius * kRadius;
    yaw += mass * (3 * kRadius * kRadius + l * l) / 12 + a * l * l / 12 + (mass + a) * centre * centre;
    coupling += (mass + a) * centre;
    x_c += l;
  }
  CHECK(M11(0, 0) == doctest::Approx(surge).epsilon(1e-12));
  CHECK(M11(1, 1) == doctest::Approx(sway).epsilon(1e-12));
  CHECK(M11(2, 2) == doctest::Approx(sway).epsilon(1e-12));
  CHECK(M11(3, 3) == doctest::Approx(roll).epsilon(1e-12));
  CHECK(M11(5, 5) == doctest::Approx(yaw).epsilon(1e-12));
  CHECK(M11(4, 4) == doctest::Approx(yaw).epsilon(1e-12));
  CHECK(M11(1, 5) == doctest::Approx(coupling).epsilon(1e-12));   // a sway force about the tail turns it
  CHECK(M11(2, 4) == doctest::Approx(-coupling).epsilon(1e-12));  // heave down pitches the nose down
}

TEST_CASE("USM end-effector Jacobian (eq. 18) equals finite differences of the forward kinematics") {
  const dynamics::Model m = usm_model();
  dynamics::Workspace ws(m);
  const Vec3 p_EP(0.37, 0.0, 0.0);
  const double h = 1e-6;
  for (const auto& shape : random_shapes(3, 3)) {
    const double* q = shape.data();
    const std::vector<double> x = state_at(m, q);
    dynamics::compute_kinematics(m, x.data(), ws);
    const spatial::Pose X_BW = ws.bodies[0].X_WB.inverse();
    spatial::Pose X_BK[8];
    Vec6 S_K[8];
    for (int k = 0; k < 8; ++k) {
      X_BK[k] = X_BW * ws.bodies[static_cast<std::size_t>(k + 1)].X_WB;
      S_K[k] = m.bodies[static_cast<std::size_t>(k + 1)].joint.S_C;
    }
    const spatial::Pose X_BL = X_BW * ws.bodies[8].X_WB;
    const control::TaskJacobian J = control::end_effector_jacobian({X_BL.R, X_BL.p + X_BL.R * p_EP}, X_BK, S_K, 8);
    // E's pose as a function of the base's motion (turn R, shift t, in base axes) and the joints.
    auto pose = [&](const double* angles, const Mat3& R, const Vec3& t) {
      const Frames fr = usm_frames(angles);
      return spatial::Pose{R * fr.R[8], R * (fr.p[8] + fr.R[8] * p_EP) + t};
    };
    const spatial::Pose E = pose(q, Mat3::Identity(), Vec3::Zero());
    // Body-fixed twist of E from two nearby poses: v = R_Eᵀ Δp / 2h, ω = vee(R_Eᵀ ΔR) / 2h.
    auto twist = [&](const spatial::Pose& plus, const spatial::Pose& minus) {
      const Mat3 dR = E.R.transpose() * (plus.R - minus.R) / (2 * h);
      Vec6 V;
      V << E.R.transpose() * (plus.p - minus.p) / (2 * h), Vec3(dR(2, 1), dR(0, 2), dR(1, 0));
      return V;
    };
    for (int k = 0; k < 3; ++k) {
      const Vec3 e = Vec3::Unit(k);
      CHECK((twist(pose(q, Mat3::Identity(), h * e), pose(q, Mat3::Identity(), -h * e)) - J.col(k)).norm() < 1e-7);
      CHECK((twist(pose(q, rotation(e, h), Vec3::Zero()), pose(q, rotation(e, -h), Vec3::Zero())) - J.col(3 + k)).norm() < 1e-7);
    }
    for (int i = 0; i < 8; ++i) {
      double qp[8], qm[8];
      std::copy(q, q + 8, qp);
      std::copy(q, q + 8, qm);
      qp[i] += h;
      qm[i] -= h;
      CHECK((twist(pose(qp, Mat3::Identity(), Vec3::Zero()), pose(qm, Mat3::Identity(), Vec3::Zero())) - J.col(6 + i)).norm() < 1e-7);
    }
  }
}

TEST_CASE("USM n of eq. 35: each cancelled term against a closed form for a straight body") {
  // A base_control with a_b = 0 (a task_priority with zero gains, K_P = 0) commands τ_c = n. For
  // the straight USM (every part on link0's axis):
  //   surge at u: only the damping, n = [½ρπr²u² Σ C_d,x, 0, …] (Table II's C_d,x);
  //   turning about the tail at r: each part's centre moves sideways at r x_c, and keeping that
  //   up needs the centripetal force of its mass and sway added mass, n = [−r² Σ (m + πρr²l) x_c, 0, …]
  //   (rigid-body and added-mass Coriolis; damping left out here).
  const std::string controllers =
      "controllers:\n"
      "  - {name: kin, type: task_priority, rate: 50.0, end_effector: usm/link4, position: [0.0, 0.0, 0.0],\n"
      "     gain: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]}\n"
      "  - {name: base, type: base_control, rate: 50.0, input: kin, cancel: CANCEL}\n";
  auto wrench = [&](const std::string& cancel, const std::string& velocity, const std::string& thrust) {
    std::string text = controllers;
    text.replace(text.find("CANCEL"), 6, cancel);
    const dynamics::Model m = usm_model(text, "bodies.link0.initial.velocity: " + velocity + thrust);
    dynamics::Workspace ws(m);
    dynamics::ControllerSet set(m);
    set.update(0.0, m.x0.data(), ws);
    return Vec6(ws.controllers[1].output.head<6>());
  };
  const double u = 0.5, r = 0.3;
  double drag = 0, centripetal = 0, x_c = 0;
  for (int i = 0; i < 9; ++i) {
    const double a = M_PI * kRho * kRadius * kRadius * kLength[i];
    drag += 0.5 * kRho * M_PI * kRadius * kRadius * kDragX[i] * u * u;
    centripetal -= r * r * (kMass[i] + a) * (x_c + kLength[i] / 2);
    x_c += kLength[i];
  }
  const Vec6 surge_damping = wrench("[damping]", "[0.5, 0.0, 0.0, 0.0, 0.0, 0.0]", "");
  CHECK(surge_damping[0] == doctest::Approx(drag).epsilon(1e-9));
  CHECK(surge_damping.tail<5>().norm() < 1e-9);
  CHECK(wrench("[coriolis, restoring]", "[0.5, 0.0, 0.0, 0.0, 0.0, 0.0]", "").norm() < 1e-9);
  const Vec6 turn = wrench("[coriolis]", "[0.0, 0.0, 0.0, 0.0, 0.0, 0.3]", "");
  CHECK(turn[0] == doctest::Approx(centripetal).epsilon(1e-9));
  CHECK(turn.tail<5>().norm() < 1e-9 * std::abs(centripetal));
  // n is the model's: thrust the thrusters deliver at the sample changes nothing, and all
  // three terms add up.
  const Vec6 all = wrench("[coriolis, damping, restoring]", "[0.5, 0.0, 0.0, 0.0, 0.0, 0.3]", "");
  const Vec6 pushed = wrench("[coriolis, damping, restoring]", "[0.5, 0.0, 0.0, 0.0, 0.0, 0.3]",
                             ", thrusters.tail_port.input: 7.0, thrusters.head_sway.input: -5.0");
  CHECK((all - pushed).norm() < 1e-9 * all.norm());
  const Vec6 parts = wrench("[coriolis]", "[0.5, 0.0, 0.0, 0.0, 0.0, 0.3]", "") +
                     wrench("[damping]", "[0.5, 0.0, 0.0, 0.0, 0.0, 0.3]", "") +
                     wrench("[restoring]", "[0.5, 0.0, 0.0, 0.0, 0.0, 0.3]", "");
  CHECK((all - parts).norm() < 1e-9 * all.norm());
  CHECK(wrench("[]", "[0.5, 0.0, 0.0, 0.0, 0.0, 0.3]", "").norm() == 0.0);
}
