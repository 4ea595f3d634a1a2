// The validated `controllers` of a scenario (README "Controllers"). Names of joints, bodies,
// thrusters, channels and other controllers are checked but not yet resolved: the model
// builder (model/build_controllers.h) turns them into indices.
#pragma once

#include <string>
#include <vector>

#include "control/ardusub_mixer.h"
#include "control/base_control.h"
#include "control/complementary_filter.h"
#include "control/line_of_sight.h"
#include "control/pid.h"
#include "control/pose_pd.h"
#include "control/pose_setpoint.h"
#include "model/actuation_spec.h"

namespace uwsim::model {

enum class ControllerType { pid, pose_pd, thrust_allocation, inverse_kinematics, task_priority, line_of_sight,
                            base_control, ardusub_mixer };

// pose_pd `feedback` (README "Sensors"): sensor names, checked against the scenario's `sensors`
// by the reader (kinds included); empty: that part of the state is the true one.
struct FeedbackSpec {
  std::string depth, position, attitude, angular_rate, velocity;
  bool estimator = false;         // attitude by the complementary filter, on `imu` and `heading`
  std::string imu, heading;       // heading empty: held
  control::ComplementaryFilterSettings filter;
};

struct ControllerSpec {
  std::string name;
  ControllerType type = ControllerType::pid;
  double rate = 100.0;                 // Hz: samples at k / rate, held in between
  double delay = 0.0;                  // s: pid, thrust_allocation, ardusub_mixer (control/delay_line.h)

  // pid: drives `joint` (its effort, or its gear motor's current) toward `setpoint`.
  std::string joint;
  CommandSpec setpoint;
  std::string setpoint_controller;     // or: the inverse_kinematics, task_priority or line_of_sight
                                       // whose q_d for `joint` it tracks, or (velocity mode) the
                                       // position pid whose output it tracks
  control::PidSettings pid;            // sample_period set from rate
  bool feed_forward = false;           // τ_ff = h(q, v) by inverse dynamics

  // pose_pd: the free body `body` toward `position` (NED, m) and `rpy` (rad, ZYX).
  // inverse_kinematics: `position` is the end effector point's setpoint (m).
  std::string body;
  CommandSpec position[3], rpy[3];
  control::PosePdSettings pose;        // Fossen-ordered gains and limits
  control::HeldAxes held = control::kAllAxesHeld;  // pose_pd `hold`: [north east depth roll pitch yaw]
  CommandSpec wrench[6];               // pose_pd: feed-forward [X Y Z K M N], N and N m
  FeedbackSpec feedback;               // pose_pd: the sensors it flies on

  // thrust_allocation: the wrench of the pose_pd or base_control `input` → `thrusters`.
  // base_control: `input` is the task_priority or line_of_sight it follows.
  std::string input;
  std::vector<std::string> thrusters;
  double damping = 0.0;                // λ of the damped pseudo-inverse (N; IK: m)

  // inverse_kinematics: the point `point` (m, end effector frame) of body `end_effector`
  // follows `position`, given in the arm's base body frame or in NED (`world_frame`).
  std::string end_effector;
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  bool world_frame = false;
  double gain = 1.0;                   // Λ, 1/s
  std::vector<std::string> chain_joints;  // revolute/prismatic joints from the base to the end effector
                                          // (line_of_sight: its `joints`, as listed)

  // task_priority ([SverdrupThygeson2018] eq. 42): `end_effector`, `point`, `position` and `rpy`
  // (the pose setpoint of E in NED), `damping` (λ) as above, and:
  Eigen::Matrix<double, 6, 1> task_gain = Eigen::Matrix<double, 6, 1>::Zero();  // k_e (`gain`), 1/s
  Eigen::Vector3d base_gain = Eigen::Vector3d::Zero();                           // k_b, 1/s
  Eigen::VectorXd weights;                                                       // 6 + joints
  bool base_home_given = false;
  CommandSpec base_position[3];                                                  // NED, m
  // line_of_sight (eq. 38–41): `end_effector` and `point` give the front point.
  std::vector<control::PathSegment> path;
  control::TransportSettings transport;  // sample_period set from rate
  // base_control (eq. 33–35).
  control::BaseVelocitySettings base_velocity;  // sample_period set from rate
  bool cancel_coriolis = true, cancel_damping = true, cancel_restoring = true;  // the terms of n (eq. 35)
  // ardusub_mixer (control/ardusub_mixer.h): RC1…RC6 in ArduSub's order (pitch, roll, throttle,
  // yaw, forward, lateral; µs) onto `thrusters` (motor k → thrusters[k − 1], resolved by the reader).
  control::SubMixerSettings mixer;
  CommandSpec rc[6];
};

}  // namespace uwsim::model
