#include "app/identified_part.h"

#include <yaml-cpp/yaml.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "scenario/overrides.h"
#include "scenario/sections.h"

namespace uwsim::app {

namespace {

using analysis::ParameterKind;

// The YAML path of a body or joint of the resolved scenario: its own list item, or the link of
// the manipulator that made it.
std::string yaml_path(const YAML::Node& root, const std::string& name, bool joint) {
  const char* list = joint ? "joints" : "bodies";
  if (root[list] && root[list].IsSequence())
    for (const YAML::Node& item : root[list])
      if (item["name"] && item["name"].Scalar() == name) return std::string(list) + "." + name;
  if (root["manipulators"] && root["manipulators"].IsSequence()) {
    for (const YAML::Node& arm : root["manipulators"]) {
      const std::string arm_name = arm["name"].Scalar();
      if (name.rfind(arm_name + "/", 0) != 0 || !arm["links"].IsSequence()) continue;
      for (std::size_t k = 0; k < arm["links"].size(); ++k) {
        const YAML::Node link = arm["links"][k];
        const YAML::Node named = joint ? link["joint"]["name"] : link["name"];
        const std::string own = named ? named.Scalar() : std::string(joint ? "joint" : "link") + std::to_string(k + 1);
        if (arm_name + "/" + own == name)
          return "manipulators." + arm_name + ".links." + std::to_string(k) + (joint ? ".joint" : "");
      }
    }
  }
  throw std::runtime_error("cannot find '" + name + "' in the scenario's YAML");
}

void set(YAML::Node& root, const std::string& path, const YAML::Node& value) {
  std::string failure;
  if (!scenario::set_path(root, path, value, failure)) throw std::runtime_error(path + ": " + failure);
}

// Every name of the part's items and references, to find a prefix they all share.
void collect_names(const YAML::Node& root, std::vector<std::string>& names) {
  const auto add = [&](const YAML::Node& n) {
    if (n && n.IsScalar() && n.Scalar() != "world") names.push_back(n.Scalar());
  };
  for (const char* list : {"bodies", "joints", "manipulators", "thrusters"})
    if (root[list] && root[list].IsSequence())
      for (const YAML::Node& item : root[list])
        for (const char* key : {"name", "parent", "child", "base", "body"}) add(item[key]);
}

void strip_prefix(YAML::Node root, const std::string& prefix) {
  for (const char* list : {"bodies", "joints", "manipulators", "thrusters"})
    if (root[list] && root[list].IsSequence())
      for (YAML::Node item : root[list])
        for (const char* key : {"name", "parent", "child", "base", "body"})
          if (item[key] && item[key].IsScalar() && item[key].Scalar().rfind(prefix, 0) == 0)
            item[key] = item[key].Scalar().substr(prefix.size());
}

}  // namespace

std::string part_text(YAML::Node root, const std::string& header) {
  for (const char* list : {"bodies", "manipulators"}) {
    if (!root[list] || !root[list].IsSequence()) continue;
    for (YAML::Node item : root[list]) {
      item.remove("derived");
      if (item["links"] && item["links"].IsSequence())
        for (YAML::Node link : item["links"]) link.remove("derived");
    }
  }
  std::vector<std::string> names;
  collect_names(root, names);
  if (!names.empty()) {
    std::string prefix = names.front().substr(0, names.front().find('/') == std::string::npos ? 0 : names.front().find('/') + 1);
    for (const std::string& n : names)
      if (prefix.empty() || n.rfind(prefix, 0) != 0 || n.size() == prefix.size()) prefix.clear();
    if (!prefix.empty()) strip_prefix(root, prefix);
  }
  YAML::Node part(YAML::NodeType::Map);
  for (const char* key : {"bodies", "joints", "manipulators", "thrusters"})
    if (root[key] && root[key].IsSequence() && root[key].size() > 0) part[key] = root[key];
  YAML::Emitter out;
  out << part;
  return header + out.c_str() + "\n";
}

std::string identified_part(const scenario::Scenario& scenario, const analysis::Regressor& regressor, const analysis::Fit& fit,
                            const std::string& header) {
  const Eigen::VectorXd prior = regressor.model_values();
  Eigen::VectorXd theta = prior;
  const analysis::BaseParameters& base = fit.base;
  Eigen::VectorXd theta_d(static_cast<Eigen::Index>(base.dependent.size()));
  for (std::size_t d = 0; d < base.dependent.size(); ++d) theta_d[static_cast<Eigen::Index>(d)] = prior[base.dependent[d]];
  Eigen::VectorXd beta = base.of(prior);
  for (int k = 0; k < base.size(); ++k)
    if (std::abs(fit.estimate[k] - beta[k]) > 3.0 * fit.std_dev[k]) beta[k] = fit.estimate[k];
  const Eigen::VectorXd theta_b = beta - base.B * theta_d;
  for (int k = 0; k < base.size(); ++k) theta[base.independent[static_cast<std::size_t>(k)]] = theta_b[k];

  YAML::Node root = YAML::Load(scenario.resolved_yaml);
  const auto& params = regressor.parameters();
  const dynamics::Model& model = regressor.model();
  const auto changed = [&](int first, int count) {
    for (int k = first; k < first + count; ++k)
      if (std::abs(theta[k] - prior[k]) > 1e-12 * (1.0 + std::abs(prior[k]))) return true;
    return false;
  };
  for (int k = 0; k < regressor.cols(); ++k) {
    const analysis::Parameter& p = params[static_cast<std::size_t>(k)];
    const dynamics::Body& body = model.bodies[static_cast<std::size_t>(p.body)];
    if (p.kind == ParameterKind::inertial && p.component == 0 && changed(k, 10)) {
      const double m = theta[k];
      if (!(m > 0.0)) throw std::runtime_error("body '" + body.name + "' would have a mass of " + std::to_string(m) + " kg");
      const Eigen::Vector3d c = Eigen::Vector3d(theta[k + 1], theta[k + 2], theta[k + 3]) / m;
      Eigen::Matrix3d I_o;
      I_o << theta[k + 4], theta[k + 5], theta[k + 6], theta[k + 5], theta[k + 7], theta[k + 8], theta[k + 6], theta[k + 8], theta[k + 9];
      const Eigen::Matrix3d S = spatial::skew(c);
      const Eigen::Matrix3d I_c = I_o + m * S * S;  // I_o = I_c − m S(c)²
      const Eigen::Vector3d e = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(I_c).eigenvalues();
      if (!(e[0] > 0.0) || e[0] + e[1] < e[2])
        throw std::runtime_error("body '" + body.name + "' would have principal inertias about its CG of " + std::to_string(e[0]) + ", " +
                                 std::to_string(e[1]) + ", " + std::to_string(e[2]) + " kg m² (not a rigid body)");
      const std::string path = yaml_path(root, body.name, false);
      YAML::Node center = scenario::yaml_list(c), inertia = scenario::yaml_rows(I_c);
      center.SetStyle(YAML::EmitterStyle::Flow);
      inertia.SetStyle(YAML::EmitterStyle::Flow);
      set(root, path + ".mass", scenario::yaml_number(m));
      set(root, path + ".center_of_gravity", center);
      set(root, path + ".inertia", inertia);
    }
    const bool friction = p.kind == ParameterKind::joint_viscous || p.kind == ParameterKind::joint_coulomb;
    const bool motor = p.kind == ParameterKind::motor_inertia || p.kind == ParameterKind::motor_viscous || p.kind == ParameterKind::motor_coulomb;
    if ((friction || motor) && changed(k, 1)) {
      const std::string path = yaml_path(root, body.joint.name, true);
      const actuation::GearMotor& own = body.joint.actuator.kind == actuation::JointActuatorKind::gear_motor ? body.joint.actuator.motor
                                                                                                          : body.joint.actuator.linear.motor;
      // The motor's share: the merged value less the scenario's nut/screw share.
      double value = theta[k];
      const char* key = p.kind == ParameterKind::joint_viscous ? "damping" : p.kind == ParameterKind::joint_coulomb ? "friction" : "";
      if (p.kind == ParameterKind::motor_inertia) value -= prior[k] - own.rotor_inertia, key = "actuator.rotor_inertia";
      if (p.kind == ParameterKind::motor_viscous) value -= prior[k] - own.viscous_friction, key = "actuator.viscous_friction";
      if (p.kind == ParameterKind::motor_coulomb) value -= prior[k] - own.dry_friction, key = "actuator.dry_friction";
      if (!(value >= 0.0))
        throw std::runtime_error("joint '" + body.joint.name + "' would have " + key + " = " + std::to_string(value) + " (negative)");
      set(root, path + "." + key, scenario::yaml_number(value));
    }
  }
  return part_text(root, header);
}

std::string drag_part(const scenario::Scenario& scenario, const std::string& body, int axis, double quadratic, double linear,
                      const std::string& header) {
  const auto it = std::find_if(scenario.bodies.begin(), scenario.bodies.end(), [&](const model::BodySpec& b) { return b.name == body; });
  if (it == scenario.bodies.end() || axis < 0 || axis > 5) throw std::runtime_error("no body '" + body + "' or axis " + std::to_string(axis));
  // The whole vectors as the model has them (those derived from a shape included), one axis
  // replaced; given damping acts at the body origin unless center_of_drag is given, so the
  // centre the model uses is written where it is not the origin (derived from a shape).
  model::Vector6 d2 = it->quadratic_damping, d1 = it->linear_damping;
  d2[axis] = quadratic;
  d1[axis] = linear;
  YAML::Node root = YAML::Load(scenario.resolved_yaml);
  const std::string path = yaml_path(root, body, false);
  YAML::Node q = scenario::yaml_list(d2), l = scenario::yaml_list(d1), c = scenario::yaml_list(it->p_BoBcd_B);
  for (YAML::Node* n : {&q, &l, &c}) n->SetStyle(YAML::EmitterStyle::Flow);
  set(root, path + ".quadratic_damping", q);
  set(root, path + ".linear_damping", l);
  if (!it->p_BoBcd_B.isZero(0.0)) set(root, path + ".center_of_drag", c);
  return part_text(root, header);
}

}  // namespace uwsim::app
