// References: see articulated_body.h.
#include "dynamics/articulated_body.h"

#include "dynamics/joint_forces.h"

namespace uwsim::dynamics {


namespace {

// The entries of c = V ×ₘ S·q̇ (kinematics) that are nonzero when S = e_K, as a column mask for
// spatial::upper_symmetric_times: for a turn about axis K (K < 3), ω × e_K and v × e_K have
// no K component; for a slide along axis K − 3, c = [0; ω × e_(K−3)] has no angular part and
// no K component. K < 0 (any other S): every column.
constexpr unsigned velocity_product_columns(int K) {
  if (K < 0) return 0x3Fu;
  if (K < 3) return 0x3Fu & ~(1u << K) & ~(1u << (K + 3));
  return 0x38u & ~(1u << K);
}

// Pass 2 for one body: articulated inertia and bias, handed to the parent. K = Joint::S_index
// (S = e_K, so U is a column of IA and c has the zeros above) as a template argument, so that
// every index is known to the compiler; −1 for any other S or no joint coordinate.
template <int K>
void articulate(const dynamics::Model& model, const dynamics::Body& body, const double* x, BodyState& s,
                Workspace& ws) {
  if (body.parent < 0 && body.joint.dof() != 1) return;  // free root, or fixed to the world
  // IA: the body's own inertia plus what its children handed on, which the first of them
  // to join started from M_B (below); a leaf's IA is its M_B, read where it is. Reduced
  // to Ia (pass 3 uses U, D, u) into s.IA. Both are symmetric and kept as upper triangles
  // (spatial::add_inertia_to_parent): no lower triangle is read.
  const Mat6& IA = body.has_children ? s.IA : body.M_B;
  const Mat6* Ia = &IA;
  Vec6 pa = s.pA;
  if (body.joint.dof() == 1) {
    const double q = x[body.q_offset], qd = x[body.v_offset];
    if constexpr (K >= 0) {
      for (int i = 0; i < 6; ++i) s.U[i] = spatial::upper_entry(IA, i, K);
    } else {
      s.U = spatial::upper_symmetric_times(IA, body.joint.S_C);
    }
    // A motor's armature (reflected rotor inertia) belongs to the inertia along the joint:
    // D = Sᵀ IA S + armature ([Leborne2018] eq. 2; joint_actuation.h), never a lagged torque.
    const actuation::JointActuation act = body.joint.actuator.actuation(ws.inputs.data(), q, qd);
    double S_dot_pA;
    if constexpr (K >= 0) {
      s.D = s.U[K] + act.armature;
      S_dot_pA = s.pA[K];
    } else {
      s.D = body.joint.S_C.dot(s.U) + act.armature;
      S_dot_pA = body.joint.S_C.dot(s.pA);
    }
    s.tau = applied_effort(body.joint, act);
    s.tau_total = s.tau + actuator_passive_force(act, qd, s.D, model.limit_frequency) +
                  passive_joint_force(body.joint, qd, s.D, model.limit_frequency) +
                  limit_force(body.joint, q, qd, s.D, model.limit_frequency);
    s.u = s.tau_total - act.bias - S_dot_pA;
    const double inv_D = 1.0 / s.D;  // one division: the rank-one update and pass 3 multiply
    s.U_over_D = s.U * inv_D;
    s.u_over_D = s.u * inv_D;
#pragma GCC unroll 6
    for (int c = 0; c < 6; ++c)
#pragma GCC unroll 6
      for (int r = 0; r <= c; ++r) s.IA(r, c) = IA(r, c) - s.U[r] * s.U_over_D[c];  // Ia = IA − U Uᵀ/D
    Ia = &s.IA;  // IA may be s.IA, now reduced: only Ia is read from here on
    pa += s.U * s.u_over_D;
  }
  pa += spatial::upper_symmetric_times<velocity_product_columns(K)>(*Ia, s.c);
  if (body.parent < 0) return;
  BodyState& parent = ws.bodies[static_cast<std::size_t>(body.parent)];
  // Children join before their parent (pass 2 runs from the leaves): the first starts the
  // parent's IA from the parent's own inertia, the others add to it.
  const Mat6& parent_base = parent.IA_started ? parent.IA : model.bodies[static_cast<std::size_t>(body.parent)].M_B;
  spatial::add_inertia_to_parent(body.joint.rotation_axis, s.X_PB, *Ia, parent_base, parent.IA);
  parent.IA_started = true;
  parent.pA += spatial::force_to_parent(body.joint.rotation_axis, s.X_PB, pa);
}

void articulate(const dynamics::Model& model, const dynamics::Body& body, const double* x, BodyState& s,
                Workspace& ws) {
  switch (body.joint.dof() == 1 ? body.joint.S_index : -1) {
    case 0: return articulate<0>(model, body, x, s, ws);
    case 1: return articulate<1>(model, body, x, s, ws);
    case 2: return articulate<2>(model, body, x, s, ws);
    case 3: return articulate<3>(model, body, x, s, ws);
    case 4: return articulate<4>(model, body, x, s, ws);
    case 5: return articulate<5>(model, body, x, s, ws);
    default: return articulate<-1>(model, body, x, s, ws);
  }
}

const Vec6 kA_WW = Vec6::Zero();  // the world's spatial acceleration (a root's parent): zero

// Pass 3 for one body: its spatial acceleration and joint acceleration.
void accelerate(const dynamics::Body& body, BodyState& s, const Workspace& ws) {
  if (body.joint.type == JointType::free) {
    // A lone body's articulated inertia is its own constant M: use the inverse built once.
    // (Its IA and pA were not set: pA = −F, so −M⁻¹ pA = M⁻¹ F, to the bit.)
    // Assigned in each branch, not through a Vec6 temporary of a ?: (see solve_spd6).
    if (body.is_lone_free()) s.A_WB_B = body.M_inv_B * s.F_Bo_B;
    else s.A_WB_B = -spatial::solve_spd6(s.IA, s.pA);
    return;
  }
  // Read where it is, not copied: a copy is one wide load of entries stored one by one a
  // moment ago, which waits for them to leave the store buffer (docs/benchmarks.md, "night session").
  const Vec6& A_parent = body.parent >= 0 ? ws.bodies[static_cast<std::size_t>(body.parent)].A_WB_B : kA_WW;
  s.A_WB_B = spatial::motion_to_child(body.joint.rotation_axis, s.X_PB, A_parent) + s.c;
  if (body.joint.dof() == 1) {
    s.qdd = s.u_over_D - s.U_over_D.dot(s.A_WB_B);  // (u − Uᵀa)/D, no division on the chain
    s.A_WB_B += body.joint.motion(s.qdd);
  }
}

}  // namespace

void articulated_body_accelerations(const dynamics::Model& model, const double* x, Workspace& ws) {
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const dynamics::Body& body = model.bodies[b];
    if (body.is_lone_free()) continue;  // accelerate() needs neither IA nor pA
    BodyState& s = ws.bodies[b];
    s.IA_started = false;  // IA is set by the first child to join (articulate)
    s.pA = -s.F_Bo_B;
  }
  for (std::size_t b = model.bodies.size(); b-- > 0;) {
    if (!model.bodies[b].is_lone_free()) articulate(model, model.bodies[b], x, ws.bodies[b], ws);
  }
  for (std::size_t b = 0; b < model.bodies.size(); ++b) accelerate(model.bodies[b], ws.bodies[b], ws);
}

}  // namespace uwsim::dynamics
