// x = Aᵀ(AAᵀ + λ²I)⁻¹ b for a wide M×n matrix A (M = 3 or 6 rows, n ≤ kMaxColumns columns):
// the damped pseudo-inverse, and for λ = 0 the Moore–Penrose pseudo-inverse A⁺b.
// References: [SverdrupThygeson2018] eq. 31 (damped least squares, W = I, Q = I/λ²) and
// eq. 36–37 (damped thrust allocation).
//
// x minimises λ²‖x‖² + ‖Ax − b‖²; for λ = 0 it is the minimum-norm least-squares solution.
// With the singular value decomposition A = U diag(s_i) Vᵀ:
//   x = V diag(f_i) Uᵀ b,   f_i = s_i / (s_i² + λ²)                                      (1)
// which equals Aᵀ(AAᵀ + λ²I)⁻¹b and, for λ = 0, A⁺b with f_i = 1/s_i for s_i > 1e-12·s_max and 0
// below (a rank-deficient A gets the true pseudo-inverse). The SVD keeps full accuracy near
// singular configurations, where forming AAᵀ would square the condition number.
// For λ > 0, ‖x‖ ≤ ‖b‖ / (2λ) whatever A is (s / (s² + λ²) ≤ 1 / (2λ)).
// Fixed maximum sizes throughout: no heap allocation.
#pragma once

#include <Eigen/Core>
#include <Eigen/SVD>

namespace uwsim::control {

constexpr int kMaxColumns = 32;  // thrusters of one allocation, or joints of one IK chain

template <int M>
using WideMatrix = Eigen::Matrix<double, M, Eigen::Dynamic, Eigen::ColMajor, M, kMaxColumns>;
using ColumnVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxColumns, 1>;

template <int M>
ColumnVector damped_pseudo_inverse_solve(const WideMatrix<M>& A, const Eigen::Matrix<double, M, 1>& b,
                                         double lambda) {
  const Eigen::JacobiSVD<WideMatrix<M>> svd(
      A, Eigen::ComputeFullU | Eigen::ComputeThinV);
  const auto& s = svd.singularValues();
  const double cut = s.size() > 0 ? 1e-12 * s[0] : 0.0;
  Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, M, 1> y =
      svd.matrixU().leftCols(s.size()).transpose() * b;
  for (Eigen::Index i = 0; i < s.size(); ++i) {  // (1)
    if (lambda > 0.0)
      y[i] *= s[i] / (s[i] * s[i] + lambda * lambda);
    else
      y[i] = s[i] > cut ? y[i] / s[i] : 0.0;
  }
  return svd.matrixV() * y;
}

}  // namespace uwsim::control
