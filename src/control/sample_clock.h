// The sample instants of a discrete-time controller: t_k = k·T for k = 0, 1, 2, …
//
// Contract with an integrator driver (zero-order hold). A controller is a discrete system
// sampled at t_k and holding its output constant on [t_k, t_{k+1}):
//   - The driver treats every t_k as a breakpoint (as it does force switching times): steps
//     land on it, and after the step that ends at t, it calls the controller's update(t, …)
//     when due(t). The update reads the state at that accepted step end only.
//   - Derivative evaluations (RK4 sub-stages, dopri5 trial stages, rejected steps) read the
//     held output() and never call update, so they cannot advance the controller: the same
//     step evaluated twice gives the same result, and the output does not depend on the
//     integrator's stage times.
//   - The first sample is at t = 0: the driver calls update(0, …) before the first step.
// Sample times are k·T with an integer k (no accumulated rounding). due(t) accepts t up to
// 1e-9·T early, for a driver that computes t_k by another rounding. If the driver stepped
// past samples, the next advance() skips to the first sample after t (missed samples are
// dropped, not replayed).
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace uwsim::control {

class SampleClock {
 public:
  explicit SampleClock(double period) : period_(period) {
    if (!(period > 0.0) || !std::isfinite(period))
      throw std::invalid_argument("SampleClock: the sample period must be finite and > 0");
  }

  double period() const { return period_; }
  double next_time() const { return static_cast<double>(next_index_) * period_; }
  bool due(double t) const { return t >= next_time() - tolerance(); }

  // Marks the sample at t as taken: the next one is the first k·T after t.
  void advance(double t) {
    const double after_t = std::floor((t + tolerance()) / period_) + 1.0;
    next_index_ = std::max(next_index_ + 1, static_cast<long long>(after_t));
  }

 private:
  double tolerance() const { return 1e-9 * period_; }

  double period_;
  long long next_index_ = 0;
};

}  // namespace uwsim::control
