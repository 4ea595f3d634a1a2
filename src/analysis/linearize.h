// The linear model of a scenario at an operating point:
//   ż = A z + B δu
// z the minimal coordinates of the state around the operating state (state_chart.h), δu the
// change of the input channels' values from theirs at the operating time (evaluator.h).
// A = ∂g/∂z and B = ∂g/∂u of g(z, u) = ż, the full model's rate in those coordinates, by
// central differences with Richardson extrapolation (finite_difference.h), with each entry's
// estimated error.
//
// Connected vehicles: the connectors' rows tie the bodies' coordinates together, so z has more
// components than the system has degrees of freedom. With Φ(z) = [e(z); ė(z)] the connectors'
// position and velocity errors (dynamics/connector_rows.h: (1)–(3)), the states the
// connected system can take near the operating point form the tangent space
//   T = null(∂Φ/∂z)                                                                       (1)
// The model's flow keeps Φ = 0 (its Baumgarte terms pull any drift back, connector_rows.h (4)),
// so T is invariant under A. With N an orthonormal basis of T (from the SVD of ∂Φ/∂z, whose
// rank removes redundant connectors' rows too),
//   A_T = Nᵀ A N,   B_T = Nᵀ B                                                             (2)
// is the linear model of the connected system in the coordinates y, z = N y: the constraints
// removed, and with them the Baumgarte modes (−ω, twice, per constraint row) that A has in
// the directions that break a connector. ‖(1 − NNᵀ) A N‖ / ‖A N‖ measures how far A leaves T
// (rounding and finite-difference error only, if the connectors hold at the operating point).
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <string>
#include <vector>

#include "analysis/evaluator.h"
#include "analysis/joint_limits.h"
#include "dynamics/model.h"

namespace uwsim::analysis {

struct OperatingPoint {
  double time = 0.0;        // s: the schedules' time
  std::vector<double> x;    // the full state x = [q; v; a]
  HeldControls held;        // what the controllers hold there
};

struct LinearizeOptions {
  double relative_step = 1e-5;  // finite-difference step h per unit of each component's scale
  const std::atomic<bool>* stop = nullptr;  // polled in the loops: throws Interrupted (finite_difference.h)
};

struct LinearModel {
  std::vector<std::string> state_names, state_units;  // z
  int first_velocity = 0;           // z's velocities and actuator states start here
  std::vector<std::string> input_names, input_units;  // the channels
  Eigen::VectorXd u0;               // the channels' values at the operating point
  Eigen::VectorXd zdot0;            // ż at the operating point (0 at an equilibrium but for drift)
  Eigen::MatrixXd A, B, A_error, B_error;
  // Connectors (empty otherwise): ∂Φ/∂z's rank, the basis N of (1), and (2).
  bool constrained = false;
  int constraint_rows = 0;
  int constraint_rank = 0;
  Eigen::MatrixXd basis, A_reduced, B_reduced;
  double invariance_defect = 0.0;
  double relative_step = 0.0;
  // Joints within a position step (relative_step rad or m) of a limit, or beyond it: A there
  // holds half a stop's spring, or all of it (joint_limits.h).
  std::vector<LimitContact> limit_contacts;

  // The matrices the modes come from: (2) for connected vehicles, else A.
  const Eigen::MatrixXd& system_matrix() const { return constrained ? A_reduced : A; }
};

// `model` must outlive nothing here: it is copied where needed.
LinearModel linearize(const dynamics::Model& model, const OperatingPoint& point,
                      const LinearizeOptions& options = {});

// x0 of the model with the connectors' velocity errors removed, as a run starts (driver.h).
std::vector<double> initial_state(const dynamics::Model& model);

}  // namespace uwsim::analysis
