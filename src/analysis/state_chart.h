// Minimal coordinates z of a model's state around a reference state x_ref (linearize.h).
//
// The state x = [q; v; a] (dynamics/model.h) holds each free body's attitude as a unit
// quaternion: 4 numbers for 3 degrees of freedom. z replaces it by a rotation vector, the
// attitude perturbation in body axes on the right of the reference:
//   q_WB = q_WB,ref ⊗ Exp(δθ),   Exp(δθ) = [cos(|δθ|/2), sin(|δθ|/2)·δθ/|δθ|]            (1)
// so R_WB = R_WB,ref·Exp([δθ]×): δθ turns the body about its own (reference) axes. Every other
// component is a difference from the reference: position in NED, joint positions, velocities,
// actuator states. z = 0 is x_ref. Per body, in model order (parents before children), in the
// Fossen order users read ([linear; angular], README "Frames"):
//   free body    bodies.<b>.north east down rot_x rot_y rot_z     then, after all positions,
//                bodies.<b>.u v w p q r
//   joint        joints.<j>.position                              then joints.<j>.velocity
//   thruster     thrusters.<t>.state (after all velocities)
// The rate of z along the model's flow, with ω_WB_B the body's angular velocity:
//   δθ̇ = J_r⁻¹(δθ)·ω,  J_r⁻¹(φ) = 1 + ½[φ]× + (1/|φ|² − (1 + cos|φ|)/(2|φ| sin|φ|))·[φ]×²   (2)
// (the inverse right Jacobian of SO(3), from Ṙ = R[ω]× with R = R_ref Exp([δθ]×)); every
// other component's rate is its component of ẋ. (2) makes ż = g(z) exact away from z = 0,
// so the Jacobian of g is right also where ẋ ≠ 0 (a state in mid-motion), not only at
// equilibria. Reference: [Sola2018] J. Solà, J. Deray, D. Atchuthan, "A micro Lie theory for
// state estimation in robotics", arXiv:1812.01537, 2018: the right Jacobian of SO(3) and its
// inverse (Sec. on the 3D rotation group).
#pragma once

#include <string>
#include <vector>

#include "dynamics/model.h"

namespace uwsim::analysis {

class StateChart {
 public:
  explicit StateChart(const dynamics::Model& model);

  int size() const { return static_cast<int>(coordinates_.size()); }
  int state_size() const { return state_size_; }
  // Components from here on are velocities and actuator states (their rates vanish in any
  // steady motion); before it, positions, attitudes and joint positions.
  int first_velocity() const { return first_velocity_; }
  // "bodies.rov.rot_y", "joints.arm/joint2.velocity", ...; and their units.
  const std::vector<std::string>& names() const { return names_; }
  const std::vector<std::string>& units() const { return units_; }
  // A scale of each component for finite-difference steps: 1, or |reference value| if larger.
  double scale(int i, const double* x_ref) const;

  // x = φ(x_ref, z)   (1)
  void retract(const double* x_ref, const double* z, double* x) const;
  // z = φ⁻¹(x_ref, x): the coordinates of x around x_ref (the rotation vector of
  // q_ref⁻¹ ⊗ q with |δθ| ≤ π).
  void local(const double* x_ref, const double* x, double* z) const;
  // ż at z from x = φ(x_ref, z) and ẋ = f(x)   (2)
  void rate(const double* z, const double* x, const double* xdot, double* zdot) const;

 private:
  enum class Kind { additive, rotation };
  struct Coordinate {
    Kind kind = Kind::additive;
    int x_index = 0;   // additive: its component of x; rotation: the body's q_offset
    int axis = 0;      // rotation: 0, 1, 2 for rot_x, rot_y, rot_z
    bool velocity = false;  // a velocity or actuator state (scaled by its reference value)
  };
  std::vector<Coordinate> coordinates_;
  std::vector<std::string> names_, units_;
  std::vector<int> rotation_starts_;  // z index of each free body's rot_x
  std::vector<int> rotation_bodies_;  // that body's q_offset (quaternion at +3) and v_offset
  std::vector<int> rotation_velocities_;
  int state_size_ = 0;
  int first_velocity_ = 0;
};

}  // namespace uwsim::analysis
