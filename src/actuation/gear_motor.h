// A DC gear motor driving a joint directly: current → joint torque, and the reflected inertia.
// References: [Leborne2018] eq. 2.
//
// Motor side (motor angle q_m = N·q, ideal gearbox of ratio N, torque N·τ at the joint):
//   J_m q̈_m = k_T i − f_v q̇_m − f_s sign(q̇_m) − τ_joint / N
// so in the joint coordinate
//   τ_joint = N k_T i − N² J_m q̈ − N² f_v q̇ − N f_s sign(q̇)                          (1)
// i.e. drive N k_T i, armature N² J_m (added to the joint's inertia D, see joint_actuation.h),
// viscous N² f_v, Coulomb N f_s. [Leborne2018] eq. 2 writes τ_m = k_T i − r²(J_m q̈_m + f_vm q̇_m
// + f_sm sign q̇_m) with k_T referred to the gearbox output and the rates on the joint side; it
// is (1) with k_T,paper = N k_T, r = N and f_sm = f_s / N (dry friction reflects with N, not N²).
// Not modelled: gearbox efficiency and backlash, motor electrical dynamics (the current is the
// input), current limits (saturate the command upstream).
#pragma once

#include "actuation/joint_actuation.h"

namespace uwsim::actuation {

struct GearMotor {
  double torque_constant = 0.0;  // k_T, N m/A at the motor shaft
  double gear_ratio = 1.0;       // N = motor turns per joint turn, > 0
  double rotor_inertia = 0.0;    // J_m, kg m² on the motor shaft (gearbox input side included)
  double viscous_friction = 0.0; // f_v, N m s/rad on the motor shaft
  double dry_friction = 0.0;     // f_s, N m on the motor shaft
};

// (1) for the current i (A).
inline JointActuation gear_motor_actuation(const GearMotor& m, double current) {
  const double N = m.gear_ratio;
  JointActuation a;
  a.drive = N * m.torque_constant * current;
  a.armature = N * N * m.rotor_inertia;
  a.viscous = N * N * m.viscous_friction;
  a.coulomb = N * m.dry_friction;
  return a;
}

inline double gear_motor_speed(const GearMotor& m, double qd) { return m.gear_ratio * qd; }  // q̇_m

}  // namespace uwsim::actuation
