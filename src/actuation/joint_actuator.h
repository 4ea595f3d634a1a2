// What drives a joint besides its constant `effort`. The closed set of actuator types grows
// here: `effort` (the command is the torque or force itself). Gear motors and linear
// actuators ([Leborne2018] eq. 2–6) add their kinds, parameters and states to this struct
// and their physics beside it.
#pragma once

#include "inputs/input_set.h"

namespace uwsim::actuation {

enum class JointActuatorKind { none, effort };

struct JointActuator {
  JointActuatorKind kind = JointActuatorKind::none;
  inputs::CommandSource command;  // effort: N m (revolute) or N (prismatic)

  // The effort the actuator asks for (before the joint's effort limit).
  double effort(const double* channel_values) const {
    return kind == JointActuatorKind::effort ? command.value(channel_values) : 0.0;
  }
};

}  // namespace uwsim::actuation
