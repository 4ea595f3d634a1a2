// The zero-phase Butterworth filter against its closed-form frequency response, and the
// central differences against their exact values on a sine.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "analysis/zero_phase_filter.h"

using namespace uwsim;

namespace {

constexpr double kPi = std::numbers::pi;

// Digital Butterworth power response (bilinear transform, prewarped cutoff).
double butterworth_power(double f, double fc, double fs, int order) {
  return 1.0 / (1.0 + std::pow(std::tan(kPi * f / fs) / std::tan(kPi * fc / fs), 2.0 * order));
}

}  // namespace

TEST_CASE("butterworth: the designed sections have the closed-form power response 1/(1 + (tan(ω/2)/tan(ω_c/2))^2n)") {
  for (int order : {1, 2, 3, 4, 5}) {
    const double fs = 100.0, fc = 5.0;
    const auto sections = analysis::butterworth_lowpass(order, fc, fs);
    CHECK(sections.size() == static_cast<std::size_t>((order + 1) / 2));
    for (double f : {0.0, 0.5, 2.0, 5.0, 8.0, 20.0, 45.0})
      CHECK(analysis::power_response(sections, f, fs) == doctest::Approx(butterworth_power(f, fc, fs, order)).epsilon(1e-10));
    CHECK(analysis::power_response(sections, fc, fs) == doctest::Approx(0.5).epsilon(1e-12));  // −3 dB at f_c
  }
  CHECK_THROWS_AS(analysis::butterworth_lowpass(3, 60.0, 100.0), std::invalid_argument);
  CHECK_THROWS_AS(analysis::butterworth_lowpass(0, 5.0, 100.0), std::invalid_argument);
}

TEST_CASE("filtfilt: a sinusoid comes out scaled by |H(f)|² with zero phase — a ramp passes unchanged") {
  const double fs = 100.0, fc = 2.0;
  const auto sections = analysis::butterworth_lowpass(3, fc, fs);
  for (double f : {0.3, 1.0, 2.0, 3.0}) {
    std::vector<double> x(6000);
    for (std::size_t k = 0; k < x.size(); ++k) x[k] = std::sin(2.0 * kPi * f * static_cast<double>(k) / fs + 0.4);
    const std::vector<double> y = analysis::filtfilt(sections, x, 150);
    const double gain = butterworth_power(f, fc, fs, 3);
    double worst = 0.0;  // away from the ends, where the transients have died out
    for (std::size_t k = 2000; k < 4000; ++k) worst = std::max(worst, std::abs(y[k] - gain * x[k]));
    CHECK(worst < 1e-6);
  }
  std::vector<double> ramp(500);
  for (std::size_t k = 0; k < ramp.size(); ++k) ramp[k] = 0.3 + 0.01 * static_cast<double>(k);
  // The sections start in the steady state of a constant, so a ramp starts them off by its lag
  // (slope × group delay, 0.16 here); with padding of six cutoff periods that transient has
  // decayed by e^(−ζω_c·6/f_c) ≈ e^(−19) before the data begin (ζ = 0.5, the slowest pole pair).
  const std::vector<double> y = analysis::filtfilt(sections, ramp, 300);
  double worst = 0.0;
  for (std::size_t k = 0; k < ramp.size(); ++k) worst = std::max(worst, std::abs(y[k] - ramp[k]));
  CHECK(worst < 1e-8);
  // With half a period of padding it has not.
  const std::vector<double> short_pad = analysis::filtfilt(sections, ramp, 25);
  CHECK(std::abs(short_pad.back() - ramp.back()) > 1e-4);
}

TEST_CASE("differences: central differences of sin t are cos t·sin T/T and −sin t·2(1 − cos T)/T² exactly") {
  const double T = 0.05;
  std::vector<double> x(400);
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = std::sin(static_cast<double>(k) * T);
  const std::vector<double> d1 = analysis::first_derivative(x, T), d2 = analysis::second_derivative(x, T);
  for (std::size_t k = 1; k + 1 < x.size(); ++k) {
    const double t = static_cast<double>(k) * T;
    CHECK(d1[k] == doctest::Approx(std::cos(t) * std::sin(T) / T).epsilon(1e-9));
    CHECK(d2[k] == doctest::Approx(-std::sin(t) * 2.0 * (1.0 - std::cos(T)) / (T * T)).scale(1.0).epsilon(1e-9));
  }
}
