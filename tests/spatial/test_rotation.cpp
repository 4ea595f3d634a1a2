// The rotation toolkit (spatial/rotation.h) against closed forms written out here, Eigen's
// angle-axis and quaternion classes (an independent formulation), and long-double evaluations
// of the exact formulas on both sides of the small-angle threshold.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <random>

#include "spatial/rotation.h"

using namespace uwsim::spatial;

namespace {

constexpr double kPi = std::numbers::pi;

// The elementary rotations, entry by entry ([Fossen2011] eq. 2.18's factors).
Mat3 Rx(double a) {
  Mat3 R;
  R << 1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a);
  return R;
}
Mat3 Ry(double a) {
  Mat3 R;
  R << std::cos(a), 0, std::sin(a), 0, 1, 0, -std::sin(a), 0, std::cos(a);
  return R;
}
Mat3 Rz(double a) {
  Mat3 R;
  R << std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1;
  return R;
}

Mat3 eigen_zyx(double roll, double pitch, double yaw) {
  return (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(pitch, Vec3::UnitY()) *
          Eigen::AngleAxisd(roll, Vec3::UnitX()))
      .toRotationMatrix();
}

Quat as_quat(const Eigen::Quaterniond& q) { return Quat(q.w(), q.x(), q.y(), q.z()); }

// Eigen's rotation vector of R: angle times axis (not rotation.h).
Vec3 eigen_rotation_vector(const Mat3& R) {
  const Eigen::AngleAxisd aa(R);
  return aa.angle() * aa.axis();
}

// Two rotation matrices computed by different sequences of roundings: each of the nine entries
// is at most two products of three rounded sines and cosines plus a sum on each side, about 11
// roundings of unit-size numbers (u = 1.1e-16), so an entry differs by at most ~2·11u and the
// Frobenius norm of the difference by ~3 times its typical entry: 3e-15 (200 random trials reach
// 1.4e-15). A wrong sign, order or angle moves entries by O(angle), twelve orders above it.
constexpr double kMatrixRoundOff = 3e-15;

// Angles equal modulo 2π.
double angle_gap(double a, double b) { return std::abs(std::remainder(a - b, 2 * kPi)); }

}  // namespace

TEST_CASE("rotation toolkit: a rotation about each axis is its closed form, in every representation") {
  for (double a : {0.0, 1e-9, 0.3, -1.2, kPi / 2, 3.0, -3.1}) {
    CAPTURE(a);
    // The ZYX matrix of one angle is exactly the elementary rotation (no other term enters).
    CHECK(rotation_from_euler_zyx(Vec3(a, 0, 0)) == Rx(a));
    CHECK(rotation_from_euler_zyx(Vec3(0, a, 0)) == Ry(a));
    CHECK(rotation_from_euler_zyx(Vec3(0, 0, a)) == Rz(a));
    const Mat3 elementary[3] = {Rx(a), Ry(a), Rz(a)};
    for (int k = 0; k < 3; ++k) {
      CAPTURE(k);
      Vec3 rpy = Vec3::Zero();
      rpy[k] = a;
      Quat half = Quat::Zero();  // [cos(a/2), sin(a/2) e_k]
      half[0] = std::cos(a / 2);
      half[1 + k] = std::sin(a / 2);
      const Quat q = quaternion_from_euler_zyx(rpy[0], rpy[1], rpy[2]);
      CHECK((q - half).norm() <= 1e-16);
      CHECK((rotation_from_quaternion(half) - elementary[k]).norm() < kMatrixRoundOff);
      CHECK((rotation_about(Vec3::Unit(k), a) - elementary[k]).norm() < kMatrixRoundOff);
      CHECK((rotation_vector_from_quaternion(half) - a * Vec3::Unit(k)).norm() < 1e-15);
      CHECK((quaternion_from_rotation_vector(a * Vec3::Unit(k)) - half).norm() < 1e-16);
      const Vec3 angles = euler_zyx_from_rotation(elementary[k]);
      if (k == 1 && std::abs(a) > kPi / 2) {
        // Pitch is returned in [−π/2, π/2]: a pitch a beyond it is the same rotation as roll π,
        // pitch ±π − a, yaw π.
        CHECK(angle_gap(angles[0], kPi) < 1e-15);
        CHECK(angle_gap(angles[1], std::copysign(kPi, a) - a) < 1e-15);
        CHECK(angle_gap(angles[2], kPi) < 1e-15);
      } else {
        CHECK((angles - rpy).norm() < 1e-15);
      }
      CHECK((rotation_from_euler_zyx(angles) - elementary[k]).norm() < kMatrixRoundOff);
      CHECK(std::abs(rotation_angle(elementary[k]) - std::abs(a)) < 1e-15);
    }
  }
}

TEST_CASE("rotation toolkit: compositions — ZYX is Rz·Ry·Rx, q₁ ⊗ q₂ is R₁R₂, q* is Rᵀ — and Eigen agrees") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> angle(-kPi, kPi);
  for (int trial = 0; trial < 200; ++trial) {
    const double roll = angle(rng), pitch = angle(rng) / 2, yaw = angle(rng);
    const Mat3 R = rotation_from_euler_zyx(Vec3(roll, pitch, yaw));
    CHECK((R - Rz(yaw) * Ry(pitch) * Rx(roll)).norm() < kMatrixRoundOff);
    CHECK((R - eigen_zyx(roll, pitch, yaw)).norm() < kMatrixRoundOff);
    const Quat q = quaternion_from_euler_zyx(roll, pitch, yaw);
    CHECK(q[0] >= 0.0);
    CHECK((rotation_from_quaternion(q) - R).norm() < kMatrixRoundOff);
    const Quat q2 = as_quat(Eigen::Quaterniond::UnitRandom());
    CHECK((rotation_from_quaternion(quaternion_product(q, q2)) - R * rotation_from_quaternion(q2)).norm() < kMatrixRoundOff);
    CHECK((rotation_from_quaternion(quaternion_conjugate(q)) - R.transpose()).norm() < kMatrixRoundOff);
    // Against Eigen's own Hamilton product and its matrix → quaternion conversion.
    const Eigen::Quaterniond e = Eigen::Quaterniond(q[0], q[1], q[2], q[3]) * Eigen::Quaterniond(q2[0], q2[1], q2[2], q2[3]);
    CHECK((quaternion_product(q, q2) - as_quat(e)).norm() < 1e-15);
    const Quat from_R = quaternion_from_rotation(R);
    CHECK(std::min((from_R - q).norm(), (from_R + q).norm()) < 1e-15);
    // The rotation vector against Eigen's angle-axis, and its angle against the matrix's.
    CHECK((rotation_vector_from_quaternion(q) - eigen_rotation_vector(R)).norm() < 1e-14);
    CHECK(std::abs(rotation_angle(R) - Eigen::AngleAxisd(R).angle()) < 1e-14);
  }
}

TEST_CASE("rotation toolkit: the rotation vector round trips near 0 and near π, on the short side") {
  const Vec3 n = Vec3(1.0, -2.0, 0.5).normalized();
  SUBCASE("near 0: the relative error stays at round-off down to the smallest angles") {
    for (double a : {1e-3, 1e-7, 1.9e-8, 2.1e-8, 1e-9, 1e-12, 1e-20, 1e-200, 0.0}) {
      CAPTURE(a);
      const Vec3 phi = a * n;
      const Quat q = quaternion_from_rotation_vector(phi);
      CHECK(std::abs(q.norm() - 1.0) < 1e-15);
      CHECK((rotation_vector_from_quaternion(q) - phi).norm() <= 1e-15 * a);
      // Eigen's angle-axis quaternion, an independent construction.
      CHECK((q - as_quat(Eigen::Quaterniond(Eigen::AngleAxisd(a, n)))).norm() <= 1e-16);
    }
  }
  SUBCASE("near π: the angle and axis survive; past π the short side is taken") {
    for (double a : {kPi - 1e-3, kPi - 1e-8, kPi - 1e-12, kPi}) {
      CAPTURE(a);
      const Vec3 phi = a * n;
      const Quat q = quaternion_from_rotation_vector(phi);
      // At θ = π exactly, φ and −φ are the same rotation, and ‖π·n‖ rounds to a hair above or
      // below π (here above: w = cos(‖φ‖/2) = −1.6e-16), so either may come back.
      const auto gap = [&](const Vec3& back) { return a == kPi ? std::min((back - phi).norm(), (back + phi).norm()) : (back - phi).norm(); };
      CHECK(gap(rotation_vector_from_quaternion(q)) < 4e-15);
      CHECK(gap(rotation_vector_from_quaternion(-q)) < 4e-15);  // −q is the same rotation
      CHECK((rotation_from_quaternion(q) - Eigen::AngleAxisd(a, n).toRotationMatrix()).norm() < kMatrixRoundOff);
    }
    for (double past : {1e-9, 1e-3, 0.5}) {
      CAPTURE(past);
      const Quat q = quaternion_from_rotation_vector((kPi + past) * n);
      CHECK(q[0] < 0.0);
      CHECK((rotation_vector_from_quaternion(q) - (past - kPi) * n).norm() < 4e-15);
    }
  }
}

TEST_CASE("rotation toolkit: the small-angle branch is continuous across its threshold to 1e-15") {
  const Vec3 n = Vec3(0.3, 0.9, -0.2).normalized();
  // Log: φ = (2·atan2(s, w)/s)·v, the factor in long double as the reference.
  for (double s : {kSmallHalfAngle * (1 - 1e-9), kSmallHalfAngle, kSmallHalfAngle * (1 + 1e-9)}) {
    CAPTURE(s);
    const double w = std::sqrt(1.0 - s * s);
    const Quat q(w, s * n.x(), s * n.y(), s * n.z());
    const long double ws = w, ss = Vec3(q.tail<3>()).norm();
    const long double exact = 2.0L * std::atan2(ss, ws) / ss;
    const Vec3 phi = rotation_vector_from_quaternion(q);
    for (int i = 0; i < 3; ++i) CHECK(std::abs(static_cast<long double>(phi[i]) - exact * q[1 + i]) <= 1e-15L * std::abs(exact * q[1 + i]));
  }
  // Exp: v = (sin(θ/2)/θ)·φ on both sides of θ/2 = 1e-8.
  for (double half : {kSmallHalfAngle * (1 - 1e-9), kSmallHalfAngle, kSmallHalfAngle * (1 + 1e-9)}) {
    CAPTURE(half);
    const Vec3 phi = 2 * half * n;
    const long double theta = Vec3(phi).norm();
    const long double exact = std::sin(theta / 2) / theta;
    const Quat q = quaternion_from_rotation_vector(phi);
    for (int i = 0; i < 3; ++i) CHECK(std::abs(static_cast<long double>(q[1 + i]) - exact * phi[i]) <= 1e-15L * std::abs(exact * phi[i]));
    CHECK(std::abs(q[0] - std::cos(half)) <= 1e-16);
  }
  // And the two sides against each other, as the map goes on through the threshold.
  const double below = kSmallHalfAngle * (1 - 1e-12), above = kSmallHalfAngle * (1 + 1e-12);
  const auto log_factor = [&](double s) {
    const Quat q(std::sqrt(1 - s * s), s * n.x(), s * n.y(), s * n.z());
    return rotation_vector_from_quaternion(q).norm() / s;
  };
  CHECK(std::abs(log_factor(below) - log_factor(above)) <= 1e-15 * 2.0);
  const auto exp_factor = [&](double half) { return quaternion_from_rotation_vector(2 * half * n).tail<3>().norm() / (2 * half); };
  CHECK(std::abs(exp_factor(below) - exp_factor(above)) <= 1e-15 * 0.5);
}

TEST_CASE("rotation toolkit: ZYX angles round trip near 0, near ±π and at gimbal lock") {
  SUBCASE("angles → R → angles, in the principal ranges") {
    for (const Vec3& rpy : {Vec3(1e-9, -2e-10, 3e-12), Vec3(0.0, 0.0, 0.0), Vec3(0.4, -0.3, 1.2), Vec3(kPi - 1e-9, 0.2, -kPi + 1e-9),
                           Vec3(-kPi + 1e-12, -0.7, kPi - 1e-12), Vec3(kPi, 0.1, kPi)}) {
      CAPTURE(rpy.transpose());
      const Vec3 back = euler_zyx_from_rotation(rotation_from_euler_zyx(rpy));
      for (int i = 0; i < 3; ++i) CHECK(angle_gap(back[i], rpy[i]) <= 2e-15);
      // Tiny angles keep their relative precision.
      if (rpy.norm() < 1e-6)
        for (int i = 0; i < 3; ++i) CHECK(std::abs(back[i] - rpy[i]) <= 1e-15 * std::abs(rpy[i]));
    }
  }
  SUBCASE("R → angles → R for random rotations (Eigen's), whatever the side of the pitch") {
    std::srand(5);
    for (int trial = 0; trial < 500; ++trial) {
      const Mat3 R = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
      const Vec3 rpy = euler_zyx_from_rotation(R);
      CHECK(std::abs(rpy[1]) <= kPi / 2);
      CHECK((rotation_from_euler_zyx(rpy) - R).norm() < 2e-15);
    }
  }
  SUBCASE("near the lock: the pitch keeps its digits (asin(−R₂₀) would lose half of them)") {
    for (double gap : {1e-4, 1e-7, 1e-9, 1e-12}) {
      for (double sign : {1.0, -1.0}) {
        CAPTURE(gap);
        CAPTURE(sign);
        const double pitch = sign * (kPi / 2 - gap);
        const Mat3 R = Rz(-2.0) * Ry(pitch) * Rx(0.7);
        const Vec3 rpy = euler_zyx_from_rotation(R);
        CHECK(std::abs(rpy[1] - pitch) < 1e-15);
        CHECK((rotation_from_euler_zyx(rpy) - R).norm() < 2e-15);
      }
    }
  }
  SUBCASE("at the lock exactly: roll 0, yaw carries the turn, R reproduced") {
    Mat3 up, down;  // Ry(±π/2) with exact zeros
    up << 0, 0, 1, 0, 1, 0, -1, 0, 0;
    down << 0, 0, -1, 0, 1, 0, 1, 0, 0;
    const double roll = 0.7, yaw = -2.0;
    const Mat3 R_up = Rz(yaw) * up * Rx(roll), R_down = Rz(yaw) * down * Rx(roll);
    const Vec3 a = euler_zyx_from_rotation(R_up), b = euler_zyx_from_rotation(R_down);
    CHECK(a[0] == 0.0);
    CHECK(a[1] == doctest::Approx(kPi / 2).epsilon(1e-16));
    CHECK(angle_gap(a[2], yaw - roll) < 1e-15);  // at +π/2 only ψ − φ shows
    CHECK(b[0] == 0.0);
    CHECK(b[1] == doctest::Approx(-kPi / 2).epsilon(1e-16));
    CHECK(angle_gap(b[2], yaw + roll) < 1e-15);  // at −π/2 only ψ + φ
    CHECK((rotation_from_euler_zyx(a) - R_up).norm() < 1e-15);
    CHECK((rotation_from_euler_zyx(b) - R_down).norm() < 1e-15);
  }
}

TEST_CASE("rotation toolkit: the angle of a rotation matrix is accurate near 0 and near π") {
  const Vec3 n = Vec3(-1.0, 0.4, 2.0).normalized();
  for (double a : {0.0, 1e-12, 1e-7, 1.0, kPi - 1e-7, kPi - 1e-12, kPi}) {
    CAPTURE(a);
    const Mat3 R = Eigen::AngleAxisd(a, n).toRotationMatrix();
    CHECK(std::abs(rotation_angle(R) - a) <= 1e-15 * std::max(a, 1.0));
    CHECK((rotation_sine_vector(R) - std::sin(a) * n).norm() < 1e-15);
  }
}
