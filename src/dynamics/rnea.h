// Inverse dynamics by the recursive Newton–Euler algorithm, fluid terms included: the joint
// forces (and free-root wrenches) that give the generalized accelerations v̇.
// References: [RBDA] Table 5.1; [LeonGonzalez2024] eq. 15–32 (with link hydrodynamics, eq. 33–37).
//   forward:  A = ᴮX_P A_P + c + S q̈   (free root: A = v̇_root; world: A_P = 0)
//   f = M A − F     (M = M_RB + M_A; F the body forces of compute_kinematics_and_forces)
//   backward: τ = Sᵀ f (free root: the whole 6-vector f), f_P += ᴾXᵀ f
// τ here is everything the joint must transmit along S (effort + friction + damping + limit in
// the articulated-body algorithm's terms). With v̇ = 0 it gives the bias h(q, v) used for
// feed-forward control (paper 004 eq. 4).
// A motor actuator adds armature·q̈ + its velocity-product bias to its joint (joint_actuation.h).
// Preconditions: compute_kinematics_and_forces(model, t, x, ws). The first form allocates its
// result; the second writes into the caller's storage and allocates nothing (controllers).
#pragma once

#include <Eigen/Core>

#include "dynamics/workspace.h"

namespace uwsim::dynamics {

// v̇ and the result have Model::nv entries, ordered as the state's v block.
Eigen::VectorXd inverse_dynamics(const dynamics::Model& model, Workspace& ws, const Eigen::VectorXd& vdot);
// The same with v̇ = `vdot` (nv entries, or null for v̇ = 0: the bias h(q, v)), `f` scratch of
// model.bodies.size() entries and the result in `tau` (nv entries).
void inverse_dynamics(const dynamics::Model& model, Workspace& ws, const double* vdot, Vec6* f, double* tau);

}  // namespace uwsim::dynamics
