// References: see base_parameters.h; (1) there.
#include "analysis/base_parameters.h"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace uwsim::analysis {

Eigen::VectorXd BaseParameters::of(const Eigen::VectorXd& theta) const {
  Eigen::VectorXd beta(size());
  for (int k = 0; k < size(); ++k) {
    beta[k] = theta[independent[static_cast<std::size_t>(k)]];
    for (std::size_t d = 0; d < dependent.size(); ++d) beta[k] += B(k, static_cast<Eigen::Index>(d)) * theta[dependent[d]];
  }
  return beta;
}

std::string BaseParameters::expression(int k, const std::vector<Parameter>& parameters) const {
  std::string text = parameters[static_cast<std::size_t>(independent[static_cast<std::size_t>(k)])].name;
  for (std::size_t d = 0; d < dependent.size(); ++d) {
    const double c = B(k, static_cast<Eigen::Index>(d));
    if (c == 0.0) continue;
    char coefficient[32] = "";
    if (std::abs(std::abs(c) - 1.0) > 1e-9) std::snprintf(coefficient, sizeof coefficient, "%.6g·", std::abs(c));
    text += c < 0.0 ? " − " : " + ";
    text += coefficient + parameters[static_cast<std::size_t>(dependent[d])].name;
  }
  return text;
}

namespace {

// Columns of the unit-norm matrix Ws kept in `order` when they add to the span of those
// kept before (Gram–Schmidt with one re-orthogonalisation).
std::vector<int> greedy_independent(const Eigen::MatrixXd& Ws, const std::vector<int>& order, double tolerance) {
  std::vector<int> kept;
  Eigen::MatrixXd Q(Ws.rows(), 0);
  for (int j : order) {
    Eigen::VectorXd v = Ws.col(j);
    for (int pass = 0; pass < 2; ++pass) v -= Q * (Q.transpose() * v);
    const double norm = v.norm();
    if (norm <= tolerance) continue;
    Q.conservativeResize(Eigen::NoChange, Q.cols() + 1);
    Q.col(Q.cols() - 1) = v / norm;
    kept.push_back(j);
  }
  return kept;
}

}  // namespace

BaseParameters base_parameters(const Eigen::MatrixXd& W, const std::vector<int>& preferred, double tolerance) {
  const Eigen::Index p = W.cols();
  const Eigen::VectorXd scale = W.colwise().norm().transpose();
  const double largest = scale.maxCoeff();
  std::vector<int> order = preferred;
  if (order.empty()) {
    order.resize(static_cast<std::size_t>(p));
    std::iota(order.begin(), order.end(), 0);
  }
  std::vector<int> nonzero;  // in preferred order
  for (int j : order)
    if (scale[j] > 1e-12 * largest) nonzero.push_back(j);
  const auto m = static_cast<Eigen::Index>(nonzero.size());
  Eigen::MatrixXd Ws(W.rows(), m);
  for (Eigen::Index j = 0; j < m; ++j) Ws.col(j) = W.col(nonzero[static_cast<std::size_t>(j)]) / scale[nonzero[static_cast<std::size_t>(j)]];

  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(Ws);
  qr.setThreshold(tolerance);
  const Eigen::Index r = qr.rank();
  std::vector<int> positions(static_cast<std::size_t>(m));
  std::iota(positions.begin(), positions.end(), 0);
  std::vector<int> kept = greedy_independent(Ws, positions, tolerance);
  if (static_cast<Eigen::Index>(kept.size()) != r) {
    kept.clear();
    for (Eigen::Index k = 0; k < r; ++k) kept.push_back(static_cast<int>(qr.colsPermutation().indices()[k]));
  }
  std::sort(kept.begin(), kept.end(), [&](int a, int b) { return nonzero[static_cast<std::size_t>(a)] < nonzero[static_cast<std::size_t>(b)]; });
  std::vector<int> rest;  // positions in Ws of the dependent nonzero columns
  for (int j = 0; j < static_cast<int>(m); ++j)
    if (std::find(kept.begin(), kept.end(), j) == kept.end()) rest.push_back(j);

  BaseParameters out;
  for (int k : kept) out.independent.push_back(nonzero[static_cast<std::size_t>(k)]);
  for (int j = 0; j < static_cast<int>(p); ++j)
    if (std::find(out.independent.begin(), out.independent.end(), j) == out.independent.end()) out.dependent.push_back(j);
  out.B = Eigen::MatrixXd::Zero(r, static_cast<Eigen::Index>(out.dependent.size()));
  if (rest.empty()) return out;
  Eigen::MatrixXd Wb(Ws.rows(), r), Wd(Ws.rows(), static_cast<Eigen::Index>(rest.size()));
  for (Eigen::Index k = 0; k < r; ++k) Wb.col(k) = Ws.col(kept[static_cast<std::size_t>(k)]);
  for (std::size_t d = 0; d < rest.size(); ++d) Wd.col(static_cast<Eigen::Index>(d)) = Ws.col(rest[d]);
  const Eigen::MatrixXd Bs = Wb.colPivHouseholderQr().solve(Wd);
  for (Eigen::Index i = 0; i < r; ++i) {
    for (std::size_t d = 0; d < rest.size(); ++d) {
      const double c = Bs(i, static_cast<Eigen::Index>(d));
      if (std::abs(c) < 1e-10) continue;
      const int column = nonzero[static_cast<std::size_t>(rest[d])];
      const auto at = std::find(out.dependent.begin(), out.dependent.end(), column) - out.dependent.begin();
      out.B(i, at) = c * scale[column] / scale[out.independent[static_cast<std::size_t>(i)]];  // (1)
    }
  }
  return out;
}

}  // namespace uwsim::analysis
