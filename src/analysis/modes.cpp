// References: see modes.h.
#include "analysis/modes.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>

namespace uwsim::analysis {

namespace {

Mode mode_of(std::complex<double> lambda, bool neutral, const Eigen::VectorXd& p) {
  Mode mode;
  const double magnitude = std::abs(lambda);
  mode.eigenvalue = neutral ? std::complex<double>(0.0) : lambda;
  mode.neutral = neutral;
  mode.natural_frequency = neutral ? 0.0 : magnitude;
  mode.damping_ratio = neutral ? std::numeric_limits<double>::quiet_NaN() : -lambda.real() / magnitude;
  mode.time_constant = neutral || lambda.real() == 0.0 ? std::numeric_limits<double>::infinity() : -1.0 / lambda.real();
  const double total = p.sum();
  mode.participation = total > 0.0 ? Eigen::VectorXd(p / total) : p;
  return mode;
}

// D with D⁻¹AD balanced: Osborne's iteration in the 2-norm with powers of 2 (exact scalings).
Eigen::VectorXd balance(const Eigen::MatrixXd& A) {
  const Eigen::Index n = A.rows();
  Eigen::VectorXd D = Eigen::VectorXd::Ones(n);
  Eigen::MatrixXd B = A;
  for (int sweep = 0; sweep < 100; ++sweep) {
    bool changed = false;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double c = std::sqrt(B.col(i).squaredNorm() - B(i, i) * B(i, i));
      const double r = std::sqrt(B.row(i).squaredNorm() - B(i, i) * B(i, i));
      if (c == 0.0 || r == 0.0) continue;
      int e = 0;
      std::frexp(std::sqrt(r / c), &e);
      const double f = std::ldexp(1.0, e - 1);  // the power of 2 nearest below √(r/c)
      if (f == 1.0 || (c * f) * (c * f) + (r / f) * (r / f) >= 0.95 * (c * c + r * r)) continue;
      B.col(i) *= f;  // D⁻¹ B D with D_i scaled by f
      B.row(i) /= f;
      D[i] *= f;
      changed = true;
    }
    if (!changed) break;
  }
  return D;
}

// An orthonormal Q = [Q_G Q_D] with Q_G spanning the generalised kernel of A (modes.h (2));
// returns dim G.
Eigen::Index split_kernel(const Eigen::MatrixXd& A, Eigen::MatrixXd& Q) {
  const Eigen::Index n = A.rows();
  const double tolerance = 1e-9 * Eigen::JacobiSVD<Eigen::MatrixXd>(A).singularValues()[0];
  Eigen::Index g = 0;
  Q = Eigen::MatrixXd::Identity(n, n);
  Eigen::MatrixXd projected = A;  // (1 − P_G) A
  for (Eigen::Index k = 1; k <= n; ++k) {
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(projected, Eigen::ComputeFullV);
    Eigen::Index rank = 0;
    while (rank < n && svd.singularValues()[rank] > tolerance) ++rank;
    if (n - rank <= g) break;
    g = n - rank;
    // V = [row space | null space]: the null space first.
    Q << svd.matrixV().rightCols(g), svd.matrixV().leftCols(rank);
    if (g == n) break;
    const Eigen::MatrixXd G = Q.leftCols(g);
    projected = A - G * (G.transpose() * A);
  }
  return g;
}

}  // namespace

ModalAnalysis modal_analysis(const Eigen::MatrixXd& A, const Eigen::MatrixXd* basis) {
  ModalAnalysis out;
  const Eigen::Index n = A.rows();
  if (n == 0) return out;
  // In balanced coordinates A_b = D⁻¹AD: a vector v_b there is D v_b in y (and N D v_b in z),
  // a left vector w_b is D⁻¹ w_b.
  const Eigen::VectorXd D = balance(A);
  const Eigen::MatrixXd A_b = D.cwiseInverse().asDiagonal() * A * D.asDiagonal();
  Eigen::MatrixXd Q;
  const Eigen::Index g = split_kernel(A_b, Q), d = n - g;
  out.neutral = static_cast<int>(g);
  const Eigen::MatrixXd T = Q.transpose() * A_b * Q;  // (2)
  Eigen::MatrixXd Z = D.asDiagonal() * Q, Z_left = D.cwiseInverse().asDiagonal() * Q;  // Q's columns in y
  if (basis) {
    Z = (*basis * Z).eval();
    Z_left = (*basis * Z_left).eval();
  }

  if (g > 0) {
    // A basis of G with a 1 on one state and 0 on the other pivots: readable neutral modes.
    const Eigen::MatrixXd Z_G = Z.leftCols(g);
    const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(Z_G.transpose());
    Eigen::MatrixXd pivots(g, g);
    for (Eigen::Index j = 0; j < g; ++j) pivots.row(j) = Z_G.row(qr.colsPermutation().indices()[j]);
    const Eigen::MatrixXd readable = Z_G * pivots.inverse();
    for (Eigen::Index j = 0; j < g; ++j) out.modes.push_back(mode_of(0.0, true, readable.col(j).cwiseAbs()));
  }
  if (d > 0) {
    const Eigen::MatrixXd A_DD = T.bottomRightCorner(d, d), A_GD = T.topRightCorner(g, d);
    const Eigen::MatrixXcd A_GG = T.topLeftCorner(g, g).cast<std::complex<double>>();
    const Eigen::EigenSolver<Eigen::MatrixXd> solver(A_DD, true);
    const Eigen::VectorXcd lambda = solver.eigenvalues();
    const Eigen::MatrixXcd V = solver.eigenvectors();
    const Eigen::PartialPivLU<Eigen::MatrixXcd> lu(V);
    out.participation_from_magnitudes = !(lu.rcond() > 1e-10);
    const Eigen::MatrixXcd W = out.participation_from_magnitudes ? Eigen::MatrixXcd() : Eigen::MatrixXcd(lu.inverse());
    const Eigen::MatrixXcd Zc = Z.cast<std::complex<double>>(), Zc_left = Z_left.cast<std::complex<double>>();
    for (Eigen::Index i = 0; i < d; ++i) {
      Eigen::VectorXcd v(n), w = Eigen::VectorXcd::Zero(n);
      const Eigen::MatrixXcd shifted = lambda[i] * Eigen::MatrixXcd::Identity(g, g) - A_GG;
      v.head(g) = shifted.partialPivLu().solve(A_GD * V.col(i));
      v.tail(d) = V.col(i);
      const Eigen::VectorXcd v_z = Zc * v;
      Eigen::VectorXd p;
      if (out.participation_from_magnitudes) {
        p = v_z.cwiseAbs();
      } else {
        w.tail(d) = W.row(i).transpose();
        p = v_z.cwiseProduct(Zc_left * w).cwiseAbs();  // (1)
      }
      out.modes.push_back(mode_of(lambda[i], false, p));
    }
  }
  // Least stable first; a conjugate pair together, positive imaginary part first.
  std::stable_sort(out.modes.begin(), out.modes.end(), [](const Mode& a, const Mode& b) {
    if (a.eigenvalue.real() != b.eigenvalue.real()) return a.eigenvalue.real() > b.eigenvalue.real();
    if (std::abs(a.eigenvalue.imag()) != std::abs(b.eigenvalue.imag()))
      return std::abs(a.eigenvalue.imag()) < std::abs(b.eigenvalue.imag());
    return a.eigenvalue.imag() > b.eigenvalue.imag();
  });
  return out;
}

}  // namespace uwsim::analysis
