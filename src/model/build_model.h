// Scenario spec (Fossen ordering, as the user writes it) → the const Model of dynamics/model.h (spatial ordering).
#pragma once

#include "dynamics/model.h"
#include "scenario/spec.h"

namespace uwsim::model {

// Preconditions: the spec passed scenario validation (masses > 0, inertias positive definite,
// added mass symmetric positive semi-definite, force bodies exist).
dynamics::Model build_model(const scenario::Scenario& scenario);

}  // namespace uwsim::model
