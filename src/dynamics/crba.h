// The joint-space mass matrix H(q) by the composite-rigid-body algorithm, added mass included.
// References: [RBDA] Table 6.2.
//   composite inertias, leaves → roots:  Ic = M,  Ic_P += ᴾXᵀ Ic ᴾX
//   H_ii = Sᵢᵀ Ic_i Sᵢ;  F = Ic_i Sᵢ carried to each ancestor j: H_ij = Fᵀ Sⱼ
// (a free root's S is the 6×6 identity; fixed joints contribute no rows).
// Together with inverse_dynamics (v̇ = 0 gives h) it is the independent check of the
// articulated-body algorithm: q̈ = H⁻¹ (τ − h).
// A motor actuator's armature (reflected rotor inertia, joint_actuation.h) is added to its
// joint's diagonal entry, as the articulated-body algorithm adds it to D.
// Preconditions: compute_kinematics (poses) in the workspace.
#pragma once

#include <Eigen/Core>

#include "dynamics/workspace.h"

namespace uwsim::dynamics {

Eigen::MatrixXd mass_matrix(const dynamics::Model& model, const Workspace& ws);

// The inertia of the tree rooted at body `root` as one rigid body at its current shape: the sum
// of every body's M_RB + M_A carried to the root's frame, Ic_root = Σ ᴮX_rootᵀ M_B ᴮX_root
// (spatial order, about the root's origin, in its frame). For a free root it is the upper-left
// 6×6 block of H ([SverdrupThygeson2018] eq. 22, M₁₁). O(bodies of the tree), no allocation.
Mat6 composite_inertia(const dynamics::Model& model, const Workspace& ws, int root);

}  // namespace uwsim::dynamics
