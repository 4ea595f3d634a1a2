// References: [LeonGonzalez2024] Table 5; [Kolano] eq. 4. Equation numbers (1)–(4): pid.h.
#include "control/pid.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace uwsim::control {

Pid::Pid(const PidSettings& settings) : settings_(settings), clock_(settings.sample_period) {
  if (!(settings.kp >= 0.0) || !(settings.ki >= 0.0) || !(settings.kd >= 0.0))
    throw std::invalid_argument("Pid: gains must be >= 0");
  if (!(settings.torque_filter >= 0.0 && settings.torque_filter < 1.0))
    throw std::invalid_argument("Pid: torque_filter must be in [0, 1)");
  if (!(settings.output_limit >= 0.0))
    throw std::invalid_argument("Pid: output_limit must be >= 0");
}

bool Pid::update(double t, const PidSample& s) {
  if (!clock_.due(t)) return false;
  const double T = clock_.period();

  double e = 0.0, e_rate = 0.0;
  if (settings_.mode == PidMode::position) {
    e = s.setpoint - s.position;
    e_rate = s.setpoint_rate - s.velocity;
  } else {
    e = s.setpoint - s.velocity;
    e_rate = has_previous_ ? (e - error_) / T : 0.0;
  }

  const double a = settings_.torque_filter;
  const double held = a * output_ + (1.0 - a) * s.feed_forward;  // (3) without τ_PID
  const double limit = settings_.output_limit;
  const double increment = settings_.ki * T * e;                  // (1)
  double integral = integral_ + increment;
  double raw = held + settings_.kp * e + integral + settings_.kd * e_rate;  // (2), (3)
  if (settings_.anti_windup == AntiWindup::clamping &&
      ((raw > limit && increment > 0.0) || (raw < -limit && increment < 0.0))) {
    integral = integral_;
    raw = held + settings_.kp * e + integral + settings_.kd * e_rate;
  }

  output_ = std::clamp(raw, -limit, limit);  // (4)
  integral_ = integral;
  error_ = e;
  setpoint_ = s.setpoint;
  has_previous_ = true;
  clock_.advance(t);
  return true;
}

void Pid::restore(const Memory& memory) {
  integral_ = memory.integral;
  output_ = memory.previous_output;
  error_ = memory.previous_error;
  has_previous_ = true;
}

}  // namespace uwsim::control
