// The thruster configuration matrix T (6×n): the body wrench produced by n scalar thrusts,
// τ_B = T u.
// References: [LeonGonzalez2024] eq. 38 (BlueROV2 Heavy, 8 thrusters); [SverdrupThygeson2018]
// eq. 23–26 (T(q) for thrusters on moving links: column B_j(q) = [R_bt; p̂_bt R_bt][1; 0₅]).
//
// Column j for a thruster at p_BoT_B pushing along the unit direction d_B (a positive thrust
// u_j pushes the body along d_B) with reaction torque k_r (N m per N about +d_B, its
// propeller's handedness; actuation/thruster.h):
//   T_j = [d_B ; p_BoT_B × d_B + k_r d_B]                                                (1)
// in Fossen's order [X Y Z K M N], about the body origin Bo: the wrench the dynamics applies
// per newton of thrust (dynamics/actuation_stage.cpp), so an allocation delivers what it asks. For a thruster on a link L whose
// pose in the base frame is X_BL = {R_BL, p_BL_B} (from the joint positions q):
//   p_BoT_B = p_BL_B + R_BL p_LT_L,   d_B = R_BL d_L                                     (2)
// and T(q) is rebuilt with (1)–(2) whenever q changes ([SverdrupThygeson2018] eq. 25–26).
// Directions need not be unit length: they are normalised (a zero direction is a programmer
// error and gives NaN).
#pragma once

#include "control/damped_pseudo_inverse.h"
#include "spatial/spatial.h"
#include "spatial/transform.h"

namespace uwsim::control {

using ConfigurationMatrix = WideMatrix<6>;

// (1)
inline spatial::Vec6 thruster_column(const spatial::Vec3& p_BoT_B, const spatial::Vec3& d_B,
                                     double reaction_torque = 0.0) {
  const spatial::Vec3 d = d_B.normalized();
  spatial::Vec6 column;
  column << d, p_BoT_B.cross(d) + reaction_torque * d;
  return column;
}

// (2) then (1): a thruster fixed on link L, at p_LT_L along d_L in L's frame.
inline spatial::Vec6 thruster_column_on_link(const spatial::Pose& X_BL, const spatial::Vec3& p_LT_L,
                                             const spatial::Vec3& d_L, double reaction_torque = 0.0) {
  return thruster_column(X_BL.p + X_BL.R * p_LT_L, X_BL.R * d_L, reaction_torque);
}

}  // namespace uwsim::control
