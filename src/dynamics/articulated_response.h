// How a tree's accelerations change under extra wrenches, reusing the articulated inertias of
// the last articulated-body pass: the operational-space response M⁻¹ Jᵀ f, O(n) per call
// without forming or factoring the mass matrix. The connectors use it to build A·M⁻¹·Aᵀ and
// to apply their forces [RBDA] Sec. 7.3 (the bias pass of Table 7.1 with c = 0, τ = 0).
//   pass 2, leaves → root:  pa = −f_extra,  u = −Sᵀ pa,  pa_parent += ᴾXᵀ (pa + U u / D)
//   pass 3, root → leaves:  free root: dA = −IA⁻¹ pa;  others: dA' = ᴮX_P dA_P,
//                            dq̈ = (u − Uᵀ dA') / D,  dA = dA' + S dq̈
// Exact because the articulated-body accelerations are affine in the applied wrenches.
// Preconditions: articulated_body_accelerations ran on this state (IA of the root, U, D).
// Reads f_extra of the tree's bodies, writes their dA and dqdd.
#pragma once

#include "dynamics/workspace.h"

namespace uwsim::dynamics {

void articulated_response(const dynamics::Model& model, int root, Workspace& ws);

}  // namespace uwsim::dynamics
