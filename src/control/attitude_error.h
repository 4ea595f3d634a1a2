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

#include "spatial/rotation.h"

namespace uwsim::control {

// e_θ_B of (2) for q_WB, q_WBd (normalised here).
inline spatial::Vec3 attitude_error(const spatial::Quat& q_WB, const spatial::Quat& q_WBd) {
  const spatial::Quat q_BBd =
      spatial::quaternion_product(spatial::quaternion_conjugate(q_WB.normalized()), q_WBd.normalized());  // (1)
  return spatial::rotation_vector_from_quaternion(q_BBd);  // (2), on the short side
}

}  // namespace uwsim::control
