// Featherstone's articulated-body algorithm over every tree, O(n) in the number of bodies, with
// each body's added mass inside its inertia (M = M_RB + M_A) and every velocity-dependent fluid
// force, weight, buoyancy and applied wrench in its bias force.
// References: [RBDA] Table 7.1 (fixed base), Sec. 9.2 (floating base); [Kolano] eq. 1–3.
//
// Preconditions: compute_kinematics and the body forces (F_Bo_B) are in the workspace.
//   pass 2, leaves → roots:  IA = M,  pA = −F  (bias: everything that is not M·a), then for a
//     joint with motion subspace S:  U = IA S, D = Sᵀ U, u = τ − Sᵀ pA,
//     IA_parent += ᴾXᵀ (IA − U Uᵀ/D) ᴾX,   pA_parent += ᴾXᵀ (pA + Ia c + U u/D)
//     and for a fixed joint the whole IA, pA (+ IA c) pass to the parent.
//   pass 3, roots → leaves:  free root: A = −IA⁻¹ pA;  others: A' = ᴮX_P A_P + c,
//     q̈ = (u − Uᵀ A')/D,  A = A' + S q̈.  A body whose parent is the world starts from A_P = 0
//     (gravity is a force here, not a base acceleration).
// τ includes the joint's effort, damping, friction and limit force (joint_forces.h).
#pragma once

#include "dynamics/workspace.h"

namespace uwsim::dynamics {

void articulated_body_accelerations(const dynamics::Model& model, const double* x, Workspace& ws);

}  // namespace uwsim::dynamics
