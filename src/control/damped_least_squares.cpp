// References: [SverdrupThygeson2018] eq. 31. Equation (1): damped_least_squares.h.
#include "control/damped_least_squares.h"

namespace uwsim::control {

namespace {

// (1) with W^{-1/2} folded into the columns: J' = J W^{-1/2}, q̇ = W^{-1/2} J'ᵀ(J'J'ᵀ + λ²I)⁻¹e.
template <int M>
JointVector weighted_step(const WideMatrix<M>& J, const Eigen::Matrix<double, M, 1>& e,
                          double lambda, const JointVector& w_inv) {
  const JointVector root = w_inv.cwiseSqrt();
  const WideMatrix<M> J_scaled = J * root.asDiagonal();
  return root.cwiseProduct(damped_pseudo_inverse_solve<M>(J_scaled, e, lambda));
}

}  // namespace

JointVector damped_least_squares_step(const WideMatrix<6>& J, const Eigen::Matrix<double, 6, 1>& e,
                                      double lambda) {
  return damped_pseudo_inverse_solve<6>(J, e, lambda);
}

JointVector damped_least_squares_step(const WideMatrix<3>& J, const Eigen::Vector3d& e,
                                      double lambda) {
  return damped_pseudo_inverse_solve<3>(J, e, lambda);
}

JointVector damped_least_squares_step(const WideMatrix<6>& J, const Eigen::Matrix<double, 6, 1>& e,
                                      double lambda, const JointVector& w_inv) {
  return weighted_step<6>(J, e, lambda, w_inv);
}

JointVector damped_least_squares_step(const WideMatrix<3>& J, const Eigen::Vector3d& e,
                                      double lambda, const JointVector& w_inv) {
  return weighted_step<3>(J, e, lambda, w_inv);
}

}  // namespace uwsim::control
