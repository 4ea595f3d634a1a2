// Spatial algebra against Fossen's matrix forms, assembled independently in Fossen order.
#include <doctest/doctest.h>

#include <Eigen/Cholesky>

#include "spatial/rotation.h"
#include "spatial/spatial.h"
#include "spatial/transform.h"

using namespace uwsim::spatial;

namespace {

const Vec3 kCg(0.03, -0.02, 0.05);
const double kMass = 11.5;

Mat3 inertia_about_cg() {
  Mat3 I;
  I << 0.21, 0.01, -0.02, 0.01, 0.35, 0.015, -0.02, 0.015, 0.28;
  return I;
}

// [Fossen2011 eq. 3.44]: M_RB = [m I, −m S(r_g); m S(r_g), I_o], I_o = I_g − m S(r_g)²
Mat6 fossen_M_RB() {
  Mat6 M;
  const Mat3 S = skew(kCg);
  M << kMass * Mat3::Identity(), -kMass * S, kMass * S, inertia_about_cg() - kMass * S * S;
  return M;
}

}  // namespace

TEST_CASE("spatial: rigid_body_inertia is Fossen's M_RB (eq. 3.44) with its blocks reordered") {
  const Mat6 spatial_M = rigid_body_inertia(kMass, kCg, inertia_about_cg());
  CHECK((from_fossen_order(fossen_M_RB()) - spatial_M).norm() < 1e-14);
  CHECK((spatial_M - spatial_M.transpose()).norm() < 1e-14);
}

TEST_CASE("spatial: ν ×* (M_RB ν) equals Fossen's C_RB(ν)ν (eq. 3.60, velocity-independent form)") {
  const Vec6 nu = (Vec6() << 0.4, -0.2, 0.3, 0.8, -0.6, 0.5).finished();  // Fossen order
  const Vec3 w = nu.tail<3>();
  const Mat3 Io = inertia_about_cg() - kMass * skew(kCg) * skew(kCg);
  Mat6 C;
  C << kMass * skew(w), -kMass * skew(w) * skew(kCg), kMass * skew(kCg) * skew(w), -skew(Io * w);
  const Vec6 expected = C * nu;
  const Vec6 V = from_fossen_order(nu);
  const Vec6 actual = to_fossen_order(cross_force(V, rigid_body_inertia(kMass, kCg, inertia_about_cg()) * V));
  CHECK((actual - expected).norm() < 1e-13);
}

TEST_CASE("spatial: the force cross product does no work: Vᵀ(V ×* f) = 0, and ×* = −(×)ᵀ") {
  const Vec6 V = (Vec6() << 0.3, -1.2, 0.7, 2.0, 0.1, -0.4).finished();
  const Vec6 f = (Vec6() << 1.5, 0.2, -0.9, 0.4, 3.0, 1.1).finished();
  CHECK(std::abs(V.dot(cross_force(V, f))) < 1e-14);
  Mat6 crm, crf;
  for (int i = 0; i < 6; ++i) {
    crm.col(i) = cross_motion(V, Vec6::Unit(i));
    crf.col(i) = cross_force(V, Vec6::Unit(i));
  }
  CHECK((crf + crm.transpose()).norm() < 1e-15);
}

TEST_CASE("rotation: quaternion, rotation matrix and ZYX Euler angles agree with Eigen") {
  const double roll = 0.3, pitch = -0.7, yaw = 2.5;
  const Eigen::Matrix3d R_expected = (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(pitch, Vec3::UnitY()) *
                                      Eigen::AngleAxisd(roll, Vec3::UnitX())).toRotationMatrix();
  const Quat q = quaternion_from_euler_zyx(roll, pitch, yaw);
  CHECK(std::abs(q.norm() - 1.0) < 1e-15);
  CHECK((rotation_from_quaternion(q) - R_expected).norm() < 1e-14);
  CHECK((euler_zyx_from_rotation(R_expected) - Vec3(roll, pitch, yaw)).norm() < 1e-13);
}

TEST_CASE("rotation: q̇ = ½ q ⊗ [0, ω] matches the finite difference of a constant-rate rotation") {
  const Quat q = quaternion_from_euler_zyx(0.2, 0.1, -0.5);
  const Vec3 w_B(0.3, -0.8, 0.5);
  const double dt = 1e-6;
  const Eigen::Quaterniond q0(q[0], q[1], q[2], q[3]);
  const Eigen::Quaterniond q1 = q0 * Eigen::Quaterniond(Eigen::AngleAxisd(w_B.norm() * dt, w_B.normalized()));
  const Quat finite_difference = (Quat(q1.w(), q1.x(), q1.y(), q1.z()) - q) / dt;
  CHECK((quaternion_rate(q, w_B) - finite_difference).norm() < 1e-6);
}

TEST_CASE("transform: inertia_to_parent equals ᴮX_Aᵀ·I·ᴮX_A, and forces and motions move consistently") {
  Pose X_AB;
  X_AB.R = rotation_from_euler_zyx(Vec3(0.3, -0.5, 1.1));
  X_AB.p = Vec3(0.2, -0.1, 0.4);
  Mat6 L = Mat6::Identity();
  L(3, 0) = 0.3, L(4, 2) = -0.2, L(1, 0) = 0.1, L(5, 3) = 0.4;
  const Mat6 I_B = L * L.transpose();
  const Mat6 X = motion_transform_to_child(X_AB);
  CHECK((inertia_to_parent(X_AB, I_B) - X.transpose() * I_B * X).norm() < 1e-14);
  // Power is frame-independent: f_B · v_B = f_A · v_A with v_B = ᴮX_A v_A, f_A = ᴮX_Aᵀ f_B.
  const Vec6 v_A = (Vec6() << 0.1, -0.4, 0.3, 1.0, 0.5, -0.2).finished();
  const Vec6 f_B = (Vec6() << 2.0, 0.1, -1.0, 0.3, 0.7, 1.5).finished();
  CHECK((motion_to_child(X_AB, v_A) - X * v_A).norm() < 1e-15);
  CHECK(std::abs(f_B.dot(motion_to_child(X_AB, v_A)) - force_to_parent(X_AB, f_B).dot(v_A)) < 1e-14);
}

TEST_CASE("transform: compose_about_axis and motion_to_child about a frame axis are the dense formulas") {
  Pose X_AB;  // a general pose: every entry of R_AB nonzero
  X_AB.R = rotation_about(Vec3(0.3, -0.5, 0.8).normalized(), 0.9);
  X_AB.p = Vec3(0.4, -0.2, 1.1);
  REQUIRE((X_AB.R.array() != 0.0).all());
  const Vec3 axes[3] = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()};
  for (int k = 0; k < 3; ++k) {
    for (double angle : {0.0, 0.4, -2.3, 3.0}) {
      Pose X_BC;
      X_BC.R = rotation_about(axes[k], angle);
      X_BC.p = Vec3(0.2, -0.1, 0.4);
      const int i = (k + 1) % 3, j = (k + 2) % 3;
      Mat3 R_plane;
      write_rotation_about_coordinate_axis(k, X_BC.R(i, i), X_BC.R(j, i), R_plane);
      CHECK((R_plane - X_BC.R).norm() < 1e-16);
      const Pose fast = compose_about_axis(k, X_AB, X_BC), dense = X_AB * X_BC;
      CHECK((fast.R - dense.R).norm() < 1e-15);
      CHECK((fast.p - dense.p).norm() < 1e-15);
      const Vec6 m = (Vec6() << 0.3, -1.2, 0.7, 2.1, -0.4, 0.9).finished();  // no zero entry
      const Vec6 m_fast = motion_to_child(k, X_BC, m), m_dense = motion_to_child(X_BC, m);
      CHECK((m_fast - m_dense).norm() < 1e-15);
      const Vec6 f_fast = force_to_parent(k, X_BC, m), f_dense = force_to_parent(X_BC, m);
      CHECK((f_fast - f_dense).norm() < 1e-15);
      // Axis −1 takes the dense route (the same formula, so within rounding even where fused
      // multiply-adds may contract its two copies differently; to the bit below).
      CHECK((motion_to_child(-1, X_BC, m) - m_dense).norm() < 1e-15);
      CHECK((force_to_parent(-1, X_BC, m) - f_dense).norm() < 1e-15);
      CHECK((compose_about_axis(-1, X_AB, X_BC).R - dense.R).norm() < 1e-15);
#if !defined(__FMA__) && !defined(__FP_FAST_FMA)  // no fused multiply-adds: both round alike
      CHECK((motion_to_child(-1, X_BC, m).array() == m_dense.array()).all());
      CHECK((force_to_parent(-1, X_BC, m).array() == f_dense.array()).all());
      CHECK((compose_about_axis(-1, X_AB, X_BC).R.array() == dense.R.array()).all());
      CHECK((fast.R.array() == dense.R.array()).all());
      CHECK((m_fast.array() == m_dense.array()).all());
      CHECK((f_fast.array() == f_dense.array()).all());
#endif
    }
  }
}

TEST_CASE("transform: inertia_to_parent_about_axis equals ᴮX_Aᵀ·I·ᴮX_A for rotations about each frame axis, and add_inertia_to_parent adds it") {
  Mat6 L = Mat6::Zero();  // dense lower triangle: I_B = L Lᵀ has no zero entry to hide a wrong term
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c <= r; ++c) L(r, c) = r == c ? 1.0 + 0.1 * r : 0.05 * (r + 1) - 0.13 * c;
  const Mat6 I_B = L * L.transpose();
  REQUIRE((I_B.array() != 0.0).all());
  const Vec3 axes[3] = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()};
  for (int k = 0; k < 3; ++k) {
    for (double angle : {0.0, 0.4, -2.3, 3.0}) {
      for (double sign : {1.0, -1.0}) {
        Pose X_AB;
        X_AB.R = rotation_about(sign * axes[k], angle);
        X_AB.p = Vec3(0.2, -0.1, 0.4);
        const Mat6 X = motion_transform_to_child(X_AB);
        const Mat6 dense = X.transpose() * I_B * X;
        // Every route reads only I_B's upper triangle: NaN below the diagonal must not show.
        Mat6 I_B_upper = I_B;
        for (int c = 0; c < 6; ++c)
          for (int r = c + 1; r < 6; ++r) I_B_upper(r, c) = std::numeric_limits<double>::quiet_NaN();
        CHECK((inertia_to_parent_about_axis(k, X_AB, I_B_upper) - dense).norm() < 1e-14);
        CHECK((inertia_to_parent(X_AB, I_B_upper) - dense).norm() < 1e-14);
        // The articulated-body pass adds into the parent's inertia, kept as an upper triangle:
        // both routes must add to each entry of it what is there, and leave the lower triangle
        // alone (here far from the upper one, so that writing or mirroring it shows).
        Mat6 parent = I_B + 2.0 * Mat6::Identity();
        parent(4, 1) += 0.5, parent(2, 0) -= 0.25, parent(5, 3) += 0.125;
        for (int axis : {k, -1}) {
          Mat6 sum = parent;
          add_inertia_to_parent(axis, X_AB, I_B_upper, sum);
          const Mat6 expected_upper = (parent + dense).triangularView<Eigen::Upper>();
          const Mat6 sum_upper = sum.triangularView<Eigen::Upper>();
          CHECK((sum_upper - expected_upper).norm() < 1e-14);
          const Mat6 sum_strictly_lower = sum.triangularView<Eigen::StrictlyLower>();
          const Mat6 parent_strictly_lower = parent.triangularView<Eigen::StrictlyLower>();
          CHECK((sum_strictly_lower.array() == parent_strictly_lower.array()).all());
          // From a separate base (the first child to join starts its parent from the parent's
          // own inertia): the same upper triangle, the output's lower triangle untouched.
          Mat6 started = Mat6::Constant(-7.0);
          add_inertia_to_parent(axis, X_AB, I_B_upper, parent, started);
          const Mat6 started_upper = started.triangularView<Eigen::Upper>();
          CHECK((started_upper - expected_upper).norm() < 1e-14);
          for (int c = 0; c < 6; ++c)
            for (int r = c + 1; r < 6; ++r) CHECK(started(r, c) == -7.0);
        }
      }
    }
  }
}

TEST_CASE("spatial: solve_spd6 solves a symmetric positive-definite 6×6 system like Eigen's LLT") {
  Mat6 L = Mat6::Identity();
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < i; ++j) L(i, j) = 0.1 * (i + 1) - 0.07 * j;
  const Mat6 A = L * L.transpose() + 0.5 * Mat6::Identity();
  const Vec6 b = (Vec6() << 1.0, -2.0, 0.5, 3.0, -1.5, 0.25).finished();
  CHECK((solve_spd6(A, b) - A.llt().solve(b)).norm() < 1e-13);
  CHECK((A * solve_spd6(A, b) - b).norm() < 1e-13);
  // Only the upper triangle is read (the articulated-body pass keeps no other).
  Mat6 A_upper = A;
  for (int c = 0; c < 6; ++c)
    for (int r = c + 1; r < 6; ++r) A_upper(r, c) = std::numeric_limits<double>::quiet_NaN();
  CHECK((solve_spd6(A_upper, b) - A.llt().solve(b)).norm() < 1e-13);
}

TEST_CASE("spatial: upper_symmetric_times multiplies by the symmetric matrix its upper triangle stands for") {
  Mat6 A, A_upper;
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) A(r, c) = 1.0 + 0.3 * (r + c) - 0.1 * r * c;  // symmetric, no zero
  A_upper = A;
  for (int c = 0; c < 6; ++c)
    for (int r = c + 1; r < 6; ++r) A_upper(r, c) = std::numeric_limits<double>::quiet_NaN();
  const Vec6 x = (Vec6() << 1.0, -2.0, 0.5, 3.0, -1.5, 0.25).finished();
  CHECK((upper_symmetric_times(A_upper, x) - A * x).norm() < 1e-14);
  // With a column mask, for an x that is zero in the columns left out: the same product, and
  // those columns are not read. A stored entry (r, c) also stands for (c, r), so NaN can mark
  // only the entries whose row and column are both left out: it must not show.
  Vec6 x_sparse = x;
  x_sparse[1] = x_sparse[4] = 0.0;
  Mat6 A_masked = A_upper;
  A_masked(1, 1) = A_masked(1, 4) = A_masked(4, 4) = std::numeric_limits<double>::quiet_NaN();
  constexpr unsigned without_1_and_4 = 0x3Fu & ~(1u << 1) & ~(1u << 4);
  CHECK((upper_symmetric_times<without_1_and_4>(A_masked, x_sparse) - A * x_sparse).norm() < 1e-14);
  const Vec6 unmasked = upper_symmetric_times(A_masked, x_sparse);  // reads them: NaN · 0
  CHECK(std::isnan(unmasked[1]));
  CHECK(std::isnan(unmasked[4]));
}

TEST_CASE("spatial: solve_spd6 answers NaN for a matrix that is not positive definite") {
  // An articulated inertia that lost positive definiteness is a diverging state: the answer
  // must be NaN, for the divergence watch, as a Cholesky factor's square root gives, not a
  // finite solution of an indefinite system.
  Mat6 A = Mat6::Identity();
  A(2, 2) = -1.0;
  A(4, 2) = A(2, 4) = 0.3;
  const Vec6 b = (Vec6() << 1.0, -2.0, 0.5, 3.0, -1.5, 0.25).finished();
  CHECK(solve_spd6(A, b).array().isNaN().all());
  A(2, 2) = 0.0;  // singular, positive semi-definite only
  CHECK(solve_spd6(A, b).array().isNaN().all());
  // The angular block P positive definite, but not the whole: the coupling makes the Schur
  // complement R − Qᵀ P⁻¹ Q indefinite (here 1 − 1.2² in entry (3, 3)).
  A = Mat6::Identity();
  A(0, 3) = A(3, 0) = 1.2;
  CHECK(A.llt().info() != Eigen::Success);
  CHECK(solve_spd6(A, b).array().isNaN().all());
  // Two negative eigenvalues in a 3×3 block: its determinant is positive, its 2×2 leading
  // minor is not.
  A = Mat6::Identity();
  A(1, 1) = A(2, 2) = -1.0;
  CHECK(solve_spd6(A, b).array().isNaN().all());
  A = Mat6::Identity();
  A(4, 4) = A(5, 5) = -1.0;
  CHECK(solve_spd6(A, b).array().isNaN().all());
}

TEST_CASE("spatial: solve_spd6 on a strongly coupled vehicle-sized inertia agrees with Eigen's LDLT") {
  // A vehicle-sized articulated inertia whose angular and linear blocks are strongly coupled:
  // mass 30, inertia 0.3 about a centre of gravity 0.5 m below the origin, added mass on the
  // diagonal (condition number about 115, so either solve's error is about 115 × 2.2e-16 ≈ 3e-14
  // relative at most). The 1e-12 bands are relative; both solves agree to about 4e-16 here.
  const Vec3 c(0.05, -0.02, 0.5);
  Mat6 A = rigid_body_inertia(30.0, c, Mat3::Identity() * 0.3);
  A.diagonal() += (Vec6() << 0.12, 0.12, 0.12, 5.5, 12.7, 14.6).finished();
  const Vec6 b = (Vec6() << 0.3, -0.2, 0.05, 40.0, -15.0, 110.0).finished();
  const Vec6 reference = A.ldlt().solve(b);
  const Vec6 x = solve_spd6(A, b);
  CHECK((x - reference).norm() <= 1e-12 * reference.norm());
  CHECK((A * x - b).norm() <= 1e-12 * b.norm());
}
