// Test helper: the weight and buoyancy of every body of a recorded run at one sample.
#pragma once

#include "support/recording.h"

namespace uwsim::test {

// The net upward force (N) of every body's weight and buoyancy at sample k and their moment
// about the point o (N m, NED axes).
struct Hydrostatics {
  double net_up = 0.0;
  spatial::Vec3 moment_W = spatial::Vec3::Zero();
};

inline Hydrostatics hydrostatics(const Run& run, std::size_t k, const spatial::Vec3& o) {
  Hydrostatics h;
  for (std::size_t b = 0; b < run.model.bodies.size(); ++b) {
    const dynamics::Body& body = run.model.bodies[b];
    const spatial::Pose& X = run.rec.X_WB[k][b];
    const spatial::Vec3 cg = X.p + X.R * body.p_BoBcm_B, cb = X.p + X.R * body.p_BoBcb_B;
    h.net_up += body.buoyancy - body.weight;
    h.moment_W += (cg - o).cross(spatial::Vec3(0, 0, body.weight)) + (cb - o).cross(spatial::Vec3(0, 0, -body.buoyancy));
  }
  return h;
}

}  // namespace uwsim::test
