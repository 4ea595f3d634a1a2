// References: control/ardusub_mixer.h (ArduPilot's ArduSub/mode_manual.cpp, ArduSub/radio.cpp,
// libraries/RC_Channel/RC_Channel.cpp, libraries/AP_Motors/AP_Motors6DOF.cpp).
#include "control/ardusub_mixer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace uwsim::control {

namespace {

// AP_Motors6DOF::setup_motors(), SUB_FRAME_VECTORED (the BlueROV2: motors 1–4 horizontal, 5–6
// vertical) and SUB_FRAME_VECTORED_6DOF (the Heavy: 1–4 horizontal, 5–8 vertical); columns
// roll, pitch, yaw, throttle, forward, lateral.
constexpr MotorFactors kVectored[6] = {
    {0, 0, 1, 0, -1, 1}, {0, 0, -1, 0, -1, -1}, {0, 0, -1, 0, 1, 1}, {0, 0, 1, 0, 1, -1},
    {1, 0, 0, -1, 0, 0}, {-1, 0, 0, -1, 0, 0}};
constexpr MotorFactors kVectored6Dof[8] = {
    {0, 0, 1, 0, -1, 1}, {0, 0, -1, 0, -1, -1}, {0, 0, -1, 0, 1, 1}, {0, 0, 1, 0, 1, -1},
    {1, -1, 0, -1, 0, 0}, {-1, -1, 0, -1, 0, 0}, {1, 1, 0, -1, 0, 0}, {-1, 1, 0, -1, 0, 0}};

// output_armed_stabilizing_vectored(): the sign of the forward input whose thrust the motor's
// forward share is limited for (motors 1–2: going backward, 3–4: going forward; 0: never).
constexpr int kForwardCouplingDirection[6] = {-1, -1, 1, 1, 0, 0};

}  // namespace

int motor_count(SubFrame frame) { return frame == SubFrame::vectored ? 6 : 8; }

const MotorFactors& motor_factors(SubFrame frame, int motor) {
  if (motor < 0 || motor >= motor_count(frame)) throw std::out_of_range("motor_factors: no such motor");
  return frame == SubFrame::vectored ? kVectored[motor] : kVectored6Dof[motor];
}

// RC_Channel::norm_input() (dead_zone 0) and norm_input_dz().
double normalised_rc(double pwm, const SubMixerSettings& s) {
  const double low = s.rc_trim - s.dead_zone, high = s.rc_trim + s.dead_zone;
  double x = 0.0;
  if (pwm < low && low > s.rc_min) x = (pwm - low) / (low - s.rc_min);
  else if (pwm > high && s.rc_max > high) x = (pwm - high) / (s.rc_max - high);
  return std::clamp(x, -1.0, 1.0);
}

// ModeManual::run(): channels RC1 pitch, RC2 roll, RC3 throttle, RC4 yaw, RC5 forward, RC6 lateral.
PilotInput pilot_input(const double* rc, const SubMixerSettings& s) {
  PilotInput in;
  in.pitch = normalised_rc(rc[0], s);
  in.roll = normalised_rc(rc[1], s);
  in.throttle = normalised_rc(rc[2], s);  // set as (x + 1)/2, read back bidirectional: x
  in.yaw = normalised_rc(rc[3], s) * s.yaw_scale;
  in.forward = normalised_rc(rc[4], s);
  in.lateral = normalised_rc(rc[5], s);
  return in;
}

MixResult mix(const PilotInput& in, const SubMixerSettings& s) {
  MixResult r;
  const int n = motor_count(s.frame);
  if (s.frame == SubFrame::vectored) {
    // output_armed_stabilizing_vectored()
    const double limit = std::max(0.0, 1.0 - s.forward_vertical_coupling * std::abs(in.throttle));
    for (int i = 0; i < n; ++i) {
      const MotorFactors& f = kVectored[i];
      const int coupling = kForwardCouplingDirection[i];
      double forward = in.forward;
      if (forward != 0.0 && coupling != 0 && (forward < 0.0) == (coupling < 0)) forward = std::clamp(forward, -limit, limit);
      const double rpy = in.roll * f.roll + in.pitch * f.pitch + in.yaw * f.yaw;
      const double linear = in.throttle * f.throttle + forward * f.forward + in.lateral * f.lateral;
      r.demand[i] = s.direction[i] * (rpy + linear);
      r.thrust[i] = std::clamp(r.demand[i], -1.0, 1.0);
    }
    return r;
  }
  // output_armed_stabilizing_vectored_6dof()
  std::array<double, kMaxSubMotors> rpt{}, yfl{};
  double rpt_max = 1.0, yfl_max = 1.0;
  for (int i = 0; i < n; ++i) {
    const MotorFactors& f = kVectored6Dof[i];
    rpt[i] = in.roll * f.roll + in.pitch * f.pitch + in.throttle * f.throttle;
    yfl[i] = in.yaw * f.yaw + in.forward * f.forward + in.lateral * f.lateral;
    rpt_max = std::max(rpt_max, std::abs(rpt[i]));
    yfl_max = std::max(yfl_max, std::abs(yfl[i]));
  }
  for (int i = 0; i < n; ++i) {
    r.demand[i] = s.direction[i] * (rpt[i] + yfl[i]);
    r.thrust[i] = std::clamp(s.direction[i] * (rpt[i] / rpt_max + yfl[i] / yfl_max), -1.0, 1.0);
  }
  return r;
}

// AP_Motors6DOF::calc_thrust_to_pwm(), its int16 result.
double motor_pwm(double thrust, const SubMixerSettings& s) {
  const double range = thrust > 0.0 ? s.pwm_max - 1500.0 : 1500.0 - s.pwm_min;
  const double pwm = 1500.0 + thrust * range;
  return std::trunc(pwm + (pwm >= 0.0 ? 1e-6 : -1e-6));
}

}  // namespace uwsim::control
