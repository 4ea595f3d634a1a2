// Joint placement: the pose the model builds for each notation against the product of
// elementary transforms assembled independently with Eigen's geometry module.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Geometry>

#include "model/build_model.h"
#include "support/simulate.h"

using namespace uwsim;
using Eigen::AngleAxisd;
using Eigen::Isometry3d;
using Eigen::Translation3d;
using Eigen::Vector3d;

namespace {

// Names as std::string objects: assigning literals here trips GCC 12's false -Wrestrict.
const std::string kJoint = "j", kParent = "p", kChild = "c";

Isometry3d Rx(double a) { return Isometry3d(AngleAxisd(a, Vector3d::UnitX())); }
Isometry3d Rz(double a) { return Isometry3d(AngleAxisd(a, Vector3d::UnitZ())); }
Isometry3d Tx(double d) { return Isometry3d(Translation3d(d, 0, 0)); }
Isometry3d Tz(double d) { return Isometry3d(Translation3d(0, 0, d)); }

// Builds a two-body model with one joint and returns X_PC(q) as the model computes it.
Isometry3d model_pose(const model::JointSpec& joint, double q) {
  scenario::Scenario s = test::scenario_with({test::plain_body(kParent), test::plain_body(kChild)}, 1.0);
  model::JointSpec j = joint;
  j.name = kJoint;
  j.parent = kParent;
  j.child = kChild;
  s.joints = {j};
  const dynamics::Model model = model::build_model(s);
  const spatial::Pose X = model.bodies[1].joint.pose_in_parent(q);
  Isometry3d T = Isometry3d::Identity();
  T.linear() = X.R;
  T.translation() = X.p;
  return T;
}

void check_same(const Isometry3d& a, const Isometry3d& b) {
  CHECK((a.matrix() - b.matrix()).norm() < 1e-14);
}

}  // namespace

TEST_CASE("joint placement: classic DH is Rz(θ+q)·Tz(d)·Tx(a)·Rx(α) — prismatic adds q to d") {
  model::JointSpec j;
  j.placement.kind = model::JointPlacementSpec::Kind::dh;
  j.placement.theta = 0.3, j.placement.d = 0.05, j.placement.a = 0.12, j.placement.alpha = 1.2;
  const auto& p = j.placement;
  for (double q : {-0.7, 0.0, 0.4}) {
    j.type = model::JointType::revolute;
    check_same(model_pose(j, q), Rz(p.theta + q) * Tz(p.d) * Tx(p.a) * Rx(p.alpha));
    j.type = model::JointType::prismatic;
    check_same(model_pose(j, q), Rz(p.theta) * Tz(p.d + q) * Tx(p.a) * Rx(p.alpha));
  }
}

TEST_CASE("joint placement: modified DH (Khalil) is Rx(α)·Tx(d)·Rz(θ+q)·Tz(r), after the mount") {
  model::JointSpec j;
  j.placement.kind = model::JointPlacementSpec::Kind::mdh;
  j.placement.alpha = -0.8, j.placement.d = 0.11, j.placement.theta = 0.25, j.placement.r = -0.04;
  j.placement.mount_xyz = Vector3d(0.08, 0.18, 0.32);
  j.placement.mount_rpy = Vector3d(0.1, -0.2, 0.3);
  const auto& p = j.placement;
  const Isometry3d mount = Isometry3d(Translation3d(p.mount_xyz)) *
                           Isometry3d(AngleAxisd(p.mount_rpy.z(), Vector3d::UnitZ()) *
                                      AngleAxisd(p.mount_rpy.y(), Vector3d::UnitY()) *
                                      AngleAxisd(p.mount_rpy.x(), Vector3d::UnitX()));
  for (double q : {-1.1, 0.0, 0.6}) {
    j.type = model::JointType::revolute;
    check_same(model_pose(j, q), mount * Rx(p.alpha) * Tx(p.d) * Rz(p.theta + q) * Tz(p.r));
    j.type = model::JointType::prismatic;
    check_same(model_pose(j, q), mount * Rx(p.alpha) * Tx(p.d) * Rz(p.theta) * Tz(p.r + q));
  }
}

TEST_CASE("joint placement: origin + axis turns about the axis through the joint origin") {
  model::JointSpec j;
  j.placement.xyz = Vector3d(0.2, -0.1, 0.05);
  j.placement.rpy = Vector3d(0.4, 0.1, -0.6);
  j.placement.axis = Vector3d(1, 2, -1);
  const auto& p = j.placement;
  const Isometry3d origin = Isometry3d(Translation3d(p.xyz)) *
                            Isometry3d(AngleAxisd(p.rpy.z(), Vector3d::UnitZ()) * AngleAxisd(p.rpy.y(), Vector3d::UnitY()) *
                                       AngleAxisd(p.rpy.x(), Vector3d::UnitX()));
  for (double q : {-2.0, 0.5}) {
    j.type = model::JointType::revolute;
    check_same(model_pose(j, q), origin * Isometry3d(AngleAxisd(q, p.axis.normalized())));
    j.type = model::JointType::prismatic;
    check_same(model_pose(j, q), origin * Isometry3d(Translation3d(q * p.axis.normalized())));
  }
}

TEST_CASE("joint placement: a revolute joint about a frame axis (the plane-rotation route) turns as the full formula and as Eigen's geometry") {
  // pose_in_parent builds R from two entries when Joint::rotation_axis ≥ 0; the full sum
  // C0 + sin q·C1 + (1 − cos q)·C2 is what it stands for, and must agree to the bit.
  const Vector3d axes[3] = {Vector3d::UnitX(), Vector3d::UnitY(), Vector3d::UnitZ()};
  for (int k = 0; k < 3; ++k) {
    for (double sign : {1.0, -1.0}) {
      model::JointSpec j;
      j.name = kJoint, j.parent = kParent, j.child = kChild;
      j.placement.xyz = Vector3d(0.2, -0.1, 0.05);
      j.placement.rpy = 0.3 * axes[k];  // an origin turned about the same axis keeps the form
      j.placement.axis = sign * axes[k];
      scenario::Scenario s = test::scenario_with({test::plain_body(kParent), test::plain_body(kChild)}, 1.0);
      s.joints = {j};
      const dynamics::Joint joint = model::build_model(s).bodies[1].joint;
      REQUIRE(joint.rotation_axis == k);
      for (double q : {-2.0, 0.0, 0.5, 3.0}) {
        const spatial::Pose X = joint.pose_in_parent(q);
        const Eigen::Matrix3d full = joint.C0 + std::sin(q) * joint.C1 + (1.0 - std::cos(q)) * joint.C2;
        CHECK((X.R - full).norm() < 1e-15);
#if !defined(__FMA__) && !defined(__FP_FAST_FMA)  // no fused multiply-adds: both round alike
        CHECK((X.R.array() == full.array()).all());
#endif
        const Eigen::Matrix3d expected = (AngleAxisd(0.3, axes[k]) * AngleAxisd(sign * q, axes[k])).toRotationMatrix();
        CHECK((X.R - expected).norm() < 1e-14);
        CHECK((X.p - j.placement.xyz).norm() < 1e-15);
      }
    }
  }
}

TEST_CASE("joint placement: the motion subspace S is the joint's twist seen from the child") {
  // Finite difference of the child pose: ω and v of C relative to P, in C, per unit q̇.
  model::JointSpec j;
  j.placement.kind = model::JointPlacementSpec::Kind::dh;
  j.placement.theta = 0.3, j.placement.d = 0.05, j.placement.a = 0.12, j.placement.alpha = 1.2;
  scenario::Scenario s = test::scenario_with({test::plain_body(kParent), test::plain_body(kChild)}, 1.0);
  j.name = kJoint, j.parent = kParent, j.child = kChild;
  s.joints = {j};
  const dynamics::Model model = model::build_model(s);
  const dynamics::Joint& joint = model.bodies[1].joint;
  const double q = 0.4, h = 1e-6;
  const spatial::Pose X0 = joint.pose_in_parent(q), X1 = joint.pose_in_parent(q + h);
  const Eigen::Matrix3d dR = X0.R.transpose() * (X1.R - X0.R) / h;  // S(ω_C)
  const Vector3d w_C(dR(2, 1), dR(0, 2), dR(1, 0));
  const Vector3d v_C = X0.R.transpose() * (X1.p - X0.p) / h;
  CHECK((joint.S_C.head<3>() - w_C).norm() < 1e-5);
  CHECK((joint.S_C.tail<3>() - v_C).norm() < 1e-5);
}

TEST_CASE("model: joint damping too stiff for the step is flagged (b·h > 2·Sᵀ M S)") {
  model::BodySpec light = test::plain_body(kChild);
  light.mass = 0.01;
  light.inertia_Bcm_B = Eigen::Vector3d(1e-5, 1e-5, 1e-4).asDiagonal();
  model::JointSpec j;
  j.name = kJoint, j.parent = kParent, j.child = kChild;
  scenario::Scenario s = test::scenario_with({test::plain_body(kParent), light}, 1.0);
  const double own_inertia = 1e-4;  // about z, the joint axis, through the CG at the origin
  j.damping = 1.9 * own_inertia / s.simulation.step;
  s.joints = {j};
  CHECK(model::build_model(s).joints_with_stiff_damping(s.simulation.step).empty());
  s.joints[0].damping = 2.1 * own_inertia / s.simulation.step;
  CHECK(model::build_model(s).joints_with_stiff_damping(s.simulation.step) == std::vector<std::string>{kJoint});
}

TEST_CASE("joint placement: written in place, a joint's pose sets every entry, whatever the pose held before") {
  // The kinematics writes each joint's pose over the last evaluation's (Joint::write_pose_in_parent):
  // an entry left unwritten would keep a stale value there, while pose_in_parent, which starts
  // from the identity, would hide it. So the target starts as NaN here and must come out as the
  // value form's pose, to the bit, for each of the function's routes.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<model::JointSpec> joints;
  for (int k = 0; k < 3; ++k) {  // revolute about a frame axis: the plane-rotation route
    model::JointSpec j;
    j.placement.xyz = Vector3d(0.2, -0.1, 0.05);
    j.placement.axis = Vector3d::Unit(k);
    joints.push_back(j);
  }
  model::JointSpec dh;  // revolute with a tilted axis (α ≠ 0): the full sum
  dh.placement.kind = model::JointPlacementSpec::Kind::dh;
  dh.placement.theta = 0.3, dh.placement.d = 0.05, dh.placement.a = 0.12, dh.placement.alpha = 1.2;
  joints.push_back(dh);
  dh.type = model::JointType::prismatic;
  joints.push_back(dh);
  dh.type = model::JointType::fixed;
  joints.push_back(dh);
  int routes = 0;
  for (model::JointSpec j : joints) {
    j.name = kJoint, j.parent = kParent, j.child = kChild;
    scenario::Scenario s = test::scenario_with({test::plain_body(kParent), test::plain_body(kChild)}, 1.0);
    s.joints = {j};
    const dynamics::Joint joint = model::build_model(s).bodies[1].joint;
    for (double q : {-0.7, 0.4}) {
      spatial::Pose X_PC;
      X_PC.R.setConstant(nan);
      X_PC.p.setConstant(nan);
      joint.write_pose_in_parent(q, X_PC);
      const spatial::Pose expected = joint.pose_in_parent(q);
      CHECK((X_PC.R.array() == expected.R.array()).all());
      CHECK((X_PC.p.array() == expected.p.array()).all());
    }
    routes += joint.rotation_axis >= 0 && joint.type == dynamics::JointType::revolute;
  }
  CHECK(routes == 3);  // the first three took the plane-rotation route
}

TEST_CASE("joint placement: a rotation about coordinate axis k written in place sets all nine entries") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), c = std::cos(0.7), s = std::sin(0.7);
  for (int k = 0; k < 3; ++k) {
    spatial::Mat3 R;
    R.setConstant(nan);
    spatial::write_rotation_about_coordinate_axis(k, c, s, R);
    const Eigen::Matrix3d expected = AngleAxisd(0.7, Vector3d::Unit(k)).toRotationMatrix();
    CHECK((R - expected).norm() < 1e-15);  // NaN fails this too
  }
}
