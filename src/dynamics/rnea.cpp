// References: see rnea.h.
#include "dynamics/rnea.h"

namespace uwsim::dynamics {


void inverse_dynamics(const dynamics::Model& model, Workspace& ws, const double* vdot, Vec6* f, double* tau) {
  const auto v_index = [&](const dynamics::Body& b) { return static_cast<std::size_t>(b.v_offset - model.nq); };
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const dynamics::Body& body = model.bodies[b];
    BodyState& s = ws.bodies[b];
    if (body.joint.type == JointType::free) {
      s.A_WB_B = vdot ? Vec6(Eigen::Map<const Vec6>(vdot + v_index(body))) : Vec6::Zero();
    } else {
      const Vec6 A_parent = body.parent >= 0 ? ws.bodies[static_cast<std::size_t>(body.parent)].A_WB_B : Vec6::Zero();
      s.A_WB_B = spatial::motion_to_child(s.X_PB, A_parent) + s.c;
      if (body.joint.dof() == 1 && vdot) s.A_WB_B += body.joint.S_C * vdot[v_index(body)];
    }
    f[b] = body.M_B * s.A_WB_B - s.F_Bo_B;
  }
  for (std::size_t b = model.bodies.size(); b-- > 0;) {
    const dynamics::Body& body = model.bodies[b];
    if (body.joint.type == JointType::free) Eigen::Map<Vec6>(tau + v_index(body)) = f[b];
    else if (body.joint.dof() == 1)  // plus a motor's armature and velocity-product torque
      tau[v_index(body)] = body.joint.S_C.dot(f[b]) + ws.bodies[b].actuator_bias +
                           (vdot ? ws.bodies[b].armature * vdot[v_index(body)] : 0.0);
    if (body.parent >= 0) f[static_cast<std::size_t>(body.parent)] += spatial::force_to_parent(ws.bodies[b].X_PB, f[b]);
  }
}

Eigen::VectorXd inverse_dynamics(const dynamics::Model& model, Workspace& ws, const Eigen::VectorXd& vdot) {
  std::vector<Vec6> f(model.bodies.size());
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.nv);
  inverse_dynamics(model, ws, vdot.data(), f.data(), tau.data());
  return tau;
}

}  // namespace uwsim::dynamics
