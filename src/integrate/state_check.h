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

// The model has no free surface: a body above z = 0 still feels its whole buoyancy. Warns once
// per tree (a vehicle with its arms, or a lone body), naming its root and each of its bodies
// that has risen above the surface with the first output sample at which it was above: "'uvms/rov'
// and the bodies joined to it rose above the surface …: 2 of 11 bodies, 'uvms/rov' at t = 3.4 s
// (z = -0.012 m), 'uvms/alpha/m1_link' at t = 3.6 s (…)". A body of that tree that rises later
// updates the tree's warning in place, so a run ends with one line per tree. Checked at output
// samples.
class SurfaceWatch {
 public:
  explicit SurfaceWatch(const dynamics::Model& model)
      : first_time_(model.bodies.size(), 0.0), first_z_(model.bodies.size(), 0.0),
        seen_(model.bodies.size(), false), warning_(model.bodies.size(), -1) {}
  // Adds or updates, in `warnings`, the warning of each tree a body of which is above z = 0 for
  // the first time. Allocates only when it warns.
  void check(const dynamics::Model& model, const dynamics::Workspace& ws, double t, std::vector<std::string>& warnings);

 private:
  std::string message(const dynamics::Model& model, std::size_t root) const;

  std::vector<double> first_time_, first_z_;  // by body: its first sample above the surface
  std::vector<bool> seen_;
  std::vector<int> warning_;  // by root body: its warning's index in `warnings`, −1 before
};

}  // namespace uwsim::integrate
