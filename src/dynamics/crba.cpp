// References: see crba.h.
#include "dynamics/crba.h"

namespace uwsim::dynamics {

namespace {

// Motion subspace of a body's joint as 6 × dof columns.
Eigen::Matrix<double, 6, Eigen::Dynamic> motion_subspace(const dynamics::Body& body) {
  if (body.joint.type == dynamics::JointType::free) return Mat6::Identity();
  if (body.joint.dof() == 1) return body.joint.S_C;
  return Eigen::Matrix<double, 6, Eigen::Dynamic>(6, 0);
}

}  // namespace

Eigen::MatrixXd mass_matrix(const dynamics::Model& model, const Workspace& ws) {
  const std::size_t n = model.bodies.size();
  std::vector<Mat6> Ic(n);
  for (std::size_t b = 0; b < n; ++b) Ic[b] = model.bodies[b].M_B;
  for (std::size_t b = n; b-- > 0;) {
    const int parent = model.bodies[b].parent;
    if (parent >= 0) Ic[static_cast<std::size_t>(parent)] += spatial::inertia_to_parent(ws.bodies[b].X_PB, Ic[b]);
  }
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(model.nv, model.nv);
  for (std::size_t i = 0; i < n; ++i) {
    const dynamics::Body& body = model.bodies[i];
    const auto S_i = motion_subspace(body);
    if (S_i.cols() == 0) continue;
    const Eigen::Index row = body.v_offset - model.nq;
    Eigen::Matrix<double, 6, Eigen::Dynamic> F = Ic[i] * S_i;
    H.block(row, row, S_i.cols(), S_i.cols()) = S_i.transpose() * F;
    if (S_i.cols() == 1) H(row, row) += ws.bodies[i].armature;  // a motor's reflected inertia
    for (std::size_t j = i; model.bodies[j].parent >= 0;) {
      for (Eigen::Index k = 0; k < F.cols(); ++k) F.col(k) = spatial::force_to_parent(ws.bodies[j].X_PB, F.col(k));
      j = static_cast<std::size_t>(model.bodies[j].parent);
      const auto S_j = motion_subspace(model.bodies[j]);
      if (S_j.cols() == 0) continue;
      const Eigen::Index col = model.bodies[j].v_offset - model.nq;
      H.block(row, col, S_i.cols(), S_j.cols()) = F.transpose() * S_j;
      H.block(col, row, S_j.cols(), S_i.cols()) = S_j.transpose() * F;
    }
  }
  return H;
}

Mat6 composite_inertia(const dynamics::Model& model, const Workspace& ws, int root) {
  const auto r = static_cast<std::size_t>(root);
  const spatial::Pose X_RW = ws.bodies[r].X_WB.inverse();
  Mat6 Ic = Mat6::Zero();
  for (auto b = r; b < static_cast<std::size_t>(model.bodies[r].tree_end); ++b)
    Ic += spatial::inertia_to_parent(X_RW * ws.bodies[b].X_WB, model.bodies[b].M_B);
  return Ic;
}

}  // namespace uwsim::dynamics
