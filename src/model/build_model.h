// Scenario spec (Fossen ordering, as the user writes it) → const Model (spatial ordering).
#pragma once

#include "model/model.h"
#include "scenario/spec.h"

namespace uwsim::model {

// Preconditions: the spec passed scenario validation (masses > 0, inertias positive definite,
// added mass symmetric positive semi-definite, force bodies exist).
Model build_model(const scenario::Scenario& scenario);

// Every body's pose in the world for the state x (forward kinematics, outside the step path).
std::vector<spatial::Pose> world_poses(const Model& model, const std::vector<double>& x);

}  // namespace uwsim::model
