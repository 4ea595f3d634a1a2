// Damped-least-squares IK (paper 002 eq. 31): the pseudo-inverse for λ = 0 (checked against
// Eigen's complete orthogonal decomposition), eq. 30's optimality for λ > 0, the 1/(2λ) bound at
// a singularity, weights, and closed-loop IK of a planar arm to a Cartesian target.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <Eigen/QR>
#include <cmath>
#include <random>

#include "control/damped_least_squares.h"

using namespace uwsim::control;

namespace {

template <int M>
WideMatrix<M> random_jacobian(int n, std::mt19937& rng) {
  std::normal_distribution<double> d;
  WideMatrix<M> J(M, n);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < n; ++j) J(i, j) = d(rng);
  return J;
}

// The minimum-norm least-squares solution by complete orthogonal decomposition: independent of
// the SVD the library uses.
template <int M>
Eigen::VectorXd reference_pinv_solve(const WideMatrix<M>& J, const Eigen::Matrix<double, M, 1>& e) {
  const Eigen::MatrixXd A = J;
  return A.completeOrthogonalDecomposition().solve(e);
}

// Planar arm in the x–y plane with link lengths l: tip position and its 3×n Jacobian (z row 0,
// so J has rank 2: the rank-deficient path of the pseudo-inverse).
struct PlanarArm {
  std::vector<double> l;
  Eigen::Vector3d tip(const JointVector& q) const {
    Eigen::Vector3d p = Eigen::Vector3d::Zero();
    double angle = 0.0;
    for (size_t i = 0; i < l.size(); ++i) {
      angle += q[static_cast<Eigen::Index>(i)];
      p += l[i] * Eigen::Vector3d(std::cos(angle), std::sin(angle), 0.0);
    }
    return p;
  }
  WideMatrix<3> jacobian(const JointVector& q) const {
    const int n = static_cast<int>(l.size());
    WideMatrix<3> J = WideMatrix<3>::Zero(3, n);
    double angle = 0.0;
    for (int i = 0; i < n; ++i) {
      angle += q[i];
      const Eigen::Vector3d link = l[static_cast<size_t>(i)] * Eigen::Vector3d(std::cos(angle), std::sin(angle), 0.0);
      for (int j = 0; j <= i; ++j) J.col(j) += Eigen::Vector3d::UnitZ().cross(link);
    }
    return J;
  }
};

}  // namespace

TEST_CASE("damped least squares: λ = 0 is the pseudo-inverse (full rank, square, rank-deficient)") {
  std::mt19937 rng(11);
  std::normal_distribution<double> d;
  for (const int n : {6, 7, 12}) {
    const WideMatrix<6> J = random_jacobian<6>(n, rng);
    const Eigen::Matrix<double, 6, 1> e = Eigen::Matrix<double, 6, 1>::NullaryExpr([&] { return d(rng); });
    const JointVector qd = damped_least_squares_step(J, e, 0.0);
    CHECK((qd - reference_pinv_solve<6>(J, e)).norm() < 1e-10 * qd.norm());
    CHECK((J * qd - e).norm() < 1e-10 * e.norm());  // full row rank: the task is met exactly
    if (n == 6) CHECK((qd - Eigen::MatrixXd(J).inverse() * e).norm() < 1e-10 * qd.norm());
  }
  // Rank 2 in 3 rows: the minimum-norm least-squares answer.
  WideMatrix<3> J = random_jacobian<3>(5, rng);
  J.row(2) = 0.5 * J.row(0) - 2.0 * J.row(1);
  const Eigen::Vector3d e(1.0, -2.0, 0.7);
  CHECK((damped_least_squares_step(J, e, 0.0) - reference_pinv_solve<3>(J, e)).norm() < 1e-10);
}

TEST_CASE("damped least squares: λ > 0 minimises λ²‖q̇‖² + ‖Jq̇ − e‖² and bounds q̇ at a singularity") {
  std::mt19937 rng(5);
  const Eigen::Matrix<double, 6, 1> e = (Eigen::Matrix<double, 6, 1>() << 0.1, -0.2, 0.3, 0.5, 0, 1).finished();
  const double lambda = 0.05;
  for (const double gap : {1.0, 1e-3, 1e-9, 0.0}) {
    // Two rows that become parallel as gap → 0: a kinematic singularity.
    WideMatrix<6> J = random_jacobian<6>(8, rng);
    J.row(5) = J.row(4) + gap * J.row(5);
    const JointVector qd = damped_least_squares_step(J, e, lambda);
    // Stationarity of the cost (paper 002 eq. 30 with W = I, Q = I/λ²).
    CHECK((J.transpose() * (J * qd - e) + lambda * lambda * qd).norm() < 1e-10);
    CHECK(qd.norm() <= e.norm() / (2 * lambda));
  }
}

TEST_CASE("damped least squares: weights W⁻¹ of eq. 31 lock a joint and redistribute motion") {
  std::mt19937 rng(9);
  const WideMatrix<3> J = random_jacobian<3>(6, rng);
  const Eigen::Vector3d e(0.3, -0.1, 0.2);
  JointVector w_inv = JointVector::Ones(6);
  w_inv[2] = 0.0;  // joint 3 locked
  const JointVector qd = damped_least_squares_step(J, e, 0.0, w_inv);
  CHECK(qd[2] == 0.0);
  CHECK((J * qd - e).norm() < 1e-12);
  // Equal weights are the unweighted step; the weighted one is the W-norm minimiser:
  // it equals the pseudo-inverse solution of J restricted to the unlocked joints.
  CHECK((damped_least_squares_step(J, e, 0.0, JointVector::Constant(6, 4.0)) -
         damped_least_squares_step(J, e, 0.0)).norm() < 1e-12);
  WideMatrix<3> J_free(3, 5);
  J_free << J.leftCols(2), J.rightCols(3);
  const JointVector qd_free = damped_least_squares_step(J_free, e, 0.0);
  CHECK((qd.head(2) - qd_free.head(2)).norm() < 1e-12);
  CHECK((qd.tail(3) - qd_free.tail(3)).norm() < 1e-12);
}

TEST_CASE("damped least squares: closed-loop IK brings a planar 3-link arm's tip to a target") {
  // Paper 002 eq. 28: q̇ = J†(ẋ_d + Λ x̃), here with ẋ_d = 0, Λ = 1/s, integrated by Euler steps.
  const PlanarArm arm{{0.3, 0.25, 0.12}};
  JointVector q = JointVector::Zero(3);
  q << 0.3, 0.4, -0.2;
  const Eigen::Vector3d target(0.1, 0.45, 0.0);
  for (const double lambda : {0.0, 0.02}) {
    JointVector qi = q;
    for (int k = 0; k < 2000; ++k)
      qi += 0.01 * damped_least_squares_step(arm.jacobian(qi), target - arm.tip(qi), lambda);
    CHECK((arm.tip(qi) - target).norm() < 1e-9);
  }
  // The Jacobian used is the tip's: check it against finite differences.
  const WideMatrix<3> J = arm.jacobian(q);
  for (int j = 0; j < 3; ++j) {
    JointVector qp = q, qm = q;
    qp[j] += 1e-6;
    qm[j] -= 1e-6;
    CHECK(((arm.tip(qp) - arm.tip(qm)) / 2e-6 - J.col(j)).norm() < 1e-8);
  }
}
