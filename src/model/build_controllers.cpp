#include "model/build_controllers.h"

#include <algorithm>
#include <stdexcept>

#include "model/build_actuation.h"

namespace uwsim::model {

using dynamics::Controller;
using dynamics::ControllerKind;
using dynamics::Model;

namespace {


int joint_body(const Model& model, const std::string& joint) {
  for (std::size_t b = 0; b < model.bodies.size(); ++b)
    if (model.bodies[b].joint.name == joint) return static_cast<int>(b);
  throw std::invalid_argument("build_model: no joint named " + joint);
}

int thruster_index(const Model& model, const std::string& name) {
  for (std::size_t i = 0; i < model.thrusters.size(); ++i)
    if (model.thrusters[i].name == name) return static_cast<int>(i);
  throw std::invalid_argument("build_model: no thruster named " + name);
}

// task_priority: the chain from the free root to the end effector, as for inverse_kinematics;
// line_of_sight: the bodies of its listed joints. Both: the base is the tree's root.
void build_motion_control(const ControllerSpec& spec, const Model& model, Controller& c) {
  c.body = model.body_index(spec.end_effector);
  if (c.body < 0) throw std::invalid_argument("build_model: no body named " + spec.end_effector);
  c.base = model.bodies[static_cast<std::size_t>(c.body)].root;
  c.p_EP_E = spec.point;
  for (int k = 0; k < 3; ++k) c.position[k] = command_source(model.inputs, spec.position[k]);
  if (spec.type == ControllerType::task_priority) {
    c.kind = ControllerKind::task_priority;
    for (int b = c.body; b != c.base; b = model.bodies[static_cast<std::size_t>(b)].parent) c.chain.insert(c.chain.begin(), b);
    for (std::size_t k = 0; k < c.chain.size(); ++k)
      if (model.bodies[static_cast<std::size_t>(c.chain[k])].joint.dof() == 1) c.joints.push_back(static_cast<int>(k));
    for (int k = 0; k < 3; ++k) {
      c.rpy[k] = command_source(model.inputs, spec.rpy[k]);
      c.base_position[k] = command_source(model.inputs, spec.base_position[k]);
    }
    c.task_gain = spec.task_gain;
    c.base_gain = spec.base_gain;
    c.weights = spec.weights;
    c.damping = spec.damping;
    c.base_home_given = spec.base_home_given;
  } else {
    c.kind = ControllerKind::line_of_sight;
    for (const std::string& joint : spec.chain_joints) {
      c.joints.push_back(static_cast<int>(c.chain.size()));
      c.chain.push_back(joint_body(model, joint));
    }
    c.path = spec.path;
    c.transport = spec.transport;
    c.transport.sample_period = c.period;
  }
}

Controller build_one(const ControllerSpec& spec, const Model& model) {
  Controller c;
  c.name = spec.name;
  c.period = 1.0 / spec.rate;
  c.delay = spec.delay;
  switch (spec.type) {
    case ControllerType::pid:
      c.kind = ControllerKind::pid;
      c.body = joint_body(model, spec.joint);
      c.pid = spec.pid;
      c.pid.sample_period = c.period;
      c.setpoint = command_source(model.inputs, spec.setpoint);
      c.feed_forward = spec.feed_forward;
      break;
    case ControllerType::pose_pd:
      c.kind = ControllerKind::pose_pd;
      c.body = model.body_index(spec.body);
      c.pose = spec.pose;
      c.pose.sample_period = c.period;
      c.held = spec.held;
      for (int k = 0; k < 3; ++k) {
        c.position[k] = command_source(model.inputs, spec.position[k]);
        c.rpy[k] = command_source(model.inputs, spec.rpy[k]);
      }
      for (int k = 0; k < 6; ++k) c.wrench[k] = command_source(model.inputs, spec.wrench[k]);
      break;
    case ControllerType::thrust_allocation:
      c.kind = ControllerKind::thrust_allocation;
      c.damping = spec.damping;
      for (const std::string& name : spec.thrusters) c.thrusters.push_back(thruster_index(model, name));
      break;
    case ControllerType::inverse_kinematics: {
      c.kind = ControllerKind::inverse_kinematics;
      c.body = model.body_index(spec.end_effector);
      if (c.body < 0) throw std::invalid_argument("build_model: no body named " + spec.end_effector);
      c.p_EP_E = spec.point;
      c.world_frame = spec.world_frame;
      c.gain = spec.gain;
      c.damping = spec.damping;
      for (int k = 0; k < 3; ++k) c.position[k] = command_source(model.inputs, spec.position[k]);
      // The chain from the tree's root (a free body, or the world) to the end effector.
      for (int b = c.body; b >= 0 && model.bodies[static_cast<std::size_t>(b)].joint.type != dynamics::JointType::free;
           b = model.bodies[static_cast<std::size_t>(b)].parent) {
        c.chain.insert(c.chain.begin(), b);
        c.base = model.bodies[static_cast<std::size_t>(b)].parent;
      }
      for (std::size_t k = 0; k < c.chain.size(); ++k)
        if (model.bodies[static_cast<std::size_t>(c.chain[k])].joint.dof() == 1) c.joints.push_back(static_cast<int>(k));
      break;
    }
    case ControllerType::task_priority:
    case ControllerType::line_of_sight:
      build_motion_control(spec, model, c);
      break;
    case ControllerType::ardusub_mixer:
      c.kind = ControllerKind::ardusub_mixer;
      c.mixer = spec.mixer;
      for (int k = 0; k < 6; ++k) c.rc[k] = command_source(model.inputs, spec.rc[k]);
      for (const std::string& name : spec.thrusters) c.thrusters.push_back(thruster_index(model, name));
      break;
    case ControllerType::base_control:
      c.kind = ControllerKind::base_control;
      c.base_velocity = spec.base_velocity;
      c.base_velocity.sample_period = c.period;
      c.cancel_coriolis = spec.cancel_coriolis;
      c.cancel_damping = spec.cancel_damping;
      c.cancel_restoring = spec.cancel_restoring;
      break;
  }
  return c;
}

}  // namespace

void build_controllers(const Spec& scenario, Model& model) {
  const int channels = static_cast<int>(model.inputs.channels.size());
  // A cascade's outer pid (named as another pid's setpoint) updates before its inner one.
  const auto is_outer = [&](const ControllerSpec& spec) {
    return spec.type == ControllerType::pid &&
           std::any_of(scenario.controllers.begin(), scenario.controllers.end(), [&](const ControllerSpec& s) {
             return s.type == ControllerType::pid && s.setpoint_controller == spec.name;
           });
  };
  // The update order at a common sample (dynamics/controller_set.h): wrench sources before the
  // allocations that take them, kinematic controllers before what follows them, pids last.
  for (ControllerType type : {ControllerType::pose_pd, ControllerType::line_of_sight, ControllerType::task_priority,
                              ControllerType::base_control, ControllerType::thrust_allocation,
                              ControllerType::ardusub_mixer, ControllerType::inverse_kinematics, ControllerType::pid}) {
    for (bool outer_first : {true, false}) {
      if (type != ControllerType::pid && !outer_first) continue;
      for (const ControllerSpec& spec : scenario.controllers) {
        if (spec.type != type || (type == ControllerType::pid && is_outer(spec) != outer_first)) continue;
        Controller c = build_one(spec, model);
        c.output_slot = model.control_slots;
        c.feeds_pid = is_outer(spec);
        model.control_slots += c.output_count();
        model.controllers.push_back(std::move(c));
      }
    }
  }
  for (Controller& c : model.controllers) {
    if (c.kind == ControllerKind::pid) {
      const ControllerSpec* spec = nullptr;
      for (const auto& s : scenario.controllers)
        if (s.name == c.name) spec = &s;
      if (c.feeds_pid) continue;  // a cascade's outer loop drives its inner pid, not the joint
      bool cascade = false;
      for (Controller& outer : model.controllers) {
        if (outer.kind != ControllerKind::pid || outer.name != spec->setpoint_controller) continue;
        c.setpoint = inputs::CommandSource{channels + outer.output_slot, 0.0};  // its held velocity
        cascade = true;
      }
      if (!spec->setpoint_controller.empty() && !cascade) {  // q_d and q̇_d of this joint from an IK, task_priority or LOS
        for (const Controller& ik : model.controllers) {
          if (ik.name != spec->setpoint_controller) continue;
          for (std::size_t j = 0; j < ik.joints.size(); ++j) {
            if (ik.chain[static_cast<std::size_t>(ik.joints[j])] != c.body) continue;
            c.setpoint = inputs::CommandSource{channels + ik.output_slot + static_cast<int>(j), 0.0};
            c.setpoint_rate_slot = channels + ik.output_slot + static_cast<int>(ik.joints.size() + j);
          }
        }
        if (c.setpoint_rate_slot < 0)
          throw std::invalid_argument("build_model: joint of pid " + c.name + " not in the chain of " + spec->setpoint_controller);
      }
      actuation::JointActuator& actuator = model.bodies[static_cast<std::size_t>(c.body)].joint.actuator;
      if (actuator.kind == actuation::JointActuatorKind::none) actuator.kind = actuation::JointActuatorKind::effort;
      actuator.command = inputs::CommandSource{channels + c.output_slot, 0.0};
    } else if (c.kind == ControllerKind::base_control) {
      const ControllerSpec* spec = nullptr;
      for (const auto& s : scenario.controllers)
        if (s.name == c.name) spec = &s;
      for (std::size_t i = 0; i < model.controllers.size(); ++i) {
        if (model.controllers[i].name != spec->input) continue;
        c.source = static_cast<int>(i);
        c.body = model.controllers[i].base;
      }
      if (c.source < 0) throw std::invalid_argument("build_model: no task_priority or line_of_sight named " + spec->input);
    } else if (c.kind == ControllerKind::ardusub_mixer) {
      for (std::size_t j = 0; j < c.thrusters.size(); ++j)
        model.thrusters[static_cast<std::size_t>(c.thrusters[j])].command =
            inputs::CommandSource{channels + c.output_slot + static_cast<int>(j), 0.0};
    } else if (c.kind == ControllerKind::thrust_allocation) {
      const ControllerSpec* spec = nullptr;
      for (const auto& s : scenario.controllers)
        if (s.name == c.name) spec = &s;
      for (std::size_t i = 0; i < model.controllers.size(); ++i) {
        if (model.controllers[i].name != spec->input) continue;
        c.source = static_cast<int>(i);
        model.controllers[i].applies_wrench = false;
        c.body = model.controllers[i].body;
      }
      if (c.source < 0) throw std::invalid_argument("build_model: no pose_pd or base_control named " + spec->input);
      for (std::size_t j = 0; j < c.thrusters.size(); ++j)
        model.thrusters[static_cast<std::size_t>(c.thrusters[j])].command =
            inputs::CommandSource{channels + c.output_slot + static_cast<int>(j), 0.0};
    }
  }
}

namespace {

// The index of sensor `name` of one of `kinds`, or −1 for an empty name.
int feedback_sensor(const Model& model, const std::string& name, std::initializer_list<sensors::SensorKind> kinds) {
  if (name.empty()) return -1;
  for (std::size_t i = 0; i < model.sensors.size(); ++i) {
    if (model.sensors[i].parameters.name != name) continue;
    for (sensors::SensorKind k : kinds)
      if (model.sensors[i].parameters.kind == k) return static_cast<int>(i);
    throw std::invalid_argument("build_model: feedback sensor " + name + " is of the wrong kind");
  }
  throw std::invalid_argument("build_model: no sensor named " + name);
}

}  // namespace

void build_feedback(const Spec& scenario, Model& model) {
  using sensors::SensorKind;
  for (const ControllerSpec& spec : scenario.controllers) {
    if (spec.type != ControllerType::pose_pd) continue;
    for (dynamics::Controller& c : model.controllers) {
      if (c.name != spec.name) continue;
      const FeedbackSpec& f = spec.feedback;
      dynamics::Feedback& out = c.feedback;
      out.depth = feedback_sensor(model, f.depth, {SensorKind::pressure});
      out.position = feedback_sensor(model, f.position, {SensorKind::pose});
      if (f.estimator) {
        out.imu = feedback_sensor(model, f.imu, {SensorKind::imu});
        out.heading = feedback_sensor(model, f.heading, {SensorKind::heading, SensorKind::magnetometer});
        out.filter = f.filter;
      } else {
        out.attitude = feedback_sensor(model, f.attitude, {SensorKind::pose});
      }
      out.angular_rate = feedback_sensor(model, f.angular_rate, {SensorKind::imu});
      out.velocity = feedback_sensor(model, f.velocity, {SensorKind::dvl});
    }
  }
}

}  // namespace uwsim::model
