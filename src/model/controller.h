// The controllers of a run (`controllers:` in a scenario), as parameters with every reference
// resolved to an index. Their discrete states (clocks, integrators) live in the driver's
// control::ControllerSet; what they hold between samples lives in the Workspace
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

#include "control/damped_pseudo_inverse.h"
#include "control/pid.h"
#include "control/pose_pd.h"
#include "control/pose_setpoint.h"
#include "inputs/input_set.h"

namespace uwsim::model {

enum class ControllerKind { pid, pose_pd, thrust_allocation, inverse_kinematics };

struct Controller {
  std::string name;
  ControllerKind kind = ControllerKind::pid;
  double period = 0.01;        // s: 1 / rate
  int output_slot = -1;        // first command slot (pid: 1, allocation: one per thruster)

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

  // thrust_allocation: the pose_pd it allocates, its thrusters and λ. Each thruster's thrust
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

  int output_count() const {
    switch (kind) {
      case ControllerKind::pid: return 1;
      case ControllerKind::pose_pd: return 0;
      case ControllerKind::thrust_allocation: return static_cast<int>(thrusters.size());
      case ControllerKind::inverse_kinematics: return 2 * static_cast<int>(joints.size());
    }
    return 0;
  }
};

// What a controller holds between samples, for the dynamics and the output file:
// /controllers/<name>/setpoint, /error, /output. Sized once.
//   pid          setpoint q_d (or q̇_d), error e, output (N m, N, or the actuator's unit)
//   pose_pd      setpoint [x y z φ θ ψ], error [e_p_B; e_θ_B], output τ_B [X Y Z K M N]
//   allocation   setpoint τ_c [X Y Z K M N], error τ_c − T u, output u (N per thruster)
//   IK           setpoint x_d (3, as given), error x_d − x(q_d) (same frame), output q_d (per joint)
struct ControllerSignals {
  control::ColumnVector setpoint, error, output;
};

}  // namespace uwsim::model
