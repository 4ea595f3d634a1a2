// The fluid and restoring wrench on one rigid body, everything that is not proportional to
// its acceleration (the added mass M_A itself sits in the inertia; see pipeline.h).
// References: [Fossen2011] eq. 6.43 and 6.55 (C_RB, C_A), Sec. 10.3 (relative velocity and a
// constant irrotational current), eq. 4.6 (restoring); [Nielsen2018] eq. 7.
//
// With ν_r = ν − ν_c the velocity relative to the water (ν_c = [R_WBᵀ V_c; 0], Fossen order):
//   (M_RB + M_A) ν̇ = τ − C_RB(ν)ν − C_A(ν_r)ν_r − D(ν_r)ν_r − g(η) + M_A ν̇_c        (1)
// where ν̇_c = [−ω × v_c; 0] is the body-frame rate of the current seen from the turning body.
// In spatial form C(ν)ν = ν ×* (M ν) for both inertias (spatial.h). D(ν_r)ν_r is linear plus
// quadratic, diagonal: D_l ν_r + D_q |ν_r| ν_r (element-wise), evaluated at the body's centre
// of drag (its origin unless set; the shape centre for shapes) and moved to the origin.
// Not modelled: off-diagonal damping, wave and free-surface effects, rotational currents.
#pragma once

#include "dynamics/model.h"

namespace uwsim::dynamics {

using spatial::Mat3;
using spatial::Vec3;
using spatial::Vec6;

// Kinematic quantities of one body at one instant, all in the body frame B.
struct BodyMotion {
  Mat3 R_WB;          // body → NED
  Vec6 V_WB_B;        // spatial velocity [ω; v]
  Vec6 V_rel_B;       // velocity relative to the water, [ω; v − R_WBᵀ V_c]
  Vec6 A_current_B;   // ν̇_c in spatial order: [0; −ω × v_c]
};

// Inline, like damping and restoring below: called for every body at every evaluation.
inline BodyMotion body_motion(const Mat3& R_WB, const Vec6& V_WB_B, const Vec3& current_W) {
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
  m.V_rel_B = spatial::make_spatial(w_WB_B, spatial::linear(V_WB_B) - v_c_B);
  m.A_current_B = spatial::make_spatial(Vec3::Zero(), -w_WB_B.cross(v_c_B));
  return m;
}

// −C_RB(ν)ν in spatial form: −V ×* (M_RB V)   (1)
Vec6 rigid_body_coriolis(const dynamics::Body& body, const BodyMotion& motion);

// −C_A(ν_r)ν_r + M_A ν̇_c   (1)
Vec6 added_mass_coriolis(const dynamics::Body& body, const BodyMotion& motion);

// −C_RB(ν)ν − C_A(ν_r)ν_r + M_A ν̇_c   (1): the one Coriolis term of a body. In still water
// ν_r = ν and ν̇_c = 0, so the two products are one: −V ×* ((M_RB + M_A) V), the step path's
// common case (inline for it).
inline Vec6 coriolis(const dynamics::Body& body, const BodyMotion& motion, bool still_water) {
  if (still_water) return -spatial::cross_force(motion.V_WB_B, body.M_B * motion.V_WB_B);
  return rigid_body_coriolis(body, motion) + added_mass_coriolis(body, motion);
}

// −D(ν_r)ν_r   (1), at the centre of drag, about Bo
inline Vec6 damping(const dynamics::Body& body, const BodyMotion& motion) {
  // ν_r at the centre of drag d: ω, v + ω × p_Bod; the wrench found there is moved back to Bo.
  const Vec3& p_Bod = body.p_BoBcd_B;
  const Vec3 w = spatial::angular(motion.V_rel_B);
  const Vec6 nu_r_d = spatial::make_spatial(w, spatial::linear(motion.V_rel_B) + w.cross(p_Bod));
  const Vec6 F_d = -(body.linear_damping.cwiseProduct(nu_r_d) +
                     body.quadratic_damping.cwiseProduct(nu_r_d.cwiseAbs().cwiseProduct(nu_r_d)));
  return spatial::make_spatial(spatial::angular(F_d) + p_Bod.cross(spatial::linear(F_d)), spatial::linear(F_d));
}

// −g(η): weight W at the CG along +z_W, buoyancy B at the CB along −z_W   [Fossen2011 eq. 4.6]
inline Vec6 restoring(const dynamics::Body& body, const Mat3& R_WB) {
  // R_WBᵀ e_z: the NED down direction in body axes.
  const Vec3 down_B = R_WB.row(2).transpose();
  return spatial::force_at_point(body.p_BoBcm_B, body.weight * down_B) +
         spatial::force_at_point(body.p_BoBcb_B, -body.buoyancy * down_B);
}

}  // namespace uwsim::dynamics
