// What a joint actuator contributes to its joint's equation of motion, in the joint coordinate q:
//   (D + armature)·q̈ = … + drive − bias − viscous·q̇ − coulomb·sign(q̇)                 (1)
// where D is the joint's articulated inertia from the dynamics. The armature (reflected rotor
// and nut inertia) belongs in the inertia that multiplies q̈ — added to D inside the
// articulated-body algorithm, never applied as a torque lagged by one step (the same argument
// as for added mass, [Kolano] eq. 2–3). The dynamics applies the rest: drive in the joint's
// effort, bias in the joint's bias, the friction terms through dynamics/joint_forces.h (dry
// friction regularised there, as the joint's own).
// bias is the velocity-product torque of a configuration-dependent transmission
// (k1·k1'·J·q̇², [Leborne2018] eq. 7's k2 term); 0 for a constant gear ratio.
// Units: N m, kg m², N m s/rad for a revolute joint (N, kg, N s/m for a prismatic one).
#pragma once

namespace uwsim::actuation {

struct JointActuation {
  double drive = 0.0;     // torque of the motor current at the joint
  double armature = 0.0;  // reflected inertia, to add to D
  double bias = 0.0;      // velocity-product torque (subtracted)
  double viscous = 0.0;   // reflected viscous friction coefficient
  double coulomb = 0.0;   // reflected dry friction magnitude, ≥ 0
};

}  // namespace uwsim::actuation
