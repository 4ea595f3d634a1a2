// References: [Fossen2011] eq. 2.29 (Euler angle rates).
#include "analysis/variables.h"

#include <algorithm>
#include <cmath>

#include "spatial/rotation.h"

namespace uwsim::analysis {

using analysis::VariableKind;
using analysis::VariableRef;

namespace {

spatial::Mat3 rotation_of(const double* x, int q_offset) {
  return spatial::rotation_from_quaternion(Eigen::Map<const spatial::Quat>(x + q_offset + 3).normalized());
}

spatial::Vec3 euler_of(const double* x, int q_offset) { return spatial::euler_zyx_from_rotation(rotation_of(x, q_offset)); }

int component_index(const std::vector<std::string>& components, const std::string& name) {
  return static_cast<int>(std::find(components.begin(), components.end(), name) - components.begin());
}

}  // namespace

double Variable::value(const double* x, const Eigen::VectorXd& u) const {
  switch (place) {
    case Place::state: return x[index];
    case Place::euler: return euler_of(x, index)[axis];
    case Place::channel: return u[index];
  }
  return 0.0;
}

double Variable::rate(const double* x, const double* xdot) const {
  if (place == Place::state) return xdot[rate_index];
  if (place == Place::channel) return 0.0;
  // The ZYX rates of ω_WB_B turned into NED axes ([Fossen2011] eq. 2.29; spatial::euler_zyx_rates)
  const spatial::Mat3 R_WB = rotation_of(x, index);
  const spatial::Vec3 w_WB_B(x[rate_index], x[rate_index + 1], x[rate_index + 2]);
  return spatial::euler_zyx_rates(spatial::euler_zyx_from_rotation(R_WB), R_WB * w_WB_B)[axis];
}

std::optional<Variable> resolve(const dynamics::Model& model, const VariableRef& ref, std::string& why) {
  Variable v;
  v.ref = ref;
  switch (ref.kind) {
    case VariableKind::body: {
      const int b = model.body_index(ref.item);
      if (b < 0 || model.bodies[static_cast<std::size_t>(b)].joint.type != dynamics::JointType::free) {
        why = b < 0 ? "no body named '" + ref.item + "'" : "body '" + ref.item + "' hangs from a joint";
        return std::nullopt;
      }
      const dynamics::Body& body = model.bodies[static_cast<std::size_t>(b)];
      const int k = component_index(analysis::body_components(), ref.component);
      if (k < 3) {  // north east down
        v.index = v.rate_index = body.q_offset + k;
        v.unit = "m";
        v.rate_unit = "m/s";
      } else if (k < 6) {  // roll pitch yaw
        v.place = Variable::Place::euler;
        v.index = body.q_offset;
        v.axis = k - 3;
        v.rate_index = body.v_offset;
        v.unit = "rad";
        v.rate_unit = "rad/s";
      } else if (k < 12) {  // u v w p q r; x holds [ω; v]
        const int offsets[] = {3, 4, 5, 0, 1, 2};
        v.index = v.rate_index = body.v_offset + offsets[k - 6];
        v.unit = k < 9 ? "m/s" : "rad/s";
        v.rate_unit = k < 9 ? "m/s²" : "rad/s²";
      } else {
        why = "unknown component '" + ref.component + "'";
        return std::nullopt;
      }
      return v;
    }
    case VariableKind::joint: {
      for (const dynamics::Body& body : model.bodies) {
        if (body.joint.name != ref.item || body.joint.type == dynamics::JointType::free) continue;
        if (body.joint.dof() != 1) {
          why = "joint '" + ref.item + "' is fixed: it has no motion";
          return std::nullopt;
        }
        const bool position = ref.component == "position";
        const std::string unit = body.joint.type == dynamics::JointType::revolute ? "rad" : "m";
        v.index = position ? body.q_offset : body.v_offset;
        v.rate_index = v.index;
        v.unit = position ? unit : unit + "/s";
        v.rate_unit = position ? unit + "/s" : unit + "/s²";
        return v;
      }
      why = "no joint named '" + ref.item + "'";
      return std::nullopt;
    }
    case VariableKind::thruster: {
      for (const actuation::Thruster& t : model.thrusters) {
        if (t.name != ref.item) continue;
        if (t.state_index < 0) {
          why = "thruster '" + ref.item + "' has no time_constant, so no spin-up state";
          return std::nullopt;
        }
        v.index = v.rate_index = t.state_index;
        v.unit = t.has_shaft_speed() ? "rad/s" : "N";
        v.rate_unit = v.unit + "/s";
        return v;
      }
      why = "no thruster named '" + ref.item + "'";
      return std::nullopt;
    }
    case VariableKind::input: {
      const int k = model.inputs.index_of(ref.item);
      if (k < 0) {
        why = "no input channel named '" + ref.item + "'";
        return std::nullopt;
      }
      v.place = Variable::Place::channel;
      v.index = k;
      v.unit = model.inputs.channels[static_cast<std::size_t>(k)].units;
      return v;
    }
  }
  return std::nullopt;
}

std::vector<VariableRef> default_steady(const dynamics::Model& model) {
  std::vector<VariableRef> out;
  for (const dynamics::Body& body : model.bodies) {
    if (body.joint.type == dynamics::JointType::free) {
      for (const char* c : {"u", "v", "w", "p", "q", "r", "roll", "pitch"})
        out.push_back({VariableKind::body, body.name, c});
    } else if (body.joint.dof() == 1) {
      for (const char* c : {"position", "velocity"}) out.push_back({VariableKind::joint, body.joint.name, c});
    }
  }
  for (const actuation::Thruster& t : model.thrusters)
    if (t.state_index >= 0) out.push_back({VariableKind::thruster, t.name, "state"});
  return out;
}

void assign(const std::vector<Variable>& variables, const Eigen::VectorXd& values,
            const std::vector<double>& x_start, std::vector<double>& x, Eigen::VectorXd& u) {
  x = x_start;
  std::vector<int> attitudes;  // q_offsets of bodies whose Euler angles are set
  for (std::size_t i = 0; i < variables.size(); ++i) {
    const Variable& v = variables[i];
    if (v.place == Variable::Place::state) x[static_cast<std::size_t>(v.index)] = values[static_cast<Eigen::Index>(i)];
    if (v.place == Variable::Place::channel) u[v.index] = values[static_cast<Eigen::Index>(i)];
    if (v.place == Variable::Place::euler && std::find(attitudes.begin(), attitudes.end(), v.index) == attitudes.end())
      attitudes.push_back(v.index);
  }
  for (int q_offset : attitudes) {
    spatial::Vec3 e = euler_of(x_start.data(), q_offset);
    for (std::size_t i = 0; i < variables.size(); ++i)
      if (variables[i].place == Variable::Place::euler && variables[i].index == q_offset)
        e[variables[i].axis] = values[static_cast<Eigen::Index>(i)];
    Eigen::Map<spatial::Quat>(x.data() + q_offset + 3) = spatial::quaternion_from_euler_zyx(e[0], e[1], e[2]);
  }
}

namespace {

// A pid's output unit: what its joint's command is (README "Controllers").
std::string pid_output_unit(const dynamics::Model& model, const dynamics::Controller& c) {
  const dynamics::Joint& joint = model.bodies[static_cast<std::size_t>(c.body)].joint;
  if (c.feeds_pid) return joint.type == dynamics::JointType::revolute ? "rad/s" : "m/s";
  if (joint.actuator.has_motor()) return "A";
  return joint.type == dynamics::JointType::revolute ? "N m" : "N";
}

}  // namespace

MemoryVariables controller_memory(const dynamics::Model& model) {
  using Kind = dynamics::MemoryComponent::Kind;
  static const char* const kAxes[] = {"x", "y", "z", "roll", "pitch", "yaw"};
  MemoryVariables out;
  out.layout = dynamics::ControllerSet::memory_layout(model);
  for (const dynamics::MemoryComponent& m : out.layout) {
    const dynamics::Controller& c = model.controllers[static_cast<std::size_t>(m.controller)];
    const std::string prefix = "controllers." + c.name + ".";
    if (c.kind == dynamics::ControllerKind::pose_pd) {
      out.names.push_back(prefix + "integral_" + kAxes[m.axis]);
      out.units.push_back(m.axis < 3 ? "N" : "N m");
    } else if (m.kind == Kind::joint_setpoint) {
      const int body = c.chain[static_cast<std::size_t>(c.joints[static_cast<std::size_t>(m.axis)])];
      const dynamics::Joint& joint = model.bodies[static_cast<std::size_t>(body)].joint;
      out.names.push_back(prefix + "setpoint." + joint.name);
      out.units.push_back(joint.type == dynamics::JointType::revolute ? "rad" : "m");
    } else if (m.kind == Kind::previous_error) {
      const dynamics::Joint& joint = model.bodies[static_cast<std::size_t>(c.body)].joint;
      out.names.push_back(prefix + "previous_error");
      out.units.push_back(joint.type == dynamics::JointType::revolute ? "rad/s" : "m/s");
    } else {
      out.names.push_back(prefix + (m.kind == Kind::integral ? "integral" : "previous_output"));
      out.units.push_back(pid_output_unit(model, c));
    }
    out.periods.push_back(c.period);
  }
  return out;
}

}  // namespace uwsim::analysis
