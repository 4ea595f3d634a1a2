// The figures of `sim compare` on series built from closed forms: RMSE, maximum and mean
// error, Pearson's R, the dynamic-time-warping distance and the time shift.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "analysis/compare_metrics.h"

using namespace uwsim;
using analysis::Series;

namespace {

constexpr double kPi = std::numbers::pi;

template <class F>
Series sampled(const std::string& name, double t0, double t1, double rate, F f) {
  Series s;
  s.name = name;
  const auto n = static_cast<std::size_t>(std::llround((t1 - t0) * rate));
  for (std::size_t k = 0; k <= n; ++k) {
    const double t = t0 + static_cast<double>(k) / rate;
    s.time.push_back(t);
    s.values.push_back(f(t));
  }
  return s;
}

}  // namespace

TEST_CASE("compare: a constant offset c gives RMSE = max = |c|, mean = c, R = 1") {
  const double w = 2.0 * kPi * 0.25;
  const Series a = sampled("a", 0.0, 20.0, 50.0, [&](double t) { return std::sin(w * t); });
  const Series b = sampled("b", 0.0, 20.0, 50.0, [&](double t) { return std::sin(w * t) - 0.3; });
  const analysis::Comparison c = analysis::compare(a, b, {});
  CHECK(c.samples == 1001);
  CHECK(c.rmse == doctest::Approx(0.3).epsilon(1e-12));
  CHECK(c.max_error == doctest::Approx(0.3).epsilon(1e-12));
  CHECK(c.mean_error == doctest::Approx(-0.3).epsilon(1e-12));
  CHECK(c.pearson_r == doctest::Approx(1.0).epsilon(1e-12));
}

TEST_CASE("compare: a sine error of amplitude d over whole periods gives RMSE d/√2, max d, mean 0") {
  const double w = 2.0 * kPi * 0.5, d = 0.2;
  const Series a = sampled("a", 0.0, 10.0, 100.0, [&](double t) { return 1.0 + 0.1 * t; });
  const Series b = sampled("b", 0.0, 10.0, 100.0, [&](double t) { return 1.0 + 0.1 * t + d * std::sin(w * t); });
  const analysis::Comparison c = analysis::compare(a, b, {});
  CHECK(c.rmse == doctest::Approx(d / std::sqrt(2.0)).epsilon(1e-3));  // 1001 samples of 5 whole periods
  CHECK(c.max_error == doctest::Approx(d).epsilon(1e-9));
  CHECK(std::abs(c.mean_error) < 1e-12);
}

TEST_CASE("compare: Pearson's R of sin ωt against sin(ωt − φ) over whole periods is cos φ, and ±1 for affine maps") {
  const double w = 2.0 * kPi * 0.2;
  const Series a = sampled("a", 0.0, 50.0, 40.0, [&](double t) { return std::sin(w * t); });
  for (double phi : {0.3, 1.0, kPi / 2.0, 2.5}) {
    const Series b = sampled("b", 0.0, 50.0, 40.0, [&](double t) { return std::sin(w * t - phi); });
    CHECK(analysis::compare(a, b, {}).pearson_r == doctest::Approx(std::cos(phi)).epsilon(1e-3));
  }
  const Series flipped = sampled("b", 0.0, 50.0, 40.0, [&](double t) { return 3.0 - 2.0 * std::sin(w * t); });
  CHECK(analysis::compare(a, flipped, {}).pearson_r == doctest::Approx(-1.0).epsilon(1e-12));
}

TEST_CASE("compare: B is interpolated linearly at A's times within the common span") {
  // B at another rate and a shorter span; a linear B is interpolated exactly.
  const Series a = sampled("a", 0.0, 10.0, 100.0, [](double t) { return 2.0 * t; });
  const Series b = sampled("b", 2.05, 7.95, 13.0, [](double t) { return 2.0 * t + 0.5; });
  const analysis::Comparison c = analysis::compare(a, b, {});
  CHECK(c.start == doctest::Approx(2.05));
  CHECK(c.stop >= 7.9);
  CHECK(c.stop <= b.time.back());
  CHECK(c.rmse == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(c.max_error == doctest::Approx(0.5).epsilon(1e-12));
  Series disjoint = b;
  for (double& t : disjoint.time) t += 20.0;
  CHECK_THROWS_AS(analysis::compare(a, disjoint, {}), std::invalid_argument);
}

TEST_CASE("compare: angles are compared on the circle") {
  CHECK(analysis::wrap_angle(3.0 * kPi) == doctest::Approx(kPi));
  CHECK(analysis::wrap_angle(-kPi) == doctest::Approx(kPi));
  CHECK(analysis::wrap_angle(-6.2) == doctest::Approx(-6.2 + 2.0 * kPi));
  // A heading crossing ±π measured 0.1 rad late: everywhere the error is 0.1, never ~2π.
  const Series a = sampled("a", 0.0, 10.0, 20.0, [](double t) { return analysis::wrap_angle(2.5 + 0.2 * t); });
  const Series b = sampled("b", 0.0, 10.0, 20.0, [](double t) { return analysis::wrap_angle(2.6 + 0.2 * t); });
  analysis::CompareSettings on_circle;
  on_circle.angle = true;
  const analysis::Comparison c = analysis::compare(a, b, on_circle);
  CHECK(c.rmse == doctest::Approx(0.1).epsilon(1e-9));
  CHECK(c.max_error == doctest::Approx(0.1).epsilon(1e-9));
  CHECK(c.pearson_r > 0.999);
  CHECK(analysis::compare(a, b, {}).max_error > 6.0);  // as plain numbers they jump by 2π
}

TEST_CASE("dtw: closed forms — a constant offset, no window, and a ramp delayed by k samples") {
  const std::vector<double> a = {0.0, 1.0, 2.0, 5.0, 3.0, 1.0};
  std::vector<double> b = a;
  for (double& v : b) v += 0.25;
  // Every matching costs at least |0.25|, and the diagonal achieves it.
  CHECK(analysis::dtw_mean_distance(a, b, 3) == doctest::Approx(0.25).epsilon(1e-15));
  // With a window of 0 samples the path is the diagonal: the mean absolute error.
  const std::vector<double> c = {1.0, -1.0, 0.5, 2.0, 3.0, 0.0};
  double mae = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) mae += std::abs(a[k] - c[k]) / static_cast<double>(a.size());
  CHECK(analysis::dtw_mean_distance(a, c, 0) == doctest::Approx(mae).epsilon(1e-15));
  // A ramp a_i = iΔ against b_j = (j − k)Δ: the k first b's (below a_0 = 0) must each be met
  // by a_0 and the k last a's by b_{n−1}, costing Δ·k(k+1)/2 at each end; the rest match
  // exactly. The path has n + k steps, so the mean is Δ·k(k+1)/(n + k).
  const std::size_t n = 200, k = 7;
  const double delta = 0.05;
  std::vector<double> ramp(n), late(n);
  for (std::size_t i = 0; i < n; ++i) ramp[i] = static_cast<double>(i) * delta, late[i] = (static_cast<double>(i) - static_cast<double>(k)) * delta;
  const double expected = delta * static_cast<double>(k * (k + 1)) / static_cast<double>(n + k);
  CHECK(analysis::dtw_mean_distance(ramp, late, 20) == doctest::Approx(expected).epsilon(1e-12));
  CHECK(analysis::dtw_mean_distance(ramp, late, k) == doctest::Approx(expected).epsilon(1e-12));
  // A window narrower than the delay forbids that path and costs more.
  CHECK(analysis::dtw_mean_distance(ramp, late, k - 3) > expected * 1.5);
}

TEST_CASE("compare: DTW through compare uses the window in seconds on A's grid") {
  // The same delayed ramp as above, as time series at 10 Hz: 7 samples = 0.7 s of delay.
  const Series a = sampled("a", 0.0, 19.9, 10.0, [](double t) { return 0.5 * t; });
  const Series b = sampled("b", 0.0, 19.9, 10.0, [](double t) { return 0.5 * (t - 0.7); });
  analysis::CompareSettings s;
  s.dtw_window = 2.0;
  const analysis::Comparison c = analysis::compare(a, b, s);
  CHECK(c.dtw == doctest::Approx(0.05 * 7 * 8 / 207.0).epsilon(1e-9));
  CHECK(c.dtw_window == 2.0);
  CHECK(analysis::compare(a, b, {}).dtw_window == doctest::Approx(1.99));  // default: 10 % of the span
}

TEST_CASE("compare: the shift that minimises RMSE finds a known lag, and the RMSE there") {
  // B(t) = A(t − L): B lags A by L = 0.37 s; sampled at another rate (77 Hz) over another span.
  const double w = 2.0 * kPi * 0.3, L = 0.37;
  const auto f = [&](double t) { return std::sin(w * t) + 0.4 * std::sin(2.7 * w * t + 0.5); };
  const Series a = sampled("a", 0.0, 30.0, 100.0, f);
  const Series b = sampled("b", -1.0, 31.0, 77.0, [&](double t) { return f(t - L); });
  analysis::CompareSettings s;
  s.max_shift = 2.0;
  const analysis::Comparison c = analysis::compare(a, b, s);
  REQUIRE(c.has_shift);
  CHECK(c.shift == doctest::Approx(L).epsilon(1e-3));
  CHECK(c.rmse_at_shift < 2e-3);  // what linear interpolation of B at 77 Hz leaves
  // Without the shift, sin ωt − sin ω(t − L) has RMSE √2·|sin(ωL/2)| per unit amplitude.
  const double expected = std::sqrt(2.0 * std::pow(std::sin(w * L / 2.0), 2) + 2.0 * std::pow(0.4 * std::sin(2.7 * w * L / 2.0), 2));
  CHECK(c.rmse == doctest::Approx(expected).epsilon(5e-3));
  // A lead is a negative shift.
  const Series early = sampled("b", -1.0, 31.0, 77.0, [&](double t) { return f(t + 0.9); });
  CHECK(analysis::compare(a, early, s).shift == doctest::Approx(-0.9).epsilon(1e-3));
}
