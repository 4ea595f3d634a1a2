// The sensors' random numbers and their error model (sensors/random.h, sensors/noise.h) against
// their definitions: a published test value of SplitMix64, Gaussian moments, and the Allan
// variances of IEEE Std 952-1997 Annex C for white noise (N²/τ) and a bias random walk (K²τ/3).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "sensors/noise.h"
#include "sensors/random.h"

using namespace uwsim;

namespace {

// Non-overlapping Allan variance of y at clusters of m samples: ½·mean((ȳ_{j+1} − ȳ_j)²).
double allan_variance(const std::vector<double>& y, std::size_t m) {
  const std::size_t clusters = y.size() / m;
  std::vector<double> mean(clusters, 0.0);
  for (std::size_t j = 0; j < clusters; ++j) {
    for (std::size_t i = 0; i < m; ++i) mean[j] += y[j * m + i];
    mean[j] /= static_cast<double>(m);
  }
  double sum = 0.0;
  for (std::size_t j = 0; j + 1 < clusters; ++j) sum += (mean[j + 1] - mean[j]) * (mean[j + 1] - mean[j]);
  return 0.5 * sum / static_cast<double>(clusters - 1);
}

// The estimate's relative standard deviation (of the variance) with K = clusters − 1
// differences d_j. For white noise and for a random walk alike, d_j depends only on the noise
// inside clusters j and j + 1, so the d_j are a 1-dependent Gaussian sequence with lag-one
// correlation ρ (−½ for white noise, ≈ ¼ for a random walk). Then
//   Var(mean d²) = (2σ_d⁴/K)(1 + 2ρ²) ≤ 3σ_d⁴/K   (Cov(X², Y²) = 2 Cov(X, Y)² for Gaussians),
// so the relative standard deviation of the Allan variance is at most √(3/K), and that of the
// Allan deviation half of it.
double allan_deviation_relative_sigma(std::size_t samples, std::size_t m) {
  const double K = static_cast<double>(samples / m - 1);
  return 0.5 * std::sqrt(3.0 / K);
}

}  // namespace

TEST_CASE("random: SplitMix64 gives its published first value from seed 0") {
  // Vigna's reference splitmix64.c from state 0: 0xE220A8397B1DCDAF.
  std::uint64_t state = 0;
  CHECK(sensors::splitmix64(state) == 0xE220A8397B1DCDAFULL);
}

TEST_CASE("random: the same seed gives the same numbers bit for bit and another seed others") {
  sensors::Random a(42), b(42), c(43);
  std::vector<double> xa(10000), xb(10000), xc(10000);
  for (std::size_t i = 0; i < xa.size(); ++i) {
    xa[i] = a.normal();
    xb[i] = b.normal();
    xc[i] = c.normal();
  }
  CHECK(std::memcmp(xa.data(), xb.data(), xa.size() * sizeof(double)) == 0);
  std::size_t equal = 0;
  for (std::size_t i = 0; i < xa.size(); ++i) equal += xa[i] == xc[i];
  CHECK(equal == 0);
}

TEST_CASE("random: normal draws have mean 0, variance 1 and a Gaussian's share within one sigma") {
  // n draws; each statistic within 5 of its own standard deviations: the mean's is 1/√n, the
  // sample variance's √(2/n), the share within ±1's √(p(1 − p)/n) with p = erf(1/√2).
  const std::size_t n = 1 << 20;
  sensors::Random random(7);
  double sum = 0.0, sum2 = 0.0;
  std::size_t inside = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double z = random.normal();
    sum += z;
    sum2 += z * z;
    inside += std::abs(z) < 1.0;
  }
  const double N = static_cast<double>(n);
  const double mean = sum / N, variance = sum2 / N - mean * mean;
  const double p = std::erf(1.0 / std::sqrt(2.0));
  CHECK(std::abs(mean) < 5.0 / std::sqrt(N));
  CHECK(std::abs(variance - 1.0) < 5.0 * std::sqrt(2.0 / N));
  CHECK(std::abs(static_cast<double>(inside) / N - p) < 5.0 * std::sqrt(p * (1.0 - p) / N));
  double u_sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double u = random.uniform();
    REQUIRE((u >= 0.0 && u < 1.0));
    u_sum += u;
  }
  CHECK(std::abs(u_sum / N - 0.5) < 5.0 * std::sqrt(1.0 / 12.0 / N));  // σ of U(0,1) is 1/√12
}

TEST_CASE("noise: white noise of density N has per-sample variance N^2 rate and Allan deviation N over root tau") {
  const double rate = 200.0, dt = 1.0 / rate, N = 0.003, bias = 0.02;
  const std::size_t n = 1 << 20;
  sensors::NoiseParameters p;
  p.noise_density = N;
  p.bias = bias;
  sensors::NoiseAxis axis;
  sensors::Random random(11);
  std::vector<double> y(n);
  for (std::size_t k = 0; k < n; ++k) y[k] = axis.measure(0.0, p, dt, k == 0 ? 0.0 : dt, random);
  // Mean and variance: σ² = N²/Δt (noise.h (3)); bands of 5 standard deviations of each estimate.
  double sum = 0.0, sum2 = 0.0;
  for (double v : y) sum += v;
  const double mean = sum / static_cast<double>(n);
  for (double v : y) sum2 += (v - mean) * (v - mean);
  const double variance = sum2 / static_cast<double>(n - 1);
  const double sigma2 = N * N / dt;
  CHECK(std::abs(mean - bias) < 5.0 * std::sqrt(sigma2 / static_cast<double>(n)));
  CHECK(std::abs(variance / sigma2 - 1.0) < 5.0 * std::sqrt(2.0 / static_cast<double>(n)));
  // Allan deviation N/√τ (noise.h (5)) at each τ = mΔt within 5 of the estimate's σ, and the
  // slope between the outer τ within the sum of their bands over the log-distance.
  const std::size_t ms[] = {1, 4, 16, 64, 256};
  std::vector<double> log_tau, log_adev;
  for (std::size_t m : ms) {
    const double tau = static_cast<double>(m) * dt;
    const double adev = std::sqrt(allan_variance(y, m));
    const double band = 5.0 * allan_deviation_relative_sigma(n, m);
    CHECK(std::abs(adev / (N / std::sqrt(tau)) - 1.0) < band);
    log_tau.push_back(std::log(tau));
    log_adev.push_back(std::log(adev));
  }
  const double slope = (log_adev.back() - log_adev.front()) / (log_tau.back() - log_tau.front());
  const double slope_band = 5.0 * (allan_deviation_relative_sigma(n, ms[0]) + allan_deviation_relative_sigma(n, ms[4])) /
                            (log_tau.back() - log_tau.front());
  CHECK(std::abs(slope + 0.5) < slope_band);
}

TEST_CASE("noise: a bias random walk of density K has Allan deviation K root tau over 3 and slope one half") {
  const double rate = 100.0, dt = 1.0 / rate, K = 2e-4;
  const std::size_t n = 1 << 20;
  sensors::NoiseParameters p;
  p.bias_random_walk = K;
  sensors::NoiseAxis axis;
  sensors::Random random(5);
  std::vector<double> y(n);
  for (std::size_t k = 0; k < n; ++k) y[k] = axis.measure(0.0, p, dt, k == 0 ? 0.0 : dt, random);
  CHECK(y[0] == 0.0);  // β_0 = 0
  // The walk's steps: variance K²Δt (noise.h (4)), within 5 standard deviations √(2/n).
  double sum2 = 0.0;
  for (std::size_t k = 1; k < n; ++k) sum2 += (y[k] - y[k - 1]) * (y[k] - y[k - 1]);
  CHECK(std::abs(sum2 / static_cast<double>(n - 1) / (K * K * dt) - 1.0) < 5.0 * std::sqrt(2.0 / static_cast<double>(n)));
  // Allan variance of a sampled walk, exactly: d_j = Σ c_i q n_i over the 2m − 1 steps inside
  // clusters j and j + 1 with c_i = i/m (i ≤ m) and (2m − i)/m (i > m), so
  //   σ²_A = q² Σc_i² / 2 = K²Δt (2m² + 1)/(6m) = (K²τ/3)(1 + 1/(2m²)),  τ = mΔt, q = K√Δt,
  // which tends to K²τ/3 (noise.h (6)).
  const std::size_t ms[] = {16, 64, 256, 1024};
  std::vector<double> log_tau, log_adev;
  for (std::size_t m : ms) {
    const double tau = static_cast<double>(m) * dt;
    const double md = static_cast<double>(m);
    const double expected = std::sqrt(K * K * tau / 3.0 * (1.0 + 1.0 / (2.0 * md * md)));
    const double adev = std::sqrt(allan_variance(y, m));
    CHECK(std::abs(adev / expected - 1.0) < 5.0 * allan_deviation_relative_sigma(n, m));
    log_tau.push_back(std::log(tau));
    log_adev.push_back(std::log(adev));
  }
  const double slope = (log_adev.back() - log_adev.front()) / (log_tau.back() - log_tau.front());
  const double slope_band = 5.0 * (allan_deviation_relative_sigma(n, ms[0]) + allan_deviation_relative_sigma(n, ms[3])) /
                            (log_tau.back() - log_tau.front());
  // The exact form's factor (1 + 1/(2m²)) bends the slope below ½ by at most ½ln(1 + 1/512)
  // over the log-distance (at m = 16; nothing at 1024).
  const double bend = 0.5 * std::log(1.0 + 1.0 / (2.0 * 16.0 * 16.0)) / (log_tau.back() - log_tau.front());
  CHECK(std::abs(slope - 0.5) < slope_band + bend);
}

TEST_CASE("noise: scale factor, bias, saturation and quantisation act in that order") {
  sensors::NoiseParameters p;
  p.scale_factor_error = 0.01;
  p.bias = 0.3;
  p.range = 5.0;
  p.resolution = 0.25;
  sensors::Random random(1);
  sensors::NoiseAxis axis;
  // (1 + e)x + b, then the nearest multiple of 0.25 within ±5.
  CHECK(axis.measure(2.0, p, 0.01, 0.0, random) == 0.25 * std::round((1.01 * 2.0 + 0.3) / 0.25));
  CHECK(axis.measure(10.0, p, 0.01, 0.01, random) == 5.0);
  CHECK(axis.measure(-10.0, p, 0.01, 0.01, random) == -5.0);
  p.resolution = 0.0;
  CHECK(axis.measure(1.0, p, 0.01, 0.01, random) == doctest::Approx(1.01 + 0.3).epsilon(1e-15));
}
