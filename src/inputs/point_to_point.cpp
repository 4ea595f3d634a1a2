// References: [Kolano] Sec. III (quintic time scaling in joint space); Lynch & Park,
// Modern Robotics, Sec. 9.2.2 (the rest-to-rest quintic s(τ) = 10τ³ − 15τ⁴ + 6τ⁵).
#include <algorithm>

#include "inputs/channel.h"

namespace uwsim::inputs {

namespace {
// Fraction of the motion done at t, clamped to [0, 1].
double progress(double t, double start, double stop) {
  return std::clamp((t - start) / (stop - start), 0.0, 1.0);
}
}  // namespace

double ramp(double t, double start, double stop, double from, double to) {
  return from + (to - from) * progress(t, start, stop);
}

double quintic(double t, double start, double stop, double from, double to) {
  const double s = progress(t, start, stop);
  // 10s³ − 15s⁴ + 6s⁵ = s³(10 + s(−15 + 6s)): zero slope and curvature at s = 0 and 1.
  return from + (to - from) * s * s * s * (10.0 + s * (-15.0 + 6.0 * s));
}

}  // namespace uwsim::inputs
