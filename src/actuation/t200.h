// Blue Robotics T200 thruster: bollard thrust against PWM command from the manufacturer's
// sheets, "T200 Public Performance Data 10-20V September 2019" (one sheet per supply voltage:
// 10, 12, 14, 16, 18, 20 V; a row every 4 µs from 1100 to 1900 µs; tests/data/t200/README.md
// says where the rows were read). A thruster's `t200: {voltage: V}` is a `table` model with
// this table.
//
// Each sheet is shipped as the breakpoints tools/t200_tables.py picks from it: the sheet made
// non-decreasing (pool adjacent violators: a row is below the one before it in five places, by at
// most 0.02 kgf), then as few rows as keep the straight lines between them within 0.03 kgf of
// every row (the ends of the dead band kept). Between two sheets the thrust is interpolated linearly in voltage at each
// command: T(u, V) = (1 − w)·T_a(u) + w·T_b(u), w = (V − V_a)/(V_b − V_a), for the sheets
// V_a ≤ V ≤ V_b two volts apart, which is again piecewise linear in u with the breakpoints of
// both (and non-decreasing, as both are). Averaging the 14 and 18 V sheets this way reproduces
// the 16 V sheet within 0.16 kgf (3 % of its full forward thrust) at every row, most of it the
// sheets' own scatter; rounding a battery's 15 V to the 14 or 16 V sheet instead would be
// 0.37 kgf off at 1900 µs. Outside [10, 20] V there is no sheet: refused.
#pragma once

#include "inputs/table.h"

namespace uwsim::actuation {

constexpr double kT200MinVoltage = 10.0, kT200MaxVoltage = 20.0;  // V
constexpr double kKilogramForce = 9.80665;                         // N per kgf (standard gravity)

// command (µs) → thrust (N) at supply voltage `voltage` (V) in [10, 20]; throws
// std::invalid_argument outside it.
inputs::Table t200_thrust_table(double voltage);

}  // namespace uwsim::actuation
