// References: see controller_set.h; [LeonGonzalez2024] Table 4–5, [Kolano] eq. 4,
// [SverdrupThygeson2018] eq. 25–26 and 36–37.
#include "dynamics/controller_set.h"

#include <algorithm>
#include <cmath>

#include "actuation/thrust_inverse.h"
#include "control/ardusub_mixer.h"
#include "control/attitude_error.h"
#include "control/damped_least_squares.h"
#include "control/pose_setpoint.h"
#include "control/thrust_allocation.h"
#include "control/thruster_configuration.h"
#include "dynamics/pipeline.h"
#include "dynamics/rnea.h"
#include "spatial/rotation.h"

namespace uwsim::dynamics {

using dynamics::ControllerKind;
using spatial::Mat3;
using spatial::Quat;
using spatial::Vec3;
using spatial::Vec6;

namespace {

constexpr double kRateStep = 1e-6;  // s, δ of the central differences

}  // namespace

ControllerSet::ControllerSet(const dynamics::Model& model)
    : model_(model), plus_(model.inputs.channels.size()), minus_(model.inputs.channels.size()),
      rnea_f_(model.bodies.size()), bias_(static_cast<std::size_t>(model.nv)) {
  std::size_t longest = 0, longest_output = 0;
  for (const dynamics::Controller& c : model.controllers) {
    ik_q_.emplace_back(c.joints.size(), 0.0);
    ik_started_.push_back(false);
    longest = std::max(longest, c.chain.size());
    clocks_.emplace_back(c.period);
    pids_.emplace_back(c.kind == ControllerKind::pid ? c.pid : control::PidSettings{});
    poses_.emplace_back(c.kind == ControllerKind::pose_pd ? c.pose : control::PosePdSettings{});
    filters_.emplace_back(c.feedback.filter);
    last_velocity_.emplace_back(Vec3::Zero());
    transports_.emplace_back(c.transport);
    base_controls_.emplace_back(c.base_velocity);
    base_home_.emplace_back(Vec3::Zero());
    delays_.emplace_back(c.delay, c.period, c.output_count());
    longest_output = std::max(longest_output, static_cast<std::size_t>(c.output_count()));
  }
  delayed_.resize(longest_output);
  chain_poses_.resize(longest);
  chain_axes_.resize(longest);
}

bool ControllerSet::memory_supported(const dynamics::Controller& c) {
  // A thrust allocation and an ArduSub mixer carry none: functions of their inputs (and the state).
  return c.kind == ControllerKind::pid || c.kind == ControllerKind::pose_pd || c.kind == ControllerKind::thrust_allocation ||
         c.kind == ControllerKind::ardusub_mixer || c.kind == ControllerKind::inverse_kinematics;
}

std::vector<MemoryComponent> ControllerSet::memory_layout(const dynamics::Model& model) {
  using Kind = MemoryComponent::Kind;
  std::vector<MemoryComponent> out;
  for (std::size_t i = 0; i < model.controllers.size(); ++i) {
    const dynamics::Controller& c = model.controllers[i];
    const int index = static_cast<int>(i);
    if (c.kind == ControllerKind::pid) {
      if (c.pid.ki > 0.0) out.push_back({index, Kind::integral, 0});
      if (c.pid.torque_filter > 0.0) out.push_back({index, Kind::previous_output, 0});
      if (c.pid.mode == control::PidMode::velocity && c.pid.kd > 0.0) out.push_back({index, Kind::previous_error, 0});
    } else if (c.kind == ControllerKind::pose_pd) {
      for (int k = 0; k < 6; ++k)
        if (c.pose.ki[k] > 0.0) out.push_back({index, Kind::integral, k});
    } else if (c.kind == ControllerKind::inverse_kinematics) {
      for (std::size_t j = 0; j < c.joints.size(); ++j) out.push_back({index, Kind::joint_setpoint, static_cast<int>(j)});
    }
  }
  return out;
}

void ControllerSet::start_memory(const std::vector<MemoryComponent>& layout, const double* x, double* z) const {
  for (std::size_t k = 0; k < layout.size(); ++k) {
    const MemoryComponent& m = layout[k];
    z[k] = 0.0;
    if (m.kind != MemoryComponent::Kind::joint_setpoint) continue;
    const dynamics::Controller& c = model_.controllers[static_cast<std::size_t>(m.controller)];
    const int body = c.chain[static_cast<std::size_t>(c.joints[static_cast<std::size_t>(m.axis)])];
    z[k] = x[model_.bodies[static_cast<std::size_t>(body)].q_offset];
  }
}

void ControllerSet::memory(const std::vector<MemoryComponent>& layout, double* z) const {
  using Kind = MemoryComponent::Kind;
  for (std::size_t k = 0; k < layout.size(); ++k) {
    const MemoryComponent& m = layout[k];
    const auto i = static_cast<std::size_t>(m.controller);
    switch (m.kind) {
      case Kind::integral:
        z[k] = model_.controllers[i].kind == ControllerKind::pid ? pids_[i].integral() : poses_[i].integral()[m.axis];
        break;
      case Kind::previous_output: z[k] = pids_[i].output(); break;
      case Kind::previous_error: z[k] = pids_[i].error(); break;
      case Kind::joint_setpoint: z[k] = ik_q_[i][static_cast<std::size_t>(m.axis)]; break;
    }
  }
}

void ControllerSet::set_memory(const std::vector<MemoryComponent>& layout, const double* z) {
  using Kind = MemoryComponent::Kind;
  // A pid's three values are restored together: gather them first.
  std::vector<control::Pid::Memory> pid(pids_.size());
  std::vector<bool> pid_set(pids_.size(), false);
  for (std::size_t i = 0; i < pids_.size(); ++i)
    pid[i] = {pids_[i].integral(), pids_[i].output(), pids_[i].error()};
  for (std::size_t k = 0; k < layout.size(); ++k) {
    const MemoryComponent& m = layout[k];
    const auto i = static_cast<std::size_t>(m.controller);
    const bool is_pid = model_.controllers[i].kind == ControllerKind::pid;
    if (m.kind == Kind::integral && !is_pid) {
      spatial::Vec6 integral = poses_[i].integral();
      integral[m.axis] = z[k];
      poses_[i].restore_integral(integral);
    } else if (m.kind == Kind::joint_setpoint) {
      ik_q_[i][static_cast<std::size_t>(m.axis)] = z[k];
      ik_started_[i] = true;
    } else {
      double& slot = m.kind == Kind::integral ? pid[i].integral
                     : m.kind == Kind::previous_output ? pid[i].previous_output
                                                       : pid[i].previous_error;
      slot = z[k];
      pid_set[i] = true;
    }
  }
  for (std::size_t i = 0; i < pids_.size(); ++i)
    if (pid_set[i]) pids_[i].restore(pid[i]);
}

double ControllerSet::next_sample_time() const {
  double t = std::numeric_limits<double>::infinity();
  for (const control::SampleClock& c : clocks_) t = std::min(t, c.next_time());
  for (const control::DelayLine& d : delays_) t = std::min(t, d.next_release_time());
  return t;
}

double ControllerSet::rate_of(const inputs::CommandSource& source) const {
  const auto k = static_cast<std::size_t>(source.channel);
  if (source.channel < 0 || k >= plus_.size()) return 0.0;  // a held controller output: no rate
  return (plus_[k] - minus_[k]) / (2.0 * kRateStep);
}

const double* ControllerSet::bias(dynamics::Workspace& ws) {
  if (!bias_valid_) {
    dynamics::inverse_dynamics(model_, ws, nullptr, rnea_f_.data(), bias_.data());
    bias_valid_ = true;
  }
  return bias_.data();
}

bool ControllerSet::update(double t, const double* x, dynamics::Workspace& ws) {
  const bool released = release_delayed(t, ws);
  bool any = false;
  for (const control::SampleClock& c : clocks_) any = any || c.due(t);
  if (!any) return released;
  dynamics::compute_kinematics_and_forces(model_, t, t, x, ws);
  model_.inputs.sample(t + kRateStep, t, plus_.data());
  model_.inputs.sample(t - kRateStep, t, minus_.data());
  bias_valid_ = false;
  for (std::size_t i = 0; i < clocks_.size(); ++i) {
    if (!clocks_[i].due(t)) continue;
    switch (model_.controllers[i].kind) {
      case ControllerKind::pose_pd: update_pose(i, t, x, ws); break;
      case ControllerKind::thrust_allocation: update_allocation(i, ws); break;
      case ControllerKind::pid: update_pid(i, t, x, ws); break;
      case ControllerKind::inverse_kinematics: update_inverse_kinematics(i, x, ws); break;
      case ControllerKind::task_priority: update_task_priority(i, x, ws); break;
      case ControllerKind::line_of_sight: update_line_of_sight(i, ws); break;
      case ControllerKind::base_control: update_base_control(i, ws); break;
      case ControllerKind::ardusub_mixer: update_mixer(i, ws); break;
    }
    if (delays_[i].active()) delay_outputs(i, t, ws);
    clocks_[i].advance(t);
  }
  return true;
}

bool ControllerSet::release_delayed(double t, dynamics::Workspace& ws) {
  bool any = false;
  for (std::size_t i = 0; i < delays_.size(); ++i) {
    if (!delays_[i].release(t, delayed_.data())) continue;
    const std::size_t first = model_.inputs.channels.size() + static_cast<std::size_t>(model_.controllers[i].output_slot);
    std::copy_n(delayed_.begin(), model_.controllers[i].output_count(), ws.inputs.begin() + static_cast<std::ptrdiff_t>(first));
    any = true;
  }
  return any;
}

// The sample just written into the slots goes into the delay line; the slots get back what is due.
void ControllerSet::delay_outputs(std::size_t i, double t, dynamics::Workspace& ws) {
  const std::size_t first = model_.inputs.channels.size() + static_cast<std::size_t>(model_.controllers[i].output_slot);
  double* slots = ws.inputs.data() + first;
  delays_[i].push(t, slots, delayed_.data());
  std::copy_n(delayed_.begin(), model_.controllers[i].output_count(), slots);
}

void ControllerSet::update_mixer(std::size_t i, dynamics::Workspace& ws) {
  const dynamics::Controller& c = model_.controllers[i];
  double rc[6];
  for (int k = 0; k < 6; ++k) rc[k] = c.rc[k].value(ws.inputs.data());
  const control::PilotInput in = control::pilot_input(rc, c.mixer);
  const control::MixResult mix = control::mix(in, c.mixer);
  const std::size_t first = model_.inputs.channels.size() + static_cast<std::size_t>(c.output_slot);
  dynamics::ControllerSignals& s = ws.controllers[i];
  s.setpoint << in.roll, in.pitch, in.yaw, in.throttle, in.forward, in.lateral;
  for (std::size_t j = 0; j < c.thrusters.size(); ++j) {
    const double pwm = control::motor_pwm(mix.thrust[j], c.mixer);
    ws.inputs[first + j] = pwm;
    s.error[static_cast<Eigen::Index>(j)] = mix.demand[j] - mix.thrust[j];
    s.output[static_cast<Eigen::Index>(j)] = pwm;
  }
}

void ControllerSet::update_pose(std::size_t i, double t, const double* x, dynamics::Workspace& ws) {
  const dynamics::Controller& c = model_.controllers[i];
  const dynamics::Body& body = model_.bodies[static_cast<std::size_t>(c.body)];
  const double* values = ws.inputs.data();
  control::EulerPoseSetpoint euler;
  for (int k = 0; k < 3; ++k) {
    euler.p_WBd_W[k] = c.position[k].value(values);
    euler.v_WBd_W[k] = rate_of(c.position[k]);
    euler.rpy_d[k] = c.rpy[k].value(values);
    euler.rpy_rate_d[k] = rate_of(c.rpy[k]);
  }
  for (int k = 0; k < 6; ++k) euler.tau_ff_B[k] = c.wrench[k].value(values);
  control::VehicleState state;
  state.p_WBo_W = Eigen::Map<const Vec3>(x + body.q_offset);
  state.q_WB = Eigen::Map<const Quat>(x + body.q_offset + 3).normalized();
  state.nu = spatial::to_fossen_order(Eigen::Map<const Vec6>(x + body.v_offset));
  if (c.feedback.any()) measured_state(i, state, ws);
  const control::PoseSetpoint sp = control::resolve_setpoint(euler, state, c.held);
  poses_[i].update(t, sp, state);

  dynamics::ControllerSignals& s = ws.controllers[i];
  s.setpoint << euler.p_WBd_W, euler.rpy_d;
  s.error = poses_[i].error();
  s.output = poses_[i].output();
}

// The vehicle state a pose_pd flies on, from its feedback sensors' readings (controller_set.h):
// each part it names replaces the true one in `state`.
void ControllerSet::measured_state(std::size_t i, control::VehicleState& state, const dynamics::Workspace& ws) {
  const dynamics::Feedback& f = model_.controllers[i].feedback;
  const auto reading = [&](int k) -> const sensors::Reading& { return ws.sensor_feedback[static_cast<std::size_t>(k)]; };
  const auto mount = [&](int k) -> const sensors::SensorParameters& { return model_.sensors[static_cast<std::size_t>(k)].parameters; };
  const auto column = [](const sensors::Reading& r, int offset) { return Vec3(r[static_cast<std::size_t>(offset)], r[static_cast<std::size_t>(offset) + 1], r[static_cast<std::size_t>(offset) + 2]); };
  // A sensor that has never measured (outside a run: sim trim and linearize evaluate the
  // controllers without the sensor stage) leaves its part true. In a run every fed sensor
  // measures at t = 0, before the first sample (dynamics/sensor_set.h).
  const auto has = [&](int k, int column = 0) { return k >= 0 && !std::isnan(reading(k)[static_cast<std::size_t>(column)]); };
  Vec3 w_B = state.nu.tail<3>();
  if (has(f.angular_rate)) w_B = mount(f.angular_rate).R_BS * column(reading(f.angular_rate), 3);  // ω_B = R_BS ω_S
  if (has(f.attitude)) {
    // q_WB = q_WS ⊗ q_BS* (a marker's attitude, its mount taken off).
    const sensors::Reading& r = reading(f.attitude);
    const Quat q_BS = spatial::quaternion_from_rotation(mount(f.attitude).R_BS);
    state.q_WB = spatial::quaternion_product(Quat(r[3], r[4], r[5], r[6]), spatial::quaternion_conjugate(q_BS)).normalized();
  } else if (has(f.imu)) {
    const sensors::Reading& r = reading(f.imu);
    const Mat3& R_BS = mount(f.imu).R_BS;
    control::HeadingMeasurement heading;
    if (has(f.heading)) {
      const sensors::SensorParameters& h = mount(f.heading);
      if (h.kind == sensors::SensorKind::heading) {
        // The sensor's yaw less its mount's yaw (exact for a mount turned about z only).
        heading.kind = control::HeadingMeasurement::Kind::yaw;
        heading.yaw = reading(f.heading)[0] - spatial::euler_zyx_from_rotation(h.R_BS).z();
      } else {
        heading.kind = control::HeadingMeasurement::Kind::field;
        heading.field_B = h.R_BS * column(reading(f.heading), 0);
        heading.field_W = h.magnetometer.field_W;
      }
    }
    const double held_yaw = spatial::euler_zyx_from_rotation(spatial::rotation_from_quaternion(state.q_WB)).z();
    filters_[i].update(model_.controllers[i].period, R_BS * column(r, 3), R_BS * column(r, 0), heading, held_yaw);
    state.q_WB = filters_[i].attitude();
  }
  const Mat3 R_WB = spatial::rotation_from_quaternion(state.q_WB);
  if (has(f.position)) state.p_WBo_W = column(reading(f.position), 0) - R_WB * mount(f.position).p_BoS_B;
  if (has(f.depth, 1)) state.p_WBo_W.z() = reading(f.depth)[1] - (R_WB * mount(f.depth).p_BoS_B).z();
  if (has(f.velocity, 4)) {
    // v_Bo = R_BS v_S − ω × p_BoS_B; without bottom lock the last velocity it had is held.
    const sensors::Reading& r = reading(f.velocity);
    if (r[4] == 1.0) last_velocity_[i] = mount(f.velocity).R_BS * column(r, 0) - w_B.cross(mount(f.velocity).p_BoS_B);
    state.nu.head<3>() = last_velocity_[i];
  }
  state.nu.tail<3>() = w_B;
}

void ControllerSet::update_allocation(std::size_t i, dynamics::Workspace& ws) {
  const dynamics::Controller& c = model_.controllers[i];
  const dynamics::BodyState& vehicle = ws.bodies[static_cast<std::size_t>(c.body)];
  const auto n = static_cast<Eigen::Index>(c.thrusters.size());
  control::ConfigurationMatrix T(6, n);
  control::ColumnVector lower(n), upper(n);
  const spatial::Pose X_BW = vehicle.X_WB.inverse();
  for (Eigen::Index j = 0; j < n; ++j) {
    const auto k = static_cast<std::size_t>(c.thrusters[static_cast<std::size_t>(j)]);
    const actuation::Thruster& th = model_.thrusters[k];
    const spatial::Pose X_BL = X_BW * ws.bodies[static_cast<std::size_t>(th.body)].X_WB;
    T.col(j) = control::thruster_column_on_link(X_BL, th.p_BoT_B, th.axis_B, th.reaction_torque);
    const actuation::ThrustRange range = actuation::thrust_range(th, ws.thrusters[k].advance_speed);
    lower[j] = range.lower;
    upper[j] = range.upper;
  }
  const Vec6 tau_c_B = ws.controllers[static_cast<std::size_t>(c.source)].output.head<6>();
  const control::AllocationResult r = control::allocate_thrust(T, tau_c_B, c.damping, lower, upper);
  const std::size_t first = model_.inputs.channels.size() + static_cast<std::size_t>(c.output_slot);
  for (Eigen::Index j = 0; j < n; ++j) {
    const auto k = static_cast<std::size_t>(c.thrusters[static_cast<std::size_t>(j)]);
    ws.inputs[first + static_cast<std::size_t>(j)] =
        actuation::command_for_thrust(model_.thrusters[k], r.thrust[j], ws.thrusters[k].advance_speed);
  }
  dynamics::ControllerSignals& s = ws.controllers[i];
  s.setpoint = tau_c_B;
  s.error = tau_c_B - T * r.thrust;
  s.output = r.thrust;
}

void ControllerSet::update_pid(std::size_t i, double t, const double* x, dynamics::Workspace& ws) {
  const dynamics::Controller& c = model_.controllers[i];
  const dynamics::Body& body = model_.bodies[static_cast<std::size_t>(c.body)];
  control::PidSample sample;
  sample.setpoint = c.setpoint.value(ws.inputs.data());
  sample.setpoint_rate = c.setpoint_rate_slot >= 0 ? ws.inputs[static_cast<std::size_t>(c.setpoint_rate_slot)]
                                                   : rate_of(c.setpoint);
  sample.position = x[body.q_offset];
  sample.velocity = x[body.v_offset];
  if (c.feed_forward && c.feeds_pid) {
    sample.feed_forward = sample.setpoint_rate;  // a cascade's outer loop: velocity feed-forward q̇_d
  } else if (c.feed_forward) {
    // A motor's pid commands a current: τ_ff through the motor's torque per ampere at q.
    sample.feed_forward = bias(ws)[body.v_offset - model_.nq] / body.joint.actuator.torque_per_ampere(sample.position);
  }
  pids_[i].update(t, sample);
  ws.inputs[model_.inputs.channels.size() + static_cast<std::size_t>(c.output_slot)] = pids_[i].output();
  dynamics::ControllerSignals& s = ws.controllers[i];
  s.setpoint[0] = pids_[i].setpoint();
  s.error[0] = pids_[i].error();
  s.output[0] = pids_[i].output();
}

void ControllerSet::update_inverse_kinematics(std::size_t i, const double* x, dynamics::Workspace& ws) {
  const dynamics::Controller& c = model_.controllers[i];
  const std::size_t n = c.joints.size();
  std::vector<double>& q_d = ik_q_[i];
  const auto joint_body = [&](std::size_t j) -> const dynamics::Body& {
    return model_.bodies[static_cast<std::size_t>(c.chain[static_cast<std::size_t>(c.joints[j])])];
  };
  if (!ik_started_[i]) {
    for (std::size_t j = 0; j < n; ++j) q_d[j] = x[joint_body(j).q_offset];
    ik_started_[i] = true;
  }
  // Forward kinematics at q_d in the chain's base frame R: X_RK of each chain body K.
  spatial::Pose X_RK;
  for (std::size_t k = 0, j = 0; k < c.chain.size(); ++k) {
    const dynamics::Joint& joint = model_.bodies[static_cast<std::size_t>(c.chain[k])].joint;
    X_RK = X_RK * joint.pose_in_parent(joint.dof() == 1 ? q_d[j++] : 0.0);
    chain_poses_[k] = X_RK;
  }
  const Vec3 p_RP_R = X_RK.p + X_RK.R * c.p_EP_E;  // the end body's point P
  // The setpoint, brought into the base frame (given in `frame` F: the world or the base).
  Vec3 p_FPd_F, v_FPd_F;
  for (int k = 0; k < 3; ++k) {
    p_FPd_F[k] = c.position[k].value(ws.inputs.data());
    v_FPd_F[k] = rate_of(c.position[k]);
  }
  spatial::Pose X_WBase;
  if (c.world_frame && c.base >= 0) X_WBase = ws.bodies[static_cast<std::size_t>(c.base)].X_WB;
  const Vec3 p_RPd_R = X_WBase.R.transpose() * (p_FPd_F - X_WBase.p), v_RPd_R = X_WBase.R.transpose() * v_FPd_F;
  // The point Jacobian: joint k moves P by R_k v_k + (R_k ω_k) × (p_P − p_k), with (ω_k, v_k) = S_C
  // the joint's motion subspace [RBDA] Sec. 4.4 and a body point's velocity v + ω × r.
  control::WideMatrix<3> J(3, static_cast<Eigen::Index>(n));
  for (std::size_t j = 0; j < n; ++j) {
    const spatial::Pose& X_RJ = chain_poses_[static_cast<std::size_t>(c.joints[j])];
    const Vec6& S = joint_body(j).joint.S_C;
    const Vec3 w_J_R = X_RJ.R * spatial::angular(S);
    J.col(static_cast<Eigen::Index>(j)) = X_RJ.R * spatial::linear(S) + w_J_R.cross(p_RP_R - X_RJ.p);
  }
  const Vec3 error_R = p_RPd_R - p_RP_R;
  const control::JointVector q_dot = control::damped_least_squares_step(J, Vec3(v_RPd_R + c.gain * error_R), c.damping);

  const std::size_t first = model_.inputs.channels.size() + static_cast<std::size_t>(c.output_slot);
  dynamics::ControllerSignals& s = ws.controllers[i];
  s.setpoint = p_FPd_F;
  s.error = X_WBase.R * error_R;
  for (std::size_t j = 0; j < n; ++j) {
    ws.inputs[first + j] = q_d[j];
    ws.inputs[first + n + j] = q_dot[static_cast<Eigen::Index>(j)];
    s.output[static_cast<Eigen::Index>(j)] = q_d[j];
    const dynamics::Joint& joint = joint_body(j).joint;
    q_d[j] = std::clamp(q_d[j] + c.period * q_dot[static_cast<Eigen::Index>(j)], joint.lower, joint.upper);
  }
}

}  // namespace uwsim::dynamics
