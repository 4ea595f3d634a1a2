// References: [Nielsen2018] eq. 12, 39. Equation numbers (1)–(2): thrust_inverse.h.
#include "actuation/thrust_inverse.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace uwsim::actuation {

namespace {

// The smallest (from_low) or largest command u of the table with T(u) = tau, T(x_0) ≤ tau ≤ T(x_n).
double table_crossing(const inputs::Table& t, double tau, bool from_low) {
  const std::size_t n = t.x.size();
  if (n == 1) return t.x[0];
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const std::size_t k = from_low ? i : n - 2 - i;
    const double y0 = t.y[k], y1 = t.y[k + 1];
    if (!(std::min(y0, y1) <= tau && tau <= std::max(y0, y1))) continue;
    if (y0 == y1) return from_low ? t.x[k] : t.x[k + 1];
    return t.x[k] + (tau - y0) * (t.x[k + 1] - t.x[k]) / (y1 - y0);
  }
  return tau < t.y.front() ? t.x.front() : t.x.back();
}

// The command of a monotone table's value y: the midpoint of where the table equals y.
double table_inverse(const inputs::Table& t, double y) {
  return 0.5 * (table_crossing(t, y, true) + table_crossing(t, y, false));
}

const inputs::Table* command_table(const ThrusterParameters& t) {
  if (t.model == ThrusterModel::table) return &t.thrust_table;
  if (t.model == ThrusterModel::propeller && t.speed_from_table) return &t.speed_table;
  return nullptr;
}

double lowest_command(const ThrusterParameters& t) {
  const inputs::Table* table = command_table(t);
  return table ? std::max(t.command_min, table->x.front()) : t.command_min;
}
double highest_command(const ThrusterParameters& t) {
  const inputs::Table* table = command_table(t);
  return table ? std::min(t.command_max, table->x.back()) : t.command_max;
}

// Eq. 39's power law, inverted on the forward side: the x ≥ neutral + dead band with ω(x) = w > 0.
double power_law_position(const PowerLawSpeedMap& m, double w) {
  const double edge = m.neutral + m.dead_band;
  const double ratio = (w - m.c) / m.a;
  if (!(ratio > 0.0)) return std::numeric_limits<double>::infinity();  // beyond the asymptote c
  return std::max(edge, std::pow(ratio, -1.0 / m.b));
}

// The shaft speed at a command (its limits and a table's ends applied), for the range.
double speed_at(const ThrusterParameters& t, double command) {
  if (!std::isfinite(command)) {  // the power law's asymptote ±c (a table's ends hold)
    if (t.speed_from_table) return command > 0 ? t.speed_table.y.back() : t.speed_table.y.front();
    return command > 0 ? std::max(0.0, t.power_law.c) : -std::max(0.0, t.power_law.c);
  }
  return commanded_lag_quantity(t, command);
}

// The command that gives shaft speed ω.
double command_for_speed(const ThrusterParameters& t, double w) {
  if (t.speed_from_table) return table_inverse(t.speed_table, w);
  const PowerLawSpeedMap& m = t.power_law;
  if (w == 0.0) return m.neutral;
  const double x = power_law_position(m, std::abs(w));
  return w > 0.0 ? x : 2.0 * m.neutral - x;
}

}  // namespace

ThrustRange thrust_range(const ThrusterParameters& t, double advance_speed) {
  const double inf = std::numeric_limits<double>::infinity();
  double a = 0.0, b = 0.0;
  switch (t.model) {
    case ThrusterModel::table:
      a = t.thrust_table.linear(lowest_command(t));
      b = t.thrust_table.linear(highest_command(t));
      break;
    case ThrusterModel::linear: {
      const double lo = t.command_min, hi = t.command_max;
      a = std::isfinite(lo) ? t.gain * lo : (t.gain > 0 ? -inf : inf);
      b = std::isfinite(hi) ? t.gain * hi : (t.gain > 0 ? inf : -inf);
      break;
    }
    case ThrusterModel::propeller:
      // Eq. 12 at the fastest reverse and forward speeds; each branch's thrust is monotone
      // beyond its zero crossing, so these are the extremes (or 0 when the flow overpowers it).
      a = propeller_thrust(t.thrust_coefficient, t.advance_coefficient, std::min(0.0, speed_at(t, lowest_command(t))), advance_speed);
      b = propeller_thrust(t.thrust_coefficient, t.advance_coefficient, std::max(0.0, speed_at(t, highest_command(t))), advance_speed);
      break;
  }
  ThrustRange r{std::min(a, b), std::max(a, b)};
  r.lower = std::clamp(r.lower, -t.max_thrust, 0.0);
  r.upper = std::clamp(r.upper, 0.0, t.max_thrust);
  return r;
}

double command_for_thrust(const ThrusterParameters& t, double thrust, double advance_speed) {
  const ThrustRange r = thrust_range(t, advance_speed);
  const double tau = std::clamp(thrust, r.lower, r.upper);
  double command = 0.0;
  switch (t.model) {
    case ThrusterModel::linear: return tau / t.gain;
    case ThrusterModel::table: command = table_inverse(t.thrust_table, tau); break;
    case ThrusterModel::propeller: {
      const double T1 = t.thrust_coefficient, B = t.advance_coefficient * advance_speed;
      double w = 0.0;
      if (tau > 0.0) w = (-B + std::sqrt(B * B + 4.0 * T1 * tau)) / (2.0 * T1);        // (1)
      else if (tau < 0.0) w = -(B + std::sqrt(B * B - 4.0 * T1 * tau)) / (2.0 * T1);  // (2)
      command = command_for_speed(t, w);
      break;
    }
  }
  return std::clamp(command, lowest_command(t), highest_command(t));
}

}  // namespace uwsim::actuation
