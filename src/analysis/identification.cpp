// References: see identification.h; (1)–(2) there.
#include "analysis/identification.h"

#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "analysis/zero_phase_filter.h"

namespace uwsim::analysis {

JointTrajectories differentiate(const Measurements& m, const FilterSettings& filter) {
  const double T = m.sample_interval, fs = 1.0 / T;
  JointTrajectories out;
  out.cutoff = filter.cutoff > 0.0 ? filter.cutoff : fs / 20.0;
  const std::vector<Section> sections = butterworth_lowpass(filter.order, out.cutoff, fs);
  out.margin = static_cast<std::size_t>(std::ceil(fs / out.cutoff));
  const auto padding = static_cast<std::size_t>(std::ceil(6.0 * fs / out.cutoff));
  const std::size_t n = m.samples();
  if (n < 2 * out.margin + 3)
    throw std::invalid_argument(std::to_string(n) + " samples are too few: " + std::to_string(out.margin) +
                                " at each end are dropped (one period of the " + std::to_string(out.cutoff) +
                                " Hz cutoff) and at least 3 must remain");
  const auto keep = [&](const std::vector<double>& v) {
    return std::vector<double>(v.begin() + static_cast<long>(out.margin), v.end() - static_cast<long>(out.margin));
  };
  for (std::size_t k = out.margin; k + out.margin < n; ++k) out.time.push_back(m.start_time + static_cast<double>(k) * T);
  for (std::size_t r = 0; r < m.position.size(); ++r) {
    const std::vector<double> q = filtfilt(sections, m.position[r], padding);
    out.q.push_back(keep(q));
    out.qd.push_back(keep(first_derivative(q, T)));
    out.qdd.push_back(keep(second_derivative(q, T)));
    out.drive.push_back(keep(m.drive[r]));
  }
  out.is_current = m.is_current;
  return out;
}

Observations observations(Regressor& regressor, const JointTrajectories& data, const std::vector<int>& columns) {
  const int n = regressor.rows();
  const std::size_t samples = data.time.size();
  Observations o;
  o.F.resize(static_cast<Eigen::Index>(samples) * n, static_cast<Eigen::Index>(columns.size()));
  o.b.resize(o.F.rows());
  o.offset.resize(o.F.rows());
  Eigen::MatrixXd Phi(n, regressor.cols());
  std::vector<double> q(static_cast<std::size_t>(n)), qd(q.size()), qdd(q.size()), known(q.size());
  for (std::size_t k = 0; k < samples; ++k) {
    for (std::size_t r = 0; r < q.size(); ++r) q[r] = data.q[r][k], qd[r] = data.qd[r][k], qdd[r] = data.qdd[r][k];
    regressor.evaluate(data.time[k], q.data(), qd.data(), qdd.data(), Phi, known.data());
    for (int r = 0; r < n; ++r) {
      const auto ru = static_cast<std::size_t>(r);
      const Eigen::Index row = static_cast<Eigen::Index>(k) * n + r;
      const bool current = data.is_current[ru];
      const double K = current ? regressor.torque_per_ampere(r, q[ru]) : 1.0;
      const double effort = regressor.model().bodies[static_cast<std::size_t>(regressor.joints()[ru])].joint.effort;
      for (std::size_t c = 0; c < columns.size(); ++c) o.F(row, static_cast<Eigen::Index>(c)) = Phi(r, columns[c]) / K;
      o.offset[row] = current ? (known[ru] - effort) / K : known[ru];  // (1), (2)
      o.b[row] = data.drive[ru][k] - o.offset[row];
    }
  }
  return o;
}

BaseParameters base_parameters_of(Regressor& regressor, std::uint32_t seed, int states) {
  if (states <= 0) states = std::max(50, 10 * regressor.cols());
  const int n = regressor.rows();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Eigen::MatrixXd W(static_cast<Eigen::Index>(states) * n, regressor.cols());
  Eigen::MatrixXd Phi(n, regressor.cols());
  std::vector<double> q(static_cast<std::size_t>(n)), qd(q.size()), qdd(q.size()), known(q.size());
  for (int s = 0; s < states; ++s) {
    for (int r = 0; r < n; ++r) {
      const dynamics::Joint& j = regressor.model().bodies[static_cast<std::size_t>(regressor.joints()[static_cast<std::size_t>(r)])].joint;
      const double reach = j.type == dynamics::JointType::prismatic ? 1.0 : M_PI;
      const double lo = std::isfinite(j.lower) ? j.lower : -reach, hi = std::isfinite(j.upper) ? j.upper : reach;
      const auto ru = static_cast<std::size_t>(r);
      q[ru] = lo + (hi - lo) * unit(rng);
      qd[ru] = 2.0 * unit(rng) - 1.0;
      qdd[ru] = 2.0 * unit(rng) - 1.0;
    }
    regressor.evaluate(0.0, q.data(), qd.data(), qdd.data(), Phi, known.data());
    W.middleRows(static_cast<Eigen::Index>(s) * n, n) = Phi;
  }
  return base_parameters(W, regressor.preferred_order());
}

namespace {

// Step 5's groups: the pivoted positions k with (N Nᵀ)_kk above rounding, two in one group when
// (N Nᵀ)_kl is (connected components); each group as sorted base indices perm[k], groups sorted.
// Returns each pivoted position's group, −1 for a determined parameter.
std::vector<int> undetermined_groups(const Eigen::MatrixXd& NN, const Eigen::VectorXi& perm, std::vector<std::vector<int>>& groups) {
  constexpr double kAlong = 1e-6;  // |(N Nᵀ)_kl| ≤ 1; rounding leaves about 1e-15
  const Eigen::Index r = NN.rows();
  std::vector<int> group(static_cast<std::size_t>(r), -1);
  for (Eigen::Index i = 0; i < r; ++i) {
    if (NN(i, i) <= kAlong || group[static_cast<std::size_t>(i)] >= 0) continue;
    const int g = static_cast<int>(groups.size());
    groups.emplace_back();
    std::vector<Eigen::Index> stack = {i};
    group[static_cast<std::size_t>(i)] = g;
    while (!stack.empty()) {
      const Eigen::Index k = stack.back();
      stack.pop_back();
      groups.back().push_back(perm[k]);
      for (Eigen::Index l = 0; l < r; ++l) {
        if (group[static_cast<std::size_t>(l)] >= 0 || std::abs(NN(k, l)) <= kAlong) continue;
        group[static_cast<std::size_t>(l)] = g;
        stack.push_back(l);
      }
    }
    std::sort(groups.back().begin(), groups.back().end());
  }
  std::sort(groups.begin(), groups.end());
  return group;
}

}  // namespace

void solve_least_squares(const Eigen::MatrixXd& F, const Eigen::VectorXd& b, Fit& out) {
  // Step 4 by QR with column pivoting, F P = Q R, then step 5 on R with its columns scaled to
  // those of Fs: F β = Q R_s γ with γ_k = ‖F e_{p_k}‖ β_{p_k}, so R_s and Fs share singular values.
  const Eigen::Index m = F.rows(), r = F.cols();
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(F);
  const Eigen::MatrixXd R = qr.matrixR().topRows(r).triangularView<Eigen::Upper>();
  const auto& perm = qr.colsPermutation().indices();
  Eigen::VectorXd norms(r);
  for (Eigen::Index k = 0; k < r; ++k) norms[k] = F.col(perm[k]).norm();
  // A column at the rounding of the others (an expression that is 0 on these data, evaluated
  // in floating point) is a zero column: scaled to unit norm it would be a random one.
  const double floor = 1e-12 * norms.maxCoeff();
  Eigen::MatrixXd R_scaled = R;
  for (Eigen::Index k = 0; k < r; ++k) {
    if (norms[k] > floor) R_scaled.col(k) /= norms[k];
    else R_scaled.col(k).setZero(), norms[k] = 1.0;  // γ_k = β_k, and a zero singular value
  }
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(R_scaled, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Eigen::VectorXd& s = svd.singularValues();
  Eigen::Index rank = 0;
  while (rank < r && s[rank] > kRankTolerance * s[0]) ++rank;
  out.rank = static_cast<int>(rank);
  // The minimum-norm least-squares γ over the first `rank` singular directions, and (FᵀF)⁺.
  const Eigen::VectorXd c = (qr.householderQ().transpose() * b).head(r);
  const Eigen::MatrixXd V1 = svd.matrixV().leftCols(rank);
  const Eigen::VectorXd inverse = s.head(rank).cwiseInverse();
  const Eigen::VectorXd gamma = V1 * inverse.asDiagonal() * (svd.matrixU().leftCols(rank).transpose() * c);
  const Eigen::MatrixXd C = V1 * inverse.cwiseAbs2().asDiagonal() * V1.transpose();
  Eigen::VectorXd beta(r);
  for (Eigen::Index k = 0; k < r; ++k) beta[perm[k]] = gamma[k] / norms[k];
  out.sigma = std::sqrt((b - F * beta).squaredNorm() / static_cast<double>(m - rank));
  out.covariance.resize(r, r);
  for (Eigen::Index i = 0; i < r; ++i)
    for (Eigen::Index j = 0; j < r; ++j) out.covariance(perm[i], perm[j]) = out.sigma * out.sigma * C(i, j) / (norms[i] * norms[j]);
  // 5.: the parameters with a component along the null space N.
  const Eigen::MatrixXd N = svd.matrixV().rightCols(r - rank);
  const std::vector<int> group = undetermined_groups(N * N.transpose(), perm, out.undetermined);
  for (Eigen::Index k = 0; k < r; ++k) {
    if (group[static_cast<std::size_t>(k)] < 0) continue;
    beta[perm[k]] = std::numeric_limits<double>::quiet_NaN();
    out.covariance.row(perm[k]).setConstant(std::numeric_limits<double>::quiet_NaN());
    out.covariance.col(perm[k]).setConstant(std::numeric_limits<double>::quiet_NaN());
  }
  out.estimate = beta;
  out.std_dev = out.covariance.diagonal().cwiseSqrt();
  out.scaled_condition = s[0] / s[r - 1];
  const Eigen::VectorXd s_unscaled = Eigen::JacobiSVD<Eigen::MatrixXd>(R).singularValues();
  out.condition = s_unscaled[0] / s_unscaled[r - 1];
}

Fit fit(Regressor& regressor, const BaseParameters& base, const JointTrajectories& data, double min_speed) {
  Observations o = observations(regressor, data, base.independent);
  std::size_t left_out = 0;
  if (min_speed > 0.0) {  // keep the rows of joints moving at least min_speed
    const auto n = static_cast<std::size_t>(regressor.rows());
    Eigen::Index kept = 0;
    for (Eigen::Index row = 0; row < o.F.rows(); ++row) {
      const auto k = static_cast<std::size_t>(row) / n, r = static_cast<std::size_t>(row) % n;
      if (std::abs(data.qd[r][k]) < min_speed) {
        ++left_out;
        continue;
      }
      o.F.row(kept) = o.F.row(row);
      o.b[kept] = o.b[row];
      ++kept;
    }
    o.F.conservativeResize(kept, Eigen::NoChange);
    o.b.conservativeResize(kept);
  }
  const Eigen::Index m = o.F.rows(), r = o.F.cols();
  if (m <= r) throw std::invalid_argument("fewer observations (" + std::to_string(m) + ") than base parameters (" + std::to_string(r) + ")");
  Fit out;
  out.base = base;
  out.observations = static_cast<std::size_t>(m);
  out.left_out = left_out;
  solve_least_squares(o.F, o.b, out);
  out.model_value = base.of(regressor.model_values());
  return out;
}

Prediction predict(Regressor& regressor, const Fit& fit, const JointTrajectories& data, double min_speed) {
  const Observations o = observations(regressor, data, fit.base.independent);
  const Eigen::VectorXd predicted = o.F * fit.estimate + o.offset;
  const auto n = static_cast<std::size_t>(regressor.rows());
  Prediction p;
  p.time = data.time;
  p.measured.assign(n, {});
  p.predicted.assign(n, {});
  p.rmse.assign(n, 0.0);
  p.rmse_moving.assign(n, 0.0);
  std::vector<std::size_t> moving(n, 0);
  for (std::size_t k = 0; k < data.time.size(); ++k) {
    for (std::size_t r = 0; r < n; ++r) {
      const auto row = static_cast<Eigen::Index>(k * n + r);
      p.measured[r].push_back(o.b[row] + o.offset[row]);
      p.predicted[r].push_back(predicted[row]);
      const double e2 = (predicted[row] - p.measured[r].back()) * (predicted[row] - p.measured[r].back());
      p.rmse[r] += e2;
      if (std::abs(data.qd[r][k]) >= min_speed) p.rmse_moving[r] += e2, ++moving[r];
    }
  }
  for (std::size_t r = 0; r < n; ++r) {
    p.rmse[r] = std::sqrt(p.rmse[r] / static_cast<double>(data.time.size()));  // eq. 21
    p.rmse_moving[r] = moving[r] ? std::sqrt(p.rmse_moving[r] / static_cast<double>(moving[r])) : 0.0;
  }
  return p;
}

}  // namespace uwsim::analysis
