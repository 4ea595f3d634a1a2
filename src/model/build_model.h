// Scenario spec (Fossen ordering, as the user writes it) → the const Model of dynamics/model.h (spatial ordering).
#pragma once

#include <string>
#include <vector>

#include "dynamics/model.h"
#include "model/spec.h"

namespace uwsim::model {

// Preconditions: the spec passed scenario validation (masses > 0, inertias positive definite,
// added mass symmetric positive semi-definite, force bodies exist), which includes
// connector_pose_problems below finding none.
dynamics::Model build_model(const Spec& scenario);

// What only the model can check, for the scenario loader to report where the file wrote it:
// each of `connectors` whose relative_pose the initial poses of its bodies do not satisfy
// within 1e-6 m and rad (it would pull them together at t = 0), by index, with the message.
// Runs the dynamics' forward kinematics on the bodies and joints of `scenario` (its
// connectors, forces, actuators and controllers are not needed and not built).
struct ConnectorProblem {
  std::size_t connector = 0;
  std::string message;
};
std::vector<ConnectorProblem> connector_pose_problems(const Spec& scenario, const std::vector<ConnectorSpec>& connectors);

}  // namespace uwsim::model
