// The figures of `sim compare` on series built from closed forms: RMSE, maximum and mean
// error, Pearson's R, the dynamic-time-warping distance and the time shift.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <tuple>

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

namespace {

// DTW as defined in compare_metrics.h, by the full matrix with no shared code: D(i, j) =
// |a_i − b_j| + min of the three predecessors inside the band |i − j| ≤ w, the path length
// L taken from the predecessor of least D (ties: the shortest path). Returns D/L at the corner.
double brute_force_dtw(const std::vector<double>& a, const std::vector<double>& b, std::size_t w) {
  const std::size_t n = a.size(), m = b.size();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> D(n, std::vector<double>(m, inf));
  std::vector<std::vector<std::size_t>> L(n, std::vector<std::size_t>(m, 0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      if ((i > j ? i - j : j - i) > w) continue;
      if (i == 0 && j == 0) {
        D[0][0] = std::abs(a[0] - b[0]);
        L[0][0] = 1;
        continue;
      }
      double best = inf;
      std::size_t length = 0;
      for (const auto& [pi, pj, ok] : {std::tuple{i - 1, j - 1, i > 0 && j > 0}, std::tuple{i - 1, j, i > 0}, std::tuple{i, j - 1, j > 0}}) {
        if (!ok || D[pi][pj] == inf) continue;
        if (D[pi][pj] < best || (D[pi][pj] == best && L[pi][pj] + 1 < length)) best = D[pi][pj], length = L[pi][pj] + 1;
      }
      D[i][j] = best + std::abs(a[i] - b[j]);
      L[i][j] = length;
    }
  return D[n - 1][m - 1] / static_cast<double>(L[n - 1][m - 1]);
}

}  // namespace

TEST_CASE("dtw: the banded two-row DTW equals an independent full-matrix DTW exactly, for every window") {
  std::mt19937 random(20261201);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_int_distribution<std::size_t> length(1, 40);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = length(random), m = length(random);
    std::vector<double> a(n), b(m);
    for (double& x : a) x = value(random);
    for (double& x : b) x = std::round(4.0 * value(random)) / 4.0;  // some equal costs: ties
    const std::size_t least = n > m ? n - m : m - n;  // the band must reach the corner
    for (const std::size_t w : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{10}, std::size_t{1000}, SIZE_MAX / 2}) {
      CAPTURE(trial);
      CAPTURE(w);
      CHECK(analysis::dtw_mean_distance(a, b, w) == brute_force_dtw(a, b, std::max(w, least)));
    }
  }
}

TEST_CASE("compare: times that are not finite and increasing are refused, not searched") {
  Series a = sampled("a", 0.0, 1.0, 10.0, [](double t) { return t; });
  Series b = a;
  b.time[5] = b.time[3];
  CHECK_THROWS_AS(analysis::compare(a, b, {}), std::invalid_argument);
  b.time[5] = std::nan("");
  CHECK_THROWS_AS(analysis::compare(b, a, {}), std::invalid_argument);
  analysis::CompareSettings nan_window;
  nan_window.dtw_window = std::nan("");
  CHECK_THROWS_AS(analysis::compare(a, a, nan_window), std::invalid_argument);
}

TEST_CASE("compare: DTW fills at most dtw_max_cells — an asked window beyond them is refused, the default narrowed") {
  const Series a = sampled("a", 0.0, 100.0, 100.0, [](double t) { return std::sin(t); });      // 10 001 samples
  const Series b = sampled("b", 0.0, 100.0, 100.0, [](double t) { return std::sin(t - 0.2); });
  analysis::CompareSettings s;
  s.dtw_max_cells = 1'000'000;
  // The default window, 10 s = 1000 samples, takes 10 001 · 2001 cells: narrowed to the
  // widest w with n(2w + 1) ≤ 10^6, w = 49, and said so.
  const analysis::Comparison narrowed = analysis::compare(a, b, s);
  CHECK(narrowed.dtw_narrowed);
  CHECK(narrowed.dtw_window == doctest::Approx(0.49));
  CHECK(analysis::compare_cost(a, b, s).dtw_cells == 10'001ull * 2001);
  // The same as asking for that window.
  s.dtw_window = 0.49;
  const analysis::Comparison asked = analysis::compare(a, b, s);
  CHECK_FALSE(asked.dtw_narrowed);
  CHECK(asked.dtw == narrowed.dtw);
  s.dtw_window = 0.5;  // w = 50: 10 001 · 101 cells
  CHECK_THROWS_WITH_AS(analysis::compare(a, b, s), doctest::Contains("the widest window within them is 0.49 s"), std::length_error);
  s.dtw_window = 1e300;  // the whole matrix, far beyond
  CHECK_THROWS_AS(analysis::compare(a, b, s), std::length_error);
  // The shift search: (2·steps + 1 + 49) · n samples at most.
  analysis::CompareSettings shift;
  shift.dtw_window = 0.1;
  shift.max_shift = 1e300;
  shift.shift_max_samples = 10'000'000;
  CHECK_THROWS_WITH_AS(analysis::compare(a, b, shift), doctest::Contains("the largest shift within them is"), std::length_error);
  shift.max_shift = 0.3;  // 61 + 49 shifts of 10 001 samples
  const analysis::Comparison found = analysis::compare(a, b, shift);
  CHECK(found.shift == doctest::Approx(0.2).epsilon(1e-3));
}

TEST_CASE("compare: the shift grid over the spans' overlap only finds what the full grid finds") {
  // A shift beyond every overlap evaluates to NaN and cannot win, so leaving those grid points
  // out changes nothing: a range far wider than the spans gives the shift of a narrow one.
  const double w = 2.0 * kPi * 0.3;
  const auto f = [&](double t) { return std::sin(w * t) + 0.4 * std::sin(2.7 * w * t + 0.5); };
  const Series a = sampled("a", 0.0, 10.0, 50.0, f);
  const Series b = sampled("b", 0.0, 10.0, 50.0, [&](double t) { return f(t - 0.37); });
  analysis::CompareSettings narrow, wide;
  narrow.max_shift = 1.0;
  wide.max_shift = 1e6;
  CHECK(analysis::compare(a, b, wide).shift == analysis::compare(a, b, narrow).shift);
  CHECK(analysis::compare(a, b, narrow).shift == doctest::Approx(0.37).epsilon(1e-3));
}
