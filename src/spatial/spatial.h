// Spatial (6-D) vector algebra in Featherstone's [angular; linear] ordering.
// References: [RBDA] Featherstone 2008, Sec. 2.9 (cross products), Sec. 2.13 (rigid-body
// inertia); [Fossen2011] Sec. 3.3 (rigid-body inertia at the body origin).
//
// Names carry frames (monogram notation, see README "Frames, names and sign conventions"):
//   V_WB_B  spatial velocity of body B in world W, expressed in B: [ω; v]
//   F_Bo_B  spatial force about B's origin, expressed in B:        [n; f]
#pragma once

#include <array>

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

namespace detail {

// The inverse of a symmetric 3×3 matrix, given by its upper-triangle entries, by cofactors
// (adj(P)/det P), as the six upper-triangle entries [00, 01, 02, 11, 12, 22]. NaN unless P is
// positive definite (leading minors P00, P00·P11 − P01², det P all positive: Sylvester's
// criterion), for the divergence watch, as a Cholesky factor's square root gives.
inline std::array<double, 6> inverse_spd3(double p00, double p01, double p02, double p11, double p12, double p22) {
  const double a00 = p11 * p22 - p12 * p12, a01 = p02 * p12 - p01 * p22, a02 = p01 * p12 - p02 * p11;
  const double a11 = p00 * p22 - p02 * p02, a12 = p01 * p02 - p00 * p12, a22 = p00 * p11 - p01 * p01;
  const double det = p00 * a00 + p01 * a01 + p02 * a02;
  const double g = (p00 > 0.0 && a22 > 0.0 && det > 0.0) ? 1.0 / det : std::numeric_limits<double>::quiet_NaN();
  return {a00 * g, a01 * g, a02 * g, a11 * g, a12 * g, a22 * g};
}

}  // namespace detail

// x = A⁻¹ b for a symmetric positive-definite 6×6 A (an articulated inertia) by 3×3 blocks,
// A = [P Q; Qᵀ R]: with Y = P⁻¹Q and the Schur complement S = R − QᵀY,
//   x₂ = S⁻¹ (b₂ − Qᵀ P⁻¹ b₁),   x₁ = P⁻¹ b₁ − Y x₂,
// with P⁻¹ and S⁻¹ by cofactors (detail::inverse_spd3): block LU, and A is positive definite
// iff P and S are [Golub & Van Loan, Matrix Computations, 4th ed., Ch. 3 and 4]. It is in the
// step path of every floating base, at the end of the articulated-body pass, where nothing else
// overlaps it: its dependency chain is what costs. The 6×6 L·diag(d)·Lᵀ used before
// (docs/benchmarks.md, "night session") had six divisions in a row, each waiting for the
// last; here there are two, and the products of each stage are independent of one another (the
// UVMS's RK4 step about 2 % faster). Always inlined: called, it returned x through memory,
// entries stored one by one and copied out whole, a load the store buffer cannot forward
// (docs/benchmarks.md, "2026-11-29: a joint's pose").
// A that is not positive definite (P or S not, or NaN) gives NaN. Only A's upper triangle is
// read: the articulated-body pass keeps its inertias as upper triangles (transform.h,
// add_inertia_to_parent).
[[gnu::always_inline]] inline Vec6 solve_spd6(const Mat6& A, const Vec6& b) {
  const auto [i00, i01, i02, i11, i12, i22] = detail::inverse_spd3(A(0, 0), A(0, 1), A(0, 2), A(1, 1), A(1, 2), A(2, 2));
  double Y[3][3];  // P⁻¹ Q
#pragma GCC unroll 3
  for (int c = 0; c < 3; ++c) {
    const double q0 = A(0, 3 + c), q1 = A(1, 3 + c), q2 = A(2, 3 + c);
    Y[0][c] = i00 * q0 + i01 * q1 + i02 * q2;
    Y[1][c] = i01 * q0 + i11 * q1 + i12 * q2;
    Y[2][c] = i02 * q0 + i12 * q1 + i22 * q2;
  }
  double S[3][3];  // R − Qᵀ Y, upper triangle
#pragma GCC unroll 3
  for (int c = 0; c < 3; ++c)
#pragma GCC unroll 3
    for (int r = 0; r <= c; ++r)
      S[r][c] = A(3 + r, 3 + c) - (A(0, 3 + r) * Y[0][c] + A(1, 3 + r) * Y[1][c] + A(2, 3 + r) * Y[2][c]);
  const auto [j00, j01, j02, j11, j12, j22] = detail::inverse_spd3(S[0][0], S[0][1], S[0][2], S[1][1], S[1][2], S[2][2]);
  const double y0 = i00 * b[0] + i01 * b[1] + i02 * b[2];  // P⁻¹ b₁
  const double y1 = i01 * b[0] + i11 * b[1] + i12 * b[2];
  const double y2 = i02 * b[0] + i12 * b[1] + i22 * b[2];
  double r[3];  // b₂ − Qᵀ P⁻¹ b₁
#pragma GCC unroll 3
  for (int c = 0; c < 3; ++c) r[c] = b[3 + c] - (A(0, 3 + c) * y0 + A(1, 3 + c) * y1 + A(2, 3 + c) * y2);
  Vec6 x;
  x[3] = j00 * r[0] + j01 * r[1] + j02 * r[2];
  x[4] = j01 * r[0] + j11 * r[1] + j12 * r[2];
  x[5] = j02 * r[0] + j12 * r[1] + j22 * r[2];
  x[0] = y0 - (Y[0][0] * x[3] + Y[0][1] * x[4] + Y[0][2] * x[5]);
  x[1] = y1 - (Y[1][0] * x[3] + Y[1][1] * x[4] + Y[1][2] * x[5]);
  x[2] = y2 - (Y[2][0] * x[3] + Y[2][1] * x[4] + Y[2][2] * x[5]);
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
