// The validated `inputs`, `thrusters` and joint `actuator` entries of a scenario. Channel and
// body references are still names here; the model builder resolves them to indices.
#pragma once

#include <string>
#include <vector>

#include "actuation/joint_actuator.h"
#include "actuation/thruster.h"
#include "inputs/channel.h"

namespace uwsim::model {

// A command given as a channel name or as a constant number.
struct CommandSpec {
  std::string channel;    // empty: the constant
  double constant = 0.0;
};

struct InputSpec {
  inputs::ChannelParameters channel;
  std::vector<std::string> operand_names; // sum, scale
};

struct ThrusterSpec {
  actuation::ThrusterParameters thruster;
  std::string body;
  CommandSpec input;
};

struct JointActuatorSpec {
  actuation::JointActuatorKind kind = actuation::JointActuatorKind::none;
  CommandSpec input;
  bool has_input = false;           // a motor without `input` is driven by a pid
  actuation::GearMotor motor;       // gear_motor
  actuation::LinearActuator linear; // linear_actuator
  // Where the actuator was written (its YAML mark and key path), for the check that a motor
  // without `input` has a pid (read_controllers.cpp).
  int mark_pos = -1, mark_line = -1, mark_column = -1;
  std::string path;
};

}  // namespace uwsim::model
