// The error model of one measured axis, with its parameters named as inertial-sensor datasheets
// and IEEE Std 952-1997 name them. In units of the measured quantity q (m/s² for an
// accelerometer, rad/s for a gyroscope, Pa for a pressure sensor, …):
//
//   y_k = Q( sat( (1 + e)·x_k + b + β_k + σ_w·n_k ) )                                       (1)
//   β_k = β_{k−1} + σ_β·n'_k,   β_0 = 0 (the first measurement)                              (2)
//
//   x_k   the true value at the k-th measurement; n_k, n'_k independent standard normals
//   e     scale_factor_error (1; datasheets' ppm × 10⁻⁶)
//   b     bias (q): the constant offset (turn-on bias)
//   σ_w   white noise per sample from the noise density N (q/√Hz, the "angle/velocity random
//         walk" coefficient of IEEE 952) at the sample interval Δt = 1/rate:
//             σ_w = N / √Δt                                                                 (3)
//   σ_β   the bias's random-walk step from its density K (q/s/√Hz, i.e. q/√s; IEEE 952's
//         "rate random walk"), over the time t_k − t_{k−1} since the previous measurement
//         (Δt when the sensor keeps its rate):
//             σ_β = K · √(t_k − t_{k−1})                                                    (4)
//   sat   clamp to [−range, range];  Q  rounding to the nearest multiple of `resolution`.
//
// (3) and (4) are the discrete-time equivalents of continuous white noise of one-sided PSD N²
// and of a Wiener process of intensity K² sampled every Δt ([Woodman2007], the gyro's angle
// random walk and bias random walk; the same pair is the discrete model of [Kalibr], "IMU Noise
// Model": σ_d = σ/√Δt, σ_bd = σ_b·√Δt). (3) is fixed by the sensor's own sample interval 1/rate;
// (4) is taken over the time that passed, so a walk sampled late is still a Wiener process.
// Their Allan variances, which the tests check, are IEEE Std 952-1997 Annex C (its table of the
// noise terms; also [Woodman2007]):
//   white noise:      σ²_A(τ) = N²/τ       (slope −½ of the Allan deviation on log–log axes)   (5)
//   bias random walk: σ²_A(τ) = K²τ/3      (slope +½)                                          (6)
// Not modelled: bias instability's flicker floor, temperature effects, cross-axis sensitivity,
// g-sensitivity of gyros.
//
// References: [Woodman2007] O. J. Woodman, "An introduction to inertial navigation", Univ. of
// Cambridge Tech. Rep. UCAM-CL-TR-696, 2007. [Kalibr] ethz-asl/kalibr wiki, "IMU Noise Model".
// IEEE Std 952-1997, "IEEE Standard Specification Format Guide and Test Procedure for
// Single-Axis Interferometric Fiber Optic Gyros", Annex C.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "sensors/random.h"

namespace uwsim::sensors {

struct NoiseParameters {
  double noise_density = 0.0;       // N: q/√Hz
  double bias = 0.0;                // b: q
  double bias_random_walk = 0.0;    // K: q/s/√Hz (= q/√s)
  double scale_factor_error = 0.0;  // e: 1
  double range = std::numeric_limits<double>::infinity();  // q, > 0
  double resolution = 0.0;          // q, ≥ 0 (0: not quantised)
};

// (3): the white noise's standard deviation per sample at interval dt.
inline double white_noise_sigma(double noise_density, double dt) { return noise_density / std::sqrt(dt); }
// (4): the bias walk's step over dt.
inline double bias_walk_sigma(double bias_random_walk, double dt) { return bias_random_walk * std::sqrt(dt); }

// Q(sat(y)) of (1).
inline double saturate_and_quantise(double y, const NoiseParameters& p) {
  const double clamped = std::clamp(y, -p.range, p.range);
  return p.resolution > 0.0 ? p.resolution * std::round(clamped / p.resolution) : clamped;
}

// One axis's state: the bias walk β of (2).
struct NoiseAxis {
  double walk = 0.0;

  // y_k of (1) for true value x, with the sensor's sample interval `sample_interval` (1/rate)
  // and `elapsed` the time since its previous measurement (0 at the first: β_0 = 0).
  // Draws two normals from `random`, in this order, whatever the parameters, so that one
  // axis's parameters never change another axis's noise.
  double measure(double x, const NoiseParameters& p, double sample_interval, double elapsed, Random& random) {
    const double white = random.normal();
    const double step = random.normal();
    walk += bias_walk_sigma(p.bias_random_walk, elapsed) * step;
    const double y = (1.0 + p.scale_factor_error) * x + p.bias + walk +
                     white_noise_sigma(p.noise_density, sample_interval) * white;
    return saturate_and_quantise(y, p);
  }
};

}  // namespace uwsim::sensors
