// The physical model of a run, built once from the scenario and never changed while it runs
// (parameters only; per-step scratch lives in dynamics::Workspace, time-varying values in the
// state vector). Everything here is in the spatial [angular; linear] ordering, SI units.
//
// The bodies form a forest: each body is a free-floating root or the child of one joint
// (revolute, prismatic or fixed) whose parent is another body or the world. Bodies are stored
// parents before children, so one forward sweep visits a tree root-to-leaves.
//
// State vector layout (see README "State vector and integration"): x = [q; v] with, per body b,
//   free root:           q[b.q_offset + 0..2] = p_WBo_W (m, NED), q[b.q_offset + 3..6] = q_WB
//                        [w, x, y, z]; v[b.v_offset + 0..5] = V_WB_B = [ω; v] in the body frame
//   revolute/prismatic:  q[b.q_offset] = joint position (rad or m), v[b.v_offset] = its rate
//   fixed:               no coordinates (q_offset = v_offset = −1)
// and after [q; v] the actuator states a (na of them): a thruster with a spin-up time
// constant holds its lagged shaft speed (propeller, rad/s) or thrust (table, linear; N) at
// x[thruster.state_index]. So x = [q; v; a].
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dynamics/connector.h"
#include "dynamics/controller.h"
#include "actuation/joint_actuator.h"
#include "actuation/thruster.h"
#include "inputs/input_set.h"
#include "sensors/sensor.h"
#include "spatial/transform.h"

namespace uwsim::dynamics {

using spatial::Mat3;
using spatial::Mat6;
using spatial::Vec3;
using spatial::Vec6;

struct Environment {
  double gravity = 9.81;           // m/s², along +z of NED
  double water_density = 1000.0;   // kg/m³
  Vec3 current_W = Vec3::Zero();   // m/s, constant and irrotational, in NED

  bool still_water() const { return current_W.isZero(0.0); }
};

enum class JointType { free, revolute, prismatic, fixed };

// The joint between a body and its parent (or the world), as seen from the child body C.
// Pose of C in the parent P: X_PC(q) = X_PJ · X_J(q) · X_JC, X_J a rotation about / shift along
// `axis_J` (unit, in J).
struct Joint {
  std::string name;           // "" for a free root
  JointType type = JointType::free;
  spatial::Pose X_PJ;         // parent → joint frame (includes any manipulator mount)
  spatial::Pose X_JC;         // joint frame (after the motion) → child frame
  Vec3 axis_J = Vec3::UnitZ();
  Vec6 S_C = Vec6::Zero();    // motion subspace in child coordinates (constant)
  int S_index = -1;           // k if S_C is the unit vector e_k (MDH joints, aligned axes): IA·S is a column
  double lower = -std::numeric_limits<double>::infinity();  // position limits
  double upper = std::numeric_limits<double>::infinity();
  double max_effort = std::numeric_limits<double>::infinity();
  double damping = 0.0;       // viscous, ≥ 0
  double friction = 0.0;      // Coulomb, ≥ 0
  double effort = 0.0;        // constant applied torque or force
  actuation::JointActuator actuator;  // adds its command to `effort` (then saturated)

  // X_PC(q) expanded once at build time (Rodrigues): with K = S(axis_J),
  //   R_PC = C0 + sin q·C1 + (1 − cos q)·C2,  Cₖ = R_PJ Kᵏ R_JC   (prismatic: C0 only)
  //   p_PC = p_PJ + d0 + sin q·d1 + (1 − cos q)·d2 (+ q·R_PJ·axis_J for prismatic),
  //   dₖ = R_PJ Kᵏ p_JC
  // so a joint's pose costs one sincos and a few 3×3 sums per evaluation.
  Mat3 C0 = Mat3::Identity(), C1 = Mat3::Zero(), C2 = Mat3::Zero();
  Vec3 d0 = Vec3::Zero(), d1 = Vec3::Zero(), d2 = Vec3::Zero(), slide = Vec3::Zero();
  // k if R_PC(q) turns about the coordinate axis e_k for every q, exactly: row and column k of
  // every Cₘ are those of the identity (C0) or zero, and the (i, j) plane keeps a rotation's
  // form (equal diagonal, opposite off-diagonal). Then an inertia moves to the parent by a
  // plane rotation (spatial::add_inertia_to_parent). Typical of a revolute joint whose
  // origin has no rotation, or one about the joint's own axis, and whose axis is a frame axis;
  // a fixed or prismatic joint whose origin has no rotation gets 2 (its R_PC is the identity).
  // −1 otherwise (DH/MDH placements with α ≠ 0, tilted axes).
  int rotation_axis = -1;

  int dof() const { return type == JointType::free ? 6 : type == JointType::fixed ? 0 : 1; }
  // S·rate in child coordinates: the joint's velocity at q̇, or its acceleration's share at q̈.
  // For S = e_k one entry, not six products. Each entry is chosen, not stored at index k:
  // a store at a run-time index into a zeroed Vec6, read back whole, could not be forwarded
  // from the store buffer and stalled the kinematics pass (docs/benchmarks.md, "night session").
  Vec6 motion(double rate) const {
    if (S_index < 0) return S_C * rate;
    Vec6 m;
    for (int i = 0; i < 6; ++i) m[i] = i == S_index ? rate : 0.0;
    return m;
  }
  // X_PC at joint position q (q ignored for fixed joints). Needs expand_pose() first. Inline
  // (below): the kinematics calls it for every joint at every evaluation, in place: a Pose
  // returned through a temporary was copied with wide loads of entries stored one by one a
  // moment before, which the store buffer cannot forward (docs/benchmarks.md, "2026-11-29: a joint's pose").
  void write_pose_in_parent(double q, spatial::Pose& X_PC) const;
  spatial::Pose pose_in_parent(double q) const {
    spatial::Pose X_PC;
    write_pose_in_parent(q, X_PC);
    return X_PC;
  }
  void expand_pose();
};

// A rigid body with its hydrodynamics: a vehicle, a link, a connector piece.
struct Body {
  std::string name;
  int parent = -1;          // index of the parent body; −1: the world (or none, for a free root)
  Joint joint;
  Mat6 M_RB_B;              // rigid-body spatial inertia about Bo, in B
  Mat6 M_A_B;               // added mass about Bo, in B (symmetric, positive semi-definite)
  Mat6 M_B;                 // M_RB + M_A: the inertia the articulated-body algorithm uses
  Mat6 M_inv_B;             // M_B⁻¹, for a free body without children (constant: no factoring per step)
  bool has_children = false;
  // A free body without children: its articulated inertia is its own M_B, constant.
  bool is_lone_free() const { return joint.type == JointType::free && !has_children; }
  Vec6 linear_damping;      // D_l diagonal (spatial order), ≥ 0
  Vec6 quadratic_damping;   // D_q diagonal (spatial order), ≥ 0
  double weight = 0.0;      // W = m g (N), acts at the CG along +z of NED
  double buoyancy = 0.0;    // B = ρ g ∇ (N), acts at the CB along −z of NED
  Vec3 p_BoBcm_B = Vec3::Zero();
  Vec3 p_BoBcb_B = Vec3::Zero();
  Vec3 p_BoBcd_B = Vec3::Zero();  // centre of drag: where the damping acts
  int q_offset = -1;        // index of this body's joint coordinates in x
  int v_offset = -1;        // index of its joint velocities in x (already offset by nq)
  int root = -1;            // the root body of its tree; a tree's bodies are contiguous,
  int tree_end = -1;        // from its root up to (excluding) the root's tree_end
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
  int input = -1;               // channel that scales force and moment, −1: none (scale 1)

  bool active_at(double t) const { return start <= t && t < stop; }
};

// X_PC(q) from the expansion expand_pose() keeps ([RBDA] Sec. 4.4, Rodrigues). Always inlined:
// GCC had left it out of line in the kinematics pass.
[[gnu::always_inline]] inline void Joint::write_pose_in_parent(double q, spatial::Pose& X_PC) const {
  if (type == JointType::revolute) {
    const double s = std::sin(q), versine = 1.0 - std::cos(q);
    X_PC.p = X_PJ.p + d0 + s * d1 + versine * d2;
    if (rotation_axis >= 0) {
      // Only the (i, j) plane turns: two entries of C0 + s·C1 + versine·C2, summed in its order;
      // the sum's other entries are exactly 0, 1 or these two negated: R is the same to the bit
      // (for finite q, and but for the sign of a zero).
      const int i = (rotation_axis + 1) % 3, j = (rotation_axis + 2) % 3;
      const double cos_part = C0(i, i) + s * C1(i, i) + versine * C2(i, i);
      const double sin_part = C0(j, i) + s * C1(j, i) + versine * C2(j, i);
      spatial::write_rotation_about_coordinate_axis(rotation_axis, cos_part, sin_part, X_PC.R);
      return;
    }
    X_PC.R = C0 + s * C1 + versine * C2;
    return;
  }
  const double shift = type == JointType::prismatic ? q : 0.0;
  X_PC.R = C0;
  X_PC.p = X_PJ.p + d0 + shift * slide;
}

struct Model {
  Environment environment;
  std::vector<Body> bodies;     // parents before children
  std::vector<AppliedForce> forces;
  std::vector<Connector> connectors;
  inputs::InputSet inputs;     // command channels
  std::vector<actuation::Thruster> thrusters;
  // In update order (model/build_controllers.cpp): pose_pd, line_of_sight, task_priority,
  // base_control, thrust_allocation, inverse_kinematics, then pids, a cascade's outer one first.
  std::vector<Controller> controllers;
  int control_slots = 0;       // held controller commands after the channels (controller.h)
  // What the vehicle's instruments read, sampled after the dynamics at each output sample
  // (dynamics/sensor_set.h); nothing in the derivative reads them.
  std::vector<sensors::Sensor> sensors;
  int nq = 0;                  // position coordinates
  int nv = 0;                  // velocity coordinates
  int na = 0;                  // actuator states (after q and v)
  std::vector<double> x0;      // initial state [q; v]
  // Joint limits act as a critically damped spring on the joint's articulated inertia with
  // this natural frequency (rad/s), so the limit is equally stiff for any link; it also sets
  // the friction regularisation (dynamics/joint_forces.h). From `compliance` (model/spec.h).
  double limit_frequency = 2.0 * M_PI * 50.0;
  // Connector drift is pulled back by Baumgarte terms, critically damped at this natural
  // frequency (rad/s): ë + 2ω ė + ω² e = 0 (dynamics/connector_rows.h).
  double constraint_frequency = 2.0 * M_PI * 50.0;

  int state_size() const { return nq + nv + na; }
  int body_index(const std::string& name) const;  // −1 if none
  // Joints whose viscous damping b is too stiff for an explicit step h: b·h / Sᵀ M S > 2, with
  // Sᵀ M S the link's own inertia along the joint (a lower bound of what the joint sees).
  std::vector<std::string> joints_with_stiff_damping(double step) const;
  // Times at which the right-hand side jumps (forces switching, input channels jumping): the
  // integrator restarts there.
  std::vector<double> discontinuities() const;
};

}  // namespace uwsim::dynamics
