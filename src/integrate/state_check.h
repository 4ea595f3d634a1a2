// Detects a diverging simulation: non-finite values or magnitudes no vehicle can reach.
#pragma once

#include <optional>
#include <string>

#include "model/model.h"

namespace uwsim::integrate {

// Limits beyond which a state is called exploding (SI). Generous: they catch blow-ups,
// not fast vehicles.
struct DivergenceLimits {
  double position = 1e7;          // m from the NED origin
  double linear_velocity = 1e4;   // m/s
  double angular_velocity = 1e4;  // rad/s
};

// The first offending value as "body 'rov': angular velocity q = nan", or nothing.
std::optional<std::string> find_divergence(const model::Model& model, const double* x,
                                           const DivergenceLimits& limits = {});

}  // namespace uwsim::integrate
