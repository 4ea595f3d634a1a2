// Forces a joint applies along its axis besides those of the bodies: the applied effort, viscous
// damping, Coulomb friction and the position limits.
//
// - Effort: the joint's `effort` plus its actuator's drive torque, saturated to ±max_effort.
// - A motor actuator's friction (actuation/joint_actuation.h): −viscous·q̇ and its dry friction
//   regularised as the joint's, with ε from its own magnitude. Its armature and velocity-product
//   bias are dynamics, not forces the joint transmits: the articulated-body algorithm adds the
//   armature to D and the bias to the joint's bias (as crba.h and rnea.h do).
// - Damping: −b·q̇.
// - Coulomb friction, regularised so the right-hand side stays smooth for the integrator:
//   −F_c·tanh(q̇ / ε): full friction above ~3ε, a steep viscous slope F_c/ε through zero.
//   ε = max(1e-3, F_c / (D·ω)) rad/s (m/s), with D the joint's articulated inertia and ω the
//   limit frequency below: the slope through zero is never stiffer than the joint limits, so
//   a light joint with strong friction is as easy to integrate as its stops (ω is a model
//   parameter, scenario key compliance.limit_frequency, never a function of the step). It does not hold a joint perfectly still against a load smaller than F_c; it
//   creeps at q̇ = ε·atanh(load / F_c).
// - Limits: beyond a limit by Δ, a critically damped spring on the joint's articulated inertia
//   D (from the articulated-body algorithm): τ = D·(−ω²·Δ − 2ω·q̇), ω = Model::limit_frequency,
//   and only ever pushing back into the range (no sticking). Stiffness scales with the inertia
//   the joint actually sees, so the limit is equally firm for a finger and a vehicle-sized link.
#pragma once

#include <algorithm>
#include <cmath>

#include "dynamics/model.h"

namespace uwsim::dynamics {

inline constexpr double kFrictionSpeedScale = 1e-3;  // the smallest ε above

// Defined here, inline: the articulated-body pass calls them for every joint at every
// evaluation, and they are a few instructions each.

// `actuation`: the joint's actuator at this evaluation (JointActuator::actuation).
inline double applied_effort(const dynamics::Joint& joint, const actuation::JointActuation& actuation) {
  return std::clamp(joint.effort + actuation.drive, -joint.max_effort, joint.max_effort);
}

// Dry friction of magnitude `coulomb` ≥ 0 at rate qd, regularised: coulomb·tanh(q̇/ε) with
// ε = max(kFrictionSpeedScale, coulomb/(D·ω)) (above). The one place both the joint's and a
// motor's dry friction are regularised.
inline double regularised_friction(double coulomb, double qd, double D, double omega) {
  return coulomb * std::tanh(qd / std::max(kFrictionSpeedScale, coulomb / (D * omega)));
}

inline double actuator_passive_force(const actuation::JointActuation& a, double qd, double D, double omega) {
  double force = -a.viscous * qd;
  if (a.coulomb > 0.0) force -= regularised_friction(a.coulomb, qd, D, omega);
  return force;
}

// Damping and friction; D and omega as for the limits.
inline double passive_joint_force(const dynamics::Joint& joint, double qd, double D, double omega) {
  if (joint.friction == 0.0) return -joint.damping * qd;
  return -joint.damping * qd - regularised_friction(joint.friction, qd, D, omega);
}

inline double limit_force(const dynamics::Joint& joint, double q, double qd, double D, double omega) {
  if (q > joint.upper) return std::min(0.0, D * (-omega * omega * (q - joint.upper) - 2.0 * omega * qd));
  if (q < joint.lower) return std::max(0.0, D * (-omega * omega * (q - joint.lower) - 2.0 * omega * qd));
  return 0.0;
}

}  // namespace uwsim::dynamics
