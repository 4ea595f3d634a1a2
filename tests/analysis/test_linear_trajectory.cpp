// sim linearize against the simulator's own motion and against another formulation:
// - A predicts how a small perturbation of an equilibrium evolves: δz(T) = exp(A T) δz(0),
//   with δz(T) from two simulated trajectories (a central difference in the initial state);
// - two bodies held by a rigid connector (24 coordinates, the constraints removed by the
//   null-space basis) have the modes of the same two bodies welded by a fixed joint (a tree
//   of 12 coordinates that has no constraint at all).
#include <doctest/doctest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <complex>

#include "analysis/state_chart.h"
#include "analysis/trim.h"
#include "support/linear_models.h"
#include "support/simulate.h"

using namespace uwsim;

namespace {

// exp(M) by scaling and squaring with a Taylor series: ‖M/2^s‖ ≤ 1/2, 30 terms (error far below
// 1e-16 of the result), then s squarings.
Eigen::MatrixXd exponential(const Eigen::MatrixXd& M) {
  const double norm = M.cwiseAbs().colwise().sum().maxCoeff();
  const int s = norm > 0.5 ? static_cast<int>(std::ceil(std::log2(norm / 0.5))) : 0;
  const Eigen::MatrixXd X = M / std::ldexp(1.0, s);
  Eigen::MatrixXd term = Eigen::MatrixXd::Identity(M.rows(), M.cols()), sum = term;
  for (int k = 1; k <= 30; ++k) {
    term = (term * X / static_cast<double>(k)).eval();
    sum += term;
  }
  for (int k = 0; k < s; ++k) sum = (sum * sum).eval();
  return sum;
}

const std::string kSmallUvms = std::string(UWSIM_TEST_DATA_DIR) + "/analysis/small_uvms.yaml";

// The state after `duration` s of simulation from x0 (rk4 at 1 ms).
std::vector<double> simulate_from(const dynamics::Model& base, const std::vector<double>& x0, double duration) {
  dynamics::Model model = base;
  model.x0 = x0;
  test::Trajectory trajectory;
  trajectory.model = model;
  test::CollectingSink sink(trajectory);
  integrate::Settings settings;
  settings.method = integrate::Method::rk4;
  settings.step = 1e-3;
  settings.duration = duration;
  settings.output_rate = 1.0 / duration;
  const integrate::RunResult result = integrate::run(model, settings, sink);
  REQUIRE(result.outcome == integrate::Outcome::completed);
  return trajectory.x.back();
}

}  // namespace

TEST_CASE("linearize: exp(A·T) matches the simulated spread of perturbed trajectories around a UVMS's trim") {
  const scenario::Scenario s = scenario::load_scenario(kSmallUvms);
  const dynamics::Model model = model::build_model(s);
  analysis::TrimProblem problem;
  problem.unknowns = s.trim.unknowns;
  const analysis::TrimResult trimmed = analysis::trim(model, problem);
  REQUIRE(trimmed.converged);
  const test::Linearized l = test::linearize_at(s, trimmed.x);

  const analysis::StateChart chart(model);
  const int n = chart.size();
  // ε small: quadratic damping |r|r is odd, so its effect on a ±ε pair is O(ε) relative and
  // survives the central difference (d_rr·ε/d_r ≈ 3e-7 here); rounding is ~1e-16·5 m/ε.
  const double T = 0.3, epsilon = 1e-7;
  const std::vector<double> reference = simulate_from(model, trimmed.x, T);
  Eigen::MatrixXd simulated(n, n);
  std::vector<double> x(trimmed.x.size());
  for (int j = 0; j < n; ++j) {
    Eigen::VectorXd z = Eigen::VectorXd::Zero(n), z_plus(n), z_minus(n);
    z[j] = epsilon;
    chart.retract(trimmed.x.data(), z.data(), x.data());
    chart.local(reference.data(), simulate_from(model, x, T).data(), z_plus.data());
    z[j] = -epsilon;
    chart.retract(trimmed.x.data(), z.data(), x.data());
    chart.local(reference.data(), simulate_from(model, x, T).data(), z_minus.data());
    simulated.col(j) = (z_plus - z_minus) / (2.0 * epsilon);
  }
  const Eigen::MatrixXd predicted = exponential(l.linear.A * T);
  const double size = predicted.cwiseAbs().maxCoeff();
  CAPTURE(size);
  Eigen::Index row = 0, col = 0;
  const double worst = (simulated - predicted).cwiseAbs().maxCoeff(&row, &col);
  CAPTURE(l.linear.state_names[static_cast<std::size_t>(row)]);
  CAPTURE(l.linear.state_names[static_cast<std::size_t>(col)]);
  CAPTURE(simulated(row, col));
  CAPTURE(predicted(row, col));
  CHECK(worst < 1e-6 * size);
  // A changes the state within T: the check is not the identity against itself.
  CHECK((predicted - Eigen::MatrixXd::Identity(n, n)).cwiseAbs().maxCoeff() > 0.05);
}

namespace {

const char* kPair = R"(
name: pair
simulation: {duration: 1.0}
bodies:
  - name: a
    mass: 11.5
    inertia: [0.16, 0.2, 0.25]
    center_of_gravity: [0.01, 0.0, 0.02]
    volume: 0.0118
    added_mass: [5.5, 12.7, 14.57, 0.12, 0.12, 0.12]
    linear_damping: [4.03, 6.22, 5.18, 0.07, 0.07, 0.07]
    quadratic_damping: [18.18, 21.66, 36.99, 1.55, 1.55, 1.55]
    initial: {position: [0.0, 0.0, 5.0], velocity: [0.3, 0.0, 0.1, 0.0, 0.0, 0.0]}
  - name: b
    mass: 2.0
    inertia: [0.01, 0.02, 0.02]
    center_of_gravity: [0.0, 0.05, 0.0]
    volume: 0.0015
    added_mass: [0.5, 1.0, 1.0, 0.01, 0.01, 0.01]
    linear_damping: [1.0, 2.0, 2.0, 0.05, 0.05, 0.05]
    quadratic_damping: [3.0, 5.0, 5.0, 0.1, 0.1, 0.1]
)";

std::vector<std::complex<double>> eigenvalues_of(const test::Linearized& l) {
  std::vector<std::complex<double>> out;
  for (const analysis::Mode& m : l.modes.modes) out.push_back(m.eigenvalue);
  return out;
}

}  // namespace

TEST_CASE("linearize: bodies held by a rigid connector have the modes of the same bodies welded by a fixed joint") {
  // Both move in translation only, so the connector's start needs no velocity projection and
  // the two models start in the same state.
  const std::string connected = std::string(kPair) + R"(    initial: {position: [0.0, 0.4, 5.0], velocity: [0.3, 0.0, 0.1, 0.0, 0.0, 0.0]}
connectors:
  - {name: bolt, type: rigid, bodies: [a, b], point: [0.0, 0.2, 0.0]}
)";
  const std::string welded = std::string(kPair) + R"(
joints:
  - {name: weld, type: fixed, parent: a, child: b, origin: {xyz: [0.0, 0.4, 0.0]}}
)";
  const test::Linearized c = test::linearize_at(test::scenario_from(connected));
  const test::Linearized w = test::linearize_at(test::scenario_from(welded));
  REQUIRE(c.linear.constrained);
  CHECK(c.linear.A.rows() == 24);
  CHECK(c.linear.constraint_rank == 12);
  CHECK(c.linear.basis.cols() == 12);
  CHECK(c.linear.invariance_defect < 1e-7);
  REQUIRE(w.linear.A.rows() == 12);
  std::vector<std::complex<double>> expected = eigenvalues_of(w), found = eigenvalues_of(c);
  REQUIRE(found.size() == expected.size());
  // Some modes are oscillatory and some not; the welded model has no Baumgarte modes.
  int oscillatory = 0;
  for (const std::complex<double>& e : expected) {
    oscillatory += e.imag() > 1e-6;
    auto closest = std::min_element(found.begin(), found.end(), [&](auto x, auto y) { return std::abs(x - e) < std::abs(y - e); });
    CAPTURE(e);
    CAPTURE(*closest);
    CHECK(std::abs(*closest - e) < 1e-6 * std::max(1.0, std::abs(e)));
    found.erase(closest);
  }
  CHECK(oscillatory >= 1);
  // The connected system's own A has the constraint directions' Baumgarte modes, far away.
  const Eigen::VectorXcd full = c.linear.A.eigenvalues();
  CHECK(full.cwiseAbs().maxCoeff() > 100.0);
}
