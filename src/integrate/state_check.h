// Detects a diverging simulation: non-finite values or magnitudes no vehicle can reach.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "dynamics/workspace.h"
#include "dynamics/model.h"

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

// Checks a state after every step: built once per run, it holds each value's index and
// bound, so a check is one comparison per value and the message is made only on failure.
class DivergenceWatch {
 public:
  explicit DivergenceWatch(const dynamics::Model& model, const DivergenceLimits& limits = {});
  // The first offending value as "body 'rov': angular velocity q = nan", or nothing.
  std::optional<std::string> find(const double* x) const;
  // Whether any value is off: the per-step test, without branches; find() then says which.
  bool any(const double* x) const {
    bool off = false;
    for (const Check& c : checks_) off |= !(std::abs(x[c.index]) <= c.bound);
    return off;
  }

  struct Check {
    int index;                   // into x
    double bound;                // |x[index]| ≤ bound, and finite
    const dynamics::Body* body;  // for the message
    const char* what;
  };

 private:
  std::vector<Check> checks_;
};

// The first connector whose errors in the evaluation held by `ws` exceed the limits, as
// "connector 'bolt' (bodies 'a' and 'b'): 0.0021 m apart", or nothing.
std::optional<std::string> find_violated_connector(const dynamics::Model& model, const dynamics::Workspace& ws,
                                                   const DivergenceLimits& limits = {});

// The model has no free surface: a body above z = 0 still feels its whole buoyancy. Reports,
// once per body, the first sample at which its origin is above the surface, as "body 'rov'
// rose above the surface (origin at z = -0.12 m) at t = 3.4 s: …"; checked at output samples.
class SurfaceWatch {
 public:
  explicit SurfaceWatch(const dynamics::Model& model) : above_(model.bodies.size(), false) {}
  // Appends a warning to `warnings` for each body that rises above z = 0 for the first time.
  void check(const dynamics::Model& model, const dynamics::Workspace& ws, double t, std::vector<std::string>& warnings);

 private:
  std::vector<bool> above_;
};

}  // namespace uwsim::integrate
