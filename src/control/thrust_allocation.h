// Thrust allocation: a commanded body wrench τ_c → thrusts u by the pseudo-inverse or the damped
// pseudo-inverse of the configuration matrix, then saturation that keeps the wrench direction.
// References: [LeonGonzalez2024] Sec. 6.2 (u = T⁺τ, saturated); [SverdrupThygeson2018]
// eq. 36–37 (u = Tᵀ(TTᵀ + λ²I)⁻¹τ_c, λ = 0.1 in their simulations).
//
//   u* = Tᵀ(TTᵀ + λ²I)⁻¹ τ_c    (λ = 0: u* = T⁺τ_c, minimum-norm)                        (1)
//   s  = min(1, min_j limit_j / |u*_j|), limit_j = upper_j if u*_j > 0 else −lower_j       (2)
//   u  = s·u*                                                                           (3)
// Saturation scales all thrusts by one factor s ∈ [0, 1] (uniform scaling): the delivered
// wrench T u = s·T u* keeps the direction of the unsaturated one and shrinks its size, rather
// than clipping thrusters one by one, which would turn the wrench (e.g. add a yaw moment to a
// pure surge request). T u* = τ_c exactly when λ = 0 and τ_c is in the range of T; with λ > 0
// it deviates by O(λ²) (eq. 36's trade-off). Asymmetric limits (weaker reverse thrust) are
// allowed: lower_j ≤ 0 ≤ upper_j. u are thrust forces in N along each thruster's direction;
// turning them into commands (PWM, shaft speed) is the thruster model's inverse.
#pragma once

#include "control/thruster_configuration.h"
#include "spatial/spatial.h"

namespace uwsim::control {

struct AllocationResult {
  ColumnVector thrust;  // u, N
  double scale = 1.0;   // s of (2): 1 when nothing saturates
};

// (1) only.
ColumnVector allocate_unsaturated(const ConfigurationMatrix& T, const spatial::Vec6& tau_c_B,
                                  double lambda);

// (1)–(3). lower and upper have T.cols() entries with lower_j ≤ 0 ≤ upper_j.
AllocationResult allocate_thrust(const ConfigurationMatrix& T, const spatial::Vec6& tau_c_B,
                                 double lambda, const ColumnVector& lower,
                                 const ColumnVector& upper);

}  // namespace uwsim::control
