// References: see thruster.h ([Nielsen2018] eq. 8, 12, 14, 39).
#include "actuation/thruster.h"

#include <algorithm>
#include <cmath>

namespace uwsim::actuation {

Vec3 direction_from_angles(double alpha, double beta) {
  // Eq. 8: t = [cos α cos β, −cos α sin β, sin α].
  return Vec3(std::cos(alpha) * std::cos(beta), -std::cos(alpha) * std::sin(beta), std::sin(alpha));
}

double shaft_speed_of(const PowerLawSpeedMap& map, double command) {
  const double d = command - map.neutral;
  if (std::abs(d) <= map.dead_band) return 0.0;
  const double x = map.neutral + std::abs(d);
  const double speed = std::max(0.0, map.a * std::pow(x, -map.b) + map.c);  // eq. 39
  return d > 0.0 ? speed : -speed;
}

double propeller_thrust(double thrust_coefficient, double advance_coefficient, double shaft_speed,
                        double advance_speed) {
  // Eq. 12: τ = T_|ω|ω·|ω|ω + T_|ω|u·|ω|·u_a.
  const double abs_speed = std::abs(shaft_speed);
  return thrust_coefficient * abs_speed * shaft_speed + advance_coefficient * abs_speed * advance_speed;
}

double commanded_lag_quantity(const ThrusterParameters& t, double command) {
  switch (t.model) {
    case ThrusterModel::linear: return t.gain * command;
    case ThrusterModel::table: return t.thrust_table.linear(command);
    case ThrusterModel::propeller:
      return t.speed_from_table ? t.speed_table.linear(command) : shaft_speed_of(t.power_law, command);
  }
  return 0.0;
}

ThrusterState evaluate_thruster(const ThrusterParameters& t, double command, double advance_speed,
                                double lagged_value) {
  ThrusterState s;
  s.command = std::clamp(command, t.command_min, t.command_max);
  s.advance_speed = advance_speed;
  const double wanted = commanded_lag_quantity(t, s.command);
  const double actual = t.time_constant > 0.0 ? lagged_value : wanted;
  if (t.time_constant > 0.0) s.lag_rate = (wanted - lagged_value) / t.time_constant;
  double thrust = actual;
  if (t.model == ThrusterModel::propeller) {
    s.shaft_speed = actual;
    thrust = propeller_thrust(t.thrust_coefficient, t.advance_coefficient, actual, advance_speed);
  }
  s.thrust = std::clamp(thrust, -t.max_thrust, t.max_thrust);
  return s;
}

}  // namespace uwsim::actuation
