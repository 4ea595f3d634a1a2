// References: see state_chart.h.
#include "analysis/state_chart.h"

#include <algorithm>
#include <cmath>

#include "spatial/rotation.h"

namespace uwsim::analysis {

using spatial::Quat;
using spatial::Vec3;

namespace {

// J_r⁻¹(φ) ω of (2).
Vec3 inverse_right_jacobian_times(const Vec3& phi, const Vec3& w) {
  const double a = phi.norm();
  const Vec3 phi_w = phi.cross(w);
  // 1/a² − (1 + cos a)/(2a sin a) → 1/12 + a²/720 for small a
  const double c = a < 1e-4 ? 1.0 / 12.0 + a * a / 720.0
                            : 1.0 / (a * a) - (1.0 + std::cos(a)) / (2.0 * a * std::sin(a));
  return w + 0.5 * phi_w + c * phi.cross(phi_w);
}

}  // namespace

StateChart::StateChart(const dynamics::Model& model) : state_size_(model.state_size()) {
  auto add = [&](Kind kind, int x_index, int axis, bool velocity, std::string name, std::string unit) {
    coordinates_.push_back({kind, x_index, axis, velocity});
    names_.push_back(std::move(name));
    units_.push_back(std::move(unit));
  };
  for (const dynamics::Body& body : model.bodies) {
    const std::string prefix = "bodies." + body.name + ".";
    if (body.joint.type == dynamics::JointType::free) {
      const char* linear[] = {"north", "east", "down"};
      for (int i = 0; i < 3; ++i) add(Kind::additive, body.q_offset + i, 0, false, prefix + linear[i], "m");
      rotation_starts_.push_back(size());
      rotation_bodies_.push_back(body.q_offset);
      rotation_velocities_.push_back(body.v_offset);
      const char* angular[] = {"rot_x", "rot_y", "rot_z"};
      for (int i = 0; i < 3; ++i) add(Kind::rotation, body.q_offset, i, false, prefix + angular[i], "rad");
    } else if (body.joint.dof() == 1) {
      const bool revolute = body.joint.type == dynamics::JointType::revolute;
      add(Kind::additive, body.q_offset, 0, false, "joints." + body.joint.name + ".position", revolute ? "rad" : "m");
    }
  }
  first_velocity_ = size();
  for (const dynamics::Body& body : model.bodies) {
    if (body.joint.type == dynamics::JointType::free) {
      // x holds V_WB_B = [ω; v]; Fossen order is [u v w p q r].
      const char* names[] = {"u", "v", "w", "p", "q", "r"};
      const int offsets[] = {3, 4, 5, 0, 1, 2};
      for (int i = 0; i < 6; ++i)
        add(Kind::additive, body.v_offset + offsets[i], 0, true, "bodies." + body.name + "." + names[i],
            i < 3 ? "m/s" : "rad/s");
    } else if (body.joint.dof() == 1) {
      const bool revolute = body.joint.type == dynamics::JointType::revolute;
      add(Kind::additive, body.v_offset, 0, true, "joints." + body.joint.name + ".velocity", revolute ? "rad/s" : "m/s");
    }
  }
  for (const actuation::Thruster& t : model.thrusters) {
    if (t.state_index < 0) continue;
    add(Kind::additive, t.state_index, 0, true, "thrusters." + t.name + ".state", t.has_shaft_speed() ? "rad/s" : "N");
  }
}

double StateChart::scale(int i, const double* x_ref) const {
  const Coordinate& c = coordinates_[static_cast<std::size_t>(i)];
  return c.velocity ? std::max(1.0, std::abs(x_ref[c.x_index])) : 1.0;
}

void StateChart::retract(const double* x_ref, const double* z, double* x) const {
  std::copy(x_ref, x_ref + state_size_, x);
  for (std::size_t i = 0; i < coordinates_.size(); ++i) {
    const Coordinate& c = coordinates_[i];
    if (c.kind == Kind::additive) x[c.x_index] = x_ref[c.x_index] + z[i];
  }
  for (std::size_t b = 0; b < rotation_starts_.size(); ++b) {
    const int q = rotation_bodies_[b] + 3;
    const Quat q_ref = Quat(x_ref[q], x_ref[q + 1], x_ref[q + 2], x_ref[q + 3]).normalized();
    const Vec3 phi(z[rotation_starts_[b]], z[rotation_starts_[b] + 1], z[rotation_starts_[b] + 2]);
    Eigen::Map<Quat>(x + q) = spatial::quaternion_product(q_ref, spatial::quaternion_from_rotation_vector(phi));
  }
}

void StateChart::local(const double* x_ref, const double* x, double* z) const {
  for (std::size_t i = 0; i < coordinates_.size(); ++i) {
    const Coordinate& c = coordinates_[i];
    if (c.kind == Kind::additive) z[i] = x[c.x_index] - x_ref[c.x_index];
  }
  for (std::size_t b = 0; b < rotation_starts_.size(); ++b) {
    const int q = rotation_bodies_[b] + 3;
    const Quat q_ref = Quat(x_ref[q], x_ref[q + 1], x_ref[q + 2], x_ref[q + 3]).normalized();
    const Quat q_x = Quat(x[q], x[q + 1], x[q + 2], x[q + 3]).normalized();
    Eigen::Map<Vec3>(z + rotation_starts_[b]) = spatial::rotation_vector_from_quaternion(spatial::quaternion_product(spatial::quaternion_conjugate(q_ref), q_x));
  }
}

void StateChart::rate(const double* z, const double* x, const double* xdot, double* zdot) const {
  for (std::size_t i = 0; i < coordinates_.size(); ++i) {
    const Coordinate& c = coordinates_[i];
    if (c.kind == Kind::additive) zdot[i] = xdot[c.x_index];
  }
  for (std::size_t b = 0; b < rotation_starts_.size(); ++b) {
    const Vec3 phi(z[rotation_starts_[b]], z[rotation_starts_[b] + 1], z[rotation_starts_[b] + 2]);
    const Vec3 w = Eigen::Map<const Vec3>(x + rotation_velocities_[b]);  // ω_WB_B: V_WB_B = [ω; v]
    Eigen::Map<Vec3>(zdot + rotation_starts_[b]) = inverse_right_jacobian_times(phi, w);
  }
}

}  // namespace uwsim::analysis
