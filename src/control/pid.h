// Discrete PID for one joint (or any scalar axis), sampled at its own period T with the output
// held between samples (zero-order hold; the driver contract is in control/sample_clock.h).
// References: [LeonGonzalez2024] Sec. 6.5, Table 5 (joint PID); [Kolano] eq. 4 (torque filter
// with feed-forward, 100 Hz).
//
// At each sample t_k, with e_k the error and ė_k its rate:
//   position mode: e = q_d − q,   ė = q̇_d − q̇   (measured rates, no differencing)
//   velocity mode: e = q̇_d − q̇,  ė = (e_k − e_{k−1}) / T   (ė = 0 at the first sample)
//   I_k     = I_{k−1} + K_I·T·e_k                                   (1) backward rectangle
//   τ_PID   = K_P·e_k + I_k + K_D·ė_k                               (2)
//   τ_raw   = a·τ_{k−1} + (1 − a)·τ_ff + τ_PID                      (3) [Kolano eq. 4], a = 0.75 there
//   τ_k     = clamp(τ_raw, −τ_max, τ_max)                           (4) output saturation
// With a = 0 (the default), (3) is the plain PID plus feed-forward τ_ff (e.g. the model's bias
// torques from inverse dynamics, supplied by the caller). With a > 0, (3) is a first-order filter
// on the applied torque τ_{k−1} (the saturated one, "the torque applied at the previous time
// step"); note its DC gain on τ_PID is 1/(1 − a) (4 for a = 0.75), while τ_ff passes at gain 1.
//
// Anti-windup (clamping, chosen for having no extra gain to tune): when τ_raw exceeds the limit
// and this sample's integral increment K_I·T·e_k pushes it further out, the increment is
// discarded (I_k = I_{k−1}) and (2)–(4) are recomputed. So under sustained saturation the
// integral stays where it was when saturation began, and it unwinds as soon as the error
// changes sign. AntiWindup::none keeps the plain integrator (for comparison).
//
// Units: SI, those of the joint (rad or m; N m or N). Gains ≥ 0. No allocation.
#pragma once

#include <limits>

#include "control/sample_clock.h"

namespace uwsim::control {

enum class PidMode { position, velocity };
enum class AntiWindup { clamping, none };

struct PidSettings {
  double kp = 0.0, ki = 0.0, kd = 0.0;
  double sample_period = 0.01;  // s, T
  PidMode mode = PidMode::position;
  double output_limit = std::numeric_limits<double>::infinity();  // τ_max ≥ 0
  double torque_filter = 0.0;   // a in (3), 0 ≤ a < 1
  AntiWindup anti_windup = AntiWindup::clamping;
};

// What the controller reads at a sample instant.
struct PidSample {
  double setpoint = 0.0;       // q_d (position mode) or q̇_d (velocity mode)
  double setpoint_rate = 0.0;  // q̇_d (position mode only; 0 for a step)
  double position = 0.0;       // measured q
  double velocity = 0.0;       // measured q̇
  double feed_forward = 0.0;   // τ_ff
};

class Pid {
 public:
  // Throws std::invalid_argument on negative gains, T ≤ 0, a ∉ [0, 1) or a negative limit.
  explicit Pid(const PidSettings& settings);

  bool due(double t) const { return clock_.due(t); }
  double next_sample_time() const { return clock_.next_time(); }

  // Takes the sample at t if due(t) and returns true; otherwise changes nothing and returns
  // false. Called by the driver at accepted step ends only, never from a derivative evaluation.
  bool update(double t, const PidSample& sample);

  double output() const { return output_; }  // τ_k, held until the next sample
  double error() const { return error_; }    // e_k
  double setpoint() const { return setpoint_; }
  double integral() const { return integral_; }  // I_k (in output units)

  // What a sample carries to the next: I_k, τ_k (the filter's τ_{k−1} of (3)) and e_k (the
  // velocity mode's e_{k−1}). restore() sets them as if a sample had just been taken, so that
  // the next update() starts from them (sim trim's closed-loop equilibrium, analysis/trim.h).
  struct Memory {
    double integral = 0.0, previous_output = 0.0, previous_error = 0.0;
  };
  void restore(const Memory& memory);


 private:
  PidSettings settings_;
  SampleClock clock_;
  double output_ = 0.0, error_ = 0.0, setpoint_ = 0.0, integral_ = 0.0;
  bool has_previous_ = false;
};

}  // namespace uwsim::control
