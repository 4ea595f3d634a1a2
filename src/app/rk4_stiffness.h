// What in a model is too stiff for rk4 at the scenario's step: one warning each. `sim run`
// prints them before it steps and `sim validate` after it builds the model, in the same words.
#pragma once

#include <string>
#include <vector>

#include "dynamics/model.h"
#include "integrate/settings.h"

namespace uwsim::app {

// Empty for dopri5 (its step adapts) and for a model rk4 can step at settings.step.
std::vector<std::string> rk4_stiffness_warnings(const dynamics::Model& model, const integrate::Settings& settings);

}  // namespace uwsim::app
