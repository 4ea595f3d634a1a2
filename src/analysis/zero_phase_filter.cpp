// References: see zero_phase_filter.h; equation numbers (1)–(3) there.
#include "analysis/zero_phase_filter.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <stdexcept>

namespace uwsim::analysis {

namespace {

// One pass of a section in transposed direct form II, starting in its steady state for x[0]:
// with y = x = x₀ constant, z1 = (1 − b0)·x₀ and z2 = (b2 − a2)·x₀ (unit DC gain).
void run_section(const Section& s, std::vector<double>& x) {
  if (x.empty()) return;
  double z1 = (1.0 - s.b0) * x[0], z2 = (s.b2 - s.a2) * x[0];
  for (double& v : x) {
    const double in = v, out = s.b0 * in + z1;
    z1 = s.b1 * in - s.a1 * out + z2;
    z2 = s.b2 * in - s.a2 * out;
    v = out;
  }
}

}  // namespace

std::vector<Section> butterworth_lowpass(int order, double cutoff, double sample_rate) {
  if (order < 1 || order > 16) throw std::invalid_argument("the filter order must be between 1 and 16");
  if (!(cutoff > 0.0 && cutoff < 0.5 * sample_rate))
    throw std::invalid_argument("the cutoff must lie between 0 and half the sample rate");
  const double K = std::tan(std::numbers::pi * cutoff / sample_rate);
  std::vector<Section> sections;
  for (int k = 1; k <= order / 2; ++k) {  // (1)
    const double phi = std::numbers::pi / 2.0 + (2.0 * k - 1.0) * std::numbers::pi / (2.0 * order);
    const double Q = -1.0 / (2.0 * std::cos(phi));
    const double a0 = 1.0 + K / Q + K * K;
    sections.push_back({K * K / a0, 2.0 * K * K / a0, K * K / a0, 2.0 * (K * K - 1.0) / a0, (1.0 - K / Q + K * K) / a0});
  }
  if (order % 2 == 1) sections.push_back({K / (1.0 + K), K / (1.0 + K), 0.0, (K - 1.0) / (1.0 + K), 0.0});  // (2)
  return sections;
}

double power_response(const std::vector<Section>& sections, double f, double sample_rate) {
  const std::complex<double> z_inv = std::polar(1.0, -2.0 * std::numbers::pi * f / sample_rate);
  std::complex<double> H = 1.0;
  for (const Section& s : sections)
    H *= (s.b0 + s.b1 * z_inv + s.b2 * z_inv * z_inv) / (1.0 + s.a1 * z_inv + s.a2 * z_inv * z_inv);
  return std::norm(H);
}

std::vector<double> filtfilt(const std::vector<Section>& sections, const std::vector<double>& x, std::size_t padding) {
  const std::size_t n = x.size();
  if (n < 2) return x;
  const std::size_t p = std::min(padding, n - 1);
  std::vector<double> y;
  y.reserve(n + 2 * p);
  for (std::size_t k = p; k >= 1; --k) y.push_back(2.0 * x.front() - x[k]);
  y.insert(y.end(), x.begin(), x.end());
  for (std::size_t k = 1; k <= p; ++k) y.push_back(2.0 * x.back() - x[n - 1 - k]);
  for (const Section& s : sections) run_section(s, y);
  std::reverse(y.begin(), y.end());
  for (const Section& s : sections) run_section(s, y);
  std::reverse(y.begin(), y.end());
  return std::vector<double>(y.begin() + static_cast<long>(p), y.begin() + static_cast<long>(p + n));
}

std::vector<double> first_derivative(const std::vector<double>& x, double T) {
  const std::size_t n = x.size();
  std::vector<double> d(n, 0.0);
  if (n < 2) return d;
  for (std::size_t k = 1; k + 1 < n; ++k) d[k] = (x[k + 1] - x[k - 1]) / (2.0 * T);
  d[0] = (x[1] - x[0]) / T;
  d[n - 1] = (x[n - 1] - x[n - 2]) / T;
  return d;
}

std::vector<double> second_derivative(const std::vector<double>& x, double T) {
  const std::size_t n = x.size();
  std::vector<double> d(n, 0.0);
  if (n < 3) return d;
  for (std::size_t k = 1; k + 1 < n; ++k) d[k] = (x[k + 1] - 2.0 * x[k] + x[k - 1]) / (T * T);
  d[0] = d[1];
  d[n - 1] = d[n - 2];
  return d;
}

}  // namespace uwsim::analysis
