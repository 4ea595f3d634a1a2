// Named command channels (`inputs:` in a scenario): schedules of time, sampled at the
// integrator's evaluation times, that drive thrusters, joint actuators and applied forces.
// References: [Leborne2018] Sec. IV-B and Swevers et al. 1997 (Fourier excitation
// trajectories); [Kolano] Sec. III (quintic joint trajectories).
//
// Every channel is a function c(t) of the time t of the evaluation. Those with jumps (step,
// zero-order hold, the edges of an active window) choose their branch by the *schedule
// time* t_s instead: the start of the integrator's current smooth segment (see
// integrate/driver.h). The jump times are reported as discontinuities, so a segment never
// straddles one and within a segment c is smooth in t.
//
//   constant          c = value
//   step              c = value before the first step; the value of the last step with t_k ≤ t_s
//   ramp              c = from for t ≤ start, to for t ≥ stop, linear in between
//   piecewise_linear  the table (t_k, c_k): linear in t, or held (zero-order hold, by t_s);
//                     end values hold outside it
//   sine              c = offset + amplitude·sin(2π·frequency·(t − start) + phase) while
//                     start ≤ t_s < stop, else offset
//   fourier           c = offset + Σ_k a_k·sin(k·2π·frequency·(t − start)) + b_k·cos(…), k = 1..N,
//                     in the same window (Swevers' trajectory q0 + Σ a_l/(ω_f l) sin(ω_f l t)
//                     − b_l/(ω_f l) cos(ω_f l t) is a_k = a_l/(ω_f k), b_k = −b_l/(ω_f k))
//   quintic           c = from + (to − from)·(10s³ − 15s⁴ + 6s⁵), s = (t − start)/(stop − start)
//                     clamped to [0, 1]: rest to rest with zero velocity and acceleration at
//                     both ends
//   csv               a column of a CSV file against its time column, as piecewise_linear
//   sum               c = Σ operands
//   scale             c = gain·operand + offset
//
// Delay (`delay` d > 0 s, every kind but sum and scale, whose operands carry their own): the
// channel is c(t − d), and c(0) before t = d, for a command that reaches its actuator late.
// It is exact, not resampled: the model builder shifts the channel's own times by d once
// (apply_delay: table times, step times, window and motion start and stop), so every jump and
// every CSV sample arrives at exactly its time + d, and the shifted times are the ones reported
// as discontinuities, with d itself (where c(0) gives way to the shifted schedule). A sum or a
// scale of delayed channels is the delayed sum or scale.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "inputs/table.h"

namespace uwsim::inputs {

enum class ChannelKind { constant, step, ramp, piecewise_linear, sine, fourier, quintic, csv, sum, scale };

// A channel as a scenario gives it: plain data (a sum's or scale's operands are named by the
// spec, model/actuation_spec.h, and resolved to indices in Channel).
struct ChannelParameters {
  std::string name;
  std::string units;           // as the scenario states them, for the output file
  ChannelKind kind = ChannelKind::constant;
  double value = 0.0;          // constant; step: the value before the first step
  Table table;                 // step: (time, value from then on); piecewise_linear, csv: samples
  Interpolation interpolation = Interpolation::linear;  // piecewise_linear, csv
  double start = 0.0;          // s: ramp/quintic motion start; sine/fourier window start
  double stop = std::numeric_limits<double>::infinity();  // s: motion end / window end
  double from = 0.0, to = 0.0;                 // ramp, quintic
  double amplitude = 0.0, frequency = 0.0, phase = 0.0;  // sine (Hz, rad); fourier: frequency
  double offset = 0.0;                         // sine, fourier, scale
  std::vector<double> sine_coefficients;       // fourier a_k
  std::vector<double> cosine_coefficients;     // fourier b_k
  double gain = 1.0;                           // scale
  double delay = 0.0;                          // s: c(t − delay), c(0) before (see above)
};

// A channel of a model's InputSet.
struct Channel : ChannelParameters {
  std::vector<int> operands;                   // sum, scale: indices of other channels
  double initial = 0.0;                        // delayed: c(0), its value before t = delay
};

// Shifts a delayed channel's times by its delay and records c(0) (see above); nothing for
// delay 0. Call once, on a channel as its parameters give it; not for sum and scale.
void apply_delay(Channel& channel);

// c(t) of a channel. `values` holds the already evaluated channels (the operands of sum and
// scale come first in the evaluation order).
double evaluate(const Channel& channel, double t, double schedule_time, const double* values);

// The times at which the channel jumps (appended to `times`, unsorted).
void append_discontinuities(const Channel& channel, std::vector<double>& times);

// Closed forms, each tested on its own.
double ramp(double t, double start, double stop, double from, double to);
double quintic(double t, double start, double stop, double from, double to);
double sine(const Channel& c, double t, double schedule_time);
double fourier(const Channel& c, double t, double schedule_time);

}  // namespace uwsim::inputs
