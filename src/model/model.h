// The physical model of a run, built once from the scenario and never changed while it runs
// (parameters only; per-step scratch lives in dynamics::Workspace, time-varying values in the
// state vector). Everything here is in the spatial [angular; linear] ordering, SI units.
//
// State vector layout (see README "State vector"): x = [q; v] with, per free body b,
//   q[b.q_offset + 0..2] = p_WBo_W   body origin in NED (m)
//   q[b.q_offset + 3..6] = q_WB      unit quaternion [w, x, y, z], body → NED
//   v[b.v_offset + 0..5] = V_WB_B    spatial velocity [ω; v] = [p q r u v w] in the body frame
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "spatial/spatial.h"

namespace uwsim::model {

using spatial::Mat3;
using spatial::Mat6;
using spatial::Vec3;
using spatial::Vec6;

struct Environment {
  double gravity = 9.81;           // m/s², along +z of NED
  double water_density = 1000.0;   // kg/m³
  Vec3 current_W = Vec3::Zero();   // m/s, constant and irrotational, in NED
};

// A free-floating rigid body: a tree root joined to the world by a 6-DOF free joint.
struct Body {
  std::string name;
  Mat6 M_RB_B;              // rigid-body spatial inertia about Bo, in B
  Mat6 M_A_B;               // added mass about Bo, in B (symmetric, positive semi-definite)
  Mat6 M_inv_B;             // (M_RB + M_A)⁻¹: constant in B for a free body, so factored once
  Vec6 linear_damping;      // D_l diagonal (spatial order), ≥ 0
  Vec6 quadratic_damping;   // D_q diagonal (spatial order), ≥ 0
  double weight = 0.0;      // W = m g (N), acts at the CG along +z of NED
  double buoyancy = 0.0;    // B = ρ g ∇ (N), acts at the CB along −z of NED
  Vec3 p_BoBcm_B = Vec3::Zero();
  Vec3 p_BoBcb_B = Vec3::Zero();
  int q_offset = 0;         // index of p_WBo_W in x
  int v_offset = 0;         // index of V_WB_B in x (already offset by nq)
};

// A constant wrench on a body, switched on for start ≤ t < stop. `force` acts at point_B.
struct AppliedForce {
  std::string name;
  int body = 0;
  bool in_world_frame = false;  // force/moment expressed in W (else in B)
  Vec3 p_BoP_B = Vec3::Zero();
  Vec3 force = Vec3::Zero();
  Vec3 moment = Vec3::Zero();
  double start = 0.0;
  double stop = std::numeric_limits<double>::infinity();

  bool active_at(double t) const { return start <= t && t < stop; }
};

struct Model {
  Environment environment;
  std::vector<Body> bodies;
  std::vector<AppliedForce> forces;
  int nq = 0;                  // position coordinates
  int nv = 0;                  // velocity coordinates
  std::vector<double> x0;      // initial state [q; v]

  int state_size() const { return nq + nv; }
  // Times at which the right-hand side jumps (forces switching): the integrator restarts there.
  std::vector<double> discontinuities() const;
};

}  // namespace uwsim::model
