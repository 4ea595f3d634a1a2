// References: [Fossen2011] eq. 2.18, 2.28. Equation numbers (1)–(3): pose_setpoint.h.
#include "control/pose_setpoint.h"

#include "spatial/rotation.h"

namespace uwsim::control {

using spatial::Mat3;
using spatial::Vec3;

PoseSetpoint resolve_setpoint(EulerPoseSetpoint& sp, const VehicleState& state, const HeldAxes& held) {
  const bool position_free = !(held[0] && held[1] && held[2]);
  const bool attitude_free = !(held[3] && held[4] && held[5]);
  if (position_free || attitude_free) {
    const Mat3 R_WB = spatial::rotation_from_quaternion(state.q_WB.normalized());
    const Vec3 v_W = R_WB * state.nu.head<3>();
    const Vec3 rpy = spatial::euler_zyx_from_rotation(R_WB);
    const Vec3 rpy_rate = spatial::euler_zyx_rates(rpy, R_WB * state.nu.tail<3>());
    for (int k = 0; k < 3; ++k) {
      if (!held[static_cast<std::size_t>(k)]) {  // (1)
        sp.p_WBd_W[k] = state.p_WBo_W[k];
        sp.v_WBd_W[k] = v_W[k];
      }
      if (!held[static_cast<std::size_t>(k + 3)]) {  // (2)
        sp.rpy_d[k] = rpy[k];
        sp.rpy_rate_d[k] = rpy_rate[k];
      }
    }
  }
  PoseSetpoint out;  // (3)
  out.p_WBd_W = sp.p_WBd_W;
  out.v_WBd_W = sp.v_WBd_W;
  out.tau_ff_B = sp.tau_ff_B;
  out.q_WBd = spatial::quaternion_from_euler_zyx(sp.rpy_d[0], sp.rpy_d[1], sp.rpy_d[2]);
  out.w_WBd_W = spatial::angular_velocity_from_euler_zyx_rates(sp.rpy_d, sp.rpy_rate_d);
  return out;
}

}  // namespace uwsim::control
