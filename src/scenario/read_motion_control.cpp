// The controller types of the swimming manipulator's motion-control framework
// ([SverdrupThygeson2018] Sec. IV–V; README "Controllers"): task_priority (work mode, eq. 42),
// line_of_sight (transport mode, eq. 38–41) and base_control (eq. 33–35). References to other
// controllers (a base_control's input) are checked in read_controllers.cpp once all are read.
#include <algorithm>

#include "control/damped_pseudo_inverse.h"
#include "scenario/actuation_sections.h"
#include "scenario/controller_sections.h"

namespace uwsim::scenario {

namespace {

const JointSpec* joint_with_child(const Scenario& s, const std::string& body) {
  const auto it = std::find_if(s.joints.begin(), s.joints.end(), [&](const JointSpec& j) { return j.child == body; });
  return it == s.joints.end() ? nullptr : &*it;
}

// The body at the top of `body`'s tree ("world" for a tree fixed to the world), and the moving
// joints on the way there, the root's first.
std::string walk_to_root(const Scenario& s, std::string body, std::vector<std::string>* moving_joints) {
  for (std::size_t guard = 0; guard <= s.joints.size(); ++guard) {
    const JointSpec* j = joint_with_child(s, body);
    if (j == nullptr) return body;
    if (moving_joints != nullptr && j->type != JointType::fixed) moving_joints->insert(moving_joints->begin(), j->name);
    body = j->parent;
  }
  return body;
}

// `end_effector`: a body of the scenario whose tree has a free-floating root. Returns that root
// ("" after reporting a problem); `link_only` also asks for a body below a joint.
std::string read_floating_body(Reader& r, Mapping& m, const ControllerContext& cx, ControllerSpec& c,
                               bool link_only, std::vector<std::string>* moving_joints) {
  const Field ee = m.require("end_effector");
  const auto s = r.string(ee);
  if (!s) return "";
  const bool is_body = std::find(cx.body_names.begin(), cx.body_names.end(), *s) != cx.body_names.end();
  if (!is_body) {
    r.error(ee, did_you_mean("body", *s, cx.body_names));
    return "";
  }
  const std::string root = walk_to_root(cx.scenario, *s, moving_joints);
  if (root == kWorld) {
    r.error(ee, "body '" + *s + "' belongs to a tree fixed to the world; this controller moves a free-floating base");
    return "";
  }
  if (link_only && root == *s) {
    r.error(ee, "body '" + *s + "' is free-floating; the end effector is a link of its tree");
    return "";
  }
  c.end_effector = *s;
  return root;
}

}  // namespace

void read_task_priority(Reader& r, Mapping& m, const ControllerContext& cx, ControllerSpec& c) {
  const Field ee = m.get("end_effector");
  std::vector<std::string> joints;
  const std::string root = read_floating_body(r, m, cx, c, true, &joints);
  const auto max_joints = static_cast<std::size_t>(control::kMaxColumns - 6);
  if (!root.empty() && (joints.empty() || joints.size() > max_joints))
    r.error(ee, "expected 1 to " + std::to_string(max_joints) + " revolute or prismatic joints between '" +
                    c.end_effector + "' and its base '" + root + "', got " + std::to_string(joints.size()));
  else
    c.chain_joints = joints;
  read_commands(r, m.require("position"), cx.channels, c.position);
  read_commands(r, m.get("rpy"), cx.channels, c.rpy);
  m.read("point", c.point, Sign::any, "m");
  const Field gain = m.require("gain");
  if (gain.present())
    if (auto v = r.numbers(gain, 6, Sign::non_negative, "1/s")) c.task_gain = *v;
  m.read("base_gain", c.base_gain, Sign::non_negative, "1/s");
  m.read("damping", c.damping, Sign::non_negative, "");
  const Field home = m.get("base_position");
  if (home.present()) {
    c.base_home_given = true;
    read_commands(r, home, cx.channels, c.base_position);
  }
  c.weights = Eigen::VectorXd::Ones(6 + static_cast<Eigen::Index>(c.chain_joints.size()));
  const Field weights = m.get("weights");
  if (weights.present() && !c.chain_joints.empty()) {
    const int n = 6 + static_cast<int>(c.chain_joints.size());
    if (!weights.value.IsSequence() || static_cast<int>(weights.value.size()) != n)
      r.error(weights, "expected " + std::to_string(n) + " weights ≥ 0: 6 for the base [x y z roll pitch yaw] and one "
                       "per joint from the base to '" + c.end_effector + "' (" + quoted_names(c.chain_joints) + "), got " +
                       describe_value(weights.value));
    else if (auto v = r.numbers(weights, n, Sign::non_negative, ""))
      c.weights = *v;
  }
}

void read_line_of_sight(Reader& r, Mapping& m, const ControllerContext& cx, ControllerSpec& c) {
  const std::string root = read_floating_body(r, m, cx, c, false, nullptr);
  m.read("point", c.point, Sign::any, "m");
  const Field list = m.require("joints");
  if (auto items = list.present() ? r.sequence(list) : std::nullopt) {
    if (items->empty() || items->size() > static_cast<std::size_t>(control::kMaxColumns))
      r.error(list, "expected 1 to " + std::to_string(control::kMaxColumns) + " joint names (the joints eq. 38 turns)");
    for (const Field& item : *items) {
      auto s = r.string(item);
      if (!s) continue;
      const auto it = std::find_if(cx.scenario.joints.begin(), cx.scenario.joints.end(),
                                   [&](const JointSpec& j) { return j.name == *s; });
      if (it == cx.scenario.joints.end())
        r.error(item, did_you_mean("joint", *s, cx.joint_names));
      else if (it->type != JointType::revolute)
        r.error(item, "joint '" + *s + "' is not revolute; eq. 38 sets joint angles");
      else if (std::find(c.chain_joints.begin(), c.chain_joints.end(), *s) != c.chain_joints.end())
        r.error(item, "joint '" + *s + "' is listed twice");
      else if (!root.empty() && walk_to_root(cx.scenario, it->child, nullptr) != root)
        r.error(item, "joint '" + *s + "' is not in the tree of '" + c.end_effector + "' (base '" + root + "')");
      else
        c.chain_joints.push_back(*s);
    }
  }
  const Field path = m.require("path");
  if (auto items = path.present() ? r.sequence(path) : std::nullopt) {
    if (items->empty()) r.error(path, "expected at least one segment {from: [north, east], to: [north, east]}");
    for (const Field& item : *items) {
      Mapping segment(r, item, {"from", "to"});
      if (!segment.ok()) continue;
      Eigen::Vector2d from = Eigen::Vector2d::Zero(), to = from;
      const Field f = segment.require("from"), t = segment.require("to");
      if (auto v = f.present() ? r.numbers(f, 2, Sign::any, "m") : std::nullopt) from = *v;
      if (auto v = t.present() ? r.numbers(t, 2, Sign::any, "m") : std::nullopt) to = *v;
      if (f.present() && t.present() && (to - from).norm() < 1e-9)
        r.error(item, "a segment needs two different points (its direction is the path's heading)");
      c.path.push_back({from, to});
    }
  }
  m.read("look_ahead", c.transport.look_ahead, Sign::positive, "m", true);
  m.read("heading_gain", c.transport.heading_gain, Sign::any, "", true);
  m.read("speed", c.transport.speed, Sign::any, "m/s", true);
  if (auto k = r.choice(m.require("surge"), {"end_effector", "base"})) c.transport.surge_of_end_effector = *k == 0;
  m.read("surge_kp", c.transport.surge_kp, Sign::non_negative, "1/s");
  m.read("surge_ki", c.transport.surge_ki, Sign::non_negative, "1/s^2");
  m.read("yaw_kp", c.transport.yaw_kp, Sign::non_negative, "1/s^2");
  m.read("yaw_kd", c.transport.yaw_kd, Sign::non_negative, "1/s");
}

void read_base_control(Reader& r, Mapping& m, ControllerSpec& c) {
  if (auto s = r.string(m.require("input"))) c.input = *s;  // checked once all are read
  m.read("kp", c.base_velocity.kp, Sign::non_negative, "1/s");
  m.read("ki", c.base_velocity.ki, Sign::non_negative, "1/s^2");
  const Field cancel = m.get("cancel");
  if (auto items = cancel.present() ? r.sequence(cancel) : std::nullopt) {
    bool terms[3] = {false, false, false};
    for (const Field& item : *items) {
      const auto k = r.choice(item, {"coriolis", "damping", "restoring"});
      if (!k) continue;
      if (terms[*k]) r.error(item, "term '" + item.value.Scalar() + "' is listed twice");
      terms[*k] = true;
    }
    c.cancel_coriolis = terms[0];
    c.cancel_damping = terms[1];
    c.cancel_restoring = terms[2];
  }
}

}  // namespace uwsim::scenario
