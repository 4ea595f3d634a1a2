// Builds the model's input channels and thrusters, resolves the channel references of
// thrusters, forces and joint actuators, and appends the actuator states to the state vector
// (model.h). Called by build_model once bodies, joints and forces are in place.
#pragma once

#include "model/model.h"
#include "scenario/spec.h"

namespace uwsim::model {

void build_actuation(const scenario::Scenario& scenario, Model& model);

}  // namespace uwsim::model
