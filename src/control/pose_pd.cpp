// References: [LeonGonzalez2024] Fig. 10, Table 4. Equation numbers (1)–(6): pose_pd.h.
#include "control/pose_pd.h"

#include <algorithm>
#include <stdexcept>

#include "control/attitude_error.h"

namespace uwsim::control {

using spatial::Mat3;
using spatial::Vec6;

PoseError pose_error(const PoseSetpoint& sp, const VehicleState& x) {
  const Mat3 R_WB = spatial::rotation_from_quaternion(x.q_WB.normalized());
  PoseError err;
  err.e_B.head<3>() = R_WB.transpose() * (sp.p_WBd_W - x.p_WBo_W);  // (1)
  err.e_B.tail<3>() = attitude_error(x.q_WB, sp.q_WBd);              // (2)
  err.e_rate_B.head<3>() = R_WB.transpose() * sp.v_WBd_W - x.nu.head<3>();  // (3)
  err.e_rate_B.tail<3>() = R_WB.transpose() * sp.w_WBd_W - x.nu.tail<3>();
  return err;
}

PosePd::PosePd(const PosePdSettings& settings)
    : settings_(settings), clock_(settings.sample_period) {
  if (!(settings.kp.minCoeff() >= 0.0) || !(settings.kd.minCoeff() >= 0.0) || !(settings.ki.minCoeff() >= 0.0))
    throw std::invalid_argument("PosePd: gains must be >= 0");
  if (!(settings.limit.minCoeff() >= 0.0))
    throw std::invalid_argument("PosePd: limits must be >= 0");
}

bool PosePd::update(double t, const PoseSetpoint& setpoint, const VehicleState& state) {
  if (!clock_.due(t)) return false;
  const PoseError err = pose_error(setpoint, state);
  const Vec6 pd = settings_.kp.cwiseProduct(err.e_B) + settings_.kd.cwiseProduct(err.e_rate_B) + setpoint.tau_ff_B;  // (4)
  const Vec6 increment = settings_.ki.cwiseProduct(err.e_B) * clock_.period();                 // (6)
  for (int k = 0; k < 6; ++k) {
    const double raw = pd[k] + integral_[k] + increment[k];
    const double limit = settings_.limit[k];
    const bool winds_up = (raw > limit && increment[k] > 0.0) || (raw < -limit && increment[k] < 0.0);
    if (!winds_up) integral_[k] += increment[k];
    tau_B_[k] = std::clamp(pd[k] + integral_[k], -limit, limit);                                // (5)
  }
  error_B_ = err.e_B;
  clock_.advance(t);
  return true;
}

}  // namespace uwsim::control
