// Per-evaluation scratch for a model, sized once: the step path never allocates.
#pragma once

#include <vector>

#include "constraints/connector_solver.h"
#include "dynamics/body_state.h"
#include "model/model.h"

namespace uwsim::dynamics {

struct Workspace {
  explicit Workspace(const model::Model& model)
      : bodies(model.bodies.size()), inputs(model.inputs.channels.size()),
        thrusters(model.thrusters.size()), connectors(model) {}
  std::vector<BodyState> bodies;
  std::vector<double> inputs;                         // value of each channel, model order
  std::vector<actuation::ThrusterState> thrusters;    // command, shaft speed, thrust
  constraints::ConnectorSolver connectors;
};

}  // namespace uwsim::dynamics
