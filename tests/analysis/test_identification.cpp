// Identification on simulated data with known parameters: least squares recovers the base
// parameters within the standard deviations it reports, the condition number agrees with an
// independent computation, and the filtering pipeline reproduces exact currents.
#include <doctest/doctest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <random>

#include "analysis/identification.h"
#include "model/build_model.h"
#include "support/fixed_trees.h"

using namespace uwsim;

namespace {

// Random states (row `still` held at q = 0.2 and at rest, when ≥ 0) and their drives.
analysis::JointTrajectories random_samples(const dynamics::Model& model, analysis::Regressor& reg, std::size_t n, double noise,
                                           unsigned seed, int still = -1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::normal_distribution<double> e(0.0, noise);
  analysis::JointTrajectories data;
  const auto rows = static_cast<std::size_t>(reg.rows());
  data.q.assign(rows, {}), data.qd.assign(rows, {}), data.qdd.assign(rows, {}), data.drive.assign(rows, {});
  for (int r = 0; r < reg.rows(); ++r) data.is_current.push_back(reg.has_motor(r));
  std::vector<double> q(rows), qd(rows), qdd(rows);
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t r = 0; r < rows; ++r) q[r] = 0.75 * u(rng), qd[r] = 2.0 * u(rng), qdd[r] = 3.0 * u(rng);
    if (still >= 0) q[static_cast<std::size_t>(still)] = 0.2, qd[static_cast<std::size_t>(still)] = qdd[static_cast<std::size_t>(still)] = 0.0;
    const std::vector<double> d = test::drive_at(model, reg, q, qd, qdd);
    data.time.push_back(0.01 * static_cast<double>(k));
    for (std::size_t r = 0; r < rows; ++r) {
      data.q[r].push_back(q[r]), data.qd[r].push_back(qd[r]), data.qdd[r].push_back(qdd[r]);
      data.drive[r].push_back(d[r] + e(rng));
    }
  }
  return data;
}

}  // namespace

TEST_CASE("identification: noisy currents give back the base parameters within their reported standard deviations") {
  test::RandomBodies rnd(23);
  for (bool fluid : {false, true}) {
    const dynamics::Model model = model::build_model(test::random_fixed_forest(rnd, fluid));
    analysis::Regressor reg(model, {});
    const analysis::BaseParameters base = analysis::base_parameters_of(reg, 7);
    const double sigma = 0.05;  // A on the motors, N m or N on the other joints
    const analysis::JointTrajectories data = random_samples(model, reg, 3000, sigma, 11);
    const analysis::Fit fit = analysis::fit(reg, base, data);
    REQUIRE(fit.estimate.size() == base.size());
    CHECK(fit.rank == base.size());
    CHECK(fit.undetermined.empty());
    CHECK(fit.sigma == doctest::Approx(sigma).epsilon(0.03));
    for (int k = 0; k < base.size(); ++k) {
      const double z = (fit.estimate[k] - fit.model_value[k]) / fit.std_dev[k];
      INFO(base.expression(k, reg.parameters()) << ": " << fit.estimate[k] << " ± " << fit.std_dev[k] << ", true " << fit.model_value[k]);
      CHECK(std::abs(z) < 4.0);
    }
    // The estimates are correlated: their joint error (β̂ − β)ᵀ cov⁻¹ (β̂ − β) is χ² with r degrees
    // of freedom, mean r and standard deviation √(2r).
    const Eigen::VectorXd e = fit.estimate - fit.model_value;
    const double chi2 = e.dot(fit.covariance.ldlt().solve(e)), r = base.size();
    CHECK(std::abs(chi2 - r) < 4.0 * std::sqrt(2.0 * r));
    // Without noise the estimate is exact.
    const analysis::Fit exact = analysis::fit(reg, base, random_samples(model, reg, 300, 0.0, 12));
    CHECK((exact.estimate - exact.model_value).norm() < 1e-8 * exact.model_value.norm());
  }
}

TEST_CASE("identification: the condition number agrees with √(λmax/λmin) of FᵀF by a symmetric eigensolver") {
  test::RandomBodies rnd(29);
  const dynamics::Model model = model::build_model(test::random_fixed_forest(rnd, false));
  analysis::Regressor reg(model, {});
  const analysis::BaseParameters base = analysis::base_parameters_of(reg, 3);
  const analysis::JointTrajectories data = random_samples(model, reg, 500, 0.01, 4);
  const analysis::Fit fit = analysis::fit(reg, base, data);
  const Eigen::MatrixXd F = analysis::observations(reg, data, base.independent).F;
  const Eigen::VectorXd lambda = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(F.transpose() * F).eigenvalues();
  CHECK(fit.condition == doctest::Approx(std::sqrt(lambda.maxCoeff() / lambda.minCoeff())).epsilon(1e-6));
  Eigen::MatrixXd Fs = F;
  for (Eigen::Index k = 0; k < F.cols(); ++k) Fs.col(k).normalize();
  const Eigen::VectorXd mu = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Fs.transpose() * Fs).eigenvalues();
  CHECK(fit.scaled_condition == doctest::Approx(std::sqrt(mu.maxCoeff() / mu.minCoeff())).epsilon(1e-6));
  CHECK(fit.scaled_condition < fit.condition);  // the units spread F's columns over decades
}

TEST_CASE("identification: from positions alone, filtered and differentiated, the fit predicts exact currents to 0.1 %") {
  // A smooth multi-sine trajectory sampled at 100 Hz: the currents are computed from its exact
  // rates; only q goes through the zero-phase filter and the central differences. Dry friction
  // is left out: one sample whose filtered rate has the other sign at a reversal flips its
  // friction, 2·f_c in one sample of 6000 (0.2 % of the RMS here), which is the model, not
  // the pipeline.
  test::RandomBodies rnd(31);
  scenario::Scenario sc = test::random_fixed_forest(rnd, false);
  for (auto& j : sc.joints) j.friction = 0.0, j.actuator.motor.dry_friction = 0.0, j.actuator.linear.motor.dry_friction = 0.0, j.actuator.linear.screw_dry_friction = 0.0;
  const dynamics::Model model = model::build_model(sc);
  analysis::Regressor reg(model, {});
  const std::size_t rows = static_cast<std::size_t>(reg.rows()), n = 6000;
  analysis::Measurements m;
  m.sample_interval = 0.01;
  m.position.assign(rows, {}), m.drive.assign(rows, {});
  for (int r = 0; r < reg.rows(); ++r) m.is_current.push_back(reg.has_motor(r));
  std::vector<double> q(rows), qd(rows), qdd(rows);
  for (std::size_t k = 0; k < n; ++k) {
    const double t = 0.01 * static_cast<double>(k);
    for (std::size_t r = 0; r < rows; ++r) {
      q[r] = qd[r] = qdd[r] = 0.0;
      for (int h = 1; h <= 4; ++h) {
        const double w = 2.0 * M_PI * 0.05 * h * (1.0 + 0.13 * static_cast<double>(r)), a = 0.5 / h;
        q[r] += a * std::sin(w * t + r + h), qd[r] += a * w * std::cos(w * t + r + h), qdd[r] -= a * w * w * std::sin(w * t + r + h);
      }
    }
    const std::vector<double> d = test::drive_at(model, reg, q, qd, qdd);
    for (std::size_t r = 0; r < rows; ++r) m.position[r].push_back(q[r]), m.drive[r].push_back(d[r]);
  }
  const analysis::JointTrajectories data = analysis::differentiate(m, {});
  CHECK(data.cutoff == doctest::Approx(5.0));  // f_s/20
  CHECK(data.margin == 20);
  CHECK(data.time.size() == n - 40);
  const analysis::Fit fit = analysis::fit(reg, analysis::base_parameters_of(reg, 5), data);
  const analysis::Prediction p = analysis::predict(reg, fit, data);
  for (std::size_t r = 0; r < rows; ++r) {
    double rms = 0.0;
    for (double v : p.measured[r]) rms += v * v / static_cast<double>(p.measured[r].size());
    CHECK(p.rmse[r] < 1e-3 * std::sqrt(rms));
  }
}

namespace {

// A column of F whose norm is at the rounding of the largest is zero (identification.cpp).
bool zero_column(const Eigen::MatrixXd& F, Eigen::Index k) { return F.col(k).norm() <= 1e-12 * F.colwise().norm().maxCoeff(); }

// F with unit-norm columns, and its zero columns zero.
Eigen::MatrixXd unit_columns(const Eigen::MatrixXd& F) {
  Eigen::MatrixXd out = F;
  for (Eigen::Index k = 0; k < F.cols(); ++k)
    if (zero_column(F, k)) out.col(k).setZero();
    else out.col(k).normalize();
  return out;
}

Eigen::Index rank_by_eigenvalues(const Eigen::MatrixXd& F) {  // of F, from FᵀF
  const Eigen::VectorXd lambda = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(F.transpose() * F).eigenvalues();
  // The nonzero λ of random data are far above 1e-12 λmax; the zero ones rounding (~1e-15).
  return (lambda.array() > 1e-12 * lambda.maxCoeff()).count();
}

Eigen::MatrixXd columns(const Eigen::MatrixXd& F, const std::vector<int>& which) {
  Eigen::MatrixXd out(F.rows(), static_cast<Eigen::Index>(which.size()));
  for (std::size_t k = 0; k < which.size(); ++k) out.col(static_cast<Eigen::Index>(k)) = F.col(which[k]);
  return out;
}

}  // namespace

TEST_CASE("identification: with a joint at rest the fit reports the rank and which base parameters it cannot tell apart") {
  test::RandomBodies rnd(23);
  const dynamics::Model model = model::build_model(test::random_fixed_forest(rnd, false));
  analysis::Regressor reg(model, {});
  const analysis::BaseParameters base = analysis::base_parameters_of(reg, 7);
  for (int still = 0; still < reg.rows(); ++still) {
    CAPTURE(still);
    const analysis::JointTrajectories data = random_samples(model, reg, 400, 0.0, 11, still);
    const analysis::Fit fit = analysis::fit(reg, base, data);
    const Eigen::MatrixXd F = analysis::observations(reg, data, base.independent).F;
    // The rank by an independent route, and fewer than the base parameters: the joint's own
    // friction (and motor) terms multiply its speed and acceleration, 0 in every row.
    const Eigen::MatrixXd Fs = unit_columns(F);
    CHECK(fit.rank == rank_by_eigenvalues(Fs));
    REQUIRE(fit.rank < base.size());
    std::vector<int> determined, grouped;
    for (const auto& g : fit.undetermined) grouped.insert(grouped.end(), g.begin(), g.end());
    for (int k = 0; k < base.size(); ++k)
      if (std::find(grouped.begin(), grouped.end(), k) == grouped.end()) determined.push_back(k);
    // Exact data: every parameter said to be determined is the scenario's, to rounding; the others are NaN.
    for (int k : determined) {
      INFO(base.expression(k, reg.parameters()));
      CHECK(std::abs(fit.estimate[k] - fit.model_value[k]) < 1e-8 * std::max(1.0, std::abs(fit.model_value[k])));
    }
    for (int k : grouped) CHECK(std::isnan(fit.estimate[k]));
    // The determined columns are independent, and each group adds fewer dimensions to their
    // span than it has members (the data cannot tell its members apart); a column that is zero
    // in every row is a group of its own.
    CHECK(rank_by_eigenvalues(columns(Fs, determined)) == static_cast<Eigen::Index>(determined.size()));
    Eigen::Index added = 0;
    for (const auto& g : fit.undetermined) {
      std::vector<int> with = determined;
      with.insert(with.end(), g.begin(), g.end());
      const Eigen::Index gain = rank_by_eigenvalues(columns(Fs, with)) - static_cast<Eigen::Index>(determined.size());
      CHECK(gain < static_cast<Eigen::Index>(g.size()));
      added += gain;
      if (g.size() > 1) continue;
      CHECK(zero_column(F, g.front()));
    }
    for (int k = 0; k < base.size(); ++k)
      if (zero_column(F, k)) CHECK(std::find(grouped.begin(), grouped.end(), k) != grouped.end());
    CHECK(static_cast<Eigen::Index>(determined.size()) + added == fit.rank);
  }
}
