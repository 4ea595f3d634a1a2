// Builds the model's input channels and thrusters, resolves the channel references of
// thrusters, forces and joint actuators, and appends the actuator states to the state vector
// (model.h). Called by build_model once bodies, joints and forces are in place.
#pragma once

#include "dynamics/model.h"
#include "model/spec.h"

namespace uwsim::model {

void build_actuation(const Spec& scenario, dynamics::Model& model);

// A command (a number or a channel by name) resolved against the model's channels; throws
// std::invalid_argument for an unknown channel.
inputs::CommandSource command_source(const inputs::InputSet& inputs, const CommandSpec& spec);

}  // namespace uwsim::model
