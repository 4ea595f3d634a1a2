// The derivative of the state: one fixed stage order per evaluation, the map of the simulator.
//   1. kinematics      poses and velocities of every body, velocities relative to the water
//   1b. inputs         every command channel at the evaluation time (actuation_stage.h);
//                      controllers are not evaluated here: their outputs are held between
//                      samples (dynamics/controller_set.h) and read like channels
//   2. body forces     rigid-body and added-mass Coriolis, damping, weight and buoyancy,
//                      applied wrenches, thrusters, the held wrench of pose controllers —
//                      everything on a body that is not M·a
//   3. accelerations   articulated-body algorithm with M = M_RB + M_A inside the inertia
//                      [Kolano eq. 2–3]; joint efforts, friction and limits enter here
//   3b. connectors     Udwadia–Kalaba correction of those accelerations [Nielsen2018 eq. 19–20]
//                      (dynamics/connector_solver.h)
//   4. derivatives     ṗ = R_WB v, q̇ = ½ q ⊗ ω, joint q̇, the accelerations, and the rates
//                      of the actuator states
//
// Attitude: free roots' quaternions are used normalised (q / |q|) in every evaluation, so q̇ is
// tangent to the unit sphere and the norm changes only by integration error; the integrator
// projects it back after each step (normalize_quaternions).
#pragma once

#include "dynamics/workspace.h"

namespace uwsim::dynamics {

// xdot = f(t, x). Applied forces are switched by their schedule at `schedule_time` (the start
// of the current smooth segment; see integrate/driver.h), which keeps f smooth within a
// segment even when a trial step overshoots a switching time.
// Input channels are sampled at `t`; those that jump choose their branch by schedule_time.
void evaluate(const dynamics::Model& model, double t, double schedule_time, const double* x,
              double* xdot, Workspace& ws);
// The same with t = schedule_time.
void evaluate(const dynamics::Model& model, double schedule_time, const double* x, double* xdot,
              Workspace& ws);

// Stages 1–2 alone: what inverse dynamics and the mass matrix need (rnea.h, crba.h).
void compute_kinematics_and_forces(const dynamics::Model& model, double t, double schedule_time,
                                   const double* x, Workspace& ws);
void compute_kinematics_and_forces(const dynamics::Model& model, double schedule_time, const double* x,
                                   Workspace& ws);

// Projects every free body's quaternion in x back to unit norm.
void normalize_quaternions(const dynamics::Model& model, double* x);

}  // namespace uwsim::dynamics
