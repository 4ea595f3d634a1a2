#include "dynamics/joint_forces.h"

#include <algorithm>
#include <cmath>

namespace uwsim::dynamics {

double applied_effort(const dynamics::Joint& joint, const actuation::JointActuation& actuation) {
  return std::clamp(joint.effort + actuation.drive, -joint.max_effort, joint.max_effort);
}

double regularised_friction(double coulomb, double qd, double D, double omega) {
  return coulomb * std::tanh(qd / std::max(kFrictionSpeedScale, coulomb / (D * omega)));
}

double actuator_passive_force(const actuation::JointActuation& a, double qd, double D, double omega) {
  double force = -a.viscous * qd;
  if (a.coulomb > 0.0) force -= regularised_friction(a.coulomb, qd, D, omega);
  return force;
}

double passive_joint_force(const dynamics::Joint& joint, double qd, double D, double omega) {
  if (joint.friction == 0.0) return -joint.damping * qd;
  return -joint.damping * qd - regularised_friction(joint.friction, qd, D, omega);
}

double limit_force(const dynamics::Joint& joint, double q, double qd, double D, double omega) {
  if (q > joint.upper) return std::min(0.0, D * (-omega * omega * (q - joint.upper) - 2.0 * omega * qd));
  if (q < joint.lower) return std::max(0.0, D * (-omega * omega * (q - joint.lower) - 2.0 * omega * qd));
  return 0.0;
}

}  // namespace uwsim::dynamics
