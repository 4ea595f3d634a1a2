// Zero-phase low-pass filtering of uniformly sampled signals, and the derivatives
// `sim identify` takes from filtered joint positions.
// References: [Leborne2018] Sec. IV-D (positions filtered by a third-order Butterworth filter
// at a normalised cutoff of 0.1 before differentiating); Oppenheim & Schafer, Discrete-Time
// Signal Processing, 3rd ed., Sec. 7.2 (bilinear transform with prewarping) and 5.1
// (forward–backward filtering).
//
// Design: the analog Butterworth prototype of order n, poles on the unit circle at angles
// φ_k = π/2 + (2k − 1)π/(2n), mapped by the bilinear transform with the cutoff prewarped,
// K = tan(π f_c / f_s). Each conjugate pole pair gives a second-order section of quality
// Q_k = −1/(2 cos φ_k), k = 1..⌊n/2⌋, and an odd order a first-order section:
//   biquad:  b = [K², 2K², K²]/a0,  a = [1, 2(K² − 1)/a0, (1 − K/Q + K²)/a0],  a0 = 1 + K/Q + K²  (1)
//   single:  b = [K, K]/(1 + K),    a = [1, (K − 1)/(1 + K)]                                     (2)
// Each section has unit gain at DC. Its magnitude response is that of the digital Butterworth
//   |H(e^{jω})|² = 1 / (1 + (tan(ω/2) / tan(ω_c/2))^{2n}),   ω = 2π f / f_s                    (3)
// Forward–backward (filtfilt): filter, reverse, filter, reverse. The result has zero phase and
// the magnitude |H|² — so the −3 dB cutoff of one pass is the −6 dB point of the whole.
// Edges: the signal is extended at both ends by its odd reflection about the end sample
// (2x₀ − x_k), padding samples long, and every section starts in its steady state for the
// first value it sees, so a ramp passes without a start-up transient.
// Derivatives: central differences of the filtered signal, second order in the sample
// interval T; the end samples use one-sided differences (callers drop a margin anyway).
#pragma once

#include <vector>

namespace uwsim::analysis {

struct Section {
  double b0 = 0.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0;  // a0 = 1
};

// Sections (1)–(2) of an order-n Butterworth low-pass at f_c (Hz) for the sample rate f_s
// (Hz). Throws std::invalid_argument unless n ≥ 1 and 0 < f_c < f_s/2.
std::vector<Section> butterworth_lowpass(int order, double cutoff, double sample_rate);

// |H(e^{jω})|² of one pass through `sections` at frequency f (Hz): the design's own response,
// evaluated from its coefficients (tests compare it with (3)).
double power_response(const std::vector<Section>& sections, double f, double sample_rate);

// Zero-phase filtering with odd-reflection padding of `padding` samples (clamped to n − 1).
std::vector<double> filtfilt(const std::vector<Section>& sections, const std::vector<double>& x, std::size_t padding);

// dx/dt and d²x/dt² by central differences at interval T.
std::vector<double> first_derivative(const std::vector<double>& x, double T);
std::vector<double> second_derivative(const std::vector<double>& x, double T);

}  // namespace uwsim::analysis
