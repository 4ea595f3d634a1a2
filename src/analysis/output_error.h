// Output-error identification: the parameters θ of a model whose simulated outputs y(θ) should
// match measured ones, by a damped Gauss–Newton (Levenberg–Marquardt) method on the weighted
// residuals r(θ) = W (y_measured − y(θ)). What `sim identify --vehicle` solves
// (app/identify_vehicle_command.h); the simulation that makes y(θ) is the caller's (this layer
// sits below the integrator), handed in as a function.
// References: Jategaonkar 2006, "Flight Vehicle System Identification", Ch. 4 (the output-error
// method: Gauss–Newton on the residuals, the noise covariance R estimated from them, the
// Cramér–Rao bound (JᵀR⁻¹J)⁻¹ as the parameters' covariance); Marquardt 1963 (the damping
// λ·diag(JᵀJ)); Nocedal & Wright 2006 Sec. 10.3.
//
//   1. Weights. The residual elements belong to groups (one per output: u, v, …, roll, …).
//      W holds 1/σ_g for group g, σ_g the RMS of the group's residuals at the current θ
//      (not below the group's noise floor): R estimated diagonal from the residuals
//      (Jategaonkar Sec. 4.4, the relaxation method: R fixed while θ is solved for, then
//      estimated again). `reweightings` rounds of (weights, solve).
//   2. Solve with W fixed: J the Jacobian of r by central differences, step h_k =
//      relative_step·scale_k (forward or backward next to a bound); the step δ from
//      (JᵀJ + λ D) δ = −Jᵀr, D = diag(JᵀJ) (Marquardt's scaling, floored so that a column
//      of zeros gets a finite step); θ + δ clamped to the bounds; accepted when the cost ½‖r‖²
//      falls (λ /= 3), else λ *= 4 and tried again. Converged when a step accepted changes no θ_k
//      by more than `tolerance`·scale_k, or the cost by less than `tolerance`² relatively, or
//      when λ passes 1e12 (no step however short lowers the cost); not converged after
//      `max_iterations` accepted steps.
//   3. Statistics at the estimate, on the linearised problem J δ ≈ −r (identification.h's
//      solve_least_squares): σ̂² = ‖r‖²/(m − rank), cov = σ̂²(JᵀJ)⁺, the rank of J with
//      unit-norm columns and the groups of parameters it does not determine, cond(J) with and
//      without that scaling; correlations cov_kl/(σ_k σ_l).
//      The standard deviations assume independent residuals; residuals correlated in time
//      (binned or filtered samples, model error) make them optimistic (Jategaonkar Sec. 4.19).
//   4. A parameter is reported as not identified when it is in an undetermined group, or when
//      its standard deviation exceeds its scale and its estimate: the data cannot tell it from
//      0 or from twice its size.
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <functional>
#include <stdexcept>
#include <vector>

#include "analysis/identification.h"

namespace uwsim::analysis {

struct OutputErrorProblem {
  Eigen::VectorXd initial;       // θ₀, within the bounds
  Eigen::VectorXd scale;         // a typical magnitude of each θ_k (> 0): steps, ends, step 4
  Eigen::VectorXd lower, upper;  // bounds (±inf: none)
  std::vector<int> group;        // per residual element: its group, 0 … noise_floor.size() − 1
  Eigen::VectorXd noise_floor;   // per group: the smallest σ_g the weights may take
  // Writes the unweighted residuals y_measured − y(θ) (always group.size() of them); returns
  // false when the model cannot be evaluated at θ (it diverged). May throw.
  std::function<bool(const Eigen::VectorXd& theta, Eigen::VectorXd& residual)> residual;
  const std::atomic<bool>* stop = nullptr;  // polled before each evaluation
};

struct OutputErrorSettings {
  int max_iterations = 30;     // accepted steps, per round of weights
  int reweightings = 2;        // rounds of step 1
  double relative_step = 1e-4; // of scale_k, for the differences
  double tolerance = 1e-5;
};

struct OutputErrorFit {
  Eigen::VectorXd estimate, std_dev;
  Eigen::MatrixXd covariance, correlation;
  Eigen::VectorXd group_rms;    // per group: RMS of the unweighted residuals at the estimate
  Eigen::VectorXd initial_rms;  // the same at θ₀
  double sigma = 0.0;           // σ̂ of the weighted residuals (about 1 when the weights are right)
  int rank = 0;
  double condition = 0.0, scaled_condition = 0.0;
  std::vector<std::vector<int>> undetermined;  // groups of parameter indices (step 3)
  std::vector<bool> identified;                // step 4
  std::vector<bool> at_bound;
  int iterations = 0, evaluations = 0;
  bool converged = false;
  std::size_t residuals = 0;
};

// Asked to stop (problem.stop) during the fit.
class OutputErrorInterrupted : public std::runtime_error {
 public:
  OutputErrorInterrupted() : std::runtime_error("interrupted") {}
};

// Throws std::invalid_argument when the model cannot be evaluated at θ₀ or the sizes disagree.
OutputErrorFit fit_output_error(const OutputErrorProblem& problem, const OutputErrorSettings& settings = {});

}  // namespace uwsim::analysis
