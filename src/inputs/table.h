// A function given by a table of points (x_k, y_k), x strictly increasing: linear interpolation
// between points, or the value of the last point at or before x (zero-order hold); outside
// the table the end values hold. Used for time schedules (x = t) and for command → thrust or
// command → shaft speed maps (x = command). Evaluation does not allocate (binary search).
#pragma once

#include <vector>

namespace uwsim::inputs {

enum class Interpolation { linear, hold };

struct Table {
  std::vector<double> x;  // strictly increasing, at least one point
  std::vector<double> y;

  // Index k of the last point with x_k ≤ at, or −1 if `at` lies before the first point.
  long index_at_or_before(double at) const;
  // Linear interpolation, clamped to the end values outside [x_0, x_n].
  double linear(double at) const;
  // y_k of the last point with x_k ≤ at (y_0 before the first point).
  double hold(double at) const;
};

}  // namespace uwsim::inputs
