// Per-evaluation scratch for a model, sized once: the step path never allocates.
#pragma once

#include <vector>

#include "constraints/connector_solver.h"
#include "dynamics/body_state.h"
#include "model/model.h"

namespace uwsim::dynamics {

struct Workspace {
  explicit Workspace(const model::Model& model) : bodies(model.bodies.size()), connectors(model) {}
  std::vector<BodyState> bodies;
  constraints::ConnectorSolver connectors;
};

}  // namespace uwsim::dynamics
