// The inverse of a thruster's command → thrust map, for thrust allocation: the allocation
// computes thrusts in N (control/thrust_allocation.h), the thrusters take commands in their
// own units (µs of PWM, …). Only maps that do not depend on the flow can be inverted this
// way: `linear` (τ = gain·u) and `table` (bollard data). A `propeller`'s thrust depends on the
// advance speed (eq. 12) and is not supported here.
//
//   linear  u = τ / gain
//   table   the piecewise-linear table T(u) inverted segment by segment; where T is flat at
//           the value asked for (the dead band around neutral, where T = 0), the midpoint of
//           the flat range (so 0 N gives the neutral command 1500 µs of a symmetric table).
// Preconditions: a table's thrusts never decrease with the command (checked when a scenario
// names the thruster in an allocation); gain ≠ 0.
// Thrust range: the thrusts at the ends of the command range (command_limits, clamped to the
// table's ends for a table) and within ±max_thrust, so the allocation saturates before the
// thruster does.
#pragma once

#include "actuation/thruster.h"

namespace uwsim::actuation {

struct ThrustRange {
  double lower = 0.0;  // N, ≤ 0
  double upper = 0.0;  // N, ≥ 0
};

bool has_thrust_inverse(const Thruster& thruster);  // linear or table
ThrustRange thrust_range(const Thruster& thruster);
// The command that gives `thrust` (N); thrust outside the range gives the range's end command.
double command_for_thrust(const Thruster& thruster, double thrust);

}  // namespace uwsim::actuation
