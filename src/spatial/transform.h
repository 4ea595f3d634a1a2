// Rigid transforms between frames and how spatial vectors and inertias move through them.
// References: [RBDA] Featherstone 2008, Sec. 2.8 (Plücker transforms), eq. 2.66 (inertia).
//
// Pose X_AB = {R_AB, p_AB_A}: frame B seen from frame A (maps B coordinates to A:
// r_A = R_AB r_B + p_AB_A). The spatial motion transform from A to B coordinates is
//   ᴮX_A = [R_ABᵀ, 0; −R_ABᵀ S(p_AB_A), R_ABᵀ]
// and forces go the other way with its transpose.
#pragma once

#include <cmath>

#include "spatial/spatial.h"

namespace uwsim::spatial {

struct Pose {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();

  // X_AC = X_AB · X_BC
  Pose operator*(const Pose& X_BC) const { return {R * X_BC.R, p + R * X_BC.p}; }
  Pose inverse() const { return {R.transpose(), -(R.transpose() * p)}; }
};

// Rotation by angle about a unit axis (Rodrigues).
inline Mat3 rotation_about(const Vec3& unit_axis, double angle) {
  const Mat3 K = skew(unit_axis);
  return Mat3::Identity() + std::sin(angle) * K + (1.0 - std::cos(angle)) * K * K;
}

inline Mat3 rotation_rpy(const Vec3& rpy) {
  return rotation_about(Vec3::UnitZ(), rpy.z()) * rotation_about(Vec3::UnitY(), rpy.y()) *
         rotation_about(Vec3::UnitX(), rpy.x());
}

// A motion vector (velocity, acceleration, joint axis) given in A, expressed in B.
inline Vec6 motion_to_child(const Pose& X_AB, const Vec6& m_A) {
  const Vec3 w = angular(m_A);
  return make_spatial(X_AB.R.transpose() * w, X_AB.R.transpose() * (linear(m_A) + w.cross(X_AB.p)));
}

// A force given in B (about B's origin), expressed in A about A's origin.
inline Vec6 force_to_parent(const Pose& X_AB, const Vec6& f_B) {
  const Vec3 f_A = X_AB.R * linear(f_B);
  return make_spatial(X_AB.R * angular(f_B) + X_AB.p.cross(f_A), f_A);
}

// The 6×6 motion transform ᴮX_A.
inline Mat6 motion_transform_to_child(const Pose& X_AB) {
  const Mat3 Rt = X_AB.R.transpose();
  Mat6 X;
  X << Rt, Mat3::Zero(), -Rt * skew(X_AB.p), Rt;
  return X;
}

// An inertia (or articulated inertia) about B's origin in B, expressed about A's origin in A:
// I_A = ᴮX_Aᵀ · I_B · ᴮX_A   [RBDA eq. 2.66]. For a symmetric I_B = [A, B; Bᵀ, C] this is
// rotating each block (A' = R A Rᵀ, …) and shifting by S = S(p):
//   [A' + S B'ᵀ + (S B'ᵀ)ᵀ − S C' S,  B' + S C';  (B' + S C')ᵀ,  C']
// about half the work of the two dense 6×6 products (tested against them).
inline Mat6 inertia_to_parent(const Pose& X_AB, const Mat6& I_B) {
  const Mat3& R = X_AB.R;
  const Mat3 A = R * I_B.topLeftCorner<3, 3>() * R.transpose();
  const Mat3 B = R * I_B.topRightCorner<3, 3>() * R.transpose();
  const Mat3 C = R * I_B.bottomRightCorner<3, 3>() * R.transpose();
  const Vec3& p = X_AB.p;
  Mat3 SBt, SC, SCS;  // S·M column by column: p × (each column)
  for (int k = 0; k < 3; ++k) {
    SBt.col(k) = p.cross(Vec3(B.row(k).transpose()));
    SC.col(k) = p.cross(Vec3(C.col(k)));
  }
  for (int k = 0; k < 3; ++k) SCS.row(k) = -p.cross(Vec3(SC.row(k).transpose())).transpose();  // (SC)·S = −((S·(SC)ᵀ))ᵀ
  Mat6 I_A;
  I_A.topLeftCorner<3, 3>() = A + SBt + SBt.transpose() - SCS;
  I_A.topRightCorner<3, 3>() = B + SC;
  I_A.bottomLeftCorner<3, 3>() = (B + SC).transpose();
  I_A.bottomRightCorner<3, 3>() = C;
  return I_A;
}

}  // namespace uwsim::spatial
