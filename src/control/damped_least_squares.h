// One damped-least-squares inverse-kinematics step: task-space error (or velocity) → joint
// velocities, for an end effector with an m×n Jacobian (m = 6 for position and attitude, 3 for
// position only; n ≤ kMaxColumns joints, a floating base's 6 included if the caller stacks them).
// References: [LeonGonzalez2024] Sec. 6.6 (inverse kinematics of arm 1); [SverdrupThygeson2018]
// eq. 28 (CLIK), eq. 31 (weighted, damped solution).
//
//   q̇ = W⁻¹Jᵀ(J W⁻¹ Jᵀ + λ²I)⁻¹ e                                                  (1)
// [SverdrupThygeson2018 eq. 31 with Q = I/λ²]; W = I gives the standard damped least squares
// Jᵀ(JJᵀ + λ²I)⁻¹e, and λ = 0 the (weighted) pseudo-inverse. W is diagonal, given by its
// inverse w_inv (0 locks a joint; larger entries move a joint more). For closed-loop IK
// (eq. 28) pass e = ẋ_d + Λ·x̃ (feed-forward task velocity plus gain × task error, the error
// for attitude e.g. control/attitude_error.h) and integrate q̇. ‖q̇‖ ≤ ‖e‖/(2λ)·max√w_inv.
// The rows of J and e must use the same ordering (e.g. [linear; angular] or [angular; linear]).
#pragma once

#include "control/damped_pseudo_inverse.h"

namespace uwsim::control {

using JointVector = ColumnVector;

JointVector damped_least_squares_step(const WideMatrix<6>& J, const Eigen::Matrix<double, 6, 1>& e,
                                      double lambda);
JointVector damped_least_squares_step(const WideMatrix<3>& J, const Eigen::Vector3d& e,
                                      double lambda);
// (1) with W⁻¹ = diag(w_inv), w_inv ≥ 0.
JointVector damped_least_squares_step(const WideMatrix<6>& J, const Eigen::Matrix<double, 6, 1>& e,
                                      double lambda, const JointVector& w_inv);
JointVector damped_least_squares_step(const WideMatrix<3>& J, const Eigen::Vector3d& e,
                                      double lambda, const JointVector& w_inv);

}  // namespace uwsim::control
