// Pose PD for a vehicle: a setpoint position and attitude in NED → a body-frame wrench.
// References: [LeonGonzalez2024] Sec. 6.4, Fig. 10, Table 4 (vehicle PD, error rotated into the
// body frame by R_0^n).
//
// Sampled at its own period with zero-order hold (driver contract: control/sample_clock.h).
// At a sample, with R_WB from q_WB and everything in SI:
//   e_p_B = R_WBᵀ (p_d_W − p_WBo_W)                  position error in body axes        (1)
//   e_θ_B = attitude_error(q_WB, q_WBd)               rotation vector (attitude_error.h) (2)
//   ė_B   = [R_WBᵀ v_d_W − v_B ; R_WBᵀ ω_d_W − ω_B]   velocity error in body axes        (3)
//   τ_B   = K_P ∘ [e_p_B; e_θ_B] + K_D ∘ ė_B + τ_ff   per-axis gains                     (4)
// τ_ff is a feed-forward wrench in body axes given with the setpoint: a pilot's stick demand
// that the autopilot's mixer adds to its stabilising output, or a known disturbance.
//   τ_B   clamped per axis to ±τ_max                                                   (5)
// Optional integral action (a pose PID; K_I = 0 by default, Table 4 is a PD): the sampled
//   I_k = I_{k−1} + K_I ∘ T e_k, added to (4) before (5),                                (6)
// with the pid's clamping anti-windup per axis (control/pid.h): an increment that pushes a
// saturated axis further out is dropped. The body-frame errors are integrated as they are, so
// a constant disturbance in body axes (buoyancy of a vehicle that holds its attitude) is
// cancelled; one that turns with the vehicle's yaw is followed only as fast as K_I allows.
// Ordering: Fossen's [X Y Z K M N] (force; moment) for τ, the gains and the limits, and
// ν = [u v w p q r] for the measured velocity — the order of paper 001's Table 4 and of the
// thruster configuration matrix (control/thruster_configuration.h), so τ_B feeds the
// allocation directly. The wrench is about the body origin Bo.
// Deviations from paper 001: the attitude error is the quaternion rotation vector instead of
// wrapped Euler-angle differences (no gimbal lock or 2π jumps), and the derivative acts on the
// body-frame velocity error (3) rather than on η̇. For small errors both agree to first order.
// No restoring-force compensation.
// Sampling: the derivative term alone is stable as a sampled loop only for T·K_D/I < 2; Table 4's
// K_D = 100 on the BlueROV2's I = 0.16 kg m² (pole 625 rad/s) needs T < 3.2 ms, 1 ms in the tests.
#pragma once

#include <limits>

#include "control/sample_clock.h"
#include "spatial/rotation.h"
#include "spatial/spatial.h"

namespace uwsim::control {

struct PosePdSettings {
  spatial::Vec6 kp = spatial::Vec6::Zero();  // [x y z φ θ ψ]: N/m, N m/rad
  spatial::Vec6 kd = spatial::Vec6::Zero();  // N s/m, N m s/rad
  spatial::Vec6 ki = spatial::Vec6::Zero();  // N/(m s), N m/(rad s): (6)
  spatial::Vec6 limit = spatial::Vec6::Constant(std::numeric_limits<double>::infinity());
  double sample_period = 0.01;  // s
};

struct PoseSetpoint {
  spatial::Vec3 p_WBd_W = spatial::Vec3::Zero();              // m, NED
  spatial::Quat q_WBd = spatial::Quat(1.0, 0.0, 0.0, 0.0);    // [w x y z], body → NED
  spatial::Vec3 v_WBd_W = spatial::Vec3::Zero();              // m/s, rate of p_WBd_W
  spatial::Vec3 w_WBd_W = spatial::Vec3::Zero();              // rad/s, in NED
  spatial::Vec6 tau_ff_B = spatial::Vec6::Zero();             // [X Y Z K M N], N and N m: (4)
};

struct VehicleState {
  spatial::Vec3 p_WBo_W = spatial::Vec3::Zero();
  spatial::Quat q_WB = spatial::Quat(1.0, 0.0, 0.0, 0.0);
  spatial::Vec6 nu = spatial::Vec6::Zero();  // [u v w p q r], body frame
};

// The error (1)–(3) for one instant, without a clock.
struct PoseError {
  spatial::Vec6 e_B;      // [e_p_B; e_θ_B]
  spatial::Vec6 e_rate_B; // (3)
};
PoseError pose_error(const PoseSetpoint& setpoint, const VehicleState& state);

class PosePd {
 public:
  // Throws std::invalid_argument on negative gains or limits, or a bad period.
  explicit PosePd(const PosePdSettings& settings);

  bool due(double t) const { return clock_.due(t); }
  double next_sample_time() const { return clock_.next_time(); }
  // Takes the sample at t if due(t) (returns true); otherwise changes nothing.
  bool update(double t, const PoseSetpoint& setpoint, const VehicleState& state);

  const spatial::Vec6& output() const { return tau_B_; }  // held τ_B, [X Y Z K M N]
  const spatial::Vec6& error() const { return error_B_; }  // [e_p_B; e_θ_B] at the last sample
  const spatial::Vec6& integral() const { return integral_; }  // I_k of (6)
  // Sets I_k, as if a sample had just been taken (sim trim's closed-loop equilibrium).
  void restore_integral(const spatial::Vec6& integral) { integral_ = integral; }

 private:
  PosePdSettings settings_;
  SampleClock clock_;
  spatial::Vec6 tau_B_ = spatial::Vec6::Zero();
  spatial::Vec6 error_B_ = spatial::Vec6::Zero();
  spatial::Vec6 integral_ = spatial::Vec6::Zero();  // I_k of (6)
};

}  // namespace uwsim::control
