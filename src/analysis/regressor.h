// The dynamic identification model of a fixed-base tree: joint efforts as a linear function of
// the model's dynamic parameters, Φ(q, q̇, q̈)·θ + τ_known = τ, built from the model's own
// kinematics for any tree (never written out per arm).
// References: [Leborne2018] eq. 1, 7–15 (arm and actuators, linear in their parameters);
// Atkeson, An & Hollerbach 1986 and Khalil & Dombre 2002 Ch. 12 (the inertial parameters a
// rigid body's wrench is linear in); [RBDA] Sec. 2.13 and Table 5.1 (spatial inertia, the
// recursive Newton–Euler passes whose backward pass is used here).
//
// Parameters θ, in this order:
//   per body (model order), 10 inertial parameters about its origin Bo in its frame B:
//     π = [m, m·cx, m·cy, m·cz, XX, XY, XZ, YY, YZ, ZZ]   (I_Bo = I_Bcm − m S(c)², tensor entries)
//   per revolute/prismatic joint, if joint_friction: viscous f_v (·q̇) and Coulomb f_c (·sign q̇)
//   per joint with a gear_motor or linear_actuator, if actuators: the motor-shaft inertia J,
//     viscous f_vm and dry f_cm of [Leborne2018] eq. 2 and eq. 16–17 (the rotating parts of the
//     screw and the translating nut merged into the motor's, as the paper merges them)
// Efforts, per body B with velocity V = [ω; u] and acceleration A = [α; a] in B (A including
// the fictitious upward acceleration −g that stands for the weight):
//   f_B = I_B A + V ×* (I_B V) = Y(V, A) π_B                                                 (1)
//   Y = [ 0          −S(a) − S(ω)S(u) + S(u)S(ω)    L(α) + S(ω)L(ω) ]
//       [ a + ω × u   S(α) + S(ω)²                   0               ]
// with L(w) the 3×6 map I·w = L(w)[XX XY XZ YY YZ ZZ]ᵀ. A joint transmits what every body of
// its subtree needs: τ_j = S_jᵀ Σ_{B ∈ subtree(j)} ʲX*_B f_B, so the columns of π_B in row j are
// S_jᵀ ʲX*_B Y_B (the backward pass of RNEA applied to Y's columns).                            (2)
// Joint friction:  f_v·q̇ + f_c·sign(q̇).                                                      (3)
// Motors, with the transmission q̇_m = k1(q) q̇ of [Leborne2018] eq. 7 taken from the model's
// own actuator (actuation/joint_actuator.h) at unit parameters:
//   J·k1(k1 q̈ + k1' q̇²) + f_vm·k1² q̇ + f_cm·|k1| sign(q̇)                                       (4)
// For a gear motor k1 = N; for a linear actuator k1 = N(2π/p)L'(q), and J = J_m + m_nut/(N 2π/p)²,
// f_vm = f_v + f_vBS/(N 2π/p)², f_cm = f_s + f_sBS/(N 2π/p) (the values model_values() reads).
// Known part τ_known: whatever the model has besides θ — added mass and fluid forces, buoyancy,
// applied forces — by inverse dynamics (dynamics/rnea.h) on a copy of the model with every body's
// rigid-body inertia and weight and every actuator removed (inverse dynamics is additive in the
// bodies' inertias and forces). Zero for an arm in air. Joint limits, the regularisation of dry
// friction (tanh in the simulator, sign here) and the constant joint `effort` are not in Φ; the
// caller accounts for the effort.
// Preconditions: every tree hangs from the world (no free-floating body).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "dynamics/workspace.h"
#include "dynamics/model.h"

namespace uwsim::analysis {

enum class ParameterKind { inertial, joint_viscous, joint_coulomb, motor_inertia, motor_viscous, motor_coulomb };

struct Parameter {
  std::string name;   // "arm/link2.mx", "arm/joint2.fv", "arm/joint2.Jm"
  std::string units;
  ParameterKind kind = ParameterKind::inertial;
  int body = -1;      // the body (inertial), or the child body of the joint
  int component = 0;  // inertial: index into π
};

struct RegressorOptions {
  bool joint_friction = true;  // (3)
  bool actuators = true;       // (4): false gives the classical model without actuator dynamics
};

class Regressor {
 public:
  // Throws std::invalid_argument if a body is free-floating.
  Regressor(const dynamics::Model& model, RegressorOptions options);

  const std::vector<Parameter>& parameters() const { return parameters_; }
  // The child body of each row's joint: the revolute and prismatic joints, in model order.
  const std::vector<int>& joints() const { return joints_; }
  int rows() const { return static_cast<int>(joints_.size()); }
  int cols() const { return static_cast<int>(parameters_.size()); }
  const dynamics::Model& model() const { return model_; }

  // The columns in the order they should stand for base parameters (base_parameters.h): body
  // by body from the roots, each XX XY XZ YZ ZZ mx my before YY mz m (Khalil's regrouping keeps
  // the former and moves the latter into the parent), then joint friction, then the motors.
  std::vector<int> preferred_order() const;

  // θ of the model itself (its masses, inertias, friction and motor constants).
  Eigen::VectorXd model_values() const;

  // Φ (rows × cols) and τ_known (rows) at time t for joint positions, rates and accelerations
  // given per row.
  void evaluate(double t, const double* q, const double* qd, const double* qdd, Eigen::Ref<Eigen::MatrixXd> Phi,
                double* known);

  // K(q): the motor's torque per ampere (N m/A or N/A) of row r at position q; 1 without a motor.
  double torque_per_ampere(int row, double q) const;
  bool has_motor(int row) const;

 private:
  const dynamics::Model& model_;
  dynamics::Model fluid_;  // the model without rigid-body inertia, weight and actuators
  RegressorOptions options_;
  std::vector<Parameter> parameters_;
  std::vector<int> joints_;
  std::vector<int> row_of_body_;       // −1 for bodies without a 1-DOF joint
  std::vector<int> first_inertial_;    // column of π_B for body B
  std::vector<int> first_joint_;       // per row: column of f_v (or −1), then f_c
  std::vector<int> first_motor_;       // per row: column of J (or −1), then f_vm, f_cm
  dynamics::Workspace ws_, fluid_ws_;
  std::vector<double> x_;
  Eigen::VectorXd vdot_;
  std::vector<spatial::Vec6> rnea_f_;
  std::vector<double> tau_fluid_;
  std::vector<spatial::Vec6> A_;        // per body: acceleration with −g, body frame
};

// Y(V, A) of (1): the body's wrench I A + V ×* (I V) as Y·π, π ordered as above.
Eigen::Matrix<double, 6, 10> body_regressor(const spatial::Vec6& V, const spatial::Vec6& A);

}  // namespace uwsim::analysis
