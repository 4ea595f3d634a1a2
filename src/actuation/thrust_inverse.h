// The inverse of a thruster's command → thrust map, for thrust allocation: the allocation
// computes thrusts in N (control/thrust_allocation.h), the thrusters take commands in their
// own units (µs of PWM, …). References: [Nielsen2018] eq. 12, 39.
//
//   linear     u = τ / gain
//   table      the piecewise-linear table T(u) inverted segment by segment; where T is flat at
//              the value asked for (the dead band around neutral, where T = 0), the midpoint of
//              the flat range (so 0 N gives the neutral command 1500 µs of a symmetric table).
//   propeller  eq. 12 solved for the shaft speed at the advance speed u_a the allocation
//              sampled (T₁ = T_|ω|ω > 0, T₂ = T_|ω|u, B = T₂·u_a):
//                τ > 0:  ω =  (−B + √(B² + 4T₁τ)) / (2T₁)     (forward branch, ω > 0)     (1)
//                τ < 0:  ω = −( B + √(B² − 4T₁τ)) / (2T₁)     (reverse branch, ω < 0)     (2)
//                τ = 0:  ω = 0 (the neutral command)
//              then the speed map inverted: eq. 39's power law ω = a·x^(−b) + c gives
//              x = ((|ω| − c)/a)^(−1/b) on the forward side, mirrored about `neutral` for
//              reverse, and no less than the dead band's edge; a speed table is inverted as a
//              thrust table is. The spin-up lag is not inverted: the thrust is reached after it.
// Preconditions: a table's thrusts (or shaft speeds) never decrease with the command, and a
// power law's speed increases with it (a·b < 0) — checked when a scenario names the thruster
// in an allocation; gain ≠ 0; T₁ > 0.
// Thrust range: the thrusts at the ends of the command range (command_limits, clamped to a
// table's ends) at the advance speed, within ±max_thrust, so the allocation saturates before
// the thruster does. With u_a > 0 and T₂ < 0 the forward range shrinks as the flow grows (at
// u_a ≥ −T₁ω_max/T₂ the thruster cannot push forward at all: upper = 0).
#pragma once

#include "actuation/thruster.h"

namespace uwsim::actuation {

struct ThrustRange {
  double lower = 0.0;  // N, ≤ 0
  double upper = 0.0;  // N, ≥ 0
};

// At advance speed u_a (m/s; only a propeller depends on it).
ThrustRange thrust_range(const ThrusterParameters& thruster, double advance_speed);
// The command that gives `thrust` (N) at advance speed u_a; thrust outside the range gives the
// range's end command.
double command_for_thrust(const ThrusterParameters& thruster, double thrust, double advance_speed);

}  // namespace uwsim::actuation
