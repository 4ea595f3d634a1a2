// A one-line progress display on a terminal: simulated time, percentage, real-time factor.
// Shown only when stderr is a terminal and the run has lasted more than a second; it reads
// the wall clock, which never reaches the result file.
#pragma once

#include <chrono>

#include "integrate/driver.h"

namespace uwsim::app {

class ProgressLine : public integrate::SampleSink {
 public:
  ProgressLine(integrate::SampleSink& next, double duration, bool enabled);
  ~ProgressLine() override;  // clears the line
  void on_sample(double t, const double* x, const double* xdot, const dynamics::Workspace& ws) override;

 private:
  integrate::SampleSink& next_;
  double duration_;
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_, last_update_;
};

}  // namespace uwsim::app
