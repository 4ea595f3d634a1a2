// A reference articulated-body algorithm, the test oracle of the tuned one
// (src/dynamics/articulated_body.*): Featherstone's FDab.m (spatial_v2; [RBDA] Table 7.1, and
// Sec. 9.2 for a floating base as a 6-dof joint) written out as the book does — three plain
// loops over the bodies, the book's names (Xup, S, vJ, v, c, IA, pA, U, d, u, a), dense 6×6
// matrices built from the book's formulas and dynamic sizes for S — with no tuning at all.
// It shares no code with the tuned algorithm: its spatial algebra (crm, crf, plux) is its own,
// each joint's motion comes from Eigen's angle-axis, and of a dynamics::Model it reads only the
// parameters (tree, placements, axes, inertias), never the model's expansions of them
// (Joint::C0…, S_C, rotation_axis, S_index) nor anything in src/spatial or src/dynamics.
//
// The equations (each body i, parent λ(i), world = −1 at rest: gravity is a force here):
//   pass 1, roots → leaves:  [XJ, S] = jcalc(i, q_i),  vJ = S q̇_i,  Xup = ᶜX_J'·XJ·ᴶX_λ,
//     v_i = Xup v_λ + vJ,  c_i = v_i × vJ,  IA_i = I_i,  pA_i = v_i ×* (I_i v_i) − f_i
//   pass 2, leaves → roots:  U = IA S,  d = Sᵀ U,  u = τ − Sᵀ pA, and for i with a parent
//     Ia = IA − U d⁻¹ Uᵀ,  pa = pA + Ia c + U d⁻¹ u,  IA_λ += Xupᵀ Ia Xup,  pA_λ += Xupᵀ pa
//   pass 3, roots → leaves:  a' = Xup a_λ + c,  q̈_i = d⁻¹ (u − Uᵀ a'),  a_i = a' + S q̈_i
// f_i is the external force on body i in its own coordinates (FDab.m takes base coordinates
// and carries them with the accumulated transform; the tuned algorithm's forces are in body
// coordinates). The inertia I_i may hold added mass: the algorithm does not care what M is.
#pragma once

#include <Eigen/Dense>
#include <vector>

#include "dynamics/model.h"

namespace uwsim::test::reference {

using Matrix3 = Eigen::Matrix3d;
using Vector3 = Eigen::Vector3d;
using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Vector6 = Eigen::Matrix<double, 6, 1>;
using Eigen::MatrixXd;
using Eigen::VectorXd;

// r× of a 3-vector.
inline Matrix3 tilde(const Vector3& r) {
  Matrix3 m;
  m << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  return m;
}

// v× for motion vectors [ω; v]   [RBDA eq. 2.31]
inline Matrix6 crm(const Vector6& v) {
  Matrix6 m = Matrix6::Zero();
  m.topLeftCorner<3, 3>() = tilde(v.head<3>());
  m.bottomLeftCorner<3, 3>() = tilde(v.tail<3>());
  m.bottomRightCorner<3, 3>() = tilde(v.head<3>());
  return m;
}

// v×* for force vectors   [RBDA eq. 2.32]
inline Matrix6 crf(const Vector6& v) { return -crm(v).transpose(); }

// ᴮX_A for B at r (A coordinates) turned by E (A → B coordinates): [E, 0; −E r×, E]   [RBDA eq. 2.28]
inline Matrix6 plux(const Matrix3& E, const Vector3& r) {
  Matrix6 X = Matrix6::Zero();
  X.topLeftCorner<3, 3>() = E;
  X.bottomLeftCorner<3, 3>() = -E * tilde(r);
  X.bottomRightCorner<3, 3>() = E;
  return X;
}

// ᴮX_A of the pose of frame B in frame A (R_AB, p_AB_A).
inline Matrix6 motion_transform(const Matrix3& R_AB, const Vector3& p_AB_A) { return plux(R_AB.transpose(), p_AB_A); }

// The model FDab reads, one entry per body, parents first (λ(i) < i; −1 the world).
struct Model {
  std::vector<int> parent;
  std::vector<dynamics::JointType> jtype;
  std::vector<Matrix6> Xtree;   // ᴶX_λ: the parent's frame to the joint frame J
  std::vector<Matrix6> Xafter;  // ᶜX_J': the moved joint frame J' to the body's frame (identity in the book)
  std::vector<Vector3> axis;    // the joint's axis in J (unit)
  std::vector<Matrix6> I;       // spatial inertia about the body's origin in its coordinates
};

// The tree of a built model: its placements and inertias (M_RB + M_A), nothing derived from them.
inline Model model_of(const dynamics::Model& m) {
  Model model;
  for (const dynamics::Body& b : m.bodies) {
    model.parent.push_back(b.parent);
    model.jtype.push_back(b.joint.type);
    model.Xtree.push_back(motion_transform(b.joint.X_PJ.R, b.joint.X_PJ.p));
    model.Xafter.push_back(motion_transform(b.joint.X_JC.R, b.joint.X_JC.p));
    model.axis.push_back(b.joint.axis_J.normalized());
    model.I.push_back(b.M_RB_B + b.M_A_B);
  }
  return model;
}

// XJ = ᴶ'X_J and S (in J') of joint i at q: a free joint's q = [p_WB_W; q_WB (w, x, y, z)] with
// q̇ = V_WB_B, so XJ = ᴮX_W and S = 1; a fixed joint has no columns.
inline void jcalc(const Model& model, int i, const VectorXd& q, Matrix6& XJ, MatrixXd& S) {
  const Vector3& a = model.axis[static_cast<std::size_t>(i)];
  switch (model.jtype[static_cast<std::size_t>(i)]) {
    case dynamics::JointType::free: {
      const Eigen::Quaterniond q_WB(q[3], q[4], q[5], q[6]);
      XJ = motion_transform(q_WB.normalized().toRotationMatrix(), q.head<3>());
      S = MatrixXd::Identity(6, 6);
      break;
    }
    case dynamics::JointType::revolute:
      XJ = motion_transform(Eigen::AngleAxisd(q[0], a).toRotationMatrix(), Vector3::Zero());
      S = MatrixXd::Zero(6, 1);
      S.col(0).head<3>() = a;
      break;
    case dynamics::JointType::prismatic:
      XJ = motion_transform(Matrix3::Identity(), q[0] * a);
      S = MatrixXd::Zero(6, 1);
      S.col(0).tail<3>() = a;
      break;
    case dynamics::JointType::fixed:
      XJ = Matrix6::Identity();
      S = MatrixXd::Zero(6, 0);
      break;
  }
}

// What FDab returns: each joint's acceleration (a free joint's is V̇_WB_B), and, for the
// tests' cross-checks, each body's velocity v_i.
struct Result {
  std::vector<VectorXd> qdd;
  std::vector<Vector6> v;
};

// q, qd, tau: per joint (sizes 7/6/6 free, 1 revolute or prismatic, 0 fixed); f_ext: per body.
inline Result FDab(const Model& model, const std::vector<VectorXd>& q, const std::vector<VectorXd>& qd,
                   const std::vector<VectorXd>& tau, const std::vector<Vector6>& f_ext) {
  const int NB = static_cast<int>(model.parent.size());
  std::vector<Matrix6> Xup(NB), IA(NB);
  std::vector<MatrixXd> S(NB), U(NB), d_inv(NB);
  std::vector<Vector6> v(NB), c(NB), pA(NB), a(NB);
  std::vector<VectorXd> u(NB), qdd(NB);

  for (int i = 0; i < NB; ++i) {
    Matrix6 XJ;
    jcalc(model, i, q[i], XJ, S[i]);
    const Vector6 vJ = S[i] * qd[i];
    Xup[i] = model.Xafter[i] * XJ * model.Xtree[i];
    S[i] = model.Xafter[i] * S[i];  // the axis in the body's frame
    const Vector6 vJ_body = model.Xafter[i] * vJ;
    if (model.parent[i] < 0) {
      v[i] = vJ_body;
      c[i] = Vector6::Zero();
    } else {
      v[i] = Xup[i] * v[model.parent[i]] + vJ_body;
      c[i] = crm(v[i]) * vJ_body;
    }
    IA[i] = model.I[i];
    pA[i] = crf(v[i]) * model.I[i] * v[i] - f_ext[i];
  }

  for (int i = NB - 1; i >= 0; --i) {
    U[i] = IA[i] * S[i];
    const MatrixXd d = S[i].transpose() * U[i];
    d_inv[i] = d.size() > 0 ? MatrixXd(d.inverse()) : MatrixXd(0, 0);
    u[i] = tau[i] - S[i].transpose() * pA[i];
    if (model.parent[i] >= 0) {
      const Matrix6 Ia = IA[i] - U[i] * d_inv[i] * U[i].transpose();
      const Vector6 pa = pA[i] + Ia * c[i] + U[i] * d_inv[i] * u[i];
      IA[model.parent[i]] += Xup[i].transpose() * Ia * Xup[i];
      pA[model.parent[i]] += Xup[i].transpose() * pa;
    }
  }

  for (int i = 0; i < NB; ++i) {
    const Vector6 a_parent = model.parent[i] < 0 ? Vector6::Zero() : a[model.parent[i]];
    a[i] = Xup[i] * a_parent + c[i];
    qdd[i] = d_inv[i] * (u[i] - U[i].transpose() * a[i]);
    a[i] += S[i] * qdd[i];
  }
  return {qdd, v};
}

}  // namespace uwsim::test::reference
