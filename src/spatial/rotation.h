// The rotation toolkit: every conversion between ZYX Euler angles (roll, pitch, yaw), rotation
// matrices, unit quaternions and rotation vectors, in one place. Attitudes are unit quaternions
// q_WB = [w, x, y, z] (body → NED), stored as 4 raw doubles in the state vector.
// References: [Nielsen2018] eq. 2–5 (R_b^n and T_q); [Fossen2011] eq. 2.18 (ZYX Euler angles),
// eq. 2.28–2.29 (Euler-angle rates, here with the angular velocity in NED axes), Sec. 2.2.2
// (unit quaternions).
//
// One small-angle rule (kSmallHalfAngle) for the rotation vector φ = θ·n and its quaternion
// q = [cos(θ/2), sin(θ/2)·n]. Both maps divide by a quantity that vanishes with the angle:
//   Log: φ = (2·atan2(s, w)/s)·v,  s = ‖v‖ = sin(θ/2),   2·atan2(s, w)/s = (2/w)(1 − s²/(3w²) + …)
//   Exp: v = (sin(θ/2)/θ)·φ,                             sin(θ/2)/θ = ½(1 − (θ/2)²/6 + …)
// Below s = 1e-8 (Log) and θ/2 = 1e-8 (Exp) they take the series' first term, whose relative
// error is then at most 1e-16/3 and 1e-16/6, under half the unit round-off of a double
// (2⁻⁵³ ≈ 1.1e-16): the series rounds to what the exact formula would, so the maps are
// continuous across the threshold to round-off. Above it the exact formulas are accurate to a
// few ulps (atan2, sin and a division); below it, ‖φ‖² could underflow for tiny φ.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>

#include "spatial/spatial.h"

namespace uwsim::spatial {

using Quat = Eigen::Vector4d;  // [w, x, y, z]

inline constexpr double kSmallHalfAngle = 1e-8;  // see the header comment

// Rotation by `angle` about a unit axis (Rodrigues: I + sin θ K + (1 − cos θ) K², K = S(axis)).
inline Mat3 rotation_about(const Vec3& unit_axis, double angle) {
  const Mat3 K = skew(unit_axis);
  return Mat3::Identity() + std::sin(angle) * K + (1.0 - std::cos(angle)) * K * K;
}

// R = Rz(ψ)·Ry(θ)·Rx(φ) of rpy = (φ, θ, ψ), body → NED   [Fossen2011 eq. 2.18]
inline Mat3 rotation_from_euler_zyx(const Vec3& rpy) {
  const double cr = std::cos(rpy[0]), sr = std::sin(rpy[0]);
  const double cp = std::cos(rpy[1]), sp = std::sin(rpy[1]);
  const double cy = std::cos(rpy[2]), sy = std::sin(rpy[2]);
  Mat3 R;
  R << cy * cp, -sy * cr + cy * sp * sr, sy * sr + cy * cr * sp,  //
      sy * cp, cy * cr + sr * sp * sy, -cy * sr + sp * sy * cr,   //
      -sp, cp * sr, cp * cr;
  return R;
}

// Roll, pitch, yaw of R = Rz(ψ)·Ry(θ)·Rx(φ): φ ∈ (−π, π], θ ∈ [−π/2, π/2], ψ ∈ (−π, π].
// Roll first, from the last row (R21, R22) = cos θ·(sin φ, cos φ); then M = R·Rx(φ)ᵀ = Rz(ψ)·Ry(θ),
// with cos φ and sin φ taken from that row itself, gives pitch and yaw from entries of order
// one: M22 = ‖(R21, R22)‖ = cos θ and (M01, M11) = (−sin ψ, cos ψ). So errors in φ where cos θ
// is small are taken up by ψ and R is reproduced to round-off at every pitch (asin(−R20) would
// lose half the digits of θ near ±π/2). At θ = ±π/2 exactly (gimbal lock) R21 = R22 = 0: φ = 0
// and ψ carries the whole turn about the vertical. (The + 0.0 turns a −0 into +0, so that an
// angle of exactly ±π reads π.)
inline Vec3 euler_zyx_from_rotation(const Mat3& R_WB) {
  const double R21 = R_WB(2, 1) + 0.0, R22 = R_WB(2, 2) + 0.0;
  const double cos_pitch = std::hypot(R21, R22);
  const double cr = cos_pitch > 0.0 ? R22 / cos_pitch : 1.0, sr = cos_pitch > 0.0 ? R21 / cos_pitch : 0.0;
  const double minus_m01 = R_WB(0, 2) * sr - R_WB(0, 1) * cr + 0.0, m11 = R_WB(1, 1) * cr - R_WB(1, 2) * sr + 0.0;
  return Vec3(std::atan2(R21, R22), std::atan2(-R_WB(2, 0), cos_pitch), std::atan2(minus_m01, m11));
}

// The quaternion of R = Rz(ψ)·Ry(θ)·Rx(φ), w ≥ 0 (the product of the three half-angle
// quaternions, written out).
inline Quat quaternion_from_euler_zyx(double roll, double pitch, double yaw) {
  const double cr = std::cos(roll / 2), sr = std::sin(roll / 2);
  const double cp = std::cos(pitch / 2), sp = std::sin(pitch / 2);
  const double cy = std::cos(yaw / 2), sy = std::sin(yaw / 2);
  Quat q;
  q << cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy,
      cr * cp * sy - sr * sp * cy;
  return q[0] < 0 ? Quat(-q) : q;
}

// R_WB maps body coordinates to NED, for a unit quaternion   [Nielsen2018 eq. 2]
inline Mat3 rotation_from_quaternion(const Quat& q) {
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  Mat3 R;
  R << 1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),  //
      2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),   //
      2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y);
  return R;
}

// The unit quaternion [w, x, y, z] of a rotation matrix (Eigen's conversion, in this order; of
// q and −q, whichever Eigen gives: callers that need a side choose it).
inline Quat quaternion_from_rotation(const Mat3& R) {
  const Eigen::Quaterniond q(R);
  return Quat(q.w(), q.x(), q.y(), q.z());
}

// a ⊗ b (Hamilton product): the rotation b, then a (R(a ⊗ b) = R(a)·R(b)).
inline Quat quaternion_product(const Quat& a, const Quat& b) {
  Quat c;
  c << a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
      a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
      a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
      a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  return c;
}

// q* = [w, −v]: the inverse rotation of a unit quaternion.
inline Quat quaternion_conjugate(const Quat& q) { return Quat(q[0], -q[1], -q[2], -q[3]); }

// Log: the rotation vector φ = θ·n of q, on the short side (q and −q are one rotation; the one
// with w ≥ 0 is taken), so θ = 2·atan2(‖v‖, w) ∈ [0, π]. At θ = π (w = 0) the axis is that of
// v: a rotation vector must jump somewhere on SO(3), and this is the place. Scale-free: q need
// not be normalised. Small angles: see kSmallHalfAngle.
inline Vec3 rotation_vector_from_quaternion(const Quat& q) {
  const double sign = q[0] < 0.0 ? -1.0 : 1.0;
  const double w = sign * q[0];
  const Vec3 v = sign * q.tail<3>();
  const double s = v.norm();
  const double factor = s < kSmallHalfAngle * std::abs(w) ? 2.0 / w : 2.0 * std::atan2(s, w) / s;
  return factor * v;
}

// Exp: the unit quaternion [cos(θ/2), sin(θ/2)·n] of the rotation vector φ = θ·n (w ≥ 0 for
// θ ≤ π). Small angles: see kSmallHalfAngle.
inline Quat quaternion_from_rotation_vector(const Vec3& phi) {
  const double angle = phi.norm(), half = 0.5 * angle;
  const double factor = half < kSmallHalfAngle ? 0.5 : std::sin(half) / angle;
  return Quat(std::cos(half), factor * phi.x(), factor * phi.y(), factor * phi.z());
}

// ½ vee(R − Rᵀ) = sin θ·n of a rotation by θ about the unit axis n.
inline Vec3 rotation_sine_vector(const Mat3& R) {
  return 0.5 * Vec3(R(2, 1) - R(1, 2), R(0, 2) - R(2, 0), R(1, 0) - R(0, 1));
}

// The angle θ ∈ [0, π] of a rotation matrix, atan2(‖sin θ·n‖, (tr R − 1)/2): accurate at every
// angle (acos of the trace alone loses half the digits near 0 and π).
inline double rotation_angle(const Mat3& R) {
  return std::atan2(rotation_sine_vector(R).norm(), 0.5 * (R.trace() - 1.0));
}

// q̇ = T_q(q) ω_WB_B = ½ q ⊗ [0, ω]   [Nielsen2018 eq. 3–4]
inline Quat quaternion_rate(const Quat& q, const Vec3& w_WB_B) {
  const double p = w_WB_B.x(), qq = w_WB_B.y(), r = w_WB_B.z();
  Quat qdot;
  qdot << -q[1] * p - q[2] * qq - q[3] * r,  //
      q[0] * p - q[3] * qq + q[2] * r,       //
      q[3] * p + q[0] * qq - q[1] * r,       //
      -q[2] * p + q[1] * qq + q[0] * r;
  return 0.5 * qdot;
}

// The angular velocity in NED of a body whose ZYX angles rpy = (φ, θ, ψ) change at rpy_rate:
//   ω_W = ψ̇·e_z + θ̇·Rz(ψ)e_y + φ̇·Rz(ψ)Ry(θ)e_x      (each rate about its own axis)
// [Fossen2011] eq. 2.28 gives the same map in body axes; this is R_WB times it.
inline Vec3 angular_velocity_from_euler_zyx_rates(const Vec3& rpy, const Vec3& rpy_rate) {
  const double cp = std::cos(rpy[1]), sp = std::sin(rpy[1]);
  const double cy = std::cos(rpy[2]), sy = std::sin(rpy[2]);
  return rpy_rate[0] * Vec3(cy * cp, sy * cp, -sp) + rpy_rate[1] * Vec3(-sy, cy, 0.0) +
         rpy_rate[2] * Vec3::UnitZ();
}

// The inverse: (φ̇, θ̇, ψ̇) from ω_W at the angles rpy. Singular at θ = ±90° (gimbal lock),
// where roll and yaw turn about the same axis; there φ̇ is taken as 0 and ψ̇ carries the turn.
inline Vec3 euler_zyx_rates(const Vec3& rpy, const Vec3& w_W) {
  const double cp = std::cos(rpy[1]), sp = std::sin(rpy[1]);
  const double cy = std::cos(rpy[2]), sy = std::sin(rpy[2]);
  const double horizontal = cy * w_W.x() + sy * w_W.y();  // φ̇ cos θ
  const double roll_rate = std::abs(cp) > 1e-9 ? horizontal / cp : 0.0;
  return Vec3(roll_rate, -sy * w_W.x() + cy * w_W.y(), w_W.z() + sp * roll_rate);
}

}  // namespace uwsim::spatial
