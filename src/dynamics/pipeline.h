// The derivative of the state: one fixed stage order per evaluation, the map of the simulator.
//   1. kinematics      q → R_WB, spatial velocities, velocities relative to the water
//   2. forces          rigid-body and added-mass Coriolis, damping, restoring, applied wrenches
//   3. accelerations   (M_RB + M_A) V̇ = F, the added mass inside the inertia   [Kolano eq. 2–3]
//   4. derivatives     ṗ = R_WB v, q̇ = ½ q ⊗ ω, v̇ = V̇
// The next issues add stages in place: inputs and controllers before 2, thrusters in 2, the
// articulated-body algorithm in 3, constraint correction between 3 and 4.
//
// Attitude: the quaternion is used normalised (q / |q|) in every evaluation, so q̇ is tangent
// to the unit sphere and its norm changes only by integration error; the integrator then
// projects it back onto the sphere after each step (normalize_quaternions).
#pragma once

#include <vector>

#include "dynamics/hydrodynamics.h"
#include "model/model.h"

namespace uwsim::dynamics {

// Per-evaluation scratch, sized once for a model: the step path never allocates.
struct Workspace {
  explicit Workspace(const model::Model& model);
  std::vector<BodyMotion> motion;  // per body
  std::vector<Vec6> F_Bo_B;        // total non-inertial wrench about Bo, per body
  std::vector<Vec6> A_WB_B;        // spatial acceleration V̇, per body
};

// xdot = f(t, x). Applied forces are switched by their schedule at `schedule_time` (the start
// of the current smooth segment; see integrate/driver.h), which keeps f smooth within a
// segment even when a trial step overshoots a switching time.
void evaluate(const model::Model& model, double schedule_time, const double* x, double* xdot,
              Workspace& ws);

// Projects every body's quaternion in x back to unit norm.
void normalize_quaternions(const model::Model& model, double* x);

}  // namespace uwsim::dynamics
