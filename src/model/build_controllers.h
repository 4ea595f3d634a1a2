// Builds the model's controllers from a scenario's `controllers` (dynamics/controller.h): orders
// them for update (pose_pd, thrust_allocation, inverse_kinematics, pid), gives each its command slots, and points
// the joints and thrusters they drive at those slots. Called by build_model after
// build_actuation.
#pragma once

#include "dynamics/model.h"
#include "model/spec.h"

namespace uwsim::model {

void build_controllers(const Spec& scenario, dynamics::Model& model);

// Resolves each pose_pd's `feedback` sensor names to indices into model.sensors (after
// build_sensors). Throws std::invalid_argument on a name or kind the reader would have refused.
void build_feedback(const Spec& scenario, dynamics::Model& model);

}  // namespace uwsim::model
