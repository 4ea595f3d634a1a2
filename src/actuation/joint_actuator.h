// What drives a joint besides its constant `effort`: a closed set of actuator types.
//   effort            the command is the torque (revolute) or force (prismatic) itself
//   gear_motor        the command is a motor current (A) through a gearbox ([Leborne2018] eq. 2;
//                     actuation/gear_motor.h)
//   linear_actuator   the command is a motor current (A) through a gearbox, a ball screw and a
//                     lever, on a revolute joint ([Leborne2018] eq. 2–7; actuation/linear_actuator.h)
// Each gives its JointActuation (joint_actuation.h): a drive torque, and for the motors the
// armature (reflected rotor and nut inertia) that the articulated-body algorithm adds to the
// joint's inertia D, a velocity-product bias, and reflected viscous and dry friction.
#pragma once

#include "actuation/gear_motor.h"
#include "actuation/joint_actuation.h"
#include "actuation/linear_actuator.h"
#include "inputs/input_set.h"

namespace uwsim::actuation {

enum class JointActuatorKind { none, effort, gear_motor, linear_actuator };

struct JointActuator {
  JointActuatorKind kind = JointActuatorKind::none;
  inputs::CommandSource command;  // effort: N m or N; gear_motor, linear_actuator: A
  GearMotor motor;                // gear_motor
  LinearActuator linear;          // linear_actuator

  bool has_motor() const { return kind == JointActuatorKind::gear_motor || kind == JointActuatorKind::linear_actuator; }

  // The actuator's contribution at joint position q and rate qd for the command value u.
  JointActuation actuation(double u, double q, double qd) const {
    switch (kind) {
      case JointActuatorKind::none: return {};
      case JointActuatorKind::effort: {
        JointActuation a;
        a.drive = u;
        return a;
      }
      case JointActuatorKind::gear_motor: return gear_motor_actuation(motor, u);
      case JointActuatorKind::linear_actuator: return linear_actuator_actuation(linear, u, q, qd);
    }
    return {};
  }
  JointActuation actuation(const double* channel_values, double q, double qd) const {
    return actuation(kind == JointActuatorKind::none ? 0.0 : command.value(channel_values), q, qd);
  }

  // Motor speed q̇_m (rad/s) and torque per ampere at the joint (N m/A), for the motors.
  double motor_speed(double q, double qd) const {
    return kind == JointActuatorKind::gear_motor ? gear_motor_speed(motor, qd)
           : kind == JointActuatorKind::linear_actuator ? linear_actuator_motor_speed(linear, q, qd)
                                                        : 0.0;
  }
  double torque_per_ampere(double q) const {
    return kind == JointActuatorKind::gear_motor ? motor.gear_ratio * motor.torque_constant
           : kind == JointActuatorKind::linear_actuator ? linear_actuator_ratio(linear, q) * linear.motor.torque_constant
                                                        : 1.0;
  }
};

}  // namespace uwsim::actuation
