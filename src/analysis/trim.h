// Equilibria of the full model (`sim trim`): the values of chosen unknowns — attitudes,
// velocities, joint positions, channel values — at which chosen rates vanish,
//   r(y) = [rate of each steady variable at (x(y), u(y))] = 0,
// with ẋ = f(t, x, u) the whole pipeline (evaluator.h) at the trim block's time. Everything
// not among the unknowns keeps the scenario's initial value. Thruster spin-up states are
// always unknowns (their equilibrium is the commanded value) and their rates always steady.
//
// Solver: damped Newton of Levenberg–Marquardt type with Marquardt's column scaling
// [Moré 1978, "The Levenberg–Marquardt algorithm: implementation and theory", LNM 630;
// Nocedal & Wright 2006, Sec. 10.3]: each step minimises
//   ‖J δ + r‖² + μ ‖D δ‖²,   D = diag(‖column j of J‖)                                     (1)
// with J = ∂r/∂y by central differences (finite_difference.h); a step is taken if it lowers
// ‖r‖ (then μ /= 3), else μ *= 4 and the step is retried. It stops
//   - converged: max |r_i| ≤ tolerance (SI units of each rate);
//   - no equilibrium: ‖r‖ stops decreasing (μ beyond 1e12, or the scaled gradient
//     ‖D⁻¹Jᵀr‖ below 1e-12·‖r‖: a local minimum of ‖r‖ that is not a zero), or the iteration
//     limit. The least residual found is reported, with the rate that stays furthest from 0:
//     a heavy vehicle with its heave speed fixed and no thrust never balances, whatever its
//     attitude.
// Directions of y along which r does not change at the solution (a singular value of J·D⁻¹
// below 1e-8 of the largest) are counted: the equilibrium is then not isolated (a yaw angle
// that nothing depends on, a joint whose axis is vertical), and the solver's values along
// them are only the start's.
//
// Controllers: the plant under its sampled controllers. A controller holds its output between
// samples and carries a memory z from one sample to the next (dynamics/controller_set.h: a PID's
// integral, its torque filter's previous output, a pose_pd's integrals, an IK's q_d). The
// closed loop is at rest where the plant's rates vanish under the held outputs and a sample
// taken there leaves z as it was — then every later sample gives the same output. So z joins
// the unknowns, a sample S at (x, z) gives the held outputs h(x, z) and z⁺(x, z), and
//   r(y, z) = [rate of each steady variable at (x(y), u(y)) with h(x, z) held;  (z⁺ − z)/T]
// (T each controller's period): the fixed point of the sampled closed loop, not its outputs as
// free unknowns. At it an integrator's error is zero (K_I·T·e = 0) unless its clamping
// anti-windup holds it saturated, which is a rest of the closed loop too; a torque filter's
// output is its own fixed point τ = aτ + (1 − a)τ_ff + τ_PID; and the held outputs are the
// controllers' own law at the equilibrium, so the result is what a run started there keeps.
// Refused (TrimError): task_priority, line_of_sight and base_control, whose path, transport and
// reference states are not exposed; and unknowns that move a body joined by a connector (moving
// one body of a connected system breaks its connectors).
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/evaluator.h"
#include "dynamics/model.h"
#include "analysis/trim_spec.h"

namespace uwsim::analysis {

class TrimError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TrimProblem {
  std::vector<analysis::VariableRef> unknowns;
  std::vector<analysis::VariableRef> steady;  // empty: default_steady (variables.h)
  double time = 0.0;
  double tolerance = 1e-9;
  int max_iterations = 200;
  const std::atomic<bool>* stop = nullptr;  // polled in the iterations: throws Interrupted (finite_difference.h)
};

struct TrimResult {
  bool converged = false;
  int iterations = 0;
  std::vector<double> x;        // the state at the solution (or at the least residual found)
  Eigen::VectorXd u;            // every channel's value there
  std::vector<std::string> unknown_names, unknown_units;
  Eigen::VectorXd start, solution;
  std::vector<std::string> residual_names, residual_units;
  Eigen::VectorXd residual;     // the rate of each steady variable
  int free_directions = 0;      // see above
  std::string message;          // why it stopped
  HeldControls held;            // what the controllers hold at the solution (empty without any)
  std::vector<std::string> controller_names;  // of held.signals, in the model's order
};

// Throws TrimError for a problem it cannot pose (names that resolve to nothing, controllers of
// the kinds above, connected bodies among the unknowns, no unknowns).
TrimResult trim(const dynamics::Model& model, const TrimProblem& problem);

// The model with each channel that was an unknown made a constant at its trimmed value, so
// that it sees the trim's inputs (what `sim linearize --trim` linearises).
dynamics::Model with_trimmed_inputs(const dynamics::Model& model, const TrimResult& result);

}  // namespace uwsim::analysis
