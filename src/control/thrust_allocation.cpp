// References: [SverdrupThygeson2018] eq. 36–37. Equation numbers (1)–(3): thrust_allocation.h.
#include "control/thrust_allocation.h"

#include <algorithm>
#include <cmath>

namespace uwsim::control {

ColumnVector allocate_unsaturated(const ConfigurationMatrix& T, const spatial::Vec6& tau_c_B,
                                  double lambda) {
  return damped_pseudo_inverse_solve<6>(T, tau_c_B, lambda);  // (1)
}

AllocationResult allocate_thrust(const ConfigurationMatrix& T, const spatial::Vec6& tau_c_B,
                                 double lambda, const ColumnVector& lower,
                                 const ColumnVector& upper) {
  AllocationResult result;
  result.thrust = allocate_unsaturated(T, tau_c_B, lambda);
  for (Eigen::Index j = 0; j < result.thrust.size(); ++j) {  // (2)
    const double u = result.thrust[j];
    const double limit = u > 0.0 ? upper[j] : -lower[j];
    if (std::abs(u) > limit) result.scale = std::min(result.scale, limit / std::abs(u));
  }
  result.thrust *= result.scale;  // (3)
  return result;
}

}  // namespace uwsim::control
