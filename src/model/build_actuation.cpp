#include "model/build_actuation.h"

#include <stdexcept>

namespace uwsim::model {

using dynamics::AppliedForce;
using dynamics::Body;
using dynamics::Connector;
using dynamics::Controller;
using dynamics::ControllerKind;
using dynamics::Environment;
using dynamics::Joint;
using dynamics::Model;
using spatial::Mat3;
using spatial::Mat6;
using spatial::Vec3;
using spatial::Vec6;

namespace {

int channel_index(const inputs::InputSet& inputs, const std::string& name) {
  const int i = inputs.index_of(name);
  if (i < 0) throw std::invalid_argument("build_model: no input channel named " + name);
  return i;
}

}  // namespace

inputs::CommandSource command_source(const inputs::InputSet& inputs, const CommandSpec& spec) {
  inputs::CommandSource source;
  source.constant = spec.constant;
  if (!spec.channel.empty()) source.channel = channel_index(inputs, spec.channel);
  return source;
}

void build_actuation(const Spec& scenario, Model& model) {
  for (const InputSpec& spec : scenario.inputs) {
    inputs::Channel channel;
    static_cast<inputs::ChannelParameters&>(channel) = spec.channel;
    inputs::apply_delay(channel);
    model.inputs.channels.push_back(std::move(channel));
  }
  for (std::size_t i = 0; i < scenario.inputs.size(); ++i) {
    for (const std::string& name : scenario.inputs[i].operand_names)
      model.inputs.channels[i].operands.push_back(channel_index(model.inputs, name));
  }
  if (!model.inputs.sort()) throw std::invalid_argument("build_model: the input channels form a cycle");

  for (std::size_t f = 0; f < scenario.forces.size(); ++f) {
    if (!scenario.forces[f].input.empty())
      model.forces[f].input = channel_index(model.inputs, scenario.forces[f].input);
  }
  for (Body& body : model.bodies) {
    if (body.joint.name.empty()) continue;
    for (const JointSpec& spec : scenario.joints) {
      if (spec.name != body.joint.name) continue;
      body.joint.actuator.kind = spec.actuator.kind;
      body.joint.actuator.command = command_source(model.inputs, spec.actuator.input);
      body.joint.actuator.motor = spec.actuator.motor;
      body.joint.actuator.linear = spec.actuator.linear;
    }
  }

  // Actuator states follow [q; v].
  for (const ThrusterSpec& spec : scenario.thrusters) {
    actuation::Thruster thruster;
    static_cast<actuation::ThrusterParameters&>(thruster) = spec.thruster;
    thruster.body = model.body_index(spec.body);
    if (thruster.body < 0) throw std::invalid_argument("build_model: no body named " + spec.body);
    thruster.command = command_source(model.inputs, spec.input);
    if (thruster.time_constant > 0.0) thruster.state_index = model.nq + model.nv + model.na++;
    model.thrusters.push_back(std::move(thruster));
  }
  model.x0.resize(static_cast<std::size_t>(model.state_size()), 0.0);
}

}  // namespace uwsim::model
