// Forward sweep over the trees: poses and velocities of every body from the state.
// References: [RBDA] Table 7.1 (first pass of the articulated-body algorithm).
//   X_PB = X_PJ · X_J(q) · X_JC,   X_WB = X_WP · X_PB,
//   V_B = ᴮX_P V_P + S q̇,          c_B = V_B × S q̇
// Free roots take their pose (p_WBo_W, q_WB normalised) and V_WB_B from the state directly.
#pragma once

#include <vector>

#include "dynamics/workspace.h"

namespace uwsim::dynamics {

void compute_kinematics(const dynamics::Model& model, const double* x, Workspace& ws);

// Every body's pose in the world for the state x (size model.state_size()): compute_kinematics
// on a scratch Workspace, for the model builder and checks outside the step path (allocates).
std::vector<spatial::Pose> world_poses(const dynamics::Model& model, const std::vector<double>& x);

}  // namespace uwsim::dynamics
