#include "output/recorder.h"

#include "sensors/parameter_attributes.h"
#include "sensors/quantities.h"
#include "spatial/rotation.h"

namespace uwsim::output {

using spatial::Vec6;

namespace {

const char* joint_units(const dynamics::Joint& joint, int derivative) {
  static const char* revolute[] = {"rad", "rad/s", "rad/s^2", "N m"};
  static const char* prismatic[] = {"m", "m/s", "m/s^2", "N"};
  return joint.type == dynamics::JointType::prismatic ? prismatic[derivative] : revolute[derivative];
}

// Quaternion [w, x, y, z] of a rotation matrix, on the same side of the sphere as `previous`
// so a link's quaternion series stays continuous (q and −q are the same attitude).
spatial::Quat quaternion_of(const spatial::Mat3& R, const spatial::Quat& previous) {
  const spatial::Quat v = spatial::quaternion_from_rotation(R);
  return v.dot(previous) < 0 ? spatial::Quat(-v) : v;
}

}  // namespace

Recorder::Recorder(const dynamics::Model& model, Hdf5File& file) : Recorder(model, &file) {}

std::size_t Recorder::values_per_sample(const dynamics::Model& model) {
  return Recorder(model, nullptr).values_per_sample_;
}

Hdf5File::SeriesId Recorder::declare(const std::string& path, int columns, const std::string& units,
                                     const std::string& description, const std::vector<std::string>& names,
                                     const std::vector<std::pair<std::string, std::string>>& attributes) {
  values_per_sample_ += static_cast<std::size_t>(columns);
  return file_ ? file_->add_series(path, columns, units, description, names, attributes) : 0;
}

Recorder::Recorder(const dynamics::Model& model, Hdf5File* file)
    : model_(model), file_(file), last_quaternion_(model.bodies.size(), spatial::Quat(1, 0, 0, 0)) {
  time_ = declare("/time", 1, "s", "simulated time of each sample");
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const dynamics::Body& body = model.bodies[b];
    const std::string group = "/bodies/" + body.name + "/";
    BodySeries s;
    s.position = declare(group + "position", 3, "m", "body origin position in the NED world frame",
                                 {"north", "east", "down"});
    s.quaternion = declare(group + "quaternion", 4, "1", "attitude quaternion, rotates body to NED",
                                   {"w", "x", "y", "z"});
    s.euler = declare(group + "euler", 3, "rad",
                              "roll, pitch, yaw (ZYX convention) of body relative to NED", {"roll", "pitch", "yaw"});
    s.velocity = declare(group + "velocity", 6, "m/s, rad/s",
                                 "body-frame velocity of the body origin relative to NED", {"u", "v", "w", "p", "q", "r"});
    s.acceleration = declare(group + "acceleration", 6, "m/s^2, rad/s^2",
                                     "time derivative of the body-frame velocity components",
                                     {"u_dot", "v_dot", "w_dot", "p_dot", "q_dot", "r_dot"});
    bodies_.push_back(s);
    if (body.joint.type == dynamics::JointType::free || body.joint.dof() == 0) continue;
    const std::string jgroup = "/joints/" + body.joint.name + "/";
    JointSeries j;
    j.body = b;
    j.position = declare(jgroup + "position", 1, joint_units(body.joint, 0), "joint position");
    j.velocity = declare(jgroup + "velocity", 1, joint_units(body.joint, 1), "joint velocity");
    j.acceleration = declare(jgroup + "acceleration", 1, joint_units(body.joint, 2), "joint acceleration");
    j.effort = declare(jgroup + "effort", 1, joint_units(body.joint, 3),
                               "applied joint effort (torque or force), after saturation; without friction, damping and limit forces");
    j.has_motor = body.joint.actuator.has_motor();
    if (j.has_motor) {
      j.current = declare(jgroup + "current", 1, "A", "motor current (the actuator's command)");
      j.motor_speed = declare(jgroup + "motor_speed", 1, "rad/s", "motor shaft speed (joint rate through the gearbox, screw and lever)");
    }
    joints_.push_back(j);
  }
  for (const inputs::Channel& c : model.inputs.channels)
    inputs_.push_back(declare("/inputs/" + c.name, 1, c.units.empty() ? "1" : c.units,
                                      "input channel '" + c.name + "' at the sample time"));
  for (const actuation::Thruster& t : model.thrusters) {
    const std::string group = "/thrusters/" + t.name + "/";
    ThrusterSeries ts{};
    // A channel's units; a thruster driven by an allocation takes the command its map takes.
    const auto channel = static_cast<std::size_t>(t.command.channel);
    std::string units = t.command.channel >= 0 && channel < model.inputs.channels.size()
                            ? model.inputs.channels[channel].units
                            : std::string();
    for (const dynamics::Controller& c : model.controllers)  // an ArduSub mixer sends PWM
      if (c.kind == dynamics::ControllerKind::ardusub_mixer && t.command.channel >= static_cast<int>(model.inputs.channels.size()) + c.output_slot &&
          t.command.channel < static_cast<int>(model.inputs.channels.size()) + c.output_slot + c.output_count())
        units = "us";
    ts.command = declare(group + "command", 1, units.empty() ? "1" : units,
                                 "thruster command after its command limits, in the unit its map takes");
    ts.has_shaft_speed = t.has_shaft_speed();
    if (ts.has_shaft_speed)
      ts.shaft_speed = declare(group + "shaft_speed", 1, "rad/s", "propeller shaft speed (after the spin-up lag)");
    ts.thrust = declare(group + "thrust", 1, "N", "thrust along the thruster axis, after saturation");
    thrusters_.push_back(ts);
  }
  for (const dynamics::Connector& c : model.connectors) {
    const std::string group = "/connectors/" + c.name + "/";
    ConnectorSeries series;
    series.wrench = declare(group + "wrench", 6, "N, N m",
                                    "force and moment the connector applies to its first body, at the connection point, in that body's frame",
                                    {"Fx", "Fy", "Fz", "Mx", "My", "Mz"});
    series.violation = declare(group + "violation", 2, "m, rad",
                                       "distance between the connection points and relative attitude error (0 for ball connectors)",
                                       {"position", "angle"});
    connectors_.push_back(series);
  }
  for (const dynamics::Controller& c : model.controllers) add_controller_series(c);
  for (std::size_t i = 0; i < model.sensors.size(); ++i) add_sensor_series(i);
}

void Recorder::add_sensor_series(std::size_t sensor) {
  const sensors::SensorParameters& p = model_.sensors[sensor].parameters;
  const auto attributes = sensors::parameter_attributes(p);
  for (const sensors::Quantity& q : sensors::quantities(p.kind)) {
    std::vector<std::string> names;
    for (int c = 0; c < q.columns && q.column_names[static_cast<std::size_t>(c)]; ++c)
      names.emplace_back(q.column_names[static_cast<std::size_t>(c)]);
    const Hdf5File::SeriesId id =
        declare("/sensors/" + p.name + "/" + q.name, q.columns, q.units, q.description, names, attributes);
    sensor_series_.push_back({sensor, q.offset, id});
  }
}

void Recorder::add_controller_series(const dynamics::Controller& c) {
  const std::string group = "/controllers/" + c.name + "/";
  ControllerSeries series;
  if (c.kind == dynamics::ControllerKind::pid) {
    const dynamics::Joint& joint = model_.bodies[static_cast<std::size_t>(c.body)].joint;
    const bool velocity = c.pid.mode == control::PidMode::velocity;
    const char* units = joint_units(joint, velocity ? 1 : 0);
    series.setpoint = declare(group + "setpoint", 1, units, velocity ? "joint velocity setpoint at the last sample" : "joint position setpoint at the last sample");
    series.error = declare(group + "error", 1, units, "setpoint minus measurement at the last sample");
    if (joint.actuator.has_motor())
      series.output = declare(group + "output", 1, "A", "held motor current command (after the controller's limit)");
    else
      series.output = declare(group + "output", 1, joint_units(joint, 3), "held joint effort command (after the controller's limit)");
  } else if (c.kind == dynamics::ControllerKind::pose_pd) {
    series.setpoint = declare(group + "setpoint", 6, "m, rad", "pose setpoint: NED position and roll, pitch, yaw (ZYX)",
                                       {"north", "east", "down", "roll", "pitch", "yaw"});
    series.error = declare(group + "error", 6, "m, rad", "position error and attitude error (rotation vector), body frame",
                                    {"x", "y", "z", "roll", "pitch", "yaw"});
    series.output = declare(group + "output", 6, "N, N m", "held body wrench about the body origin, body frame",
                                     {"X", "Y", "Z", "K", "M", "N"});
  } else if (c.kind == dynamics::ControllerKind::inverse_kinematics) {
    std::vector<std::string> names;
    for (int k : c.joints) names.push_back(model_.bodies[static_cast<std::size_t>(c.chain[static_cast<std::size_t>(k)])].joint.name);
    const char* frame = c.world_frame ? "in NED" : "in the arm's base body frame";
    series.setpoint = declare(group + "setpoint", 3, "m", std::string("end effector point setpoint, ") + frame, {"x", "y", "z"});
    series.error = declare(group + "error", 3, "m", std::string("setpoint minus the point at the joint setpoints, ") + frame, {"x", "y", "z"});
    series.output = declare(group + "output", static_cast<int>(names.size()), "rad or m",
                                     "joint position setpoints q_d (revolute rad, prismatic m)", names);
  } else if (c.kind == dynamics::ControllerKind::task_priority) {
    std::vector<std::string> names = {"u", "v", "w", "p", "q", "r"};
    std::string units = "m/s, m/s, m/s, rad/s, rad/s, rad/s";  // one per column
    for (int k : c.joints) {
      const dynamics::Joint& joint = model_.bodies[static_cast<std::size_t>(c.chain[static_cast<std::size_t>(k)])].joint;
      names.push_back(joint.name);
      units += std::string(", ") + joint_units(joint, 1);
    }
    series.setpoint = declare(group + "setpoint", 6, "m, rad", "end effector pose setpoint: NED position and roll, pitch, yaw (ZYX)",
                                       {"north", "east", "down", "roll", "pitch", "yaw"});
    series.error = declare(group + "error", 9, "m, rad, m",
                                    "end effector position error (NED), its attitude error (rotation vector, end effector frame), base position error (NED)",
                                    {"north", "east", "down", "roll", "pitch", "yaw", "base_north", "base_east", "base_down"});
    series.output = declare(group + "output", 6 + static_cast<int>(c.joints.size()), units,
                                     "velocity references: the base's body-frame velocity, then each joint's rate (eq. 42)", names);
  } else if (c.kind == dynamics::ControllerKind::line_of_sight) {
    series.setpoint = declare(group + "setpoint", 3, "rad, m/s, 1", "LOS heading, commanded surge speed, active path segment (0 = the first)",
                                       {"heading", "speed", "segment"});
    series.error = declare(group + "error", 3, "m, rad, m/s", "cross-track error (+ starboard of the path), heading error, surge speed error",
                                    {"cross_track", "heading", "speed"});
    series.output = declare(group + "output", 6, "m/s^2, rad/s^2", "commanded base acceleration (eq. 40-41), base body frame",
                                     {"u_dot", "v_dot", "w_dot", "p_dot", "q_dot", "r_dot"});
  } else if (c.kind == dynamics::ControllerKind::base_control) {
    series.setpoint = declare(group + "setpoint", 6, "m/s^2, rad/s^2", "commanded base acceleration a_b, base body frame",
                                       {"u_dot", "v_dot", "w_dot", "p_dot", "q_dot", "r_dot"});
    series.error = declare(group + "error", 6, "m/s, rad/s", "base velocity minus its reference (zero under a line_of_sight)",
                                    {"u", "v", "w", "p", "q", "r"});
    series.output = declare(group + "output", 6, "N, N m", "commanded base wrench about the base origin, base body frame (eq. 33)",
                                     {"X", "Y", "Z", "K", "M", "N"});
  } else if (c.kind == dynamics::ControllerKind::ardusub_mixer) {
    std::vector<std::string> names;
    for (int j : c.thrusters) names.push_back(model_.thrusters[static_cast<std::size_t>(j)].name);
    const auto n = static_cast<int>(names.size());
    series.setpoint = declare(group + "setpoint", 6, "1", "the pilot's normalised inputs from the RC channels (ArduSub MANUAL)",
                              {"roll", "pitch", "yaw", "throttle", "forward", "lateral"});
    series.error = declare(group + "error", n, "1", "each motor's demand minus its output, -1..1 full scale (what normalisation and clipping took)", names);
    series.output = declare(group + "output", n, "us", "motor PWM at the last sample (before any delay)", names);
  } else {
    std::vector<std::string> names;
    for (int j : c.thrusters) names.push_back(model_.thrusters[static_cast<std::size_t>(j)].name);
    series.setpoint = declare(group + "setpoint", 6, "N, N m", "commanded body wrench (the input controller's output)",
                                       {"X", "Y", "Z", "K", "M", "N"});
    series.error = declare(group + "error", 6, "N, N m", "commanded minus allocated wrench (saturation, damping)",
                                    {"X", "Y", "Z", "K", "M", "N"});
    series.output = declare(group + "output", static_cast<int>(names.size()), "N",
                                     "allocated thrust of each thruster", names);
  }
  controllers_.push_back(series);
}

void Recorder::on_sample(double t, const double* x, const double* xdot, const dynamics::Workspace& ws) {
  try {
    append_sample(t, x, xdot, ws);
  } catch (...) {
    // Some series may hold this sample and others not: the file shows whole samples only.
    file_->limit_rows(samples_);
    throw;
  }
  ++samples_;
  last_time_ = t;
  file_->sync();
}

void Recorder::append_sample(double t, const double* x, const double* xdot, const dynamics::Workspace& ws) {
  file_->append(time_, &t);
  for (std::size_t b = 0; b < model_.bodies.size(); ++b) {
    const dynamics::Body& body = model_.bodies[b];
    const dynamics::BodyState& s = ws.bodies[b];
    const BodySeries& series = bodies_[b];
    file_->append(series.position, s.X_WB.p.data());
    // A free body's quaternion is its state (continuous sign); a link's comes from its pose.
    const spatial::Quat q_WB = body.joint.type == dynamics::JointType::free
                                   ? spatial::Quat(Eigen::Map<const spatial::Quat>(x + body.q_offset + 3))
                                   : quaternion_of(s.X_WB.R, last_quaternion_[b]);
    last_quaternion_[b] = q_WB;
    file_->append(series.quaternion, q_WB.data());
    const spatial::Vec3 euler = spatial::euler_zyx_from_rotation(s.X_WB.R);
    file_->append(series.euler, euler.data());
    const Vec6 nu = spatial::to_fossen_order(s.motion.V_WB_B);
    file_->append(series.velocity, nu.data());
    const Vec6 nu_dot = spatial::to_fossen_order(s.A_WB_B);
    file_->append(series.acceleration, nu_dot.data());
  }
  for (const JointSeries& j : joints_) {
    const dynamics::Body& body = model_.bodies[j.body];
    file_->append(j.position, x + body.q_offset);
    file_->append(j.velocity, x + body.v_offset);
    file_->append(j.acceleration, xdot + body.v_offset);
    file_->append(j.effort, &ws.bodies[j.body].tau);
    if (j.has_motor) {
      const actuation::JointActuator& a = body.joint.actuator;
      const double current = a.command.value(ws.inputs.data());
      const double speed = a.motor_speed(x[body.q_offset], x[body.v_offset]);
      file_->append(j.current, &current);
      file_->append(j.motor_speed, &speed);
    }
  }
  for (std::size_t i = 0; i < inputs_.size(); ++i) file_->append(inputs_[i], &ws.inputs[i]);
  for (std::size_t i = 0; i < thrusters_.size(); ++i) {
    const actuation::ThrusterState& s = ws.thrusters[i];
    file_->append(thrusters_[i].command, &s.command);
    if (thrusters_[i].has_shaft_speed) file_->append(thrusters_[i].shaft_speed, &s.shaft_speed);
    file_->append(thrusters_[i].thrust, &s.thrust);
  }
  for (std::size_t c = 0; c < connectors_.size(); ++c) {
    // Moved from the first body's origin to the connection point: n_K = n_Ao − p_AK × f.
    const Vec6& F_Ao_A = ws.connectors.wrench_on_first(c);
    const spatial::Vec3 f = spatial::linear(F_Ao_A);
    const spatial::Vec3 n = spatial::angular(F_Ao_A) - model_.connectors[c].p_AK_A.cross(f);
    const double wrench[6] = {f.x(), f.y(), f.z(), n.x(), n.y(), n.z()};
    file_->append(connectors_[c].wrench, wrench);
    const dynamics::ConnectorRows& rows = ws.connectors.rows(c);
    const double violation[2] = {rows.distance, rows.angle};
    file_->append(connectors_[c].violation, violation);
  }
  for (std::size_t i = 0; i < controllers_.size(); ++i) {
    const dynamics::ControllerSignals& signals = ws.controllers[i];
    file_->append(controllers_[i].setpoint, signals.setpoint.data());
    file_->append(controllers_[i].error, signals.error.data());
    file_->append(controllers_[i].output, signals.output.data());
  }
  for (const SensorSeries& s : sensor_series_)
    file_->append(s.id, ws.sensors[s.sensor].data() + s.offset);
}

}  // namespace uwsim::output
