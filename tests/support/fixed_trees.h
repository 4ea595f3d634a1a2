// Test helpers for identification: a random fixed-base forest with both kinds of motor, and
// what its joints transmit by the model's own inverse dynamics.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "analysis/regressor.h"
#include "dynamics/pipeline.h"
#include "dynamics/rnea.h"
#include "support/trees.h"

namespace uwsim::test {

using JT = model::JointType;

// A branched arm on the world (revolute, prismatic, fixed; all three placement notations), a
// gear motor on its first joint and a ball-screw lever on a branch, and a second one-link tree.
inline scenario::Scenario random_fixed_forest(test::RandomBodies& rnd, bool fluid) {
  scenario::Scenario s = test::scenario_with({}, 1.0);
  s.environment.current_W = fluid ? rnd.vec3(0.3) : Eigen::Vector3d::Zero();
  s.environment.water_density = fluid ? 1000.0 : 0.0;
  s.bodies = {rnd.body("b1", 0.8), rnd.body("b2", 0.5), rnd.body("b3", 0.3), rnd.body("b4", 0.4), rnd.body("tool", 0.2),
              rnd.body("c1", 1.0)};
  if (!fluid)
    for (auto& b : s.bodies) b.added_mass_B.setZero(), b.linear_damping.setZero(), b.quadratic_damping.setZero();
  s.joints = {rnd.joint("k1", JT::revolute, "world", "b1", 2), rnd.joint("k2", JT::prismatic, "b1", "b2", 0),
              rnd.joint("k3", JT::revolute, "b2", "b3", 1),    rnd.joint("k4", JT::revolute, "b1", "b4", 0),
              rnd.joint("k5", JT::fixed, "b3", "tool", 2),     rnd.joint("m1", JT::revolute, "world", "c1", 1)};
  s.joints[4].damping = s.joints[4].effort = 0.0;
  for (auto& j : s.joints) j.friction = j.type == JT::fixed ? 0.0 : rnd.uniform(0.0, 0.3);
  auto& gear = s.joints[0].actuator;
  gear.kind = actuation::JointActuatorKind::gear_motor;
  gear.has_input = true;
  gear.motor = {0.05, 80.0, 3e-6, 2e-6, 1e-3};
  auto& lever = s.joints[3].actuator;
  lever.kind = actuation::JointActuatorKind::linear_actuator;
  lever.has_input = true;
  lever.linear.motor = {0.03, 6.0, 8e-6, 4e-6, 2e-3};
  lever.linear.lever = {0.3, 0.06, 1.4, 0.002};
  lever.linear.nut_mass = 0.3;
  lever.linear.screw_viscous_friction = 40.0;
  lever.linear.screw_dry_friction = 8.0;
  s.joints[3].limits.lower = -0.8, s.joints[3].limits.upper = 0.9;  // θ = 1.4 + q within (0, π)
  return s;
}

inline double sign(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }

// Everything the joints transmit at (q, q̇, q̈) by the model's own formulation: inverse dynamics
// (bodies, fluid, weight, motor armature and bias) plus the joint and motor friction.
inline Eigen::VectorXd transmitted(const dynamics::Model& model, const analysis::Regressor& reg, const std::vector<double>& q,
                            const std::vector<double>& qd, const std::vector<double>& qdd) {
  std::vector<double> x(static_cast<std::size_t>(model.state_size()), 0.0);
  Eigen::VectorXd vdot = Eigen::VectorXd::Zero(model.nv);
  for (int r = 0; r < reg.rows(); ++r) {
    const dynamics::Body& b = model.bodies[static_cast<std::size_t>(reg.joints()[static_cast<std::size_t>(r)])];
    x[static_cast<std::size_t>(b.q_offset)] = q[static_cast<std::size_t>(r)];
    x[static_cast<std::size_t>(b.v_offset)] = qd[static_cast<std::size_t>(r)];
    vdot[b.v_offset - model.nq] = qdd[static_cast<std::size_t>(r)];
  }
  dynamics::Workspace ws(model);
  dynamics::compute_kinematics_and_forces(model, 0.3, x.data(), ws);
  const Eigen::VectorXd tau_v = dynamics::inverse_dynamics(model, ws, vdot);
  Eigen::VectorXd tau(reg.rows());
  for (int r = 0; r < reg.rows(); ++r) {
    const auto ru = static_cast<std::size_t>(r);
    const dynamics::Body& b = model.bodies[static_cast<std::size_t>(reg.joints()[ru])];
    const actuation::JointActuation a = b.joint.actuator.actuation(0.0, q[ru], qd[ru]);
    tau[r] = tau_v[b.v_offset - model.nq] + (b.joint.damping + a.viscous) * qd[ru] + (b.joint.friction + a.coulomb) * sign(qd[ru]);
  }
  return tau;
}

// What a rig would record at (q, q̇, q̈): motor currents where there is a motor, else efforts.
inline std::vector<double> drive_at(const dynamics::Model& model, const analysis::Regressor& reg, const std::vector<double>& q,
                             const std::vector<double>& qd, const std::vector<double>& qdd) {
  const Eigen::VectorXd tau = transmitted(model, reg, q, qd, qdd);
  std::vector<double> out(q.size());
  for (int r = 0; r < reg.rows(); ++r) {
    const auto ru = static_cast<std::size_t>(r);
    const dynamics::Joint& j = model.bodies[static_cast<std::size_t>(reg.joints()[ru])].joint;
    out[ru] = reg.has_motor(r) ? (tau[r] - j.effort) / reg.torque_per_ampere(r, q[ru]) : tau[r];
  }
  return out;
}

}  // namespace uwsim::test
