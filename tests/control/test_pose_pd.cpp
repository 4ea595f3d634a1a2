// Pose PD: the body-frame errors against independent formulations (Eigen's angle-axis, frames
// worked out by hand), and a rigid body driven by it: closed-form response for a single-axis
// turn, convergence from a large error in all six axes.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <random>

#include "control/attitude_error.h"
#include "control/pose_pd.h"
#include "spatial/rotation.h"
#include "spatial/transform.h"

using namespace uwsim;
using control::PosePd;
using spatial::Mat3;
using spatial::Quat;
using spatial::Vec3;
using spatial::Vec6;

namespace {

Quat quaternion_of(const Mat3& R) {
  const Eigen::Quaterniond e(R);
  return Quat(e.w(), e.x(), e.y(), e.z());
}

Quat random_quaternion(std::mt19937& rng) {
  std::normal_distribution<double> n;
  return Quat(n(rng), n(rng), n(rng), n(rng)).normalized();
}

// A rigid body with its CG at the origin, no gravity or fluid: body-frame Newton–Euler
// m(v̇ + ω×v) = f, I ω̇ + ω×Iω = n; ṗ = R v, q̇ = ½ q ⊗ [0, ω].
struct RigidBody {
  double m;
  Mat3 I;
  control::VehicleState x;

  void derivative(const control::VehicleState& s, const Vec6& tau, Vec3& dp, Quat& dq, Vec6& dnu) const {
    const Vec3 v = s.nu.head<3>(), w = s.nu.tail<3>();
    dp = spatial::rotation_from_quaternion(s.q_WB.normalized()) * v;
    dq = spatial::quaternion_rate(s.q_WB.normalized(), w);
    dnu.head<3>() = tau.head<3>() / m - w.cross(v);
    dnu.tail<3>() = I.inverse() * (tau.tail<3>() - w.cross(I * w));
  }

  void rk4(const Vec6& tau, double h) {  // tau held over the step (zero-order hold)
    auto shifted = [&](const Vec3& dp, const Quat& dq, const Vec6& dnu, double c) {
      control::VehicleState s = x;
      s.p_WBo_W += c * dp;
      s.q_WB += c * dq;
      s.nu += c * dnu;
      return s;
    };
    Vec3 p1, p2, p3, p4;
    Quat q1, q2, q3, q4;
    Vec6 n1, n2, n3, n4;
    derivative(x, tau, p1, q1, n1);
    derivative(shifted(p1, q1, n1, h / 2), tau, p2, q2, n2);
    derivative(shifted(p2, q2, n2, h / 2), tau, p3, q3, n3);
    derivative(shifted(p3, q3, n3, h), tau, p4, q4, n4);
    x.p_WBo_W += h / 6 * (p1 + 2 * p2 + 2 * p3 + p4);
    x.q_WB = (x.q_WB + h / 6 * (q1 + 2 * q2 + 2 * q3 + q4)).normalized();
    x.nu += h / 6 * (n1 + 2 * n2 + 2 * n3 + n4);
  }
};

// Runs body + controller for `duration`, plant steps of h, controller at its own period.
template <class Observer>
void simulate(RigidBody& body, PosePd& pd, const control::PoseSetpoint& sp, double h,
              double duration, Observer observe) {
  const long n = std::lround(duration / h);
  for (long i = 0; i <= n; ++i) {
    const double t = static_cast<double>(i) * h;
    observe(t, body.x);
    pd.update(t, sp, body.x);
    body.rk4(pd.output(), h);
  }
}

}  // namespace

TEST_CASE("pose_pd: the position error is rotated into the body frame") {
  // Facing east (yaw +90°), a setpoint 1 m north lies to port: body −y.
  control::VehicleState x;
  x.q_WB = spatial::quaternion_from_euler_zyx(0.0, 0.0, std::numbers::pi / 2);
  control::PoseSetpoint sp;
  sp.p_WBd_W = Vec3(1.0, 0.0, 0.0);
  sp.q_WBd = x.q_WB;
  const control::PoseError err = control::pose_error(sp, x);
  CHECK((err.e_B - (Vec6() << 0, -1, 0, 0, 0, 0).finished()).norm() < 1e-15);

  // Rolled 90° to starboard, R_WB = Rx(90°) takes body y to NED z (down): a setpoint 1 m
  // deeper is body +y.
  x.q_WB = spatial::quaternion_from_euler_zyx(std::numbers::pi / 2, 0.0, 0.0);
  sp.q_WBd = x.q_WB;
  sp.p_WBd_W = Vec3(0.0, 0.0, 1.0);
  CHECK((control::pose_error(sp, x).e_B.head<3>() - Vec3(0, 1, 0)).norm() < 1e-15);

  // Setpoint velocities are taken from NED into body axes too; measured ν is subtracted.
  sp.v_WBd_W = Vec3(0.0, 0.0, 2.0);
  x.nu << 0.5, 0, 0, 0, 0, 0.1;
  const Vec6 rate = control::pose_error(sp, x).e_rate_B;
  CHECK((rate - (Vec6() << -0.5, 2.0, 0, 0, 0, -0.1).finished()).norm() < 1e-15);
}

TEST_CASE("attitude error: the rotation vector of R_WBᵀ R_WBd, with no gimbal lock") {
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) {
    const Quat q_WB = random_quaternion(rng), q_WBd = random_quaternion(rng);
    const Mat3 R_BBd = spatial::rotation_from_quaternion(q_WB).transpose() *
                       spatial::rotation_from_quaternion(q_WBd);
    const Eigen::AngleAxisd aa(R_BBd);  // independent: Eigen's log map of the rotation matrix
    CHECK((control::attitude_error(q_WB, q_WBd) - aa.angle() * aa.axis()).norm() < 1e-9);
  }
  // A turn about one body axis gives exactly that angle, up to π, from any start; also at
  // pitch 90°, where Euler-angle differences lose a degree of freedom.
  const Quat starts[2] = {random_quaternion(rng),
                          spatial::quaternion_from_euler_zyx(0.3, std::numbers::pi / 2, -1.0)};
  for (const Quat& q_WB : starts)
    for (int axis = 0; axis < 3; ++axis)
      for (const double angle : {-3.1, -1e-7, 0.0, 0.4, 2.0, 3.1}) {
        const Mat3 R_WBd = spatial::rotation_from_quaternion(q_WB) *
                           spatial::rotation_about(Vec3::Unit(axis), angle);
        const Vec3 e = control::attitude_error(q_WB, quaternion_of(R_WBd));
        CHECK((e - angle * Vec3::Unit(axis)).norm() < 1e-12);
      }
  // q and −q are the same attitude.
  const Quat q = random_quaternion(rng);
  CHECK(control::attitude_error(q, -q).norm() < 1e-15);
}

TEST_CASE("pose_pd: a large yaw step follows the analytic second-order response") {
  // About one axis the error is exactly the angle, so I ψ̈ = K_P(ψ_d − ψ) − K_D ψ̇:
  // ωn = √(K_P/I), ζ = K_D / (2√(K_P I)), even for a 2.5 rad step.
  const double Iz = 0.16, kp = 2.56, kd = 0.768, step = 2.5;
  const double wn = std::sqrt(kp / Iz), zeta = kd / (2 * std::sqrt(kp * Iz));
  const double wd = wn * std::sqrt(1 - zeta * zeta);
  control::PosePdSettings settings;
  settings.kp << 300, 300, 300, 300, 300, kp;
  settings.kd << 100, 100, 100, 100, 100, kd;
  settings.sample_period = 1e-3;
  PosePd pd(settings);
  RigidBody body{.m = 11.5, .I = Vec3(0.16, 0.16, Iz).asDiagonal(), .x = {}};
  control::PoseSetpoint sp;
  sp.q_WBd = spatial::quaternion_from_euler_zyx(0, 0, step);
  double worst = 0.0;
  simulate(body, pd, sp, 2e-4, 6.0, [&](double t, const control::VehicleState& x) {
    const double yaw = spatial::euler_zyx_from_rotation(spatial::rotation_from_quaternion(x.q_WB)).z();
    const double expected = step * (1 - std::exp(-zeta * wn * t) *
                                            (std::cos(wd * t) + zeta / std::sqrt(1 - zeta * zeta) *
                                                                    std::sin(wd * t)));
    worst = std::max(worst, std::abs(yaw - expected));
  });
  CHECK(worst < 3e-3 * step);  // the 1 ms sampling's O(T) lag
  CHECK(body.x.p_WBo_W.norm() < 1e-12);
}

TEST_CASE("pose_pd: Table 4 gains bring a rigid vehicle to a far setpoint pose in all six axes") {
  // León-González et al. Table 4 gains on their BlueROV2 Heavy's rigid-body mass and inertia
  // (no fluid, no gravity), from 150° of attitude error and 3 m of position error. With
  // I = 0.16 kg m² and K_D = 100 the derivative pole is K_D/I = 625 rad/s, so the controller
  // must run at ≥ 1 kHz to stay stable as a sampled system.
  control::PosePdSettings settings;
  settings.kp << 300, 500, 300, 300, 300, 300;
  settings.kd = Vec6::Constant(100);
  settings.sample_period = 1e-3;
  PosePd pd(settings);
  RigidBody body{.m = 11.5, .I = Mat3::Identity() * 0.16, .x = {}};
  control::PoseSetpoint sp;
  sp.p_WBd_W = Vec3(2.0, -1.5, 1.5);
  sp.q_WBd = quaternion_of(spatial::rotation_about(Vec3(1, 2, -1).normalized(), 2.6));
  double previous_distance = 1e9;
  bool monotone = true;
  simulate(body, pd, sp, 2e-4, 40.0, [&](double, const control::VehicleState& x) {
    const double d = control::attitude_error(x.q_WB, sp.q_WBd).norm();
    monotone = monotone && d <= previous_distance + 1e-12;
    previous_distance = d;
  });
  const control::PoseError err = control::pose_error(sp, body.x);
  CHECK(err.e_B.norm() < 1e-6);
  CHECK(body.x.nu.norm() < 1e-6);
  CHECK(monotone);  // heavily overdamped in rotation: the angle to go never grows
}

TEST_CASE("pose_pd: zero-order hold and per-axis output limits") {
  control::PosePdSettings settings;
  settings.kp = Vec6::Constant(10);
  settings.kd = Vec6::Constant(1);
  settings.limit << 5, 5, 5, 1, 1, 1;
  settings.sample_period = 0.05;
  PosePd pd(settings);
  control::PoseSetpoint sp;
  sp.p_WBd_W = Vec3(0.2, 0, 0);
  sp.q_WBd = spatial::quaternion_from_euler_zyx(0, 0, 1.0);
  control::VehicleState x;
  REQUIRE(pd.update(0.0, sp, x));
  CHECK(pd.output()[0] == doctest::Approx(2.0));  // 10 · 0.2, inside its limit
  CHECK(pd.output()[5] == 1.0);                  // 10 · 1.0 clamped to 1
  const Vec6 held = pd.output();
  x.p_WBo_W.x() = 0.1;
  CHECK_FALSE(pd.update(0.03, sp, x));  // between samples: refused, output held
  CHECK(pd.output() == held);
  CHECK(pd.update(0.05, sp, x));
  CHECK(pd.output()[0] == doctest::Approx(1.0));
}

TEST_CASE("pose_pd: integral action sums K_I·T·e per axis and stops winding up at the limit") {
  control::PosePdSettings s;
  s.kp = Vec6::Constant(2.0);
  s.ki = Vec6::Constant(5.0);
  s.limit = Vec6::Constant(3.0);
  s.sample_period = 0.01;
  PosePd pd(s);
  control::PoseSetpoint sp;
  sp.p_WBd_W = Vec3(0.1, 0.0, 0.0);  // a constant 0.1 m surge error, body = world axes
  control::VehicleState x;
  for (int k = 0; k < 100; ++k) pd.update(k * 0.01, sp, x);
  // Unsaturated: I = 100 · 5 · 0.01 · 0.1 = 0.5, τ_X = 2 · 0.1 + 0.5.
  CHECK(pd.integral()[0] == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(pd.output()[0] == doctest::Approx(0.7).epsilon(1e-12));
  CHECK(pd.output().tail<5>().isZero(0.0));
  // Saturated at 3 N: the integral stops where the output reaches the limit (within one increment).
  for (int k = 100; k < 1000; ++k) pd.update(k * 0.01, sp, x);
  CHECK(pd.output()[0] == doctest::Approx(3.0));
  CHECK(pd.integral()[0] <= 3.0 - 0.2 + 1e-12);
  CHECK(pd.integral()[0] >= 3.0 - 0.2 - 5.0 * 0.01 * 0.1 - 1e-12);
}
