// The control laws of paper 002's framework on their own (control/line_of_sight.h,
// task_priority.h, base_control.h): LOS geometry for paths in both directions and the segment
// switch, ψ̇_r against a finite difference, the weighted task-priority solution against the
// optimisation problem it solves (eq. 29) and against its null-space property, the attitude
// error's sign, and eq. 34's discrete state.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "control/base_control.h"
#include "control/line_of_sight.h"
#include "control/task_priority.h"
#include "spatial/rotation.h"

using namespace uwsim;
using control::PathSegment;
using Eigen::Vector2d;
using spatial::Vec3;
using spatial::Vec6;

TEST_CASE("line of sight: cross-track error, LOS heading and segment switching (eq. 39)") {
  const std::vector<PathSegment> path = {{Vector2d(0, 2), Vector2d(50, 2)}, {Vector2d(50, 8), Vector2d(-20, 8)}};
  const double delta = 2.0;
  // 2 m to port of a northbound path: steer starboard by atan(2/Δ) = 45°, as eq. 39 gives.
  control::LosGuidance g = control::line_of_sight(path, 0, Vector2d(10, 0), Vector2d::Zero(), delta);
  CHECK(g.segment == 0);
  CHECK(g.cross_track == doctest::Approx(-2.0));
  CHECK(g.heading == doctest::Approx(M_PI / 4));
  // Past the end of the first segment the second is active: southbound, so a point 2 m west of
  // it is 2 m to its starboard, and the LOS heading turns 45° from south toward the line (east):
  g = control::line_of_sight(path, 0, Vector2d(51, 6), Vector2d::Zero(), delta);
  CHECK(g.segment == 1);
  CHECK(g.cross_track == doctest::Approx(2.0));
  CHECK(g.heading == doctest::Approx(M_PI - M_PI / 4));
  // The active segment never goes back, and the last one extends past its end.
  CHECK(control::line_of_sight(path, 1, Vector2d(10, 2), Vector2d::Zero(), delta).segment == 1);
  CHECK(control::line_of_sight(path, 1, Vector2d(-40, 8), Vector2d::Zero(), delta).cross_track == doctest::Approx(0.0));
  // ψ̇_r against a central difference of ψ_r along the point's motion.
  const Vector2d p(12, 0.7), v(0.4, 0.3);
  const double dt = 1e-6;
  const double fd = (control::line_of_sight(path, 0, p + dt * v, v, delta).heading -
                     control::line_of_sight(path, 0, p - dt * v, v, delta).heading) / (2 * dt);
  CHECK(control::line_of_sight(path, 0, p, v, delta).heading_rate == doctest::Approx(fd).epsilon(1e-6));
}

TEST_CASE("line of sight: wrapped heading error, joint references of eq. 38 and accelerations of eq. 40-41") {
  CHECK(control::wrap_angle(1.5 * M_PI) == doctest::Approx(-0.5 * M_PI));
  CHECK(control::wrap_angle(-M_PI) == doctest::Approx(M_PI));
  CHECK(control::wrap_angle(M_PI) == doctest::Approx(M_PI));
  control::TransportSettings k;
  k.look_ahead = 3.0;
  k.heading_gain = 0.45;
  k.speed = 0.5;
  k.surge_kp = 0.5;
  k.surge_ki = 0.0625;
  k.yaw_kd = 0.13;
  k.yaw_kp = 0.12;
  k.sample_period = 0.02;
  control::TransportControl c(k);
  const std::vector<PathSegment> path = {{Vector2d(0, 0), Vector2d(100, 0)}};
  control::TransportMeasurement m;  // on the path, heading 0.2 rad to starboard of it, turning at 0.05 rad/s
  m.p_N = Vector2d(5, 0);
  m.heading = 0.2;
  m.heading_rate = 0.05;
  m.surge = 0.3;
  c.update(path, m);
  // ψ_r = 0 on the path: the joints turn the head back to port (negative in this project's sign).
  CHECK(c.joint_reference() == doctest::Approx(-0.45 * 0.2));
  CHECK(c.joint_reference_rate() == doctest::Approx(-0.45 * 0.05));
  CHECK(c.acceleration()[5] == doctest::Approx(-0.13 * 0.05 - 0.12 * 0.2));
  CHECK(c.acceleration()[0] == doctest::Approx(-0.5 * (0.3 - 0.5) - 0.0625 * 0.02 * (0.3 - 0.5)));
  CHECK(c.acceleration().segment<4>(1).norm() == 0.0);
  c.update(path, m);  // the surge integral keeps summing at the samples
  CHECK(c.acceleration()[0] == doctest::Approx(-0.5 * (0.3 - 0.5) - 0.0625 * 0.04 * (0.3 - 0.5)));
}

TEST_CASE("task priority (eq. 42): the weighted solution meets the primary task, minimises the weighted norm, and the secondary task stays in its null space") {
  std::mt19937 rng(3);
  std::normal_distribution<double> n01;
  control::TaskJacobian J(6, 14);
  for (Eigen::Index i = 0; i < J.size(); ++i) J.data()[i] = n01(rng);
  control::ColumnVector w(14);
  w << 0.3, 0.3, 0.3, 0.0, 0.3, 0.3, 0.7, 0.7, 1, 1, 1, 1, 1, 1;  // Sec. VI-C, base roll excluded
  Vec6 e;
  e << 0.1, -0.2, 0.05, 0.3, -0.1, 0.2;
  const Vec3 base(0.02, -0.01, 0.03);
  const control::ColumnVector primary = control::task_priority_velocity(J, e, Vec3::Zero(), w, 0.0);
  const control::ColumnVector both = control::task_priority_velocity(J, e, base, w, 0.0);
  CHECK((J * primary - e).norm() < 1e-12);  // the end effector moves exactly as asked
  CHECK((J * both - e).norm() < 1e-12);     // and the secondary task does not disturb it
  CHECK(primary[3] == 0.0);                 // weight 0: the base's roll is not used
  CHECK(both[3] == 0.0);
  CHECK((both - primary).norm() > 1e-3);    // the secondary task does move the system
  // Eq. 29 with the weights as the paper's W⁻¹: among all ζ with Jζ = e and ζ_roll = 0,
  // ζ = J†e minimises Σ ζ_k² / w_k. Any other solution ζ + δ (Jδ = 0, δ_roll = 0) costs more.
  control::TaskJacobian J_free = J;
  J_free.col(3).setZero();
  const Eigen::MatrixXd null_space = Eigen::FullPivLU<Eigen::MatrixXd>(Eigen::MatrixXd(J_free)).kernel();
  auto cost = [&](const Eigen::VectorXd& z) {
    double c = 0;
    for (int k = 0; k < 14; ++k)
      if (w[k] > 0) c += z[k] * z[k] / w[k];
    return c;
  };
  const Eigen::VectorXd best(primary);
  for (int trial = 0; trial < 20; ++trial) {
    Eigen::VectorXd delta = null_space * Eigen::VectorXd::NullaryExpr(null_space.cols(), [&] { return 0.01 * n01(rng); });
    delta[3] = 0.0;
    if ((J * delta).norm() > 1e-12) continue;
    CHECK(cost(best + delta) > cost(best));
  }
}

TEST_CASE("task priority: the end-effector error is the position error in E and the vector part of the attitude quaternion error") {
  spatial::Pose X_WE;
  X_WE.R = Eigen::AngleAxisd(0.4, Vec3::UnitZ()).toRotationMatrix();
  X_WE.p = Vec3(1, 2, 3);
  // Desired: 0.3 rad further about E's own x axis, and 0.5 m ahead along E's x.
  const spatial::Mat3 R_d = X_WE.R * Eigen::AngleAxisd(0.3, Vec3::UnitX()).toRotationMatrix();
  const Eigen::Quaterniond q(R_d);
  const Vec6 e = control::end_effector_error(X_WE, X_WE.p + X_WE.R * Vec3(0.5, 0, 0), spatial::Quat(q.w(), q.x(), q.y(), q.z()));
  CHECK((e.head<3>() - Vec3(0.5, 0, 0)).norm() < 1e-12);
  CHECK((e.tail<3>() - Vec3(std::sin(0.15), 0, 0)).norm() < 1e-12);
  // −q is the same attitude: the short way round gives the same error.
  const Vec6 again = control::end_effector_error(X_WE, X_WE.p, spatial::Quat(-q.w(), -q.x(), -q.y(), -q.z()));
  CHECK((again.tail<3>() - e.tail<3>()).norm() < 1e-12);
}

TEST_CASE("base control (eq. 34): reference rate by backward difference, integral summed at the samples") {
  control::BaseVelocitySettings k;
  k.kp << 1, 1, 1, 0, 1, 1;
  k.ki << 0.5, 0, 0, 0, 0, 0;
  k.sample_period = 0.02;
  control::BaseVelocityControl c(k);
  Vec6 V = Vec6::Zero(), V_r = Vec6::Zero();
  V[0] = 0.2;
  V_r[0] = 0.5;
  V[3] = 0.1;  // roll rate with K_P = 0: no feedback
  Vec6 a = c.acceleration(V, V_r);
  CHECK(a[0] == doctest::Approx(-(0.2 - 0.5) - 0.5 * 0.02 * (0.2 - 0.5)));  // no reference rate at the first sample
  CHECK(a[3] == 0.0);
  V_r[0] = 0.51;
  a = c.acceleration(V, V_r);
  CHECK(a[0] == doctest::Approx(0.01 / 0.02 - (0.2 - 0.51) - 0.5 * 0.02 * ((0.2 - 0.5) + (0.2 - 0.51))));
  // τ_c = M₁₁ a_b + n with M₁₁ in spatial order and a_b, n in Fossen order.
  spatial::Mat6 M = spatial::Mat6::Identity();
  M(0, 4) = M(4, 0) = 2.0;  // roll (spatial 0) ↔ sway (spatial 4)
  Vec6 a_b = Vec6::Zero(), n = Vec6::Zero();
  a_b[1] = 1.0;  // sway
  n[5] = 0.5;
  const Vec6 tau = control::feedback_linearising_wrench(M, a_b, n);
  CHECK(tau[1] == 1.0);  // Y
  CHECK(tau[3] == 2.0);  // K
  CHECK(tau[5] == 0.5);  // N
}
