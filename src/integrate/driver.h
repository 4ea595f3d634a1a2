// Integrates a Model in time (rk4 here, dopri5 with Boost.Odeint) and hands exact-time samples
// to a sink.
//
// - Samples fall at exactly t_k = k / output_rate (k = 0, 1, …) and at the end time.
// - rk4: classic fixed step `step`; a step is shortened only to land on a sample time, a
//   force switching time, a channel jump, a controller sample or the end, so every sample is
//   a step point (no interpolation).
// - dopri5: adaptive Dormand–Prince 5(4) with abs_tol/rel_tol; samples come from its dense
//   output (4th-order continuous extension), so the step size never depends on the output rate.
// - The right-hand side is integrated in smooth segments between force switching times and
//   channel jumps (Model::discontinuities) and controller sample times; the stepper restarts
//   at each. At a segment end the controllers due there take their sample from the accepted
//   state (dynamics/controller_set.h), before the output sample at that time is written.
// - Sensors (dynamics/sensor_set.h): the driver holds their states and writes their outputs into
//   the Workspace the sink gets; the ticks of the sensors controllers fly on are breakpoints
//   like controller samples, and they measure there before the controllers.
// - After each step, quaternions are projected back to unit norm (rk4: every step; dopri5:
//   when |‖q‖ − 1| exceeds 1e-10, restarting the stepper there). Samples are always unit.
// - rk4: a sample is the state at its step point as the integrator holds it (projected once),
//   and its f(t, x) is the next step's first stage, not evaluated again.
// - dopri5 stops with Outcome::diverged if its step shrinks below 1e-12·max(1, t).
// - After each step the state is checked: a non-finite or exploding value stops the run with
//   Outcome::diverged and names the body, the component and the time.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "dynamics/workspace.h"
#include "dynamics/model.h"
#include "integrate/settings.h"

namespace uwsim::integrate {

// Receives the samples. `xdot` is f(t, x) at the sample, and `ws` holds that evaluation's
// poses, velocities and accelerations of every body.
class SampleSink {
 public:
  virtual ~SampleSink() = default;
  virtual void on_sample(double t, const double* x, const double* xdot, const dynamics::Workspace& ws) = 0;
};

enum class Outcome { completed, interrupted, diverged };

struct RunResult {
  Outcome outcome = Outcome::completed;
  double end_time = 0.0;   // last sampled time
  long steps = 0;          // accepted integrator steps
  std::string message;     // for diverged: what, where and when
  std::vector<std::string> warnings;  // e.g. a tree with bodies above the surface (state_check.h), once each
};

// Runs from model.x0 at t = 0 to settings.duration. `stop_requested` (may be null) is polled
// after every step; when it turns true the run ends with Outcome::interrupted after handing
// the sink the state at that step.
RunResult run(const dynamics::Model& model, const Settings& settings, SampleSink& sink,
              const std::atomic<bool>* stop_requested = nullptr);

}  // namespace uwsim::integrate
