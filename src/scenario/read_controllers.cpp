// The `controllers` section (README "Controllers"): pid on a joint, pose_pd on a vehicle,
// thrust_allocation from a pose_pd or base_control to thrusters, inverse kinematics, and the
// motion-control framework of paper 002 (read_motion_control.cpp). Checks every reference
// (joints, bodies, thrusters, channels, other controllers) and the combinations that cannot work.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "control/damped_pseudo_inverse.h"
#include "scenario/actuation_sections.h"
#include "scenario/controller_sections.h"
#include "scenario/printable.h"
#include "sensors/quantities.h"

namespace uwsim::scenario {

namespace {

const std::vector<std::string> kTypes = {"pid", "pose_pd", "thrust_allocation", "inverse_kinematics",
                                         "task_priority", "line_of_sight", "base_control", "ardusub_mixer"};
const std::vector<std::string> kKeys = {"name", "type", "rate", "joint", "setpoint", "mode", "kp",
                                        "ki", "kd", "limit", "torque_filter", "anti_windup",
                                        "feed_forward", "body", "position", "rpy", "input",
                                        "thrusters", "damping", "end_effector", "point", "frame", "gain", "hold",
                                        "base_gain", "weights", "base_position", "joints", "path", "look_ahead",
                                        "heading_gain", "speed", "surge", "surge_kp", "surge_ki", "yaw_kp",
                                        "yaw_kd", "cancel", "wrench", "delay", "rc", "directions",
                                        "rc_range", "dead_zone", "yaw_scale", "forward_vertical_coupling",
                                        "pwm_limits", "feedback"};
// The keys of each type besides name, type and rate.
const std::vector<std::vector<std::string>> kOwnKeys = {
    {"joint", "setpoint", "mode", "kp", "ki", "kd", "limit", "torque_filter", "anti_windup", "feed_forward", "delay"},
    {"body", "position", "rpy", "kp", "ki", "kd", "limit", "hold", "wrench", "feedback"},
    {"input", "thrusters", "damping", "delay"},
    {"end_effector", "point", "frame", "position", "gain", "damping"},
    {"end_effector", "point", "position", "rpy", "gain", "base_gain", "weights", "base_position", "damping"},
    {"end_effector", "point", "joints", "path", "look_ahead", "heading_gain", "speed", "surge", "surge_kp",
     "surge_ki", "yaw_kp", "yaw_kd"},
    {"input", "kp", "ki", "cancel"},
    {"frame", "rc", "thrusters", "directions", "rc_range", "dead_zone", "yaw_scale", "forward_vertical_coupling",
     "pwm_limits", "delay"}};

}  // namespace

std::string did_you_mean(const std::string& what, const std::string& name,
                         const std::vector<std::string>& known) {
  std::string message = "no " + what + " named '" + name + "'";
  if (auto guess = closest_match(name, known)) message += "; did you mean '" + *guess + "'?";
  return message;
}

std::optional<bool> read_flag(Reader& r, const Field& f) {
  if (!f.present()) return std::nullopt;
  if (auto k = r.choice(f, {"false", "true"})) return *k == 1;
  return std::nullopt;
}

// n commands (numbers or channel names).
void read_commands(Reader& r, const Field& f, const std::vector<std::string>& channels, CommandSpec* out,
                   std::size_t n) {
  if (!f.present()) return;
  if (!f.value.IsSequence() || f.value.size() != n) {
    r.error(f, "expected a list of " + std::to_string(n) + " commands (numbers or input channel names)");
    return;
  }
  for (std::size_t k = 0; k < n; ++k) {
    const Field item(YAML::Node(YAML::NodeType::Undefined), f.value[k], index_path(f.path, k));
    if (auto c = read_command(r, item, channels)) out[k] = *c;
  }
}

namespace {

// pose_pd `hold`: the setpoint axes it holds (control/pose_setpoint.h), each named once.
void read_held_axes(Reader& r, const Field& f, control::HeldAxes& held) {
  if (!f.present()) return;
  static const std::vector<std::string> kAxes = {"north", "east", "depth", "roll", "pitch", "yaw"};
  auto items = r.sequence(f);
  if (!items) return;
  if (items->empty()) {
    r.error(f, "expected 1 to 6 of " + quoted_names(kAxes) + " (leave 'hold' out to hold all six)");
    return;
  }
  control::HeldAxes out{};
  for (const Field& item : *items) {
    const auto k = r.choice(item, kAxes);
    if (!k) return;
    if (out[*k]) {
      r.error(item, "axis '" + kAxes[*k] + "' is listed twice");
      return;
    }
    out[*k] = true;
  }
  held = out;
}

using Context = ControllerContext;

void read_pid(Reader& r, Mapping& m, const Context& cx, ControllerSpec& c) {
  const Field joint = m.require("joint");
  if (auto s = r.string(joint)) {
    const auto it = std::find_if(cx.scenario.joints.begin(), cx.scenario.joints.end(),
                                 [&](const JointSpec& j) { return j.name == *s; });
    if (it == cx.scenario.joints.end())
      r.error(joint, did_you_mean("joint", *s, cx.joint_names));
    else if (it->type == JointType::fixed)
      r.error(joint, "joint '" + *s + "' is fixed: a pid needs a revolute or prismatic joint");
    else if (it->actuator.kind == actuation::JointActuatorKind::effort)
      r.error(joint, "joint '" + *s + "' is driven by its own effort actuator; a pid drives the "
                     "joint's effort itself (remove the joint's 'actuator')");
    else if (it->actuator.has_input)
      r.error(joint, "joint '" + *s + "' has a motor driven by its own 'input'; remove that input "
                     "for the pid to drive the motor's current");
    else
      c.joint = *s;
  }
  const Field setpoint = m.require("setpoint");
  const auto names_controller = [&](const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), setpoint.value.Scalar()) != names.end();
  };
  if (setpoint.present() && setpoint.value.IsScalar() &&
      std::find(cx.channels.begin(), cx.channels.end(), setpoint.value.Scalar()) == cx.channels.end() &&
      (names_controller(cx.ik_names) || names_controller(cx.pid_names)))
    c.setpoint_controller = setpoint.value.Scalar();
  else if (auto s = read_command(r, setpoint, cx.channels))
    c.setpoint = *s;
  if (auto mode = r.choice(m.get("mode"), {"position", "velocity"}))
    c.pid.mode = *mode == 0 ? control::PidMode::position : control::PidMode::velocity;
  m.read("kp", c.pid.kp, Sign::non_negative, "");
  m.read("ki", c.pid.ki, Sign::non_negative, "");
  m.read("kd", c.pid.kd, Sign::non_negative, "");
  m.read("limit", c.pid.output_limit, Sign::positive, "");
  const Field filter = m.get("torque_filter");
  double a = 0.0;
  m.read("torque_filter", a, Sign::non_negative, "");
  if (a >= 1.0) r.error(filter, "expected a number in [0, 1) (Kolano et al. eq. 4 use 0.75), got " + to_text(a));
  else c.pid.torque_filter = a;
  if (auto f = read_flag(r, m.get("anti_windup"))) c.pid.anti_windup = *f ? control::AntiWindup::clamping : control::AntiWindup::none;
  if (auto f = read_flag(r, m.get("feed_forward"))) c.feed_forward = *f;
}

namespace {

using sensors::SensorKind;

// A feedback key's sensor: a name of the scenario's `sensors` of one of `kinds`.
void read_feedback_sensor(Reader& r, const Field& f, const Scenario& scenario, std::initializer_list<SensorKind> kinds,
                          const std::string& body, std::string& out) {
  if (!f.present()) return;
  const auto name = r.string(f);
  if (!name) return;
  std::vector<std::string> names;
  for (const model::SensorSpec& s : scenario.sensors) names.push_back(s.parameters.name);
  const auto it = std::find_if(scenario.sensors.begin(), scenario.sensors.end(),
                               [&](const model::SensorSpec& s) { return s.parameters.name == *name; });
  if (it == scenario.sensors.end()) {
    r.error(f, did_you_mean("sensor", *name, names));
    return;
  }
  std::string wanted;
  for (SensorKind k : kinds) {
    if (it->parameters.kind == k) {
      if (!body.empty() && it->body != body)
        r.error(f, "sensor '" + *name + "' is on body '" + it->body + "', not on '" + body + "' that the controller drives");
      else
        out = *name;
      return;
    }
    wanted += (wanted.empty() ? "" : " or ") + std::string(sensors::kind_name(k));
  }
  r.error(f, "sensor '" + *name + "' is of type " + sensors::kind_name(it->parameters.kind) +
                 "; expected a sensor of type " + wanted + " here");
}

// pose_pd `feedback` (README "Sensors"): the sensors each part of the vehicle's state comes from.
void read_feedback(Reader& r, const Field& f, const Scenario& scenario, const std::string& body, model::FeedbackSpec& out) {
  if (!f.present()) return;
  Mapping m(r, f, {"depth", "position", "attitude", "angular_rate", "velocity"});
  if (!m.ok()) return;
  read_feedback_sensor(r, m.get("depth"), scenario, {SensorKind::pressure}, body, out.depth);
  read_feedback_sensor(r, m.get("position"), scenario, {SensorKind::pose}, body, out.position);
  if (m.has("depth") && m.has("position"))
    r.error(m.get("depth"), "give the depth by 'depth' or by 'position', not both");
  const Field attitude = m.get("attitude");
  if (attitude.present() && attitude.value.IsMap()) {
    Mapping a(r, attitude, {"estimator", "imu", "heading", "time_constant", "heading_time_constant"});
    if (a.ok()) {
      r.choice(a.require("estimator"), {"complementary"});
      out.estimator = true;
      const Field imu = a.require("imu");
      read_feedback_sensor(r, imu, scenario, {SensorKind::imu}, body, out.imu);
      read_feedback_sensor(r, a.get("heading"), scenario, {SensorKind::heading, SensorKind::magnetometer}, body, out.heading);
      a.read("time_constant", out.filter.time_constant, Sign::positive, "s");
      a.read("heading_time_constant", out.filter.heading_time_constant, Sign::positive, "s");
    }
  } else {
    read_feedback_sensor(r, attitude, scenario, {SensorKind::pose}, body, out.attitude);
  }
  read_feedback_sensor(r, m.get("angular_rate"), scenario, {SensorKind::imu}, body, out.angular_rate);
  read_feedback_sensor(r, m.get("velocity"), scenario, {SensorKind::dvl}, body, out.velocity);
}

}  // namespace

void read_pose_pd(Reader& r, Mapping& m, const Context& cx, ControllerSpec& c) {
  const Field body = m.require("body");
  if (auto s = r.string(body)) {
    if (std::find(cx.free_bodies.begin(), cx.free_bodies.end(), *s) != cx.free_bodies.end())
      c.body = *s;
    else if (std::find(cx.body_names.begin(), cx.body_names.end(), *s) != cx.body_names.end())
      r.error(body, "body '" + *s + "' hangs from a joint; a pose_pd drives a free-floating body");
    else
      r.error(body, did_you_mean("body", *s, cx.body_names));
  }
  read_commands(r, m.require("position"), cx.channels, c.position);
  read_commands(r, m.get("rpy"), cx.channels, c.rpy);
  read_commands(r, m.get("wrench"), cx.channels, c.wrench, 6);
  m.read("kp", c.pose.kp, Sign::non_negative, "");
  m.read("kd", c.pose.kd, Sign::non_negative, "");
  m.read("ki", c.pose.ki, Sign::non_negative, "");
  m.read("limit", c.pose.limit, Sign::positive, "");
  read_held_axes(r, m.get("hold"), c.held);
  read_feedback(r, m.get("feedback"), cx.scenario, c.body, c.feedback);
}

void read_allocation(Reader& r, Mapping& m, const Context& cx, ControllerSpec& c) {
  if (auto s = r.string(m.require("input"))) c.input = *s;  // checked once all are read
  m.read("damping", c.damping, Sign::non_negative, "N");
  const Field list = m.require("thrusters");
  if (!list.present()) return;
  auto items = r.sequence(list);
  if (!items) return;
  if (items->empty() || items->size() > static_cast<std::size_t>(control::kMaxColumns)) {
    r.error(list, "expected 1 to " + std::to_string(control::kMaxColumns) + " thruster names");
    return;
  }
  for (const Field& item : *items) {
    auto s = r.string(item);
    if (!s) continue;
    const auto it = std::find_if(cx.scenario.thrusters.begin(), cx.scenario.thrusters.end(),
                                 [&](const ThrusterSpec& t) { return t.thruster.name == *s; });
    if (it == cx.scenario.thrusters.end()) {
      r.error(item, did_you_mean("thruster", *s, cx.thruster_names));
    } else if (std::find(c.thrusters.begin(), c.thrusters.end(), *s) != c.thrusters.end()) {
      r.error(item, "thruster '" + *s + "' is listed twice");
    } else if (it->thruster.model == actuation::ThrusterModel::propeller && !it->thruster.speed_from_table &&
               !(it->thruster.power_law.a * it->thruster.power_law.b < 0.0)) {
      r.error(item, "thruster '" + *s + "': its shaft speed does not grow with the command (eq. 39 "
                    "needs a·b < 0), so it cannot be inverted for the allocation");
    } else if (it->thruster.model == actuation::ThrusterModel::propeller &&
               !(std::isfinite(it->thruster.command_min) && std::isfinite(it->thruster.command_max))) {
      r.error(item, "thruster '" + *s + "': a propeller driven by an allocation needs 'command_limits' "
                    "(the commands the allocation may send)");
    } else if (it->thruster.model == actuation::ThrusterModel::propeller && it->thruster.speed_from_table &&
               !std::is_sorted(it->thruster.speed_table.y.begin(), it->thruster.speed_table.y.end())) {
      r.error(item, "thruster '" + *s + "': its shaft speed table decreases somewhere, so it cannot be "
                    "inverted for the allocation");
    } else if (it->thruster.model == actuation::ThrusterModel::table &&
               !std::is_sorted(it->thruster.thrust_table.y.begin(), it->thruster.thrust_table.y.end())) {
      r.error(item, "thruster '" + *s + "': its table's thrust decreases somewhere, so it cannot be "
                    "inverted for the allocation");
    } else {
      c.thrusters.push_back(*s);
    }
  }
}

// inverse_kinematics: the end effector (a link), its chain of joints, and the path.
void read_inverse_kinematics(Reader& r, Mapping& m, const Context& cx, ControllerSpec& c) {
  const Field ee = m.require("end_effector");
  if (auto s = r.string(ee)) {
    const bool is_body = std::find(cx.body_names.begin(), cx.body_names.end(), *s) != cx.body_names.end();
    const bool is_free = std::find(cx.free_bodies.begin(), cx.free_bodies.end(), *s) != cx.free_bodies.end();
    if (!is_body) {
      r.error(ee, did_you_mean("body", *s, cx.body_names));
    } else if (is_free) {
      r.error(ee, "body '" + *s + "' is free-floating; an end effector is a link of an arm");
    } else {
      c.end_effector = *s;
      std::string body = *s;
      for (std::size_t guard = 0; guard <= cx.scenario.joints.size(); ++guard) {
        const auto it = std::find_if(cx.scenario.joints.begin(), cx.scenario.joints.end(),
                                     [&](const JointSpec& j) { return j.child == body; });
        if (it == cx.scenario.joints.end()) break;
        if (it->type != JointType::fixed) c.chain_joints.insert(c.chain_joints.begin(), it->name);
        body = it->parent;
      }
      if (c.chain_joints.empty() || c.chain_joints.size() > static_cast<std::size_t>(control::kMaxColumns))
        r.error(ee, "expected 1 to " + std::to_string(control::kMaxColumns) + " revolute or prismatic joints between '" +
                        *s + "' and its base, got " + std::to_string(c.chain_joints.size()));
    }
  }
  read_commands(r, m.require("position"), cx.channels, c.position);
  m.read("point", c.point, Sign::any, "m");
  if (auto f = r.choice(m.get("frame"), {"base", "world"})) c.world_frame = *f == 1;
  m.read("gain", c.gain, Sign::positive, "1/s");
  m.read("damping", c.damping, Sign::non_negative, "m");
}

// `delay` (s): the controller's commands reach its actuators this much later (control/delay_line.h).
void read_delay(Reader& r, Mapping& m, ControllerSpec& c) {
  const Field f = m.get("delay");
  const auto d = r.number(f, Sign::non_negative, "s");
  if (!d) return;
  if (*d > 60.0) r.error(f, "expected a delay of at most 60 s, got " + to_text(*d) + " s");
  else if (*d > 1e4 / c.rate) r.error(f, "expected a delay of at most 10000 samples (" + to_text(1e4 / c.rate) + " s at " + to_text(c.rate) + " Hz), got " + to_text(*d) + " s");
  else c.delay = *d;
}

// The body at the root of the tree `body` belongs to.
std::string root_of(const Scenario& s, std::string body) {
  for (std::size_t guard = 0; guard <= s.joints.size(); ++guard) {
    const auto it = std::find_if(s.joints.begin(), s.joints.end(), [&](const JointSpec& j) { return j.child == body; });
    if (it == s.joints.end() || it->parent == kWorld) return body;
    body = it->parent;
  }
  return body;
}

// A motor without `input` needs a pid (`driven`: joint name → controller).
void check_motor_inputs(Reader& r, const Scenario& scenario, const std::map<std::string, std::string>& driven) {
  for (const JointSpec& j : scenario.joints) {
    const JointActuatorSpec& a = j.actuator;
    if (a.kind != actuation::JointActuatorKind::gear_motor && a.kind != actuation::JointActuatorKind::linear_actuator) continue;
    if (a.has_input || driven.count(j.name) || a.mark_line < 0) continue;
    YAML::Mark at;
    at.pos = a.mark_pos, at.line = a.mark_line, at.column = a.mark_column;
    r.report(at, a.path, a.path + ": joint '" + j.name + "' has a motor without 'input': give its current (A, a channel or a number) or a pid controller for the joint");
  }
}

}  // namespace

std::vector<ControllerSpec> read_controllers(Reader& r, const Field& field, const Scenario& scenario,
                                             const std::vector<std::string>& channels) {
  std::vector<ControllerSpec> out;
  const auto items = absent(field) ? std::nullopt : r.sequence(field);
  if (!items) {
    check_motor_inputs(r, scenario, {});
    return out;
  }
  Context cx{scenario, channels, {}, {}, {}, {}, {}, {}};
  for (const JointSpec& j : scenario.joints) cx.joint_names.push_back(j.name);
  for (const BodySpec& b : scenario.bodies) {
    cx.body_names.push_back(b.name);
    if (std::none_of(scenario.joints.begin(), scenario.joints.end(), [&](const JointSpec& j) { return j.child == b.name; }))
      cx.free_bodies.push_back(b.name);
  }
  for (const ThrusterSpec& t : scenario.thrusters) cx.thruster_names.push_back(t.thruster.name);
  for (const Field& item : *items) {
    const YAML::Node& node = item.value;
    if (!node.IsMap()) continue;
    const YAML::Node type = node["type"], name = node["name"];
    const bool kinematic = type.IsDefined() && type.IsScalar() &&
                           (type.Scalar() == "inverse_kinematics" || type.Scalar() == "task_priority" ||
                            type.Scalar() == "line_of_sight");
    if (kinematic && name.IsDefined() && name.IsScalar()) cx.ik_names.push_back(name.Scalar());
    if (type.IsDefined() && type.IsScalar() && type.Scalar() == "pid" && name.IsDefined() && name.IsScalar())
      cx.pid_names.push_back(name.Scalar());
  }

  std::map<std::string, std::string> names;
  struct Source {
    Field joint, input, thrusters, setpoint, type;
  };
  std::vector<Source> sources;
  for (const Field& item : *items) {
    ControllerSpec c;
    Mapping m(r, item, kKeys);
    sources.push_back(m.ok() ? Source{m.get("joint"), m.get("input"), m.get("thrusters"), m.get("setpoint"), m.get("type")} : Source{});
    if (!m.ok()) {
      out.push_back(c);
      continue;
    }
    const Field name = m.require("name");
    if (auto s = r.string(name); s && check_name_text(r, name, *s)) {
      if (s->find('/') != std::string::npos)
        r.error(name, "expected a name without '/' (each controller is one group /controllers/<name>), got '" + shown(*s) + "'");
      else if (auto [it, fresh] = names.emplace(*s, item.path); !fresh)
        r.error(name, "duplicate controller name '" + *s + "' (also " + it->second + ")");
      else
        c.name = *s;
    }
    const Field rate = m.require("rate");
    if (auto x = r.number(rate, Sign::positive, "Hz")) {
      if (*x > 1e6) r.error(rate, "expected a rate of at most 1e6 Hz, got " + to_text(*x) + " Hz");
      else c.rate = *x;
    }
    const auto type = r.choice(m.require("type"), kTypes);
    if (!type) {
      out.push_back(c);
      continue;
    }
    c.type = static_cast<ControllerType>(*type);
    for (const std::string& key : kKeys) {
      if (key == "name" || key == "type" || key == "rate" || !m.has(key)) continue;
      const auto& own = kOwnKeys[*type];
      if (std::find(own.begin(), own.end(), key) != own.end()) continue;
      std::string owners;
      for (std::size_t k = 0; k < kTypes.size(); ++k) {
        const auto& o = kOwnKeys[k];
        if (std::find(o.begin(), o.end(), key) == o.end()) continue;
        owners += (owners.empty() ? "'" : " and '") + kTypes[k] + "'";
      }
      const bool several = owners.find(" and ") != std::string::npos;
      r.error(m.get(key), std::string(several ? "applies to types " : "applies to type ") + owners +
                              " only, not to '" + kTypes[*type] + "'");
    }
    c.pid.sample_period = c.pose.sample_period = 1.0 / c.rate;
    c.transport.sample_period = c.base_velocity.sample_period = 1.0 / c.rate;
    switch (c.type) {
      case ControllerType::pid: read_pid(r, m, cx, c); break;
      case ControllerType::pose_pd: read_pose_pd(r, m, cx, c); break;
      case ControllerType::thrust_allocation: read_allocation(r, m, cx, c); break;
      case ControllerType::inverse_kinematics: read_inverse_kinematics(r, m, cx, c); break;
      case ControllerType::task_priority: read_task_priority(r, m, cx, c); break;
      case ControllerType::line_of_sight: read_line_of_sight(r, m, cx, c); break;
      case ControllerType::base_control: read_base_control(r, m, c); break;
      case ControllerType::ardusub_mixer: read_ardusub_mixer(r, m, cx, c); break;
    }
    read_delay(r, m, c);
    out.push_back(c);
  }

  // Across controllers: one pid per joint, base_control and allocation inputs, one allocation
  // per thruster and per wrench, thrusters on the vehicle's own tree.
  std::map<std::string, std::string> joint_owner, thruster_owner, source_owner;
  std::vector<std::string> pose_names, kinematic_names;
  for (const ControllerSpec& c : out) {
    if ((c.type == ControllerType::pose_pd || c.type == ControllerType::base_control) && !c.name.empty())
      pose_names.push_back(c.name);
    if ((c.type == ControllerType::task_priority || c.type == ControllerType::line_of_sight) && !c.name.empty())
      kinematic_names.push_back(c.name);
  }
  for (std::size_t i = 0; i < out.size(); ++i) {  // base_control: its input, and its body (the base)
    ControllerSpec& c = out[i];
    if (c.type != ControllerType::base_control || c.input.empty()) continue;
    const Source& m = sources[i];
    const auto source = std::find_if(out.begin(), out.end(), [&](const ControllerSpec& o) { return o.name == c.input; });
    if (source == out.end() || (source->type != ControllerType::task_priority && source->type != ControllerType::line_of_sight)) {
      r.error(m.input, source == out.end() ? did_you_mean("task_priority or line_of_sight controller", c.input, kinematic_names)
                                           : "controller '" + c.input + "' is not a task_priority or line_of_sight; a "
                                             "base_control follows the base velocity or acceleration one of those computes");
      c.input.clear();
      continue;
    }
    if (auto [it, fresh] = source_owner.emplace(c.input, c.name); !fresh)
      r.error(m.input, "'" + c.input + "' is already followed by '" + it->second + "'");
    if (!source->end_effector.empty()) c.body = root_of(scenario, source->end_effector);
  }
  // A pid named as another pid's setpoint is the outer loop of a cascade: it drives no joint.
  std::map<std::string, std::string> outer_of;  // outer pid → its inner pid
  for (std::size_t i = 0; i < out.size(); ++i) {
    const ControllerSpec& c = out[i];
    if (c.type != ControllerType::pid || c.setpoint_controller.empty()) continue;
    const auto outer = std::find_if(out.begin(), out.end(), [&](const ControllerSpec& o) { return o.name == c.setpoint_controller; });
    if (outer == out.end() || outer->type != ControllerType::pid) continue;
    const Field& at = sources[i].setpoint;
    if (c.pid.mode != control::PidMode::velocity)
      r.error(at, "pid '" + c.setpoint_controller + "' outputs a velocity: a pid that takes it as setpoint needs mode: velocity");
    else if (outer->pid.mode != control::PidMode::position || !outer->setpoint_controller.empty())
      r.error(at, "pid '" + c.setpoint_controller + "' must be a position pid with its own setpoint (the outer loop of a cascade)");
    else if (outer->joint != c.joint)
      r.error(at, "pid '" + c.setpoint_controller + "' is on joint '" + outer->joint + "', not '" + c.joint + "': a cascade is on one joint");
    else if (auto [it, fresh] = outer_of.emplace(c.setpoint_controller, c.name); !fresh)
      r.error(at, "pid '" + c.setpoint_controller + "' is already the setpoint of '" + it->second + "'");
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    ControllerSpec& c = out[i];
    const Source& m = sources[i];
    if (c.type == ControllerType::pid && !c.joint.empty() && !outer_of.count(c.name)) {
      if (auto [it, fresh] = joint_owner.emplace(c.joint, c.name); !fresh)
        r.error(m.joint, "joint '" + c.joint + "' is already driven by controller '" + it->second + "'");
    }
    const auto is_pid = [&](const std::string& name) {
      return std::any_of(out.begin(), out.end(), [&](const ControllerSpec& o) { return o.name == name && o.type == ControllerType::pid; });
    };
    if (c.type == ControllerType::pid && !c.setpoint_controller.empty() && !c.joint.empty() && !is_pid(c.setpoint_controller)) {
      const auto ik = std::find_if(out.begin(), out.end(), [&](const ControllerSpec& o) { return o.name == c.setpoint_controller; });
      if (ik != out.end() && std::find(ik->chain_joints.begin(), ik->chain_joints.end(), c.joint) == ik->chain_joints.end())
        r.error(m.setpoint, "joint '" + c.joint + "' is not in the chain of '" + c.setpoint_controller + "' (" +
                                quoted_names(ik->chain_joints) + ")");
    }
    if (c.type != ControllerType::thrust_allocation || c.input.empty()) continue;
    const auto source = std::find_if(out.begin(), out.end(), [&](const ControllerSpec& o) { return o.name == c.input; });
    if (source == out.end() || (source->type != ControllerType::pose_pd && source->type != ControllerType::base_control)) {
      r.error(m.input, source == out.end() ? did_you_mean("pose_pd or base_control controller", c.input, pose_names)
                                           : "controller '" + c.input + "' is not a pose_pd or base_control; an allocation "
                                             "takes the wrench of one of those");
      c.input.clear();
      continue;
    }
    if (auto [it, fresh] = source_owner.emplace(c.input, c.name); !fresh)
      r.error(m.input, "the wrench of '" + c.input + "' is already allocated by '" + it->second + "'");
    const Field& list = m.thrusters;
    for (std::size_t k = 0; list.present() && list.value.IsSequence() && k < list.value.size(); ++k) {
      const Field item(YAML::Node(YAML::NodeType::Undefined), list.value[k], index_path(list.path, k));
      if (!item.value.IsScalar()) continue;
      const std::string name = item.value.Scalar();
      if (std::find(c.thrusters.begin(), c.thrusters.end(), name) == c.thrusters.end()) continue;
      if (auto [it, fresh] = thruster_owner.emplace(name, c.name); !fresh) {
        r.error(item, "thruster '" + name + "' is already driven by allocation '" + it->second + "'");
        continue;
      }
      const auto t = std::find_if(scenario.thrusters.begin(), scenario.thrusters.end(),
                                  [&](const ThrusterSpec& s) { return s.thruster.name == name; });
      if (!source->body.empty() && root_of(scenario, t->body) != source->body)
        r.error(item, "thruster '" + name + "' sits on '" + t->body + "', which is not part of '" +
                          source->body + "', the body of '" + c.input + "'");
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) {  // a mixer's thrusters: driven by it alone
    const ControllerSpec& c = out[i];
    if (c.type != ControllerType::ardusub_mixer) continue;
    const Field& at = sources[i].thrusters.present() ? sources[i].thrusters : sources[i].type;
    for (const std::string& name : c.thrusters) {
      if (name.empty()) continue;
      if (auto [it, fresh] = thruster_owner.emplace(name, c.name); !fresh)
        r.error(at, "thruster '" + name + "' is already driven by controller '" + it->second + "'");
    }
  }
  check_motor_inputs(r, scenario, joint_owner);
  return out;
}

}  // namespace uwsim::scenario
