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

double lowest_command(const Thruster& t) {
  return t.model == ThrusterModel::table ? std::max(t.command_min, t.thrust_table.x.front()) : t.command_min;
}
double highest_command(const Thruster& t) {
  return t.model == ThrusterModel::table ? std::min(t.command_max, t.thrust_table.x.back()) : t.command_max;
}

}  // namespace

bool has_thrust_inverse(const Thruster& t) {
  return t.model == ThrusterModel::linear || t.model == ThrusterModel::table;
}

ThrustRange thrust_range(const Thruster& t) {
  const double inf = std::numeric_limits<double>::infinity();
  double a = 0.0, b = 0.0;
  if (t.model == ThrusterModel::table) {
    a = t.thrust_table.linear(lowest_command(t));
    b = t.thrust_table.linear(highest_command(t));
  } else {
    const double lo = t.command_min, hi = t.command_max;
    a = std::isfinite(lo) ? t.gain * lo : (t.gain > 0 ? -inf : inf);
    b = std::isfinite(hi) ? t.gain * hi : (t.gain > 0 ? inf : -inf);
  }
  ThrustRange r{std::min(a, b), std::max(a, b)};
  r.lower = std::clamp(r.lower, -t.max_thrust, 0.0);
  r.upper = std::clamp(r.upper, 0.0, t.max_thrust);
  return r;
}

double command_for_thrust(const Thruster& t, double thrust) {
  const ThrustRange r = thrust_range(t);
  const double tau = std::clamp(thrust, r.lower, r.upper);
  if (t.model == ThrusterModel::linear) return tau / t.gain;
  const double low = table_crossing(t.thrust_table, tau, true);
  const double high = table_crossing(t.thrust_table, tau, false);
  return std::clamp(0.5 * (low + high), lowest_command(t), highest_command(t));
}

}  // namespace uwsim::actuation
