// Rigid transforms between frames and how spatial vectors and inertias move through them.
// References: [RBDA] Featherstone 2008, Sec. 2.8 (Plücker transforms), eq. 2.66 (inertia).
//
// Pose X_AB = {R_AB, p_AB_A}: frame B seen from frame A (maps B coordinates to A:
// r_A = R_AB r_B + p_AB_A). The spatial motion transform from A to B coordinates is
//   ᴮX_A = [R_ABᵀ, 0; −R_ABᵀ S(p_AB_A), R_ABᵀ]
// and forces go the other way with its transpose.
#pragma once

#include <cassert>
#include <cmath>
#include <type_traits>

#include "spatial/rotation.h"
#include "spatial/spatial.h"

namespace uwsim::spatial {

struct Pose {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();

  // X_AC = X_AB · X_BC
  Pose operator*(const Pose& X_BC) const { return {R * X_BC.R, p + R * X_BC.p}; }
  Pose inverse() const { return {R.transpose(), -(R.transpose() * p)}; }
};

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

// Rotations about a coordinate axis k, in the form Joint::rotation_axis guarantees: with
// (i, j, k) cyclic, R(i, i) = R(j, j) = c, R(j, i) = −R(i, j) = s, R(k, k) = 1, the rest zero.
// Each rotation of a 3-vector mixes two coordinates (6 flops, not 15) and a product with
// another rotation two columns (18, not 45). The dense products' other terms are exact zeros,
// so without fused multiply-adds (the portable build) the results are theirs to the bit, for
// finite inputs and but for the sign of a zero (an Inf or NaN in one coordinate does not reach
// the others here; the divergence watch sees it all the same).
// K is a template argument so that every index is known to the compiler: with indices
// computed at run time the vectors went through memory and cost more than the dense products.
namespace detail {

// Calls f(std::integral_constant<int, k>) for k = 0, 1 or 2.
template <class F>
[[gnu::always_inline]] inline decltype(auto) with_axis(int k, F&& f) {
  assert(k >= 0 && k < 3);
  switch (k) {
    case 0: return f(std::integral_constant<int, 0>{});
    case 1: return f(std::integral_constant<int, 1>{});
    default: return f(std::integral_constant<int, 2>{});
  }
}

// Rᵀ·v for R about coordinate axis K, with c = R(i, i), s = R(j, i).
template <int K>
inline Vec3 rotate_back_about_axis(double c, double s, const Vec3& v) {
  constexpr int i = (K + 1) % 3, j = (K + 2) % 3;
  Vec3 out;
  out[i] = c * v[i] + s * v[j];
  out[j] = -s * v[i] + c * v[j];
  out[K] = v[K];
  return out;
}

// R·v for R about coordinate axis K, with c = R(i, i), s = R(j, i).
template <int K>
inline Vec3 rotate_about_axis(double c, double s, const Vec3& v) {
  constexpr int i = (K + 1) % 3, j = (K + 2) % 3;
  Vec3 out;
  out[i] = c * v[i] - s * v[j];
  out[j] = s * v[i] + c * v[j];
  out[K] = v[K];
  return out;
}

// c = R(i, i) and s = R(j, i) of R about coordinate axis K (checked in debug builds).
template <int K>
inline void plane_of(const Mat3& R, double& c, double& s) {
  constexpr int i = (K + 1) % 3, j = (K + 2) % 3;
  c = R(i, i);
  s = R(j, i);
  // (A diverging state's NaN angle is let through: the divergence watch reports it.)
  assert(!std::isfinite(c + s) || (R(K, K) == 1.0 && R(j, j) == c && R(i, j) == -s));
}

}  // namespace detail

// Written in place, entry by entry: returned through a temporary and copied out whole, the
// entries were read back by loads the store buffer cannot forward (docs/benchmarks.md, "2026-11-29: a joint's pose").
inline void write_rotation_about_coordinate_axis(int k, double c, double s, Mat3& R) {
  detail::with_axis(k, [&](auto axis) {
    constexpr int K = decltype(axis)::value, i = (K + 1) % 3, j = (K + 2) % 3;
    R.setZero();
    R(K, K) = 1.0;
    R(i, i) = R(j, j) = c;
    R(j, i) = s;
    R(i, j) = -s;
  });
}

// X_AC = X_AB · X_BC. For R_BC about coordinate axis `axis` ≥ 0, columns i and j of R_AB mix
// and column k stays; axis < 0 takes the dense product.
inline Pose compose_about_axis(int axis, const Pose& X_AB, const Pose& X_BC) {
  if (axis < 0) return X_AB * X_BC;
  return detail::with_axis(axis, [&](auto k) {
    constexpr int K = decltype(k)::value, i = (K + 1) % 3, j = (K + 2) % 3;
    double c, s;
    detail::plane_of<K>(X_BC.R, c, s);
    Pose X_AC;
    X_AC.R.col(i) = X_AB.R.col(i) * c + X_AB.R.col(j) * s;
    X_AC.R.col(j) = X_AB.R.col(i) * -s + X_AB.R.col(j) * c;
    X_AC.R.col(K) = X_AB.R.col(K);
    X_AC.p = X_AB.p + X_AB.R * X_BC.p;
    return X_AC;
  });
}

// motion_to_child and force_to_parent for a pose whose rotation is about coordinate axis
// `axis` ≥ 0; axis < 0 takes the general route. Used by the kinematics and the articulated-body
// passes. (An earlier trial in the articulated-body pass counted more instructions than the
// dense ones; with its pass 3 written for them they count fewer: 1.15 k → 1.07 k an
// evaluation on the UVMS, docs/benchmarks.md, "upper triangles".) Always inlined, like with_axis: GCC had left them
// out of line in the articulated-body pass, a call and a Vec6 through memory each.
[[gnu::always_inline]] inline Vec6 motion_to_child(int axis, const Pose& X_AB, const Vec6& m_A) {
  if (axis < 0) return motion_to_child(X_AB, m_A);
  return detail::with_axis(axis, [&](auto k) {
    constexpr int K = decltype(k)::value;
    double c, s;
    detail::plane_of<K>(X_AB.R, c, s);
    const Vec3 w = angular(m_A);
    return make_spatial(detail::rotate_back_about_axis<K>(c, s, w),
                        detail::rotate_back_about_axis<K>(c, s, linear(m_A) + w.cross(X_AB.p)));
  });
}

[[gnu::always_inline]] inline Vec6 force_to_parent(int axis, const Pose& X_AB, const Vec6& f_B) {
  if (axis < 0) return force_to_parent(X_AB, f_B);
  return detail::with_axis(axis, [&](auto k) {
    constexpr int K = decltype(k)::value;
    double c, s;
    detail::plane_of<K>(X_AB.R, c, s);
    const Vec3 f_A = detail::rotate_about_axis<K>(c, s, linear(f_B));
    return make_spatial(detail::rotate_about_axis<K>(c, s, angular(f_B)) + X_AB.p.cross(f_A), f_A);
  });
}

// The 6×6 motion transform ᴮX_A.
inline Mat6 motion_transform_to_child(const Pose& X_AB) {
  const Mat3 Rt = X_AB.R.transpose();
  Mat6 X;
  X << Rt, Mat3::Zero(), -Rt * skew(X_AB.p), Rt;
  return X;
}

namespace detail {

// The 3×3 block M of I at (row0, col0). Symmetric (a diagonal block): read from I's upper
// triangle, as every inertia here is (I is symmetric; the articulated-body pass keeps only
// that triangle).
template <bool Symmetric>
inline Mat3 block_of(const Mat6& I, int row0, int col0) {
  Mat3 M;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) M(r, c) = Symmetric ? upper_entry(I, row0 + r, col0 + c) : I(row0 + r, col0 + c);
  return M;
}

// R·M·Rᵀ of the 3×3 block M of I at (row0, col0). Symmetric: only the upper triangle is
// computed and mirrored (the block is symmetric, so is the result).
template <bool Symmetric>
inline Mat3 rotate_block(const Mat3& R, const Mat6& I, int row0, int col0) {
  const Mat3 M = block_of<Symmetric>(I, row0, col0);
  double T[3][3];  // T = R·M
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) T[i][j] = R(i, 0) * M(0, j) + R(i, 1) * M(1, j) + R(i, 2) * M(2, j);
  Mat3 out;
  for (int i = 0; i < 3; ++i)
    for (int j = Symmetric ? i : 0; j < 3; ++j) out(i, j) = T[i][0] * R(j, 0) + T[i][1] * R(j, 1) + T[i][2] * R(j, 2);
  if constexpr (Symmetric) out(1, 0) = out(0, 1), out(2, 0) = out(0, 2), out(2, 1) = out(1, 2);
  return out;
}

// R·M·Rᵀ of the 3×3 block at (row0, col0) for R a rotation about coordinate axis K with
// R(i, i) = R(j, j) = c, R(j, i) = −R(i, j) = s ((i, j, K) cyclic): rows i and j mix, then
// columns i and j; row and column K stay. 36 flops instead of 90. K is a template argument so
// that every index is known to the compiler and the block stays in registers.
template <int K, bool Symmetric>
inline Mat3 rotate_block_about_axis(double c, double s, const Mat6& I, int row0, int col0) {
  constexpr int i = (K + 1) % 3, j = (K + 2) % 3;
  Mat3 T = block_of<Symmetric>(I, row0, col0);
  for (int col = 0; col < 3; ++col) {
    const double a = T(i, col), b = T(j, col);
    T(i, col) = c * a - s * b;
    T(j, col) = s * a + c * b;
  }
  for (int row = 0; row < 3; ++row) {
    const double a = T(row, i), b = T(row, j);
    T(row, i) = c * a - s * b;
    T(row, j) = s * a + c * b;
  }
  return T;
}

// The symmetric inertia [A, B; Bᵀ, C], its blocks already rotated into A's axes, shifted to
// A's origin at p [RBDA eq. 2.66 with R = 1]: with S = S(p) and E = B + S C,
//   [A + S Bᵀ − E S,  E;  Eᵀ,  C]
// (−E S = −B S − S C S = (S Bᵀ)ᵀ − S C S). The upper triangle is computed; without Add it is
// written and mirrored. With Add, it is added to the upper triangle of `base` and stored in
// I_A's (base may be I_A itself), and no lower triangle is read or written: the articulated-body
// pass sums children into their parent's inertia kept as an upper triangle
// (add_inertia_to_parent), with no 6×6 temporary.
template <bool Add>
inline void shift_inertia(const Vec3& p, const Mat3& A, const Mat3& B, const Mat3& C, const Mat6& base,
                          Mat6& I_A) {
  Mat3 E;  // B + S C, column by column: S c = p × c
  for (int k = 0; k < 3; ++k) E.col(k) = B.col(k) + p.cross(Vec3(C.col(k)));
  // (S Bᵀ)(i, j) = (p × B.row(j))_i and (E S)(i, j) = (E.row(i) × p)_j
  Mat3 SBt, ES;
  for (int k = 0; k < 3; ++k) {
    SBt.col(k) = p.cross(Vec3(B.row(k).transpose()));
    ES.row(k) = Vec3(E.row(k).transpose()).cross(p).transpose();
  }
  const auto put = [&base, &I_A](int i, int j, double v) {
    if constexpr (Add) {
      I_A(i, j) = base(i, j) + v;  // i ≤ j: the upper triangle
    } else {
      I_A(i, j) = I_A(j, i) = v;
    }
  };
  for (int i = 0; i < 3; ++i) {
    for (int j = i; j < 3; ++j) put(i, j, A(i, j) + SBt(i, j) - ES(i, j));
    for (int j = 0; j < 3; ++j) put(i, 3 + j, E(i, j));
    for (int j = i; j < 3; ++j) put(3 + i, 3 + j, C(i, j));
  }
}

template <int K, bool Add>
inline void inertia_to_parent_about_axis(double c, double s, const Vec3& p, const Mat6& I_B, const Mat6& base,
                                         Mat6& I_A) {
  shift_inertia<Add>(p, rotate_block_about_axis<K, true>(c, s, I_B, 0, 0),
                     rotate_block_about_axis<K, false>(c, s, I_B, 0, 3),
                     rotate_block_about_axis<K, true>(c, s, I_B, 3, 3), base, I_A);
}

template <bool Add>
inline void inertia_to_parent_about_axis(int k, const Pose& X_AB, const Mat6& I_B, const Mat6& base, Mat6& I_A) {
  // Joint::rotation_axis: 0, 1 or 2 here (−1 takes the general route)
  with_axis(k, [&](auto axis) {
    constexpr int K = decltype(axis)::value;
    double c, s;
    plane_of<K>(X_AB.R, c, s);
    inertia_to_parent_about_axis<K, Add>(c, s, X_AB.p, I_B, base, I_A);
  });
}

template <bool Add>
inline void inertia_to_parent(const Pose& X_AB, const Mat6& I_B, const Mat6& base, Mat6& I_A) {
  const Mat3& R = X_AB.R;
  shift_inertia<Add>(X_AB.p, rotate_block<true>(R, I_B, 0, 0), rotate_block<false>(R, I_B, 0, 3),
                     rotate_block<true>(R, I_B, 3, 3), base, I_A);
}

}  // namespace detail

// A symmetric inertia (or articulated inertia) about B's origin in B, expressed about A's
// origin in A: I_A = ᴮX_Aᵀ · I_B · ᴮX_A   [RBDA eq. 2.66]. For I_B = [A, B; Bᵀ, C] this is
// rotating each block (A' = R A Rᵀ, …) and shifting by S = S(p) (detail::shift_inertia). Only
// what symmetry leaves free is computed, from I_B's upper triangle: about a third of the work
// of the two dense 6×6 products (tested against them).
inline Mat6 inertia_to_parent(const Pose& X_AB, const Mat6& I_B) {
  Mat6 I_A;
  detail::inertia_to_parent<false>(X_AB, I_B, I_A, I_A);
  return I_A;
}

// The same for a pose whose rotation is about coordinate axis k (X_AB.R e_k = e_k, in the form
// Joint::rotation_axis guarantees): a joint about a frame axis with no rotation in its origin,
// the common case. Each block turns by a plane rotation read from R: 36 flops, not 90.
inline Mat6 inertia_to_parent_about_axis(int k, const Pose& X_AB, const Mat6& I_B) {
  Mat6 I_A;
  detail::inertia_to_parent_about_axis<false>(k, X_AB, I_B, I_A, I_A);
  return I_A;
}

// I_A += ᴮX_Aᵀ · I_B · ᴮX_A, by the plane rotation when axis ≥ 0 (the joint's
// Joint::rotation_axis), by the general rotation otherwise: how a child's articulated inertia
// joins its parent's. Both are symmetric and kept as upper triangles: only I_B's upper triangle
// is read and only I_A's is updated (its lower triangle is left as it was). Of the 36 entries
// the 21 that symmetry leaves free are computed and stored once.
// With `base`: I_A = base + ᴮX_Aᵀ · I_B · ᴮX_A, upper triangles (base may be I_A): how the first
// child to join its parent starts the parent's articulated inertia from the parent's own.
inline void add_inertia_to_parent(int axis, const Pose& X_AB, const Mat6& I_B, const Mat6& base, Mat6& I_A) {
  if (axis >= 0) detail::inertia_to_parent_about_axis<true>(axis, X_AB, I_B, base, I_A);
  else detail::inertia_to_parent<true>(X_AB, I_B, base, I_A);
}

inline void add_inertia_to_parent(int axis, const Pose& X_AB, const Mat6& I_B, Mat6& I_A) {
  add_inertia_to_parent(axis, X_AB, I_B, I_A, I_A);
}

}  // namespace uwsim::spatial
