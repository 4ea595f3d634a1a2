// Detects a diverging simulation: non-finite values or magnitudes no vehicle can reach.
#pragma once

#include <optional>
#include <string>

#include "dynamics/workspace.h"
#include "model/model.h"

namespace uwsim::integrate {

// Limits beyond which a state is called exploding (SI). Generous: they catch blow-ups,
// not fast vehicles.
struct DivergenceLimits {
  double position = 1e7;          // m from the NED origin
  double linear_velocity = 1e4;   // m/s
  double angular_velocity = 1e4;  // rad/s
  // A connector this far apart has failed (a singular or contradictory set of constraints):
  // the Baumgarte terms keep a working one near 1e-12.
  double connector_distance = 1e-3;  // m
  double connector_angle = 1e-3;     // rad
};

// The first offending value as "body 'rov': angular velocity q = nan", or nothing.
std::optional<std::string> find_divergence(const model::Model& model, const double* x,
                                           const DivergenceLimits& limits = {});

// The first connector whose errors in the evaluation held by `ws` exceed the limits, as
// "connector 'bolt' (bodies 'a' and 'b'): 0.0021 m apart", or nothing.
std::optional<std::string> find_violated_connector(const model::Model& model, const dynamics::Workspace& ws,
                                                   const DivergenceLimits& limits = {});

}  // namespace uwsim::integrate
