// The controllers of a run (`controllers:` in a scenario), as parameters with every reference
// resolved to an index. Their discrete states (clocks, integrators) live in the driver's
// dynamics::ControllerSet; what they hold between samples lives in the Workspace
// (dynamics/workspace.h), where the derivative evaluations read it.
//
// Held outputs reach the dynamics in two ways:
//   - as command slots after the input channels in Workspace::inputs: a joint driven by a pid
//     and a thruster driven by a thrust allocation have a CommandSource whose index points at
//     slot model.inputs.channels.size() + output_slot (+ j); they read it as they read a channel;
//   - as a body wrench: a pose_pd whose wrench no allocation takes adds it to its body in the
//     body-forces stage (pipeline.h).
#pragma once

#include <string>
#include <vector>

#include "control/ardusub_mixer.h"
#include "control/base_control.h"
#include "control/complementary_filter.h"
#include "control/damped_pseudo_inverse.h"
#include "control/line_of_sight.h"
#include "control/pid.h"
#include "control/pose_pd.h"
#include "control/pose_setpoint.h"
#include "inputs/input_set.h"

namespace uwsim::dynamics {

// A pose_pd flown on measurements (`feedback:`, README "Sensors"): which of the model's sensors
// (indices into Model::sensors) give each part of the vehicle state it reads; −1: that part is
// the true state. Each reading is brought to the body origin Bo and body axes B with the
// sensor's mount (p_BoS_B, R_BS) and the attitude and rate the controller has at the sample
// (dynamics/controller_set.h).
struct Feedback {
  int depth = -1;         // pressure: the depth of Bo (north and east stay the true state)
  int position = -1;      // pose: the NED position of Bo
  int attitude = -1;      // pose: q_WB
  int imu = -1;           // attitude by the complementary filter (control/complementary_filter.h) on this IMU
  int heading = -1;       // the filter's heading: a heading or magnetometer sensor (−1: held)
  control::ComplementaryFilterSettings filter;
  int angular_rate = -1;  // imu: ω_B from its gyroscope
  int velocity = -1;      // dvl: the velocity of Bo in B
  bool any() const {
    return depth >= 0 || position >= 0 || attitude >= 0 || imu >= 0 || angular_rate >= 0 || velocity >= 0;
  }
};

enum class ControllerKind { pid, pose_pd, thrust_allocation, inverse_kinematics, task_priority, line_of_sight,
                            base_control, ardusub_mixer };

struct Controller {
  std::string name;
  ControllerKind kind = ControllerKind::pid;
  double period = 0.01;        // s: 1 / rate
  int output_slot = -1;        // first command slot (pid: 1, allocation and mixer: one per thruster)
  // s: its command slots reach what reads them this much later (control/delay_line.h; pid,
  // thrust_allocation and ardusub_mixer only).
  double delay = 0.0;

  // pid: the joint of `body`, its setpoint, and whether τ_ff = h(q, v) (rnea.h) is fed forward.
  int body = -1;               // pid: the joint's child body; pose_pd, allocation: the vehicle
  control::PidSettings pid;
  inputs::CommandSource setpoint;
  bool feed_forward = false;  // for a motor, τ_ff becomes a current through its torque per ampere
  int setpoint_rate_slot = -1;  // pid fed by an inverse_kinematics: the slot of its q̇_d (else −1)
  // The outer loop of a cascade: its output (rad/s or m/s) is another pid's velocity setpoint,
  // not the joint's command; with feed_forward, τ_ff is its own setpoint's rate q̇_d.
  bool feeds_pid = false;

  // pose_pd: setpoint [north, east, down] (m) and [roll, pitch, yaw] (rad), ZYX.
  // inverse_kinematics: `position` is the point's setpoint, in the base's frame or in NED.
  control::PosePdSettings pose;
  inputs::CommandSource position[3], rpy[3];
  control::HeldAxes held = control::kAllAxesHeld;  // pose_pd: [north east depth roll pitch yaw]
  inputs::CommandSource wrench[6];  // pose_pd: feed-forward [X Y Z K M N] (N, N m), body axes
  bool applies_wrench = true;  // false when an allocation takes the wrench
  Feedback feedback;           // pose_pd: the sensors it flies on (none: the true state)

  // thrust_allocation: the pose_pd or base_control it allocates, its thrusters and λ. Each thruster's thrust
  // range (N) comes from its command limits, table ends and max_thrust, and for a propeller
  // from the advance speed, at each sample (actuation/thrust_inverse.h).
  int source = -1;
  std::vector<int> thrusters;
  double damping = 0.0;

  // inverse_kinematics (damped least squares, [LeonGonzalez2024] Sec. 6.6, [SverdrupThygeson2018]
  // eq. 28 and 31): the point p_EP_E of end effector `body`; `chain` the bodies from the tree's
  // root (excluded) to the end effector, root first; `joints` the indices into `chain` of its
  // revolute and prismatic joints (the IK's unknowns, output slots q_d then q̇_d); `base` the
  // chain's root body (−1: the world). `damping` is λ (m), `gain` Λ (1/s).
  spatial::Vec3 p_EP_E = spatial::Vec3::Zero();
  std::vector<int> chain, joints;
  int base = -1;
  bool world_frame = false;
  double gain = 1.0;

  // [SverdrupThygeson2018] Sec. IV–V (control/task_priority.h, line_of_sight.h, base_control.h).
  // task_priority: the end effector frame E at p_EP_E of `body` (that link's axes); `chain`,
  // `joints` and `base` as for inverse_kinematics (base: the free root); `position` and `rpy`
  // the pose setpoint of E in NED; k_e, k_b, the weights (6 + joints) and λ (`damping`); the
  // base's home position (`base_position`, or where it is at the first sample).
  // line_of_sight: `body`/p_EP_E the front point P, `chain` the bodies of its (yaw) joints and
  // `joints` = 0..n−1, `base` the root; the path and the transport settings.
  // base_control: `source` the task_priority or line_of_sight it follows, `body` the base.
  spatial::Vec6 task_gain = spatial::Vec6::Zero();   // k_e, 1/s, [x y z roll pitch yaw]
  spatial::Vec3 base_gain = spatial::Vec3::Zero();   // k_b, 1/s
  control::ColumnVector weights;                     // diagonal of the paper's W (task_priority.h)
  bool base_home_given = false;
  inputs::CommandSource base_position[3];
  std::vector<control::PathSegment> path;
  control::TransportSettings transport;
  control::BaseVelocitySettings base_velocity;
  bool cancel_coriolis = true, cancel_damping = true, cancel_restoring = true;  // base_control: n's terms

  // ardusub_mixer (control/ardusub_mixer.h): RC1…RC6 (µs) → PWM (µs) of `thrusters`, motor k
  // driving thrusters[k − 1].
  control::SubMixerSettings mixer;
  inputs::CommandSource rc[6];

  int output_count() const {
    switch (kind) {
      case ControllerKind::pid: return 1;
      case ControllerKind::pose_pd: return 0;
      case ControllerKind::thrust_allocation:
      case ControllerKind::ardusub_mixer: return static_cast<int>(thrusters.size());
      case ControllerKind::inverse_kinematics:
      case ControllerKind::task_priority:
      case ControllerKind::line_of_sight: return 2 * static_cast<int>(joints.size());
      case ControllerKind::base_control: return 0;
    }
    return 0;
  }

  // Sizes of ControllerSignals (setpoint, error, output), below.
  struct SignalSizes {
    Eigen::Index setpoint, error, output;
  };
  SignalSizes signal_sizes() const {
    const auto n = static_cast<Eigen::Index>(joints.size());
    switch (kind) {
      case ControllerKind::pid: return {1, 1, 1};
      case ControllerKind::pose_pd: return {6, 6, 6};
      case ControllerKind::thrust_allocation: return {6, 6, static_cast<Eigen::Index>(thrusters.size())};
      case ControllerKind::inverse_kinematics: return {3, 3, n};
      case ControllerKind::task_priority: return {6, 9, 6 + n};
      case ControllerKind::line_of_sight: return {3, 3, 6};
      case ControllerKind::base_control: return {6, 6, 6};
      case ControllerKind::ardusub_mixer: {
        const auto m = static_cast<Eigen::Index>(thrusters.size());
        return {6, m, m};
      }
    }
    return {0, 0, 0};
  }
};

// What a controller holds between samples, for the dynamics and the output file:
// /controllers/<name>/setpoint, /error, /output. Sized once.
//   pid          setpoint q_d (or q̇_d), error e, output (N m, N, or the actuator's unit)
//   pose_pd      setpoint [x y z φ θ ψ], error [e_p_B; e_θ_B], output τ_B [X Y Z K M N]
//   allocation   setpoint τ_c [X Y Z K M N], error τ_c − T u, output u (N per thruster)
//   IK           setpoint x_d (3, as given), error x_d − x(q_d) (same frame), output q_d (per joint)
//   task_priority setpoint [north east down roll pitch yaw] of E, error [p_d − p_E (NED);
//                attitude error rotation vector (E); p_bd − p_b (NED)], output ζ_r = [V_b,r; q̇_r]
//   line_of_sight setpoint [ψ_r, u_c, active segment], error [e_y, ψ̃, u − u_c], output a_b
//   base_control setpoint a_b, error V − V_r (zeros under a line_of_sight), output τ_c
//   ardusub_mixer setpoint the pilot's inputs [roll pitch yaw throttle forward lateral] (±1),
//                error per motor: its demand minus its output (what normalisation and
//                clipping took; ±1 full scale), output the motors' PWM (µs) as sampled (a
//                `delay` holds back what the thrusters read, not this)
struct ControllerSignals {
  control::ColumnVector setpoint, error, output;
};

}  // namespace uwsim::dynamics
