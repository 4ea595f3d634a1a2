// Per-evaluation scratch for a model, sized once: the step path never allocates.
#pragma once

#include <vector>

#include "constraints/connector_solver.h"
#include "dynamics/body_state.h"
#include "model/model.h"

namespace uwsim::dynamics {

struct Workspace {
  explicit Workspace(const model::Model& model)
      : bodies(model.bodies.size()),
        inputs(model.inputs.channels.size() + static_cast<std::size_t>(model.control_slots), 0.0),
        thrusters(model.thrusters.size()), controllers(model.controllers.size()), connectors(model) {
    for (std::size_t i = 0; i < controllers.size(); ++i) {
      const model::Controller& c = model.controllers[i];
      using K = model::ControllerKind;
      const Eigen::Index n = c.kind == K::pid ? 1 : c.kind == K::inverse_kinematics ? 3 : 6;
      const Eigen::Index m = c.kind == K::thrust_allocation ? c.output_count()
                             : c.kind == K::inverse_kinematics ? static_cast<Eigen::Index>(c.joints.size())
                                                               : n;
      controllers[i].setpoint.setZero(n);
      controllers[i].error.setZero(n);
      controllers[i].output.setZero(m);
    }
  }
  std::vector<BodyState> bodies;
  // The value of each channel (model order), then the held controller commands
  // (model/controller.h): written by the driver at controller samples, read by every evaluation.
  std::vector<double> inputs;
  std::vector<actuation::ThrusterState> thrusters;    // command, shaft speed, thrust
  std::vector<model::ControllerSignals> controllers;  // held between samples (controller.h)
  constraints::ConnectorSolver connectors;
};

}  // namespace uwsim::dynamics
