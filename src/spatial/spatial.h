// Spatial (6-D) vector algebra in Featherstone's [angular; linear] ordering.
// References: [RBDA] Featherstone 2008, Sec. 2.9 (cross products), Sec. 2.13 (rigid-body
// inertia); [Fossen2011] Sec. 3.3 (rigid-body inertia at the body origin).
//
// Names carry frames (monogram notation, see README "Frames, names and sign conventions"):
//   V_WB_B  spatial velocity of body B in world W, expressed in B: [ω; v]
//   F_Bo_B  spatial force about B's origin, expressed in B:        [n; f]
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products
#include <cmath>
#include <limits>

namespace uwsim::spatial {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

inline Vec3 angular(const Vec6& s) { return s.head<3>(); }
inline Vec3 linear(const Vec6& s) { return s.tail<3>(); }

inline Vec6 make_spatial(const Vec3& angular_part, const Vec3& linear_part) {
  Vec6 s;
  s << angular_part, linear_part;
  return s;
}

// S(a) b = a × b.
inline Mat3 skew(const Vec3& a) {
  Mat3 S;
  S << 0.0, -a.z(), a.y(),  //
      a.z(), 0.0, -a.x(),   //
      -a.y(), a.x(), 0.0;
  return S;
}

// Motion cross product v × m = [ω×m_ω; ω×m_v + v×m_ω]   [RBDA eq. 2.31]
inline Vec6 cross_motion(const Vec6& v, const Vec6& m) {
  const Vec3 w = angular(v), u = linear(v);
  return make_spatial(w.cross(angular(m)), w.cross(linear(m)) + u.cross(angular(m)));
}

// Force cross product v ×* f = [ω×n + v×f; ω×f]   [RBDA eq. 2.32]
// With f = M v this is the Coriolis–centripetal wrench of Kirchhoff's equations, which is
// Fossen's C(ν)ν for both the rigid body and the added mass [Fossen2011 eq. 6.43, 6.55].
inline Vec6 cross_force(const Vec6& v, const Vec6& f) {
  const Vec3 w = angular(v), u = linear(v);
  return make_spatial(w.cross(angular(f)) + u.cross(linear(f)), w.cross(linear(f)));
}

// A force f applied at point p (both in frame B) as a spatial force about B's origin.
inline Vec6 force_at_point(const Vec3& p_BoP_B, const Vec3& f_B) {
  return make_spatial(p_BoP_B.cross(f_B), f_B);
}

// Rigid-body spatial inertia about the body origin Bo, from the mass m, the CG position c
// and the inertia about the CG, I_c:  [I_c − m S(c)², m S(c); −m S(c), m 1]   [RBDA eq. 2.63]
// (Fossen's M_RB of [Fossen2011 eq. 3.44] with its blocks reordered.)
inline Mat6 rigid_body_inertia(double m, const Vec3& p_BoBcm_B, const Mat3& I_Bcm_B) {
  const Mat3 S = skew(p_BoBcm_B);
  Mat6 M;
  M.topLeftCorner<3, 3>() = I_Bcm_B - m * S * S;
  M.topRightCorner<3, 3>() = m * S;
  M.bottomLeftCorner<3, 3>() = -m * S;
  M.bottomRightCorner<3, 3>() = m * Mat3::Identity();
  return M;
}

// Entry (r, c) of a symmetric 6×6 matrix read from its upper triangle (articulated inertias
// are kept that way: transform.h, add_inertia_to_parent). With r and c known to the compiler
// the choice costs nothing; with an index known only at run time it is one compare.
inline double upper_entry(const Mat6& A, int r, int c) { return r <= c ? A(r, c) : A(c, r); }

// A·x for a symmetric 6×6 A read from its upper triangle. Unrolled by request: left to
// itself GCC kept the row loop and chose each entry's triangle by branching.
// Only the columns c whose bit (Columns >> c) & 1 is set are read: the others' x[c] must be
// zero (the caller knows which, e.g. a velocity product along a frame axis; articulated_body.cpp).
// For finite A and x, skipping them changes no bit of the result but the sign of a zero.
template <unsigned Columns = 0x3Fu>
inline Vec6 upper_symmetric_times(const Mat6& A, const Vec6& x) {
  Vec6 y;
#pragma GCC unroll 6
  for (int r = 0; r < 6; ++r) {
    double v = 0.0;
#pragma GCC unroll 6
    for (int c = 0; c < 6; ++c)
      if ((Columns >> c) & 1u) v += upper_entry(A, r, c) * x[c];
    y[r] = v;
  }
  return y;
}

// x = A⁻¹ b for a symmetric positive-definite 6×6 A (an articulated inertia), by A = L·diag(d)·Lᵀ
// with unit lower L and fixed trip counts the compiler unrolls: several times cheaper than the
// generic factorisation for this one size, and it is in the step path of every floating base.
// No square root, and the six pivots are inverted once: the solves only multiply, so no
// division lies on their dependency chains. A pivot that is not positive (A not positive
// definite, or NaN) gives NaN, for the divergence watch to report, as a Cholesky factor would.
// Only A's upper triangle is read: the articulated-body pass keeps its inertias as upper
// triangles (transform.h, add_inertia_to_parent).
// Unrolled by request, like upper_symmetric_times: left to itself GCC kept loops whose trip
// counts depend on the outer index, with the factors in memory (540 instructions a solve
// against 225 unrolled, the same results to the bit).
inline Vec6 solve_spd6(const Mat6& A, const Vec6& b) {
  double L[6][6], Ld[6][6];  // below the diagonal: L(i, j) and L(i, j)·d_j
  double inv_d[6];
#pragma GCC unroll 6
  for (int j = 0; j < 6; ++j) {
    double d = A(j, j);
#pragma GCC unroll 6
    for (int k = 0; k < j; ++k) d -= L[j][k] * Ld[j][k];
    inv_d[j] = d > 0.0 ? 1.0 / d : std::numeric_limits<double>::quiet_NaN();
#pragma GCC unroll 6
    for (int i = j + 1; i < 6; ++i) {
      double v = A(j, i);  // (i, j) below the diagonal, read from the upper triangle
#pragma GCC unroll 6
      for (int k = 0; k < j; ++k) v -= L[i][k] * Ld[j][k];
      Ld[i][j] = v;
      L[i][j] = v * inv_d[j];
    }
  }
  Vec6 y;  // L y = b
#pragma GCC unroll 6
  for (int i = 0; i < 6; ++i) {
    double v = b[i];
#pragma GCC unroll 6
    for (int k = 0; k < i; ++k) v -= L[i][k] * y[k];
    y[i] = v;
  }
  Vec6 x;  // Lᵀ x = diag(d)⁻¹ y
#pragma GCC unroll 6
  for (int i = 5; i >= 0; --i) {
    double v = y[i] * inv_d[i];
#pragma GCC unroll 6
    for (int k = i + 1; k < 6; ++k) v -= L[k][i] * x[k];
    x[i] = v;
  }
  return x;
}

// Fossen ordering [linear; angular] ([u v w p q r], M_A, D) ↔ spatial [angular; linear].
// The permutation is its own inverse; these are the only two places that reorder.
inline Vec6 from_fossen_order(const Vec6& x) { return make_spatial(x.tail<3>(), x.head<3>()); }
inline Vec6 to_fossen_order(const Vec6& s) {
  Vec6 x;
  x << s.tail<3>(), s.head<3>();
  return x;
}
inline Mat6 from_fossen_order(const Mat6& A) {
  Mat6 S;
  S.topLeftCorner<3, 3>() = A.bottomRightCorner<3, 3>();
  S.topRightCorner<3, 3>() = A.bottomLeftCorner<3, 3>();
  S.bottomLeftCorner<3, 3>() = A.topRightCorner<3, 3>();
  S.bottomRightCorner<3, 3>() = A.topLeftCorner<3, 3>();
  return S;
}

}  // namespace uwsim::spatial
