// analysis/output_error.h against a model with a closed form (no integrator, no shared code):
// a body of mass m coasting with linear and quadratic damping, m v̇ = −d v − c |v| v, whose
// speed from v₀ > 0 is v(t) = d v₀ / ((d + c v₀) e^{d t/m} − c v₀).
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "analysis/output_error.h"

namespace {

using uwsim::analysis::OutputErrorFit;
using uwsim::analysis::OutputErrorProblem;

constexpr double kMass = 20.0;

double coast(double d, double c, double v0, double t) { return d * v0 / ((d + c * v0) * std::exp(d * t / kMass) - c * v0); }

struct Data {
  std::vector<double> v0 = {0.2, 0.5, 1.0, 1.5};  // one "window" per start speed
  std::vector<double> t;
  std::vector<double> y;  // measured, window-major
};

Data make(double d, double c, double noise, unsigned seed) {
  Data out;
  for (int k = 1; k <= 40; ++k) out.t.push_back(0.1 * k);
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, 1.0);
  for (double v0 : out.v0)
    for (double t : out.t) out.y.push_back(coast(d, c, v0, t) + noise * n(rng));
  return out;
}

// θ = (d, c, e): e enters nothing when `with_unused`; `fixed_c` drops c (a wrong model).
OutputErrorProblem problem(const Data& data, bool with_unused, bool wrong_model) {
  OutputErrorProblem p;
  const int n = wrong_model ? 1 : with_unused ? 3 : 2;
  p.initial = Eigen::VectorXd::Constant(n, 1.0);
  p.initial[0] = 5.0;
  if (n > 1) p.initial[1] = 30.0;
  p.scale = p.initial;
  p.lower = Eigen::VectorXd::Zero(n);
  p.upper = Eigen::VectorXd::Constant(n, INFINITY);
  p.group.assign(data.y.size(), 0);
  p.noise_floor = Eigen::VectorXd::Constant(1, 1e-9);
  p.residual = [&data, wrong_model](const Eigen::VectorXd& th, Eigen::VectorXd& r) {
    std::size_t i = 0;
    const double c = wrong_model ? 0.0 : th[1];
    for (double v0 : data.v0)
      for (double t : data.t) r[static_cast<Eigen::Index>(i)] = data.y[i] - coast(th[0], c, v0, t), ++i;
    return true;
  };
  return p;
}

}  // namespace

TEST_CASE("output error: a noise-free coast gives its damping back, and a parameter nothing depends on as undetermined") {
  const Data data = make(10.0, 50.0, 0.0, 1);
  const OutputErrorFit f = uwsim::analysis::fit_output_error(problem(data, true, false));
  CHECK(f.converged);
  CHECK(f.estimate[0] == doctest::Approx(10.0).epsilon(1e-6));
  CHECK(f.estimate[1] == doctest::Approx(50.0).epsilon(1e-6));
  REQUIRE(f.undetermined.size() == 1);
  CHECK(f.undetermined[0] == std::vector<int>{2});
  CHECK(f.rank == 2);
  CHECK(f.identified == std::vector<bool>{true, true, false});
}

TEST_CASE("output error: standard deviations match the scatter of estimates over noise realisations") {
  // 40 fits to data with independent noise: the estimates' spread is what σ̂ predicts (within
  // the 25 % a spread from 40 samples carries at about 2σ), and each lies within 4σ of the truth.
  constexpr int kRuns = 40;
  std::vector<double> d, c;
  double reported_d = 0.0, reported_c = 0.0;
  for (int run = 0; run < kRuns; ++run) {
    const Data data = make(10.0, 50.0, 0.01, 100 + static_cast<unsigned>(run));
    const OutputErrorFit f = uwsim::analysis::fit_output_error(problem(data, false, false));
    REQUIRE(f.converged);
    CHECK(std::abs(f.estimate[0] - 10.0) < 4.0 * f.std_dev[0]);
    CHECK(std::abs(f.estimate[1] - 50.0) < 4.0 * f.std_dev[1]);
    CHECK(f.group_rms[0] == doctest::Approx(0.01).epsilon(0.15));
    d.push_back(f.estimate[0]), c.push_back(f.estimate[1]);
    reported_d += f.std_dev[0] / kRuns, reported_c += f.std_dev[1] / kRuns;
  }
  const auto spread = [](const std::vector<double>& x) {
    double mean = 0.0, sum = 0.0;
    for (double v : x) mean += v / static_cast<double>(x.size());
    for (double v : x) sum += (v - mean) * (v - mean);
    return std::sqrt(sum / static_cast<double>(x.size() - 1));
  };
  CHECK(spread(d) == doctest::Approx(reported_d).epsilon(0.25));
  CHECK(spread(c) == doctest::Approx(reported_c).epsilon(0.25));
}

TEST_CASE("output error: a model without the quadratic term leaves residuals far above the noise") {
  const Data data = make(10.0, 50.0, 0.01, 7);
  const OutputErrorFit right = uwsim::analysis::fit_output_error(problem(data, false, false));
  const OutputErrorFit wrong = uwsim::analysis::fit_output_error(problem(data, false, true));
  CHECK(right.group_rms[0] < 0.012);
  CHECK(wrong.group_rms[0] > 3.0 * right.group_rms[0]);
}

TEST_CASE("output error: a stop request ends the fit") {
  const Data data = make(10.0, 50.0, 0.0, 1);
  OutputErrorProblem p = problem(data, false, false);
  std::atomic<bool> stop{true};
  p.stop = &stop;
  CHECK_THROWS_AS(uwsim::analysis::fit_output_error(p), uwsim::analysis::OutputErrorInterrupted);
}
