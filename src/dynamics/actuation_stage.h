// The actuation stages of a derivative evaluation (pipeline.h):
//   inputs      every command channel at the evaluation time (inputs/channel.h)
//   thrusters   each thruster's command → thrust, added to its body's wrench about Bo
//               ([Nielsen2018] eq. 9: F = t·τ at p, plus the reaction torque), after the
//               fluid forces of the body-forces stage
//   controllers the held wrench of each pose_pd or base_control that drives its body directly (no allocation
//               takes it), [X Y Z K M N] about Bo in B, added to that body (dynamics/controller.h)
//   rates       d/dt of the actuator states (thruster spin-up lags) into xdot
// Joint actuators read the channels in the articulated-body stage (joint_forces.h).
#pragma once

#include "dynamics/workspace.h"

namespace uwsim::dynamics {

void sample_inputs(const dynamics::Model& model, double t, double schedule_time, Workspace& ws);
// Needs the kinematics (the bodies' velocities relative to the water) and the inputs.
void add_thruster_wrenches(const dynamics::Model& model, const double* x, Workspace& ws);
void add_controller_wrenches(const dynamics::Model& model, Workspace& ws);
void write_actuator_rates(const dynamics::Model& model, const Workspace& ws, double* xdot);

}  // namespace uwsim::dynamics
