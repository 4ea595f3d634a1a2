// Work-mode kinematic control of a floating-base manipulator (the underwater swimming
// manipulator): end-effector pose regulation by singularity-robust multiple task priority over
// the base and the joints, with the base position as the secondary task.
// References: [SverdrupThygeson2018] eq. 18 (geometric Jacobian J_g,e), eq. 29–32 (weighted and
// damped pseudo-inverses, task priority), eq. 42 (work mode).
//
// Velocities ζ = [v_b; ω_b; q̇] (6 + n): the base's body-fixed velocity in Fossen's order
// [u v w p q r] (the paper's V^b_Ib = [v; ω]), then the joint rates. E is the end-effector frame:
// origin at the point P of the last link, that link's axes. B is the base body, W is NED.
//
//   V_E = J ζ,  J = J_g,e(q) (6 × (6 + n), rows [v_E; ω_E] in E)                        (1)
//     base columns   R_BEᵀ [I, −S(p_BE); 0, I]                (= Ad⁻¹ of g_be, eq. 11, 18)
//     joint k        R_BEᵀ [R_BK v_k + (R_BK ω_k) × (p_BE − p_BK); R_BK ω_k]
//   with (ω_k; v_k) the joint's motion axis in its child frame K and X_BK = {R_BK, p_BK}.
//   ẽ_e = [R_WEᵀ (p_d − p_E); ε̃],  ε̃ the vector part of q̃ = q_WE* ⊗ q_WEd taken with w̃ ≥ 0 (2)
//   ζ_r = J†(V_d + k_e ∘ ẽ_e) + (I − J†J) J_b⁺ (k_b ∘ p̃_b)                            (3)
//     J† = W Jᵀ(J W Jᵀ + λ²I)⁻¹   (eq. 31 with Q = I/λ², and W as explained below)
//     J_b = [R_WB 0₃ₓ₍ₙ₊₃₎], so J_b⁺ = J_bᵀ and J_b⁺ (k_b ∘ p̃_b) = [R_WBᵀ k_b ∘ (p_bd − p_b); 0; 0]
//
// W: eq. 29 defines J† = W⁻¹Jᵀ(JW⁻¹Jᵀ)⁻¹ with W the cost weight, but Sec. VI-C lists
// W = diag(0.3, 0.3, 0.3, 0, 0.3, 0.3, 0.7, 0.7, 1, …) and says the zero excludes base roll and
// the larger joint entries make the joints preferred. Both statements hold only if the listed
// matrix is the one that multiplies Jᵀ, i.e. the paper's W⁻¹ (with the literal W⁻¹ of eq. 29 a
// zero entry has no inverse, and the joints would be penalised). So `weights` w here are the
// diagonal of that matrix: 0 locks a coordinate, larger moves it more (damped_least_squares.h).
// With λ = 0, J J† = I and the secondary term cannot move the end effector: J (I − J†J) = 0.
// Not done: set-based tasks and joint-limit avoidance (the integrated joint references are
// clamped to the limits by the caller instead).
#pragma once

#include "control/damped_least_squares.h"
#include "spatial/rotation.h"
#include "spatial/transform.h"

namespace uwsim::control {

using TaskJacobian = WideMatrix<6>;  // 6 × (6 + n)

// (1). X_BK[k] and S_K[k] for the n joints of the chain from the base to E, base first.
TaskJacobian end_effector_jacobian(const spatial::Pose& X_BE, const spatial::Pose* X_BK,
                                   const spatial::Vec6* S_K, int n);

// (2): [position error in E; vector part of the attitude error quaternion].
spatial::Vec6 end_effector_error(const spatial::Pose& X_WE, const spatial::Vec3& p_WEd_W,
                                 const spatial::Quat& q_WEd);

// (3) with primary = V_d + k_e ∘ ẽ_e and base_velocity_B = R_WBᵀ k_b ∘ p̃_b; w has 6 + n entries.
ColumnVector task_priority_velocity(const TaskJacobian& J, const spatial::Vec6& primary,
                                    const spatial::Vec3& base_velocity_B, const ColumnVector& w,
                                    double lambda);

}  // namespace uwsim::control
