// References: see hydrodynamics.h.
#include "dynamics/hydrodynamics.h"

namespace uwsim::dynamics {

using spatial::cross_force;

Vec6 rigid_body_coriolis(const dynamics::Body& body, const BodyMotion& motion) {
  return -cross_force(motion.V_WB_B, body.M_RB_B * motion.V_WB_B);
}

Vec6 added_mass_coriolis(const dynamics::Body& body, const BodyMotion& motion) {
  return -cross_force(motion.V_rel_B, body.M_A_B * motion.V_rel_B) +
         body.M_A_B * motion.A_current_B;
}

}  // namespace uwsim::dynamics
