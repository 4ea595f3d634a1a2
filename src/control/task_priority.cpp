// References: [SverdrupThygeson2018] eq. 18, 31, 42. Equation numbers (1)–(3): task_priority.h.
#include "control/task_priority.h"

#include "spatial/rotation.h"

namespace uwsim::control {

using spatial::Mat3;
using spatial::Vec3;
using spatial::Vec6;

TaskJacobian end_effector_jacobian(const spatial::Pose& X_BE, const spatial::Pose* X_BK,
                                   const Vec6* S_K, int n) {
  TaskJacobian J(6, 6 + n);
  const Mat3 R_EB = X_BE.R.transpose();
  // (1), base columns: a body-fixed base velocity [v_b; ω_b] moves P at v_b + ω_b × p_BE.
  J.block<3, 3>(0, 0) = R_EB;
  J.block<3, 3>(0, 3) = -R_EB * spatial::skew(X_BE.p);
  J.block<3, 3>(3, 0).setZero();
  J.block<3, 3>(3, 3) = R_EB;
  // (1), joint columns: the joint's twist about its child origin K, carried to P.
  for (int k = 0; k < n; ++k) {
    const Vec3 w_B = X_BK[k].R * spatial::angular(S_K[k]);
    const Vec3 v_B = X_BK[k].R * spatial::linear(S_K[k]) + w_B.cross(X_BE.p - X_BK[k].p);
    J.block<3, 1>(0, 6 + k) = R_EB * v_B;
    J.block<3, 1>(3, 6 + k) = R_EB * w_B;
  }
  return J;
}

Vec6 end_effector_error(const spatial::Pose& X_WE, const Vec3& p_WEd_W, const spatial::Quat& q_WEd) {
  // q_WE from R_WE, then q̃ = q_WE* ⊗ q_WEd on the short side: (2).
  const spatial::Quat q_EW = spatial::quaternion_conjugate(spatial::quaternion_from_rotation(X_WE.R));
  spatial::Quat q_err = spatial::quaternion_product(q_EW, q_WEd.normalized());
  if (q_err[0] < 0.0) q_err = -q_err;
  Vec6 e;
  e << X_WE.R.transpose() * (p_WEd_W - X_WE.p), q_err.tail<3>();
  return e;
}

ColumnVector task_priority_velocity(const TaskJacobian& J, const Vec6& primary, const Vec3& base_velocity_B,
                                    const ColumnVector& w, double lambda) {
  // (3): J†e by the weighted, damped least-squares step (eq. 31), and the secondary velocity
  // x = J_b⁺ k_b p̃_b projected as (I − J†J) x = x − J†(J x).
  ColumnVector x = ColumnVector::Zero(J.cols());
  x.head<3>() = base_velocity_B;
  const Vec6 Jx = J * x;
  return damped_least_squares_step(J, primary, lambda, w) + x - damped_least_squares_step(J, Jx, lambda, w);
}

}  // namespace uwsim::control
