// Per-evaluation scratch for a model, sized once: the step path never allocates.
// Symbols of the articulated-body algorithm follow [RBDA] Table 7.1: IA articulated inertia,
// pA articulated bias force, U = IA·S, D = Sᵀ·U, u = τ − Sᵀ·pA, c velocity-product acceleration.
#pragma once

#include <vector>

#include "dynamics/hydrodynamics.h"
#include "model/model.h"

namespace uwsim::dynamics {

using spatial::Mat6;
using spatial::Pose;

struct BodyState {
  Pose X_PB;             // pose in the parent body (or the world, for roots)
  Pose X_WB;             // pose in the world
  BodyMotion motion;     // R_WB, V_WB_B, velocity relative to the water
  Vec6 c = Vec6::Zero(); // V × S·q̇
  Vec6 F_Bo_B;           // all non-inertial wrenches on the body about Bo (fluid, weight, applied)
  Mat6 IA;
  Vec6 pA;
  Vec6 U;
  double D = 0.0, u = 0.0;
  double tau = 0.0;      // applied joint effort (after saturation), without friction and limits
  double tau_total = 0.0;  // everything the joint transmits along S: effort, damping, friction, limit
  double qdd = 0.0;      // joint acceleration
  Vec6 A_WB_B = Vec6::Zero();  // spatial acceleration, body coordinates (= ν̇ for a free root)
};

struct Workspace {
  explicit Workspace(const model::Model& model)
      : bodies(model.bodies.size()), inputs(model.inputs.channels.size()),
        thrusters(model.thrusters.size()) {}
  std::vector<BodyState> bodies;
  std::vector<double> inputs;                         // value of each channel, model order
  std::vector<actuation::ThrusterState> thrusters;    // command, shaft speed, thrust
};

}  // namespace uwsim::dynamics
