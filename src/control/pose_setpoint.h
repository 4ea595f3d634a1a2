// A vehicle pose setpoint as a scenario gives it (NED position, ZYX Euler angles, and their
// rates), turned into the quaternion setpoint of pose_pd.h, with the axes the controller does
// not hold taken from the measured state.
// References: [Fossen2011] eq. 2.18, 2.28 (ZYX angles and their rates).
//
// Held axes, in the setpoint's own coordinates: [north, east, depth, roll, pitch, yaw]. A free
// axis copies the measured value and rate into the setpoint, so it has no error and no rate
// error: with yaw free the vehicle may turn while depth, roll and pitch are held (an
// autopilot's depth-hold and stabilise modes, e.g. ArduSub's), and
//   p_d,k = p_k, v_d,k = v_W,k          for a free position axis k (NED)         (1)
//   Θ_d,k = Θ_k, Θ̇_d,k = Θ̇_k           for a free angle k of Θ = (φ, θ, ψ)        (2)
//   q_d = q(Θ_d),  ω_d_W = E(Θ_d)·Θ̇_d   (spatial::angular_velocity_from_euler_zyx_rates) (3)
// Why not a fixed yaw with a zero yaw gain: the attitude error is the rotation from the body to
// the setpoint (attitude_error.h), so a setpoint with yaw 0 on a vehicle turned by 90° is a
// 90° error about the vertical whose roll and pitch components mix with the vehicle's own;
// with (2) the yaw of the setpoint follows the vehicle and the error holds only roll and pitch.
// The measured Euler rates are singular at pitch ±90° (see spatial::euler_zyx_rates): a free
// roll or yaw is not defined there.
#pragma once

#include <array>

#include "control/pose_pd.h"

namespace uwsim::control {

struct EulerPoseSetpoint {
  spatial::Vec3 p_WBd_W = spatial::Vec3::Zero();     // m, NED
  spatial::Vec3 v_WBd_W = spatial::Vec3::Zero();     // m/s
  spatial::Vec3 rpy_d = spatial::Vec3::Zero();       // rad, ZYX
  spatial::Vec3 rpy_rate_d = spatial::Vec3::Zero();  // rad/s
  spatial::Vec6 tau_ff_B = spatial::Vec6::Zero();    // feed-forward wrench, passed through (pose_pd.h (4))
};

// [north, east, depth, roll, pitch, yaw]: true where the controller holds the axis.
using HeldAxes = std::array<bool, 6>;
inline constexpr HeldAxes kAllAxesHeld = {true, true, true, true, true, true};

// (1)–(3). `setpoint` is updated in place: its free axes get the measured values.
PoseSetpoint resolve_setpoint(EulerPoseSetpoint& setpoint, const VehicleState& state, const HeldAxes& held);

}  // namespace uwsim::control
