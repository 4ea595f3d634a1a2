// References: see articulated_response.h.
#include "dynamics/articulated_response.h"

namespace uwsim::dynamics {


void articulated_response(const dynamics::Model& model, int root, Workspace& ws) {
  const dynamics::Body& root_body = model.bodies[static_cast<std::size_t>(root)];
  const int end = root_body.tree_end;
  if (root_body.is_lone_free()) {
    BodyState& s = ws.bodies[static_cast<std::size_t>(root)];
    s.dA = root_body.M_inv_B * s.f_extra;
    return;
  }
  for (int b = root; b < end; ++b) ws.bodies[static_cast<std::size_t>(b)].pA_extra = -ws.bodies[static_cast<std::size_t>(b)].f_extra;
  for (int b = end - 1; b >= root; --b) {  // pass 2
    const dynamics::Body& body = model.bodies[static_cast<std::size_t>(b)];
    BodyState& s = ws.bodies[static_cast<std::size_t>(b)];
    if (body.parent < 0 && body.joint.dof() != 1) continue;
    Vec6 pa = s.pA_extra;
    if (body.joint.dof() == 1) {
      s.u_extra = -body.joint.S_C.dot(pa);
      pa += s.U * (s.u_extra / s.D);
    }
    if (body.parent >= 0) {
      BodyState& parent = ws.bodies[static_cast<std::size_t>(body.parent)];
      parent.pA_extra += spatial::force_to_parent(s.X_PB, pa);
    }
  }
  for (int b = root; b < end; ++b) {  // pass 3
    const dynamics::Body& body = model.bodies[static_cast<std::size_t>(b)];
    BodyState& s = ws.bodies[static_cast<std::size_t>(b)];
    if (body.joint.type == JointType::free) {
      s.dA = -spatial::solve_spd6(s.IA, s.pA_extra);
      continue;
    }
    const Vec6 dA_parent = body.parent >= 0 ? ws.bodies[static_cast<std::size_t>(body.parent)].dA : Vec6::Zero();
    s.dA = spatial::motion_to_child(s.X_PB, dA_parent);
    s.dqdd = 0.0;
    if (body.joint.dof() == 1) {
      s.dqdd = (s.u_extra - s.U.dot(s.dA)) / s.D;
      s.dA += body.joint.S_C * s.dqdd;
    }
  }
}

}  // namespace uwsim::dynamics
