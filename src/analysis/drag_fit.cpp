// References: see drag_fit.h; (1) there.
#include "analysis/drag_fit.h"

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace uwsim::analysis {

namespace {

struct Candidate {
  Eigen::Vector2d c = Eigen::Vector2d::Zero();
  bool free[2] = {false, false};
  double cost = std::numeric_limits<double>::infinity();
};

// One speed |u| (see drag_fit.h): refused, with the slope k of f = k·u the data do give
// (weighted least squares, Σ w u f / Σ w u²).
void require_two_speeds(const std::vector<double>& speed, const std::vector<double>& force, const Eigen::VectorXd& w) {
  double first = 0.0, uu = 0.0, uf = 0.0;
  for (std::size_t k = 0; k < speed.size(); ++k) {
    const double s = std::abs(speed[k]);
    if (s == 0.0) continue;  // no drag at rest: the point says nothing of c₁ or c₂
    if (first == 0.0) first = s;
    if (s != first) return;
    uu += w[static_cast<Eigen::Index>(k)] * speed[k] * speed[k];
    uf += w[static_cast<Eigen::Index>(k)] * speed[k] * force[k];
  }
  char text[320];
  if (first == 0.0)
    std::snprintf(text, sizeof text, "every point is at speed 0, where the drag is 0 whatever c1 and c2: tow at two speeds or more");
  else
    std::snprintf(text, sizeof text, "every point is at one speed, |u| = %.6g: there c1·|u|·u + c2·u = (%.6g·c1 + c2)·u, so the data give "
                  "%.6g·c1 + c2 = %.6g and not how it splits into c1 and c2; tow at two speeds or more", first, first, first, uf / uu);
  throw std::invalid_argument(text);
}

}  // namespace

DragFit fit_drag(const std::vector<double>& speed, const std::vector<double>& force, const std::vector<double>& variance) {
  const std::size_t m = speed.size();
  if (force.size() != m || (!variance.empty() && variance.size() != m))
    throw std::invalid_argument("speed, force and variance must have one value per point");
  if (m < 2) throw std::invalid_argument("a drag fit needs at least 2 points");
  Eigen::MatrixXd A(static_cast<Eigen::Index>(m), 2);
  Eigen::VectorXd f(static_cast<Eigen::Index>(m)), w(static_cast<Eigen::Index>(m));
  for (std::size_t k = 0; k < m; ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    A(i, 0) = std::abs(speed[k]) * speed[k];
    A(i, 1) = speed[k];
    f[i] = force[k];
    if (!variance.empty() && !(variance[k] > 0.0 && std::isfinite(variance[k]))) throw std::invalid_argument("every variance must be positive");
    if (!std::isfinite(speed[k]) || !std::isfinite(force[k])) throw std::invalid_argument("every speed and force must be finite");
    w[i] = variance.empty() ? 1.0 : 1.0 / variance[k];
  }
  require_two_speeds(speed, force, w);
  const Eigen::VectorXd sw = w.cwiseSqrt();
  const Eigen::MatrixXd Aw = sw.asDiagonal() * A;
  const Eigen::VectorXd fw = sw.asDiagonal() * f;
  Candidate best;
  for (const auto& pattern : {std::pair{true, true}, std::pair{true, false}, std::pair{false, true}}) {  // (1)
    Candidate c;
    c.free[0] = pattern.first, c.free[1] = pattern.second;
    if (c.free[0] && c.free[1]) c.c = Aw.colPivHouseholderQr().solve(fw);
    else for (int j = 0; j < 2; ++j)
      if (c.free[j]) c.c[j] = Aw.col(j).squaredNorm() > 0.0 ? Aw.col(j).dot(fw) / Aw.col(j).squaredNorm() : 0.0;
    if (c.c[0] < 0.0 || c.c[1] < 0.0) continue;
    c.cost = (fw - Aw * c.c).squaredNorm();
    if (c.cost < best.cost) best = c;
  }
  if (!std::isfinite(best.cost)) {  // both alone negative: the bound holds both at 0
    best.free[0] = best.free[1] = false;
    best.c.setZero();
    best.cost = fw.squaredNorm();
  }
  DragFit out;
  out.points = m;
  out.quadratic = best.c[0], out.linear = best.c[1];
  out.quadratic_at_bound = !best.free[0], out.linear_at_bound = !best.free[1];
  const int k = (best.free[0] ? 1 : 0) + (best.free[1] ? 1 : 0);
  if (k > 0 && static_cast<int>(m) > k) {
    std::vector<int> cols;
    for (int j = 0; j < 2; ++j) if (best.free[j]) cols.push_back(j);
    Eigen::MatrixXd Af(static_cast<Eigen::Index>(m), k);
    for (int j = 0; j < k; ++j) Af.col(j) = Aw.col(cols[static_cast<std::size_t>(j)]);
    const double s2 = variance.empty() ? best.cost / static_cast<double>(static_cast<int>(m) - k) : 1.0;
    const Eigen::MatrixXd cov = s2 * (Af.transpose() * Af).inverse();
    for (int j = 0; j < k; ++j) (cols[static_cast<std::size_t>(j)] == 0 ? out.quadratic_std : out.linear_std) = std::sqrt(cov(j, j));
  }
  out.rmse = std::sqrt((f - A * best.c).squaredNorm() / static_cast<double>(m));
  return out;
}

}  // namespace uwsim::analysis
