// A sensor's latency: its readings let out exactly `latency` after they were measured, held
// until the next is let out. The ring holds the readings measured but not yet out; its capacity
// is fixed when it is made (the readings in flight over the latency at the sensor's rate, plus
// one for a clock on the output grid, late by less than a tick, and one for the push before the
// release at the same sample), so pushing and releasing never allocate.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

#include "sensors/quantities.h"

namespace uwsim::sensors {

using Reading = std::array<double, kMaxReading>;

class ReadingDelay {
 public:
  // `rate` (Hz) bounds how often push() is called: at most once per 1/rate, give or take the
  // tolerance of the sensor's clock.
  ReadingDelay(double latency, double rate)
      : latency_(latency), ring_(static_cast<std::size_t>(std::floor(latency * rate)) + 3) {
    held_.fill(std::numeric_limits<double>::quiet_NaN());
  }

  // A reading measured at `time` (not before the previous one's).
  void push(double time, const Reading& reading) {
    if (count_ == ring_.size()) throw std::logic_error("ReadingDelay: more readings in flight than its rate allows");
    ring_[(head_ + count_) % ring_.size()] = {time, reading};
    ++count_;
  }

  // Lets out every reading measured at or before t − latency (`tolerance` of time rounding: a
  // reading due at t within it is out at t); the last of them is held.
  void release(double t, double tolerance) {
    while (count_ > 0 && ring_[head_].time + latency_ <= t + tolerance) {
      held_ = ring_[head_].reading;
      out_ = true;
      head_ = (head_ + 1) % ring_.size();
      --count_;
    }
  }

  // The reading out at the last release (NaN before the first is out).
  const Reading& held() const { return held_; }
  // held(), or before the first is out the first reading measured (NaN before any).
  const Reading& held_or_first() const { return out_ || count_ == 0 ? held_ : ring_[head_].reading; }

 private:
  struct Entry {
    double time = 0.0;
    Reading reading{};
  };
  double latency_;
  std::vector<Entry> ring_;
  std::size_t head_ = 0, count_ = 0;
  bool out_ = false;
  Reading held_;
};

}  // namespace uwsim::sensors
