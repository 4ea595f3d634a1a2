// The variables of the `trim` block (analysis/trim_spec.h) resolved against a model: where
// each one's value lives (the state x or the channels' values u) and how its rate is read from
// ẋ. Roll, pitch and yaw are ZYX Euler angles of the body's quaternion, with the Euler rates
// [Fossen2011 eq. 2.29]
//   φ̇ = p + (q sin φ + r cos φ) tan θ,   θ̇ = q cos φ − r sin φ,   ψ̇ = (q sin φ + r cos φ) / cos θ
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "dynamics/controller_set.h"
#include "dynamics/model.h"
#include "analysis/trim_spec.h"

namespace uwsim::analysis {

struct Variable {
  analysis::VariableRef ref;
  enum class Place { state, euler, channel } place = Place::state;
  int index = 0;       // state: its component of x; euler: the body's q_offset; channel: its index
  int axis = 0;        // euler: 0 roll, 1 pitch, 2 yaw
  int rate_index = 0;  // state: the component of ẋ that is its rate; euler: the body's v_offset
  std::string unit, rate_unit;

  std::string name() const { return ref.text(); }
  double value(const double* x, const Eigen::VectorXd& u) const;
  // The value's time derivative at (x, ẋ); not for channels.
  double rate(const double* x, const double* xdot) const;
};

// Returns nothing, with the reason in `why`, if `ref` names nothing in the model that has it.
std::optional<Variable> resolve(const dynamics::Model& model, const analysis::VariableRef& ref, std::string& why);

// The steady set when the scenario gives none: every free body's u v w p q r, roll and pitch;
// every revolute and prismatic joint's position and velocity; every thruster state.
std::vector<analysis::VariableRef> default_steady(const dynamics::Model& model);

// Sets the variables to `values` on top of (x_start, u_start): additive components directly,
// each body's Euler angles together (those not set keep x_start's), channels in u.
void assign(const std::vector<Variable>& variables, const Eigen::VectorXd& values,
            const std::vector<double>& x_start, std::vector<double>& x, Eigen::VectorXd& u);

// The controllers' memory (dynamics/controller_set.h) as trim variables, always unknowns and
// always steady: "controllers.<c>.integral" (a pid's, in its output's unit), ".previous_output",
// ".previous_error", "controllers.<c>.integral_<axis>" (a pose_pd's, axis x y z roll pitch yaw:
// N or N m) and "controllers.<c>.setpoint.<joint>" (an IK's q_d). Its rate is what one sample
// changes it by over the sample period, (z⁺ − z)/T: 0 where the controller is at rest.
struct MemoryVariables {
  std::vector<dynamics::MemoryComponent> layout;
  std::vector<std::string> names, units;
  std::vector<double> periods;  // s, T of each component's controller
};
MemoryVariables controller_memory(const dynamics::Model& model);

}  // namespace uwsim::analysis
