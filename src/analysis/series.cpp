#include "analysis/series.h"

#include <algorithm>

namespace uwsim::analysis {

double value_at(const Series& s, double t, std::size_t& hint) {
  const std::size_t n = s.time.size();
  if (n == 1) return s.values[0];
  if (hint >= n - 1 || s.time[hint] > t) hint = 0;
  if (s.time[hint + 1] < t) {  // far away: bisect; near: the next interval
    if (hint + 2 < n && s.time[hint + 2] >= t) {
      ++hint;
    } else {
      const auto it = std::upper_bound(s.time.begin() + static_cast<long>(hint), s.time.end(), t);
      hint = std::min<std::size_t>(static_cast<std::size_t>(it - s.time.begin()), n - 1) - 1;
    }
  }
  const double t0 = s.time[hint], t1 = s.time[hint + 1];
  const double w = t1 > t0 ? (t - t0) / (t1 - t0) : 0.0;
  return s.values[hint] + w * (s.values[hint + 1] - s.values[hint]);
}

}  // namespace uwsim::analysis
