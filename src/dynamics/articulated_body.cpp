// References: see articulated_body.h.
#include "dynamics/articulated_body.h"

#include "dynamics/joint_forces.h"

namespace uwsim::dynamics {


namespace {

// Pass 2 for one body: articulated inertia and bias, handed to the parent.
void articulate(const dynamics::Model& model, const dynamics::Body& body, const double* x, BodyState& s,
                Workspace& ws) {
  if (body.parent < 0 && body.joint.dof() != 1) return;  // free root, or fixed to the world
  // IA is not needed after this pass (pass 3 uses U, D, u): reduce it in place to Ia. Both are
  // symmetric and kept as upper triangles (spatial::add_inertia_to_parent): the lower triangle
  // is never read.
  Mat6& Ia = s.IA;
  Vec6 pa = s.pA;
  if (body.joint.dof() == 1) {
    const double q = x[body.q_offset], qd = x[body.v_offset];
    const int k = body.joint.S_index;
    if (k >= 0) {
      for (int i = 0; i < 6; ++i) s.U[i] = spatial::upper_entry(Ia, i, k);
    } else {
      s.U = spatial::upper_symmetric_times(Ia, body.joint.S_C);
    }
    // A motor's armature (reflected rotor inertia) belongs to the inertia along the joint:
    // D = Sᵀ IA S + armature ([Leborne2018] eq. 2; joint_actuation.h), never a lagged torque.
    const actuation::JointActuation act = body.joint.actuator.actuation(ws.inputs.data(), q, qd);
    s.D = (k >= 0 ? s.U[k] : body.joint.S_C.dot(s.U)) + act.armature;
    s.tau = applied_effort(body.joint, act);
    s.tau_total = s.tau + actuator_passive_force(act, qd, s.D, model.limit_frequency) +
                  passive_joint_force(body.joint, qd, s.D, model.limit_frequency) +
                  limit_force(body.joint, q, qd, s.D, model.limit_frequency);
    s.u = s.tau_total - act.bias - (k >= 0 ? s.pA[k] : body.joint.S_C.dot(s.pA));
    const double inv_D = 1.0 / s.D;  // one division: the rank-one update and pass 3 multiply
    s.U_over_D = s.U * inv_D;
    s.u_over_D = s.u * inv_D;
    for (int c = 0; c < 6; ++c)
      for (int r = 0; r <= c; ++r) Ia(r, c) -= s.U[r] * s.U_over_D[c];  // Ia = IA − U Uᵀ/D
    pa += s.U * s.u_over_D;
  }
  pa += spatial::upper_symmetric_times(Ia, s.c);
  if (body.parent < 0) return;
  BodyState& parent = ws.bodies[static_cast<std::size_t>(body.parent)];
  spatial::add_inertia_to_parent(body.joint.rotation_axis, s.X_PB, Ia, parent.IA);
  parent.pA += spatial::force_to_parent(body.joint.rotation_axis, s.X_PB, pa);
}

// Pass 3 for one body: its spatial acceleration and joint acceleration.
void accelerate(const dynamics::Body& body, BodyState& s, const Workspace& ws) {
  if (body.joint.type == JointType::free) {
    // A lone body's articulated inertia is its own constant M: use the inverse built once.
    // (Its IA and pA were not set: pA = −F, so −M⁻¹ pA = M⁻¹ F, to the bit.)
    s.A_WB_B = body.is_lone_free() ? Vec6(body.M_inv_B * s.F_Bo_B) : Vec6(-spatial::solve_spd6(s.IA, s.pA));
    return;
  }
  const Vec6 A_parent = body.parent >= 0 ? ws.bodies[static_cast<std::size_t>(body.parent)].A_WB_B
                                         : Vec6::Zero();
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
    for (int c = 0; c < 6; ++c)
      for (int r = 0; r <= c; ++r) s.IA(r, c) = body.M_B(r, c);  // the upper triangle (articulate)
    s.pA = -s.F_Bo_B;
  }
  for (std::size_t b = model.bodies.size(); b-- > 0;) {
    if (!model.bodies[b].is_lone_free()) articulate(model, model.bodies[b], x, ws.bodies[b], ws);
  }
  for (std::size_t b = 0; b < model.bodies.size(); ++b) accelerate(model.bodies[b], ws.bodies[b], ws);
}

}  // namespace uwsim::dynamics
