// Per-evaluation scratch for a model, sized once: the step path never allocates.
#pragma once

#include <vector>

#include "dynamics/connector_solver.h"
#include "dynamics/body_state.h"
#include "dynamics/model.h"

namespace uwsim::dynamics {

struct Workspace {
  explicit Workspace(const dynamics::Model& model)
      : bodies(model.bodies.size()),
        inputs(model.inputs.channels.size() + static_cast<std::size_t>(model.control_slots), 0.0),
        thrusters(model.thrusters.size()), controllers(model.controllers.size()), connectors(model) {
    for (std::size_t i = 0; i < controllers.size(); ++i) {
      const dynamics::Controller::SignalSizes sizes = model.controllers[i].signal_sizes();
      controllers[i].setpoint.setZero(sizes.setpoint);
      controllers[i].error.setZero(sizes.error);
      controllers[i].output.setZero(sizes.output);
    }
  }
  std::vector<BodyState> bodies;
  // The value of each channel (model order), then the held controller commands
  // (dynamics/controller.h): written by the driver at controller samples, read by every evaluation.
  std::vector<double> inputs;
  std::vector<actuation::ThrusterState> thrusters;    // command, shaft speed, thrust
  std::vector<dynamics::ControllerSignals> controllers;  // held between samples (controller.h)
  dynamics::ConnectorSolver connectors;
};

}  // namespace uwsim::dynamics
