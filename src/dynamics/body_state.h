// The per-body scratch of one derivative evaluation (see workspace.h).
// Symbols of the articulated-body algorithm follow [RBDA] Table 7.1: IA articulated inertia,
// pA articulated bias force, U = IA·S, D = Sᵀ·U, u = τ − Sᵀ·pA, c velocity-product acceleration.
#pragma once

#include "dynamics/hydrodynamics.h"
#include "spatial/rotation.h"

namespace uwsim::dynamics {

using spatial::Mat6;
using spatial::Pose;

struct BodyState {
  Pose X_PB;             // pose in the parent body (or the world, for roots)
  Pose X_WB;             // pose in the world
  spatial::Quat q_WB_unit;  // a free body's attitude, normalised once per evaluation (kinematics)
  BodyMotion motion;     // R_WB, V_WB_B, velocity relative to the water
  Vec6 c = Vec6::Zero(); // V × S·q̇
  Vec6 F_Bo_B;           // all non-inertial wrenches on the body about Bo (fluid, weight, applied)
  // Upper triangle only. After pass 2: Ia (reduced) for a one-dof body, M_B + the children's
  // shares for a free root with children, unset for a fixed body without children.
  Mat6 IA;
  bool IA_started = false;  // a child has joined this pass (articulated_body.cpp)
  Vec6 pA;
  Vec6 U;
  double D = 0.0, u = 0.0;
  Vec6 U_over_D;         // U/D and u/D, for the rank-one update and pass 3
  double u_over_D = 0.0;
  double tau = 0.0;      // applied joint effort (after saturation), without friction and limits
  double tau_total = 0.0;  // everything the joint transmits along S: effort, damping, friction, limit
  double qdd = 0.0;      // joint acceleration
  double armature = 0.0;       // a motor actuator's reflected inertia at q (kinematics), for crba/rnea
  double actuator_bias = 0.0;  // its velocity-product torque at (q, q̇)
  Vec6 A_WB_B = Vec6::Zero();  // spatial acceleration, body coordinates (= ν̇ for a free root)
  // articulated_response.h: an extra wrench on the body and the accelerations it causes
  Vec6 f_extra = Vec6::Zero();
  Vec6 pA_extra = Vec6::Zero();
  double u_extra = 0.0;
  Vec6 dA = Vec6::Zero();
  double dqdd = 0.0;
};

}  // namespace uwsim::dynamics
