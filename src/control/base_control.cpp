// References: [SverdrupThygeson2018] eq. 34. Equation numbers (1)–(2): base_control.h.
#include "control/base_control.h"

namespace uwsim::control {

spatial::Vec6 BaseVelocityControl::acceleration(const spatial::Vec6& V, const spatial::Vec6& V_r) {
  const double T = settings_.sample_period;
  const spatial::Vec6 reference_rate = started_ ? spatial::Vec6((V_r - previous_reference_) / T) : spatial::Vec6::Zero();
  previous_reference_ = V_r;
  started_ = true;
  const spatial::Vec6 error = V - V_r;
  integral_ += T * error;
  return reference_rate - settings_.kp.cwiseProduct(error) - settings_.ki.cwiseProduct(integral_);  // (2)
}

}  // namespace uwsim::control
