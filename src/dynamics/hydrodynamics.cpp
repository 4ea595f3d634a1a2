// References: see hydrodynamics.h.
#include "dynamics/hydrodynamics.h"

namespace uwsim::dynamics {

using spatial::cross_force;
using spatial::force_at_point;
using spatial::make_spatial;

BodyMotion body_motion(const Mat3& R_WB, const Vec6& V_WB_B, const Vec3& current_W) {
  BodyMotion m;
  m.R_WB = R_WB;
  m.V_WB_B = V_WB_B;
  if (current_W.isZero(0.0)) {  // still water: ν_r = ν, ν̇_c = 0
    m.V_rel_B = V_WB_B;
    m.A_current_B.setZero();
    return m;
  }
  const Vec3 v_c_B = R_WB.transpose() * current_W;
  const Vec3 w_WB_B = spatial::angular(V_WB_B);
  m.V_rel_B = make_spatial(w_WB_B, spatial::linear(V_WB_B) - v_c_B);
  m.A_current_B = make_spatial(Vec3::Zero(), -w_WB_B.cross(v_c_B));
  return m;
}

Vec6 rigid_body_coriolis(const dynamics::Body& body, const BodyMotion& motion) {
  return -cross_force(motion.V_WB_B, body.M_RB_B * motion.V_WB_B);
}

Vec6 added_mass_coriolis(const dynamics::Body& body, const BodyMotion& motion) {
  return -cross_force(motion.V_rel_B, body.M_A_B * motion.V_rel_B) +
         body.M_A_B * motion.A_current_B;
}

Vec6 damping(const dynamics::Body& body, const BodyMotion& motion) {
  // ν_r at the centre of drag d: ω, v + ω × p_Bod; the wrench found there is moved back to Bo.
  const Vec3& p_Bod = body.p_BoBcd_B;
  const Vec3 w = spatial::angular(motion.V_rel_B);
  const Vec6 nu_r_d = make_spatial(w, spatial::linear(motion.V_rel_B) + w.cross(p_Bod));
  const Vec6 F_d = -(body.linear_damping.cwiseProduct(nu_r_d) +
                     body.quadratic_damping.cwiseProduct(nu_r_d.cwiseAbs().cwiseProduct(nu_r_d)));
  return make_spatial(spatial::angular(F_d) + p_Bod.cross(spatial::linear(F_d)), spatial::linear(F_d));
}

Vec6 restoring(const dynamics::Body& body, const Mat3& R_WB) {
  // R_WBᵀ e_z: the NED down direction in body axes.
  const Vec3 down_B = R_WB.row(2).transpose();
  return force_at_point(body.p_BoBcm_B, body.weight * down_B) +
         force_at_point(body.p_BoBcb_B, -body.buoyancy * down_B);
}

}  // namespace uwsim::dynamics
