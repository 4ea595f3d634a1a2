// The sensor stage: what the model's sensors (sensors/sensor.h) read, from the true state an
// evaluation of the pipeline has left in the workspace (poses, velocities, the accelerations
// after the forward dynamics and the connectors' correction, thruster states, connector wrenches).
//
// Sampling. The stage is called at each output sample t_k of a run (output/recorder.h), after
// the evaluation at (t_k, x_k). A sensor of rate f measures at its ticks j/f (j = 0, 1, …): at
// the first sample t_k ≥ j/f (within 1e-12·max(1, t) of rounding), with the true state at t_k.
// When f divides the output rate (rate_divides below, which the scenario's validation checks)
// every tick is a sample and the sensor measures exactly on its own clock; otherwise it
// measures on the output grid, late by less than one output interval, and the bias walk of
// noise.h (4) walks over the time that passed. A sensor faster than the output measures once
// per sample.
//
// Latency. A reading measured at s is let out at s + latency and held until the next is let out
// (sensors/delay.h): the output at t is the reading of the last measurement s_j with
// s_j + latency ≤ t, NaN before the first is out. So the written series is the measured,
// zero-order-held series delayed by exactly `latency`; with latency a multiple of the output
// interval, the rows of the latency-free series shifted by latency·output rate.
//
// In a run (integrate/driver.h) the driver holds one SensorSet and writes every sensor's output
// into the Workspace (Workspace::sensors, and Workspace::sensor_feedback for the controllers):
//   - a sensor no controller flies on ("recorded") measures as above, at the output samples
//     (sample_outputs), from the evaluation the sample is written with;
//   - a sensor a controller flies on (`feedback:`, "fed") measures at its own ticks j/f, which
//     are breakpoints of the integration (next_feedback_tick), at the accepted step end t and
//     before the controllers' samples at t (sample_feedback), so a controller sampled at t reads
//     what its sensors measured at t. Its specific force or connector wrench is that of the
//     evaluation f(t, x) with the commands held from before t (the controllers' outputs at t
//     cannot enter what they are computed from): the driver evaluates f(t, x) at the accepted
//     state first when one is due (next_feedback_tick).
// Either way the recorder writes Workspace::sensors at each output sample: what was measured.
//
// Noise: each sensor draws from its own stream (sensors/random.h, seeded by its `seed`), a fixed
// number of draws per reading, so a sensor's noise never depends on the other sensors or on the
// integrator's steps. None of this allocates after construction.
#pragma once

#include <vector>

#include "dynamics/model.h"
#include "dynamics/workspace.h"
#include "sensors/delay.h"
#include "sensors/noise.h"
#include "sensors/random.h"
#include "spatial/rotation.h"

namespace uwsim::dynamics {

// Whether a sensor at `rate` measures on its own clock on an output grid of `output_rate`:
// output_rate / rate is a whole number (within 1e-9).
bool rate_divides(double output_rate, double rate);

// The true reading of a sensor (no noise, no latency), from the evaluation at (t, x) held in
// `ws`; columns as sensors/quantities.h lists them. Exposed for tests and estimators.
sensors::Reading true_reading(const Model& model, const sensors::Sensor& sensor, const double* x,
                              const Workspace& ws);

class SensorSet {
 public:
  explicit SensorSet(const Model& model);

  // At an output sample t (increasing from call to call), after the evaluation at (t, x) that
  // filled `ws`: the sensors due measure, then the readings due are let out.
  void sample(double t, const double* x, const Workspace& ws);

  // Sensor i's output since the last sample(): columns as sensors/quantities.h lists them.
  const sensors::Reading& reading(std::size_t i) const { return states_[i].delay.held(); }
  std::size_t size() const { return states_.size(); }

  // In a run (see above). At an output sample t, after the evaluation at (t, x) in `ws`: the
  // recorded sensors due measure, every sensor's readings due are let out, and the outputs are
  // written into ws.sensors and ws.sensor_feedback.
  void sample_outputs(double t, const double* x, Workspace& ws);
  // At an accepted step end t, before the controllers' samples: the fed sensors due measure
  // (an IMU's or wrench sensor's accelerations from the evaluation in `ws`), readings due are
  // let out, and the outputs are written into ws.
  void sample_feedback(double t, const double* x, Workspace& ws);
  // The earliest next tick of a fed sensor (+∞ without any).
  double next_feedback_tick() const;
  bool fed(std::size_t i) const { return states_[i].fed; }

 private:
  struct State {
    sensors::Random random;
    std::array<sensors::NoiseAxis, sensors::kMaxReading> axes{};
    sensors::ReadingDelay delay;
    long next_tick = 0;       // index j of the next tick j/rate
    double last_time = 0.0;   // time of the last measurement
    bool measured = false;
    spatial::Quat last_q_WS = spatial::Quat(1, 0, 0, 0);  // pose: q and −q alike, the one nearer this
    bool fed = false;         // a controller flies on it
  };
  bool due(std::size_t i, double t) const;
  void take(std::size_t i, double t, const double* x, const Workspace& ws);
  void write(Workspace& ws, double t);
  sensors::Reading measure(const sensors::Sensor& sensor, State& state, double t, const double* x,
                           const Workspace& ws);
  const Model& model_;
  std::vector<State> states_;
};

}  // namespace uwsim::dynamics
