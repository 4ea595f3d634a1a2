// The pose setpoint with free axes (control/pose_setpoint.h) and the Euler-rate maps it uses
// (spatial/rotation.h), against independent formulations: Eigen's angle-axis and rotation
// matrices differentiated numerically.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>

#include "control/attitude_error.h"
#include "control/pose_pd.h"
#include "control/pose_setpoint.h"
#include "spatial/rotation.h"

using namespace uwsim;
using spatial::Mat3;
using spatial::Quat;
using spatial::Vec3;
using spatial::Vec6;

namespace {

Mat3 rotation_zyx(double roll, double pitch, double yaw) {
  return (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(pitch, Vec3::UnitY()) *
          Eigen::AngleAxisd(roll, Vec3::UnitX()))
      .toRotationMatrix();
}

Quat quaternion_of(const Mat3& R) {
  const Eigen::Quaterniond e(R);
  return Quat(e.w(), e.x(), e.y(), e.z());
}

// The rotation vector of R (Eigen's angle-axis, not attitude_error.h).
Vec3 rotation_vector(const Mat3& R) {
  const Eigen::AngleAxisd aa(R);
  return aa.angle() * aa.axis();
}

control::VehicleState vehicle_at(const Vec3& p, double roll, double pitch, double yaw, const Vec6& nu = Vec6::Zero()) {
  control::VehicleState x;
  x.p_WBo_W = p;
  x.q_WB = quaternion_of(rotation_zyx(roll, pitch, yaw));
  x.nu = nu;
  return x;
}

constexpr control::HeldAxes kDepthRollPitch = {false, false, true, true, true, false};

}  // namespace

TEST_CASE("rotation: ω from ZYX Euler rates equals the finite difference Ṙ Rᵀ, and euler_zyx_rates inverts it") {
  const Vec3 rpy(0.3, -0.4, 2.5), rates(0.7, -1.1, 0.9);
  const double h = 1e-6;
  const Mat3 R_dot = (rotation_zyx(rpy[0] + h * rates[0], rpy[1] + h * rates[1], rpy[2] + h * rates[2]) -
                      rotation_zyx(rpy[0] - h * rates[0], rpy[1] - h * rates[1], rpy[2] - h * rates[2])) /
                     (2 * h);
  const Mat3 W = R_dot * rotation_zyx(rpy[0], rpy[1], rpy[2]).transpose();  // skew(ω_W)
  const Vec3 w_expected(W(2, 1), W(0, 2), W(1, 0));
  const Vec3 w = spatial::angular_velocity_from_euler_zyx_rates(rpy, rates);
  CHECK((w - w_expected).norm() < 1e-8);
  CHECK((spatial::euler_zyx_rates(rpy, w) - rates).norm() < 1e-12);
}

TEST_CASE("pose setpoint: with yaw free, the attitude error holds roll and pitch only, whatever the heading") {
  const double roll = 0.08, pitch = -0.05;  // the vehicle's tilt; the setpoint is level
  // Independently: the setpoint Rz(ψ) and the vehicle Rz(ψ)Ry(θ)Rx(φ) differ by Rx(φ)ᵀRy(θ)ᵀ,
  // the same rotation at every heading ψ.
  const Vec3 expected = rotation_vector(rotation_zyx(roll, 0, 0).transpose() * rotation_zyx(0, pitch, 0).transpose());
  for (double yaw : {0.0, 1.0, std::numbers::pi / 2, 3.0, -2.2}) {
    CAPTURE(yaw);
    const control::VehicleState x = vehicle_at(Vec3(0, 0, 5), roll, pitch, yaw);
    control::EulerPoseSetpoint euler;  // level, heading 0, depth 5 m
    euler.p_WBd_W = Vec3(10.0, -3.0, 5.0);
    const control::PoseSetpoint sp = control::resolve_setpoint(euler, x, kDepthRollPitch);
    const control::PoseError err = control::pose_error(sp, x);
    CHECK((err.e_B.tail<3>() - expected).norm() < 1e-12);
    CHECK(err.e_B.head<3>().norm() < 1e-12);  // north and east free, depth on target
    CHECK(euler.rpy_d[2] == doctest::Approx(yaw));  // the free yaw copied from the vehicle
  }
}

TEST_CASE("pose setpoint: a fixed heading with a zero yaw gain is not a free yaw — its roll and pitch errors mix") {
  // Why pose_setpoint.h exists: all axes held at heading 0, the vehicle turned by 90°.
  const double roll = 0.08, pitch = -0.05;
  const control::VehicleState x = vehicle_at(Vec3::Zero(), roll, pitch, std::numbers::pi / 2);
  control::EulerPoseSetpoint euler;
  const control::PoseError fixed = control::pose_error(control::resolve_setpoint(euler, x, control::kAllAxesHeld), x);
  // The error's roll component now carries the pitch tilt (and vice versa), plus a 90° yaw.
  CHECK(std::abs(fixed.e_B[5]) > 1.0);
  CHECK(std::abs(fixed.e_B[3] + roll) > 0.02);
}

TEST_CASE("pose setpoint: a free position axis has no error — the held depth error is R_WBᵀ[0, 0, Δz]") {
  const double roll = 0.2, pitch = 0.1, yaw = -1.3;
  const control::VehicleState x = vehicle_at(Vec3(4.0, 7.0, 2.0), roll, pitch, yaw);
  control::EulerPoseSetpoint euler;
  euler.p_WBd_W = Vec3(-1.0, 2.0, 2.5);
  euler.rpy_d = Vec3(roll, pitch, 0.0);
  const control::PoseError err = control::pose_error(control::resolve_setpoint(euler, x, kDepthRollPitch), x);
  const Vec3 expected = rotation_zyx(roll, pitch, yaw).transpose() * Vec3(0, 0, 0.5);
  CHECK((err.e_B.head<3>() - expected).norm() < 1e-12);
  CHECK(err.e_B.tail<3>().norm() < 1e-12);
}

TEST_CASE("pose setpoint: a vehicle turning at r with a level attitude has no rate error when yaw is free") {
  const double r = 0.6, w = 0.15;
  Vec6 nu;
  nu << 0.5, 0.0, w, 0.0, 0.0, r;  // surging, sinking slightly, turning
  const control::VehicleState x = vehicle_at(Vec3(0, 0, 3), 0.0, 0.0, 0.7, nu);
  control::EulerPoseSetpoint euler;
  euler.p_WBd_W = Vec3(0, 0, 3);
  const control::PoseError free_yaw = control::pose_error(control::resolve_setpoint(euler, x, kDepthRollPitch), x);
  CHECK(free_yaw.e_rate_B.tail<3>().norm() < 1e-12);
  CHECK(free_yaw.e_rate_B[2] == doctest::Approx(-w).epsilon(1e-12));  // the held depth's rate error
  CHECK(free_yaw.e_rate_B.head<2>().norm() < 1e-12);
  control::EulerPoseSetpoint euler_held;  // (resolve_setpoint wrote the free axes into `euler`)
  euler_held.p_WBd_W = Vec3(0, 0, 3);
  const control::PoseError held = control::pose_error(control::resolve_setpoint(euler_held, x, control::kAllAxesHeld), x);
  CHECK(held.e_rate_B[5] == doctest::Approx(-r).epsilon(1e-12));  // a held heading resists the turn
}

TEST_CASE("pose_pd: the feed-forward wrench adds to the stabilising output, within the limits") {
  control::PosePdSettings settings;
  settings.kp << 0, 0, 100, 50, 50, 50;
  settings.limit << 60, 60, 60, 60, 60, 60;
  settings.sample_period = 0.01;
  control::PosePd pd(settings);
  const control::VehicleState x = vehicle_at(Vec3(0, 0, 4.9), 0.0, 0.02, 0.0);
  control::PoseSetpoint sp;
  sp.p_WBd_W = Vec3(0, 0, 5.0);
  sp.tau_ff_B << 97.9, -5.0, 0.0, 0.0, 0.0, 1.0;
  REQUIRE(pd.update(0.0, sp, x));
  const control::PoseError err = control::pose_error(sp, x);
  Vec6 expected = settings.kp.cwiseProduct(err.e_B) + sp.tau_ff_B;
  expected[0] = 60.0;  // the pilot's 97.9 N beyond the 60 N limit
  CHECK((pd.output() - expected).norm() < 1e-12);
}
