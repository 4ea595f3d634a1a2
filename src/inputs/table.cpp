#include "inputs/table.h"

#include <algorithm>

namespace uwsim::inputs {

long Table::index_at_or_before(double at) const {
  const auto it = std::upper_bound(x.begin(), x.end(), at);
  return static_cast<long>(it - x.begin()) - 1;
}

double Table::linear(double at) const {
  const long k = index_at_or_before(at);
  if (k < 0) return y.front();
  const auto i = static_cast<std::size_t>(k);
  if (i + 1 >= x.size()) return y.back();
  const double s = (at - x[i]) / (x[i + 1] - x[i]);
  return y[i] + s * (y[i + 1] - y[i]);
}

double Table::hold(double at) const {
  const long k = index_at_or_before(at);
  return k < 0 ? y.front() : y[static_cast<std::size_t>(k)];
}

}  // namespace uwsim::inputs
