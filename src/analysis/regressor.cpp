// References: see regressor.h; equation numbers (1)–(4) there.
#include "analysis/regressor.h"

#include <cmath>
#include <stdexcept>

#include "dynamics/kinematics.h"
#include "dynamics/pipeline.h"
#include "dynamics/rnea.h"

namespace uwsim::analysis {

using spatial::Mat3;
using spatial::Mat6;
using spatial::Vec3;
using spatial::Vec6;

namespace {

const char* kInertialNames[10] = {"m", "mx", "my", "mz", "XX", "XY", "XZ", "YY", "YZ", "ZZ"};
const char* kInertialUnits[10] = {"kg", "kg m", "kg m", "kg m", "kg m^2", "kg m^2", "kg m^2", "kg m^2", "kg m^2", "kg m^2"};

// I·w = L(w)·[XX XY XZ YY YZ ZZ]ᵀ.
Eigen::Matrix<double, 3, 6> inertia_map(const Vec3& w) {
  Eigen::Matrix<double, 3, 6> L;
  L << w.x(), w.y(), w.z(), 0.0, 0.0, 0.0,  //
      0.0, w.x(), 0.0, w.y(), w.z(), 0.0,   //
      0.0, 0.0, w.x(), 0.0, w.y(), w.z();
  return L;
}

double sign(double x) { return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : 0.0; }

// The joint's actuator with every parameter zero except one set to 1: (4)'s columns.
enum class Unit { inertia, viscous, coulomb };
actuation::JointActuator unit_actuator(const actuation::JointActuator& a, Unit which) {
  actuation::JointActuator u = a;
  actuation::GearMotor& m = u.kind == actuation::JointActuatorKind::gear_motor ? u.motor : u.linear.motor;
  m.rotor_inertia = which == Unit::inertia ? 1.0 : 0.0;
  m.viscous_friction = which == Unit::viscous ? 1.0 : 0.0;
  m.dry_friction = which == Unit::coulomb ? 1.0 : 0.0;
  u.linear.nut_mass = u.linear.screw_viscous_friction = u.linear.screw_dry_friction = 0.0;
  return u;
}

// A joint position where the transmission is defined: the middle of the range, or 0.
double reference_position(const dynamics::Joint& j) {
  if (std::isfinite(j.lower) && std::isfinite(j.upper)) return 0.5 * (j.lower + j.upper);
  if (std::isfinite(j.lower)) return j.lower;
  if (std::isfinite(j.upper)) return j.upper;
  return 0.0;
}

}  // namespace

Eigen::Matrix<double, 6, 10> body_regressor(const Vec6& V, const Vec6& A) {  // (1)
  const Vec3 w = spatial::angular(V), u = spatial::linear(V), alpha = spatial::angular(A), a = spatial::linear(A);
  const Mat3 Sw = spatial::skew(w), Su = spatial::skew(u);
  Eigen::Matrix<double, 6, 10> Y = Eigen::Matrix<double, 6, 10>::Zero();
  Y.block<3, 1>(3, 0) = a + w.cross(u);
  Y.block<3, 3>(0, 1) = -spatial::skew(a) - Sw * Su + Su * Sw;
  Y.block<3, 3>(3, 1) = spatial::skew(alpha) + Sw * Sw;
  Y.block<3, 6>(0, 4) = inertia_map(alpha) + Sw * inertia_map(w);
  return Y;
}

namespace {

dynamics::Model without_identified_parameters(const dynamics::Model& model) {
  dynamics::Model m = model;
  for (dynamics::Body& b : m.bodies) {
    b.M_RB_B.setZero();
    b.M_B = b.M_A_B;
    b.weight = 0.0;
    b.joint.actuator = actuation::JointActuator{};
  }
  return m;
}

const dynamics::Model& checked(const dynamics::Model& model) {
  for (const dynamics::Body& b : model.bodies)
    if (b.joint.type == dynamics::JointType::free)
      throw std::invalid_argument("body '" + b.name + "' is free-floating; identification needs every tree fixed to the world");
  if (!model.connectors.empty())
    throw std::invalid_argument("connector '" + model.connectors.front().name +
                                "' closes a loop; identification handles trees without connectors");
  return model;
}

}  // namespace

Regressor::Regressor(const dynamics::Model& model, RegressorOptions options)
    : model_(checked(model)), fluid_(without_identified_parameters(model)), options_(options), ws_(model_),
      fluid_ws_(fluid_), x_(static_cast<std::size_t>(model.state_size()), 0.0), vdot_(Eigen::VectorXd::Zero(model.nv)),
      rnea_f_(model.bodies.size()), tau_fluid_(static_cast<std::size_t>(model.nv)), A_(model.bodies.size()) {
  const std::size_t n = model.bodies.size();
  row_of_body_.assign(n, -1);
  first_inertial_.assign(n, -1);
  for (std::size_t b = 0; b < n; ++b) {
    first_inertial_[b] = static_cast<int>(parameters_.size());
    for (int k = 0; k < 10; ++k)
      parameters_.push_back({model.bodies[b].name + "." + kInertialNames[k], kInertialUnits[k], ParameterKind::inertial,
                             static_cast<int>(b), k});
    if (model.bodies[b].joint.dof() == 1) {
      row_of_body_[b] = static_cast<int>(joints_.size());
      joints_.push_back(static_cast<int>(b));
    }
  }
  for (int b : joints_) {
    const dynamics::Joint& j = model.bodies[static_cast<std::size_t>(b)].joint;
    const bool prismatic = j.type == dynamics::JointType::prismatic;
    first_joint_.push_back(options.joint_friction ? static_cast<int>(parameters_.size()) : -1);
    if (options.joint_friction) {
      parameters_.push_back({j.name + ".fv", prismatic ? "N s/m" : "N m s/rad", ParameterKind::joint_viscous, b, 0});
      parameters_.push_back({j.name + ".fc", prismatic ? "N" : "N m", ParameterKind::joint_coulomb, b, 0});
    }
    const bool motor = options.actuators && j.actuator.has_motor();
    first_motor_.push_back(motor ? static_cast<int>(parameters_.size()) : -1);
    if (motor) {
      parameters_.push_back({j.name + ".Jm", "kg m^2", ParameterKind::motor_inertia, b, 0});
      parameters_.push_back({j.name + ".fvm", "N m s/rad", ParameterKind::motor_viscous, b, 0});
      parameters_.push_back({j.name + ".fcm", "N m", ParameterKind::motor_coulomb, b, 0});
    }
  }
}

Eigen::VectorXd Regressor::model_values() const {
  Eigen::VectorXd theta(cols());
  for (int k = 0; k < cols(); ++k) {
    const Parameter& p = parameters_[static_cast<std::size_t>(k)];
    const dynamics::Body& body = model_.bodies[static_cast<std::size_t>(p.body)];
    const Mat6& M = body.M_RB_B;
    switch (p.kind) {
      case ParameterKind::inertial: {
        const double pi[10] = {M(3, 3), M(2, 4), M(0, 5), M(1, 3), M(0, 0), M(0, 1), M(0, 2), M(1, 1), M(1, 2), M(2, 2)};
        theta[k] = pi[p.component];
        break;
      }
      case ParameterKind::joint_viscous: theta[k] = body.joint.damping; break;
      case ParameterKind::joint_coulomb: theta[k] = body.joint.friction; break;
      default: {
        // The model's own actuator over the unit one at a valid position: the merged constant of (4).
        const actuation::JointActuator& a = body.joint.actuator;
        const double q = reference_position(body.joint);
        const actuation::JointActuation full = a.actuation(0.0, q, 0.0);
        if (p.kind == ParameterKind::motor_inertia)
          theta[k] = full.armature / unit_actuator(a, Unit::inertia).actuation(0.0, q, 0.0).armature;
        else if (p.kind == ParameterKind::motor_viscous)
          theta[k] = full.viscous / unit_actuator(a, Unit::viscous).actuation(0.0, q, 0.0).viscous;
        else
          theta[k] = full.coulomb / unit_actuator(a, Unit::coulomb).actuation(0.0, q, 0.0).coulomb;
      }
    }
  }
  return theta;
}

std::vector<int> Regressor::preferred_order() const {
  static const int kWithinBody[10] = {4, 5, 6, 8, 9, 1, 2, 7, 3, 0};  // XX XY XZ YZ ZZ mx my, YY mz m
  std::vector<int> order;
  for (int first : first_inertial_)
    for (int k : kWithinBody) order.push_back(first + k);
  for (int k = static_cast<int>(order.size()); k < cols(); ++k) order.push_back(k);
  return order;
}

bool Regressor::has_motor(int row) const {
  return model_.bodies[static_cast<std::size_t>(joints_[static_cast<std::size_t>(row)])].joint.actuator.has_motor();
}

double Regressor::torque_per_ampere(int row, double q) const {
  return model_.bodies[static_cast<std::size_t>(joints_[static_cast<std::size_t>(row)])].joint.actuator.torque_per_ampere(q);
}

void Regressor::evaluate(double t, const double* q, const double* qd, const double* qdd, Eigen::Ref<Eigen::MatrixXd> Phi,
                         double* known) {
  for (int r = 0; r < rows(); ++r) {
    const dynamics::Body& body = model_.bodies[static_cast<std::size_t>(joints_[static_cast<std::size_t>(r)])];
    x_[static_cast<std::size_t>(body.q_offset)] = q[r];
    x_[static_cast<std::size_t>(body.v_offset)] = qd[r];
    vdot_[body.v_offset - model_.nq] = qdd[r];
  }
  dynamics::compute_kinematics(model_, x_.data(), ws_);
  Phi.setZero();
  // Accelerations, root to leaves, with −g for the weight: A = ᴮX_P A_P + c + S q̈.
  const Vec6 A_world = spatial::make_spatial(Vec3::Zero(), Vec3(0.0, 0.0, -model_.environment.gravity));
  for (std::size_t b = 0; b < model_.bodies.size(); ++b) {
    const dynamics::Body& body = model_.bodies[b];
    const dynamics::BodyState& s = ws_.bodies[b];
    const Vec6& A_parent = body.parent >= 0 ? A_[static_cast<std::size_t>(body.parent)] : A_world;
    A_[b] = spatial::motion_to_child(s.X_PB, A_parent) + s.c;
    if (row_of_body_[b] >= 0) A_[b] += body.joint.S_C * qdd[row_of_body_[b]];
  }
  // (2): each body's Y carried up its chain of ancestors.
  for (std::size_t b = 0; b < model_.bodies.size(); ++b) {
    Eigen::Matrix<double, 6, 10> F = body_regressor(ws_.bodies[b].motion.V_WB_B, A_[b]);
    for (int j = static_cast<int>(b); j >= 0; j = model_.bodies[static_cast<std::size_t>(j)].parent) {
      const auto ju = static_cast<std::size_t>(j);
      if (row_of_body_[ju] >= 0)
        Phi.block<1, 10>(row_of_body_[ju], first_inertial_[b]) += model_.bodies[ju].joint.S_C.transpose() * F;
      F = spatial::motion_transform_to_child(ws_.bodies[ju].X_PB).transpose() * F;
    }
  }
  for (int r = 0; r < rows(); ++r) {
    const dynamics::Joint& joint = model_.bodies[static_cast<std::size_t>(joints_[static_cast<std::size_t>(r)])].joint;
    if (const int c = first_joint_[static_cast<std::size_t>(r)]; c >= 0) {  // (3)
      Phi(r, c) = qd[r];
      Phi(r, c + 1) = sign(qd[r]);
    }
    if (const int c = first_motor_[static_cast<std::size_t>(r)]; c >= 0) {  // (4)
      const actuation::JointActuation J = unit_actuator(joint.actuator, Unit::inertia).actuation(0.0, q[r], qd[r]);
      Phi(r, c) = J.armature * qdd[r] + J.bias;
      Phi(r, c + 1) = unit_actuator(joint.actuator, Unit::viscous).actuation(0.0, q[r], qd[r]).viscous * qd[r];
      Phi(r, c + 2) = unit_actuator(joint.actuator, Unit::coulomb).actuation(0.0, q[r], qd[r]).coulomb * sign(qd[r]);
    }
  }
  // τ_known: inverse dynamics of what is left without θ.
  dynamics::compute_kinematics_and_forces(fluid_, t, t, x_.data(), fluid_ws_);
  dynamics::inverse_dynamics(fluid_, fluid_ws_, vdot_.data(), rnea_f_.data(), tau_fluid_.data());
  for (int r = 0; r < rows(); ++r)
    known[r] = tau_fluid_[static_cast<std::size_t>(model_.bodies[static_cast<std::size_t>(joints_[static_cast<std::size_t>(r)])].v_offset - model_.nq)];
}

}  // namespace uwsim::analysis
