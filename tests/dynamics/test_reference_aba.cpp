// The tuned articulated-body algorithm (dynamics/articulated_body.h) against the reference,
// Featherstone's FDab in the book's form (support/reference_aba.h), which shares no code with
// it: random forests with every joint type, floating and fixed bases, added mass in the
// inertia and the fluid's bias forces as external forces.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "dynamics/kinematics.h"
#include "dynamics/pipeline.h"
#include "support/reference_aba.h"
#include "support/trees.h"

using namespace uwsim;
using test::reference::Vector6;
using Eigen::VectorXd;

namespace {

using JT = model::JointType;

// The inverse dynamics of the reference's own tree, the book's ID.m: the joint forces that give
// accelerations qdd. Used once, to check the oracle against the equations of motion themselves.
std::vector<VectorXd> reference_inverse_dynamics(const test::reference::Model& model, const std::vector<VectorXd>& q,
                                                 const std::vector<VectorXd>& qd, const std::vector<VectorXd>& qdd,
                                                 const std::vector<Vector6>& f_ext) {
  using namespace test::reference;
  const int NB = static_cast<int>(model.parent.size());
  std::vector<Matrix6> Xup(NB);
  std::vector<Eigen::MatrixXd> S(NB);
  std::vector<Vector6> v(NB), a(NB), f(NB);
  for (int i = 0; i < NB; ++i) {
    Matrix6 XJ;
    jcalc(model, i, q[i], XJ, S[i]);
    Xup[i] = model.Xafter[i] * XJ * model.Xtree[i];
    S[i] = model.Xafter[i] * S[i];
    const Vector6 vJ = S[i] * qd[i];
    const int p = model.parent[i];
    v[i] = (p < 0 ? Vector6::Zero() : Vector6(Xup[i] * v[p])) + vJ;
    a[i] = (p < 0 ? Vector6::Zero() : Vector6(Xup[i] * a[p])) + S[i] * qdd[i] + crm(v[i]) * vJ;
    f[i] = model.I[i] * a[i] + crf(v[i]) * model.I[i] * v[i] - f_ext[i];
  }
  std::vector<VectorXd> tau(NB);
  for (int i = NB - 1; i >= 0; --i) {
    tau[i] = S[i].transpose() * f[i];
    if (model.parent[i] >= 0) f[model.parent[i]] += Xup[i].transpose() * f[i];
  }
  return tau;
}

// A random forest: each body hangs from an earlier one or from the world by a revolute,
// prismatic or fixed joint (placed in any of the three notations), or floats free; currents
// and applied forces in some trials. Every body has the full set of fluid terms (trees.h).
scenario::Scenario random_forest(test::RandomBodies& rnd, std::mt19937& pick, int trial) {
  scenario::Scenario s = test::scenario_with({}, 1.0);
  if (trial % 2 == 1) s.environment.current_W = rnd.vec3(0.3);
  const int n = 2 + static_cast<int>(pick() % 9);
  const JT kinds[] = {JT::revolute, JT::revolute, JT::prismatic, JT::fixed};
  for (int k = 0; k < n; ++k) {
    const std::string name = "b" + std::to_string(k);
    s.bodies.push_back(rnd.body(name, k == 0 ? 11.5 : rnd.uniform(0.2, 2.0)));
    // The first body of every trial floats unless the trial is odd in its third bit; later ones
    // float one time in six (a second tree), otherwise hang from an earlier body or the world.
    const bool free = k == 0 ? (trial & 4) == 0 : pick() % 6 == 0;
    if (free) continue;
    const int parent = static_cast<int>(pick() % static_cast<unsigned>(k + 1)) - 1;  // −1: the world
    const JT kind = kinds[pick() % 4];
    s.joints.push_back(rnd.joint("j" + std::to_string(k), kind, parent < 0 ? "world" : "b" + std::to_string(parent), name,
                                 static_cast<int>(pick() % 3)));
  }
  if (trial % 3 == 0) {
    model::ForceSpec f;
    f.name = "push";
    f.body = s.bodies.back().name;
    f.frame = trial % 2 ? model::ForceFrame::world : model::ForceFrame::body;
    f.point_B = rnd.vec3(0.2);
    f.force = rnd.vec3(5.0);
    f.moment = rnd.vec3(1.0);
    s.forces.push_back(f);
  }
  return s;
}

struct Compared {
  VectorXd tuned, reference;  // the velocity part of ẋ: joint accelerations, free bodies' V̇_WB_B
  double velocity_gap = 0.0;  // largest |v_reference − V_WB_B| over the bodies
  double velocity_scale = 0.0;
};

// Both algorithms at one state. The tuned one's forces F_Bo_B (the force stage: every
// non-inertial wrench, the velocity products −V ×* (M V) included) enter the reference as
// f = F + V ×* (M V): the book's pass 1 forms v ×* (I v) itself. What is left in f is the
// fluid's bias beyond it (damping, restoring, in a current the added mass's
// −V_r ×* (M_A V_r) + M_A ν̇_c + V ×* (M_A V)) and the applied forces.
Compared compare_at(const dynamics::Model& m, const std::vector<double>& x) {
  std::vector<double> xdot(x.size());
  dynamics::Workspace ws(m);
  dynamics::evaluate(m, 0.0, x.data(), xdot.data(), ws);
  const test::reference::Model model = test::reference::model_of(m);
  const std::size_t NB = m.bodies.size();
  std::vector<VectorXd> q(NB), qd(NB), tau(NB);
  std::vector<Vector6> f_ext(NB);
  Compared out;
  out.tuned = Eigen::Map<const VectorXd>(xdot.data() + m.nq, m.nv);
  for (std::size_t i = 0; i < NB; ++i) {
    const dynamics::Body& b = m.bodies[i];
    const int nq = b.joint.type == dynamics::JointType::free ? 7 : b.joint.dof();
    q[i] = Eigen::Map<const VectorXd>(x.data() + std::max(b.q_offset, 0), nq);
    qd[i] = Eigen::Map<const VectorXd>(x.data() + std::max(b.v_offset, 0), b.joint.dof());
    tau[i] = VectorXd::Zero(b.joint.dof());
    if (b.joint.dof() == 1) tau[i][0] = b.joint.effort - b.joint.damping * qd[i][0];  // all the random joints carry
    const Vector6& V = ws.bodies[i].motion.V_WB_B;
    f_ext[i] = ws.bodies[i].F_Bo_B + test::reference::crf(V) * model.I[i] * V;
  }
  const test::reference::Result r = test::reference::FDab(model, q, qd, tau, f_ext);
  out.reference = VectorXd::Zero(m.nv);
  for (std::size_t i = 0; i < NB; ++i) {
    const dynamics::Body& b = m.bodies[i];
    if (b.joint.dof() > 0) out.reference.segment(b.v_offset - m.nq, b.joint.dof()) = r.qdd[i];
    out.velocity_gap = std::max(out.velocity_gap, (r.v[i] - ws.bodies[i].motion.V_WB_B).norm());
    out.velocity_scale = std::max(out.velocity_scale, r.v[i].norm());
  }
  // The oracle itself: its accelerations satisfy the equations of motion (ID.m gives τ back).
  std::vector<VectorXd> qdd = r.qdd;
  const std::vector<VectorXd> tau_back = reference_inverse_dynamics(model, q, qd, qdd, f_ext);
  for (std::size_t i = 0; i < NB; ++i) CHECK((tau_back[i] - tau[i]).norm() <= 1e-11 * (1.0 + tau[i].norm() + qdd[i].norm()));
  return out;
}

std::vector<double> random_state(const dynamics::Model& model, test::RandomBodies& rnd) {
  std::vector<double> x(static_cast<std::size_t>(model.state_size()));
  for (double& value : x) value = rnd.uniform(-1.0, 1.0);
  dynamics::normalize_quaternions(model, x.data());
  return x;
}

}  // namespace

TEST_CASE("aba: the tuned algorithm agrees with the reference FDab to 1e-12 on random forests of every joint type") {
  test::RandomBodies rnd(2024);
  std::mt19937 pick(39);
  int free_roots = 0, fixed_bases = 0, lone = 0, kinds[4] = {0, 0, 0, 0};
  for (int trial = 0; trial < 60; ++trial) {
    CAPTURE(trial);
    const dynamics::Model model = model::build_model(random_forest(rnd, pick, trial));
    for (const dynamics::Body& b : model.bodies) {
      ++kinds[static_cast<int>(b.joint.type)];
      if (b.joint.type == dynamics::JointType::free) (b.has_children ? free_roots : lone) += 1;
      if (b.parent < 0 && b.joint.type != dynamics::JointType::free) ++fixed_bases;
    }
    for (int state = 0; state < 3; ++state) {
      const Compared c = compare_at(model, random_state(model, rnd));
      CHECK(c.velocity_gap <= 1e-13 * (1.0 + c.velocity_scale));
      CHECK((c.tuned - c.reference).norm() <= 1e-12 * c.reference.norm());
    }
  }
  // Every path of the tuned pass was taken: floating roots with children, lone free bodies,
  // trees on the world, and each joint type.
  CHECK(free_roots > 10);
  CHECK(lone > 5);
  CHECK(fixed_bases > 10);
  for (int k = 0; k < 4; ++k) CHECK(kinds[k] > 10);
}

TEST_CASE("aba: joints about frame axes (the tuned pass's plane rotations and column masks) agree with the reference FDab") {
  // Origins without rotation and axes ±x, ±y, ±z: the tuned pass takes its special cases
  // (Joint::rotation_axis, Joint::S_index); the reference has none.
  test::RandomBodies rnd(77);
  std::mt19937 pick(5);
  const Eigen::Vector3d axes[] = {Eigen::Vector3d::UnitX(), -Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ(),
                                  -Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY(), -Eigen::Vector3d::UnitZ()};
  int aligned = 0;
  for (int trial = 0; trial < 30; ++trial) {
    CAPTURE(trial);
    scenario::Scenario s = random_forest(rnd, pick, trial);
    for (model::JointSpec& j : s.joints) {
      j.placement.kind = model::JointPlacementSpec::Kind::origin;
      j.placement.rpy.setZero();
      j.placement.mount_xyz.setZero();
      j.placement.axis = axes[pick() % 6];
    }
    const dynamics::Model model = model::build_model(s);
    for (const dynamics::Body& b : model.bodies) aligned += b.joint.dof() == 1 && b.joint.S_index >= 0 && b.joint.rotation_axis >= 0;
    for (int state = 0; state < 3; ++state) {
      const Compared c = compare_at(model, random_state(model, rnd));
      CHECK((c.tuned - c.reference).norm() <= 1e-12 * c.reference.norm());
    }
  }
  CHECK(aligned > 30);
}
