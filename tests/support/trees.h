// Test helpers for jointed systems: random but valid bodies and joints, and whole-system
// momentum and energy.
#pragma once

#include <random>
#include <string>

#include "dynamics/kinematics.h"
#include "support/simulate.h"

namespace uwsim::test {

class RandomBodies {
 public:
  explicit RandomBodies(unsigned seed) : rng_(seed) {}

  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  Eigen::Vector3d vec3(double scale) { return Eigen::Vector3d(uniform(-scale, scale), uniform(-scale, scale), uniform(-scale, scale)); }

  // A body with every hydrodynamic term present: full SPD inertia and added mass, damping,
  // CG/CB/centre-of-drag offsets, buoyancy near its weight.
  model::BodySpec body(const std::string& name, double mass) {
    model::BodySpec b;
    b.name = name;
    b.mass = mass;
    Eigen::Matrix3d L = Eigen::Matrix3d::Identity() * std::sqrt(0.02 * mass);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < i; ++j) L(i, j) = uniform(-0.3, 0.3) * L(i, i);
    b.inertia_Bcm_B = L * L.transpose();
    b.p_BoBcm_B = vec3(0.05);
    b.p_BoBcb_B = vec3(0.05);
    b.p_BoBcd_B = vec3(0.05);
    b.volume = uniform(0.8, 1.2) * mass / 1000.0;
    Eigen::Matrix<double, 6, 6> A = Eigen::Matrix<double, 6, 6>::Zero();
    for (int i = 0; i < 6; ++i) {
      A(i, i) = (i < 3 ? 0.5 * mass : 0.02 * mass) * uniform(0.5, 1.5);
      for (int j = 0; j < i; ++j) A(i, j) = uniform(-0.1, 0.1) * A(j, j);
    }
    b.added_mass_B = A * A.transpose() / A.diagonal().maxCoeff();
    for (int i = 0; i < 6; ++i) {
      b.linear_damping[i] = uniform(0.0, 2.0) * (i < 3 ? mass : 0.05 * mass);
      b.quadratic_damping[i] = uniform(0.0, 5.0) * (i < 3 ? mass : 0.05 * mass);
    }
    return b;
  }

  // A joint of the given type with a random placement in one of the three notations.
  model::JointSpec joint(const std::string& name, model::JointType type, const std::string& parent,
                            const std::string& child, int notation) {
    model::JointSpec j;
    j.name = name;
    j.type = type;
    j.parent = parent;
    j.child = child;
    using Kind = model::JointPlacementSpec::Kind;
    j.placement.kind = notation == 0 ? Kind::origin : notation == 1 ? Kind::dh : Kind::mdh;
    j.placement.xyz = vec3(0.2);
    j.placement.rpy = vec3(1.0);
    j.placement.axis = vec3(1.0).normalized();
    j.placement.theta = uniform(-1, 1), j.placement.d = uniform(-0.1, 0.1);
    j.placement.a = uniform(0, 0.2), j.placement.alpha = uniform(-1.5, 1.5), j.placement.r = uniform(-0.1, 0.1);
    j.placement.mount_xyz = notation == 2 ? vec3(0.1) : Eigen::Vector3d::Zero();
    j.damping = uniform(0.0, 0.1);
    j.effort = uniform(-0.5, 0.5);
    return j;
  }

 private:
  std::mt19937 rng_;
};

// Total spatial momentum of all bodies about the world origin, in world axes: Σ ᵂXᵀ_B (M_B V_B).
inline spatial::Vec6 total_momentum(const dynamics::Model& model, const std::vector<double>& x) {
  dynamics::Workspace ws(model);
  dynamics::compute_kinematics(model, x.data(), ws);
  spatial::Vec6 h = spatial::Vec6::Zero();
  for (std::size_t b = 0; b < model.bodies.size(); ++b)
    h += spatial::force_to_parent(ws.bodies[b].X_WB, model.bodies[b].M_B * ws.bodies[b].motion.V_WB_B);
  return h;
}

// Kinetic energy of bodies and entrained water: ½ Σ Vᵀ (M_RB + M_A) V.
inline double kinetic_energy(const dynamics::Model& model, const std::vector<double>& x) {
  dynamics::Workspace ws(model);
  dynamics::compute_kinematics(model, x.data(), ws);
  double T = 0.0;
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const spatial::Vec6& V = ws.bodies[b].motion.V_WB_B;
    T += 0.5 * V.dot(model.bodies[b].M_B * V);
  }
  return T;
}

}  // namespace uwsim::test
