// An electric linear actuator on a revolute joint: gear motor → ball screw → lever.
// References: [Leborne2018] eq. 2–7.
//
// Chain: motor angle q_m = N·φ (gearbox), screw shaft φ, nut travel x = (p/2π)·φ = L − L_0,
// joint q through the lever (actuation/ball_screw_lever.h). In the joint coordinate:
//   k1(q)  = dq_m/dq = N (2π/p) L'(q),   k1' = N (2π/p) L''(q)      [eq. 7: q̇_m = k1 q̇]  (1)
//   drive   = k1 k_T i                                                [eq. 5–6: k^L i]      (2)
//   armature = k1² J_m + L'² m_BS                                     (rotor; nut)          (3)
//   bias    = (k1 k1' J_m + L' L'' m_BS) q̇²                           [eq. 7's k2 term]     (4)
//   viscous = k1² f_v + L'² f_vBS,   coulomb = |k1| f_s + |L'| f_sBS                      (5)
// (3)–(4) are Lagrange's equation for the kinetic energy ½(k1² J_m + L'² m_BS) q̇² of the rotor
// and nut, so the actuator exchanges no energy with the joint beyond drive and friction.
// [Leborne2018] eq. 6 writes the same terms in the screw-shaft acceleration with k_T referred to
// the gearbox output (k^L = (2π/p) k_T l2 sin α) and leaves the velocity-product term (4) to
// eq. 7; the expressions above are that model written in q (our k_T is on the motor shaft).
// J_m includes the screw's rotating parts referred to the motor shaft (the paper merges them
// the same way); m_BS is the translating mass (the paper's I_BS).
#pragma once

#include <cmath>
#include <numbers>

#include "actuation/ball_screw_lever.h"
#include "actuation/gear_motor.h"
#include "actuation/joint_actuation.h"

namespace uwsim::actuation {

struct LinearActuator {
  GearMotor motor;
  BallScrewLever lever;
  double nut_mass = 0.0;              // m_BS, kg
  double screw_viscous_friction = 0.0;  // f_vBS, N s/m
  double screw_dry_friction = 0.0;      // f_sBS, N
};

// (1): k1 = dq_m/dq at q.
inline double linear_actuator_ratio(const LinearActuator& a, double q) {
  return a.motor.gear_ratio * screw_ratio(a.lever, lever_state(a.lever, q));
}

// (2)–(5) for the current i at joint position q and rate qd.
inline JointActuation linear_actuator_actuation(const LinearActuator& a, double current, double q,
                                                double qd) {
  const LeverState st = lever_state(a.lever, q);
  const double to_motor = a.motor.gear_ratio * 2.0 * std::numbers::pi / a.lever.pitch;
  const double k1 = to_motor * st.dlength, dk1 = to_motor * st.d2length;  // (1)
  const GearMotor& m = a.motor;
  JointActuation out;
  out.drive = k1 * m.torque_constant * current;                                     // (2)
  out.armature = k1 * k1 * m.rotor_inertia + st.dlength * st.dlength * a.nut_mass;  // (3)
  out.bias = (k1 * dk1 * m.rotor_inertia + st.dlength * st.d2length * a.nut_mass) * qd * qd;  // (4)
  out.viscous = k1 * k1 * m.viscous_friction +
                st.dlength * st.dlength * a.screw_viscous_friction;                 // (5)
  out.coulomb = std::abs(k1) * m.dry_friction + std::abs(st.dlength) * a.screw_dry_friction;
  return out;
}

inline double linear_actuator_motor_speed(const LinearActuator& a, double q, double qd) {
  return linear_actuator_ratio(a, q) * qd;  // q̇_m = k1 q̇
}

}  // namespace uwsim::actuation
