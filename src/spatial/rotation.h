// Attitude: unit quaternions q_WB = [w, x, y, z] (body → NED) stored as 4 raw doubles in the
// state vector, and the rotation matrices and Euler angles derived from them.
// References: [Nielsen2018] eq. 2–5 (R_b^n and T_q); [Fossen2011] eq. 2.18 (ZYX Euler angles),
// eq. 2.28–2.29 (Euler-angle rates, here with the angular velocity in NED axes).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "spatial/spatial.h"

namespace uwsim::spatial {

using Quat = Eigen::Vector4d;  // [w, x, y, z]

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

// Roll, pitch, yaw (ZYX: R = Rz(ψ)·Ry(θ)·Rx(φ))   [Fossen2011 eq. 2.18]
inline Vec3 euler_zyx_from_rotation(const Mat3& R_WB) {
  const double sin_pitch = std::clamp(-R_WB(2, 0), -1.0, 1.0);
  return Vec3(std::atan2(R_WB(2, 1), R_WB(2, 2)), std::asin(sin_pitch),
              std::atan2(R_WB(1, 0), R_WB(0, 0)));
}

// The quaternion of R = Rz(yaw)·Ry(pitch)·Rx(roll), w ≥ 0.
inline Quat quaternion_from_euler_zyx(double roll, double pitch, double yaw) {
  const double cr = std::cos(roll / 2), sr = std::sin(roll / 2);
  const double cp = std::cos(pitch / 2), sp = std::sin(pitch / 2);
  const double cy = std::cos(yaw / 2), sy = std::sin(yaw / 2);
  Quat q;
  q << cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy,
      cr * cp * sy - sr * sp * cy;
  return q[0] < 0 ? Quat(-q) : q;
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
