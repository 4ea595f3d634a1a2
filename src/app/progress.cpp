#include "app/progress.h"

#include <cstdio>

namespace uwsim::app {

using Clock = std::chrono::steady_clock;

ProgressLine::ProgressLine(integrate::SampleSink& next, double duration, bool enabled)
    : next_(next), duration_(duration), enabled_(enabled), start_(Clock::now()),
      last_update_(start_) {}

ProgressLine::~ProgressLine() {
  if (shown_) std::fprintf(stderr, "\r\033[K");
}

void ProgressLine::on_sample(double t, const double* x, const double* xdot, const dynamics::Workspace& ws) {
  next_.on_sample(t, x, xdot, ws);
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < 1.0 || now - last_update_ < std::chrono::milliseconds(100)) return;
  last_update_ = now;
  shown_ = true;
  std::fprintf(stderr, "\r\033[Kt = %.2f / %.2f s  %5.1f %%  real-time factor %.1f", t, duration_,
               100.0 * t / duration_, t / elapsed);
  std::fflush(stderr);
}

}  // namespace uwsim::app
