// Paper 000's drag fit, f = c₁|u|u + c₂u with c ≥ 0 (eq. 38), on data with known coefficients.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "analysis/drag_fit.h"

using namespace uwsim;

TEST_CASE("drag fit: exact towing data give back c₁ and c₂ — noisy data within their standard deviations") {
  // The BlueROV's surge values of Nielsen et al. Table 3 as the truth: X_|u|u = 34.96 kg/m, plus
  // a linear term of 3 kg/s; 21 speeds forward and backward to 1 m/s.
  const double c1 = 34.96, c2 = 3.0;
  std::vector<double> u, f;
  for (int k = -21; k <= 21; ++k) {
    if (k == 0) continue;
    u.push_back(k / 21.0);
    f.push_back(c1 * std::abs(u.back()) * u.back() + c2 * u.back());
  }
  const analysis::DragFit exact = analysis::fit_drag(u, f);
  CHECK(exact.quadratic == doctest::Approx(c1).epsilon(1e-12));
  CHECK(exact.linear == doctest::Approx(c2).epsilon(1e-12));
  CHECK(exact.rmse < 1e-12);
  // Load-cell noise of 0.5 N, four runs per speed: within 3σ, and σ as the textbook gives it.
  std::mt19937 rng(5);
  std::normal_distribution<double> noise(0.0, 0.5);
  std::vector<double> un, fn;
  for (int run = 0; run < 4; ++run)
    for (std::size_t k = 0; k < u.size(); ++k) un.push_back(u[k]), fn.push_back(f[k] + noise(rng));
  const analysis::DragFit noisy = analysis::fit_drag(un, fn);
  CHECK(std::abs(noisy.quadratic - c1) < 3.0 * noisy.quadratic_std);
  CHECK(std::abs(noisy.linear - c2) < 3.0 * noisy.linear_std);
  CHECK(noisy.rmse == doctest::Approx(0.5).epsilon(0.15));
  CHECK(!noisy.quadratic_at_bound);
  CHECK(!noisy.linear_at_bound);
}

TEST_CASE("drag fit: weighting runs by 1/P equals fusing them per speed first (eq. 36–37)") {
  const std::vector<double> speeds = {0.2, 0.4, 0.6, 0.8};
  std::vector<double> u, f, P, fused_f, fused_P;
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> spread(-1.0, 1.0), var(0.05, 0.5);
  for (double s : speeds) {
    double information = 0.0, weighted = 0.0;
    for (int run = 0; run < 3; ++run) {
      u.push_back(s);
      f.push_back(20.0 * s * s + 1.0 * s + spread(rng));
      P.push_back(var(rng));
      information += 1.0 / P.back();
      weighted += f.back() / P.back();
    }
    fused_P.push_back(1.0 / information);         // eq. 36
    fused_f.push_back(fused_P.back() * weighted);  // eq. 37
  }
  const analysis::DragFit all = analysis::fit_drag(u, f, P);
  const analysis::DragFit fused = analysis::fit_drag(speeds, fused_f, fused_P);
  CHECK(all.quadratic == doctest::Approx(fused.quadratic).epsilon(1e-10));
  CHECK(all.linear == doctest::Approx(fused.linear).epsilon(1e-10));
  CHECK(all.quadratic_std == doctest::Approx(fused.quadratic_std).epsilon(1e-10));
}

TEST_CASE("drag fit: the bounds c ≥ 0 hold, a coefficient pushed below 0 is held at 0 and the other refitted") {
  // Pure quadratic drag with the slow points biased low: unconstrained c₂ would be negative.
  std::vector<double> u = {0.1, 0.2, 0.3, 0.5, 0.7, 0.9}, f;
  for (double s : u) f.push_back(30.0 * s * s - (s < 0.35 ? 0.4 : 0.0));
  const analysis::DragFit r = analysis::fit_drag(u, f);
  CHECK(r.linear == 0.0);
  CHECK(r.linear_at_bound);
  CHECK(r.linear_std == 0.0);
  double num = 0.0, den = 0.0;  // c₁ alone: Σ f s² / Σ s⁴
  for (std::size_t k = 0; k < u.size(); ++k) num += f[k] * u[k] * u[k], den += std::pow(u[k], 4);
  CHECK(r.quadratic == doctest::Approx(num / den).epsilon(1e-12));
  CHECK_THROWS_AS(analysis::fit_drag({0.1}, {1.0}), std::invalid_argument);
}

TEST_CASE("drag fit: points at one speed are refused with the one combination they give, c₁·|u| + c₂") {
  // f = (c₁s + c₂)·u at |u| = s: 30·0.5 + 5 = 20 for every split; towed both ways, and a point at rest.
  const std::vector<double> u = {0.5, 0.5, -0.5, 0.0}, f = {10.0, 10.0, -10.0, 0.0};
  try {
    (void)analysis::fit_drag(u, f, {0.1, 0.2, 0.1, 0.1});
    FAIL("a one-speed fit gave a split");
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    CHECK(message.find("every point is at one speed, |u| = 0.5") != std::string::npos);
    CHECK(message.find("0.5·c1 + c2 = 20 and not how it splits") != std::string::npos);
  }
  CHECK_THROWS_AS(analysis::fit_drag({0.0, 0.0, 0.0}, {0.0, 0.1, -0.1}), std::invalid_argument);
  // Two speeds, however close, are a fit (with the standard deviations saying how poor).
  const analysis::DragFit two = analysis::fit_drag({0.5, 0.6, 0.5, 0.6}, {10.0, 13.2, 10.0, 13.2});
  CHECK(two.quadratic == doctest::Approx(20.0).epsilon(1e-9));  // 20·0.25 + 10·0.5 = 10, 20·0.36 + 10·0.6 = 13.2
  CHECK(two.linear == doctest::Approx(10.0).epsilon(1e-9));
  CHECK_THROWS_AS(analysis::fit_drag({0.5, std::nan("")}, {10.0, 13.2}), std::invalid_argument);
}
