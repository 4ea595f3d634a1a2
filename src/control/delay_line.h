// A controller's commands delayed by a fixed time d (`delay` on a pid, thrust_allocation or
// ardusub_mixer): what its actuators read at t is what the controller held at t − d, and, before
// t = d, its first sample (the one at t = 0), as a delayed channel holds its initial value.
//
// The controller still samples at t_k = k·T (sample_clock.h) and holds; the delay line keeps the
// samples taken but not yet due and lets sample k out at exactly t_k + d, which the driver treats
// as one more controller breakpoint (next_release_time()): a step of the controller's output
// arrives d later to the step, for rk4 and dopri5 alike, and what is held between is constant as
// before. Pending samples are those of (t − d, t]: at most ⌊d/T⌋ + 1, stored in a ring allocated
// by the constructor; nothing allocates after it. A release is due at t up to 1e-9·T early, as a
// sample is (sample_clock.h).
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

namespace uwsim::control {

class DelayLine {
 public:
  DelayLine(double delay, double period, int width)
      : delay_(delay), tolerance_(1e-9 * period), width_(static_cast<std::size_t>(width)) {
    if (!(delay >= 0.0) || !std::isfinite(delay)) throw std::invalid_argument("DelayLine: the delay must be finite and ≥ 0");
    if (delay > 0.0) {
      capacity_ = static_cast<std::size_t>(std::floor(delay / period)) + 2;
      times_.resize(capacity_);
      values_.resize(capacity_ * width_);
      held_.resize(width_);
    }
  }

  bool active() const { return delay_ > 0.0; }
  double next_release_time() const {
    return count_ == 0 ? std::numeric_limits<double>::infinity() : times_[first_] + delay_;
  }
  bool release_due(double t) const { return count_ > 0 && t >= next_release_time() - tolerance_; }

  // The sample taken at t (values[0..width)); `held` (width entries) receives what the
  // actuators read from now on: the released value, or this sample if it is the first.
  void push(double t, const double* values, double* held) {
    if (count_ == capacity_) throw std::logic_error("DelayLine: more samples pending than the delay allows");
    const std::size_t slot = (first_ + count_) % capacity_;
    times_[slot] = t;
    for (std::size_t j = 0; j < width_; ++j) values_[slot * width_ + j] = values[j];
    ++count_;
    if (!started_) {
      for (std::size_t j = 0; j < width_; ++j) held_[j] = values[j];
      started_ = true;
    }
    for (std::size_t j = 0; j < width_; ++j) held[j] = held_[j];
  }

  // Lets out every sample due at t; `held` receives the latest of them. False if none was due.
  bool release(double t, double* held) {
    if (!release_due(t)) return false;
    while (release_due(t)) {
      for (std::size_t j = 0; j < width_; ++j) held_[j] = values_[first_ * width_ + j];
      first_ = (first_ + 1) % capacity_;
      --count_;
    }
    for (std::size_t j = 0; j < width_; ++j) held[j] = held_[j];
    return true;
  }

 private:
  double delay_, tolerance_;
  std::size_t width_, capacity_ = 0, first_ = 0, count_ = 0;
  bool started_ = false;
  std::vector<double> times_, values_, held_;
};

}  // namespace uwsim::control
