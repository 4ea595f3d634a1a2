// One connector's constraint at the acceleration level, in a twist-based form equivalent to
// [Nielsen2018] eq. 21–33 (3 independent rotation rows instead of the 4 of the quaternion
// product, so a single connector never makes A rank-deficient).
// References: [Nielsen2018] eq. 18, 21–26; [Baumgarte1972] constraint stabilisation.
//
// Rows are expressed in the connector frame K (the first body's axes). With A, B the two
// bodies (B the world: R_WB = 1, p_WB = 0, V_B = 0), V = [ω; v] body-frame spatial velocities,
// p_AK the connection point in A, X_BK the connector frame in B:
//   R_AB = R_WAᵀ R_WB,  d = R_WAᵀ (p_WB − p_WA),  r = R_AB p_BK,  p = d + r
//   position error    e_p = p − p_AK                                                  (1)
//   attitude error    e_θ = vee(R_e − R_eᵀ)/2,  R_e = R_AB R_BK  (≈ the rotation vector)   (2)
//   velocity error    ė = G_A V_A + G_B V_B                                             (3)
//     rotation rows     G_A = [−1, 0],      G_B = [R_AB, 0]           (ω_rel = R_AB ω_B − ω_A)
//     translation rows  G_A = [S(p), −1],   G_B = [−S(r) R_AB, R_AB]
// Differentiating (3) in K gives the rows of A v̇ = b (eq. 18), with A_A, A_B the spatial
// accelerations (body coordinates, = d/dt of V in the body frame):
//   G_A A_A + G_B A_B = −κ − 2ω ė − ω² e                                                (4)
// where κ collects the velocity products (ḋ = −ω_A × d + R_AB v_B − v_A, ω_B' = R_AB ω_B):
//   rotation     κ_θ = ω_rel × ω_B'
//   translation  κ_p = −ω_A × ḋ + ω_rel × (R_AB v_B) + (ω_rel × ω_B') × r + ω_rel × (ω_rel × r)
// and the Baumgarte terms (ω: Model::constraint_frequency, critically damped) pull any drift
// back along ë + 2ω ė + ω² e = 0. They are constraint forces like the rest: internal, so
// they leave momentum unchanged. A ball connector keeps the translation rows only.
#pragma once

#include "dynamics/body_state.h"
#include "dynamics/connector.h"

namespace uwsim::dynamics {

using spatial::Mat6;
using spatial::Vec3;
using spatial::Vec6;

struct ConnectorRows {
  int rows = 6;
  Mat6 G_A = Mat6::Zero();   // top `rows` rows used
  Mat6 G_B = Mat6::Zero();
  Vec6 b = Vec6::Zero();     // right-hand side of (4)
  Vec6 position_error = Vec6::Zero();  // e: [e_θ; e_p] (rigid) or e_p (ball), (1)–(2)
  Vec6 velocity_error = Vec6::Zero();  // ė (3)
  double distance = 0.0;     // |e_p|, m
  double angle = 0.0;        // rotation angle of R_e, rad (rigid only)
  // The structure of G_A and G_B, for multiply_rows.
  spatial::Mat3 R_AB = spatial::Mat3::Identity();
  Vec3 p = Vec3::Zero();
  Vec3 r = Vec3::Zero();
};

// `B` is null for the world. Needs the kinematics of both bodies in the workspace.
void connector_rows(const dynamics::Connector& connector, double frequency, const BodyState& A,
                    const BodyState* B, ConnectorRows& out);

// out = G_A·U (second = false) or G_B·U, using the blocks of (3): G_A is −1 and S(p), G_B a
// rotation and S(r); about a third of the dense product's work.
void multiply_rows(const ConnectorRows& rows, bool second, const Mat6& U, Mat6& out);

}  // namespace uwsim::dynamics
