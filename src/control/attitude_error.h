// Attitude error between two unit quaternions as a rotation vector, singularity-free.
// References: [Fossen2011] Sec. 2.2.2 (unit quaternions); [Nielsen2018] eq. 2 (q = [w, x, y, z]).
//
// Given q_WB (current body → NED) and q_WBd (desired), the error rotation is
//   q_BBd = q_WB* ⊗ q_WBd                                               (1)
// (R_BBd = R_WBᵀ R_WBd: the turn that brings B onto Bd, expressed in B), taken on the short
// side (w ≥ 0), and the error vector is its rotation vector
//   e_θ_B = θ·n,  θ = 2·atan2(‖v‖, w) ∈ [0, π],  n = v / ‖v‖               (2)
// It has no gimbal lock (unlike Euler-angle differences, which paper 001 wraps with a MOD
// block) and, for a turn about one body axis, equals that angle exactly; for small errors its
// components are the roll, pitch and yaw errors. At θ = π (w = 0) the axis sign is that of v:
// a rotation-vector error must jump somewhere on SO(3), and this is the place.
#pragma once

#include <Eigen/Core>
#include <cmath>

#include "spatial/rotation.h"

namespace uwsim::control {

// a ⊗ b for quaternions [w, x, y, z] (Hamilton product).
inline spatial::Quat quaternion_product(const spatial::Quat& a, const spatial::Quat& b) {
  spatial::Quat c;
  c << a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
      a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
      a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
      a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  return c;
}

// e_θ_B of (2) for q_WB, q_WBd (normalised here).
inline spatial::Vec3 attitude_error(const spatial::Quat& q_WB, const spatial::Quat& q_WBd) {
  spatial::Quat q_BW = q_WB.normalized();
  q_BW.tail<3>() = -q_BW.tail<3>();
  spatial::Quat q_BBd = quaternion_product(q_BW, q_WBd.normalized());  // (1)
  if (q_BBd[0] < 0.0) q_BBd = -q_BBd;
  const spatial::Vec3 v = q_BBd.tail<3>();
  const double s = v.norm();
  // (2); below s = 1e-12, θ/s = 2/w to round-off.
  const double factor = s > 1e-12 ? 2.0 * std::atan2(s, q_BBd[0]) / s : 2.0 / q_BBd[0];
  return factor * v;
}

}  // namespace uwsim::control
