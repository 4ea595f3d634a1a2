// References: see compare_metrics.h.
#include "analysis/compare_metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace uwsim::analysis {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A's sample indices within B's span shifted by s.
struct Overlap {
  std::size_t first = 0, last = 0;  // [first, last)
};
Overlap overlap(const Series& a, const Series& b, double s) {
  Overlap o;
  const double lo = b.time.front() - s, hi = b.time.back() - s;
  o.first = static_cast<std::size_t>(std::lower_bound(a.time.begin(), a.time.end(), lo) - a.time.begin());
  o.last = static_cast<std::size_t>(std::upper_bound(a.time.begin(), a.time.end(), hi) - a.time.begin());
  if (o.last < o.first) o.last = o.first;
  return o;
}

double median_interval(const std::vector<double>& t) {
  std::vector<double> d(t.size() - 1);
  for (std::size_t k = 0; k + 1 < t.size(); ++k) d[k] = t[k + 1] - t[k];
  std::nth_element(d.begin(), d.begin() + static_cast<long>(d.size() / 2), d.end());
  return d[d.size() / 2];
}

// B at A's times of `o` (shifted by s), brought to A's branch for angles.
std::vector<double> b_on_a(const Series& a, const Series& b, const Overlap& o, double s, bool angle) {
  std::vector<double> out(o.last - o.first);
  std::size_t hint = 0;
  for (std::size_t k = o.first; k < o.last; ++k) {
    const double v = value_at(b, std::clamp(a.time[k] + s, b.time.front(), b.time.back()), hint);
    out[k - o.first] = angle ? a.values[k] + wrap_angle(v - a.values[k]) : v;
  }
  return out;
}

}  // namespace

double wrap_angle(double x) {
  const double two_pi = 2.0 * std::numbers::pi;
  double y = std::fmod(x + std::numbers::pi, two_pi);
  if (y <= 0.0) y += two_pi;  // (0, 2π]
  return y - std::numbers::pi;
}

double pearson_r(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = a.size();
  double ma = 0.0, mb = 0.0;
  for (std::size_t k = 0; k < n; ++k) ma += a[k], mb += b[k];
  ma /= static_cast<double>(n), mb /= static_cast<double>(n);
  double sab = 0.0, saa = 0.0, sbb = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    sab += (a[k] - ma) * (b[k] - mb);
    saa += (a[k] - ma) * (a[k] - ma);
    sbb += (b[k] - mb) * (b[k] - mb);
  }
  if (saa == 0.0 || sbb == 0.0) return kNaN;
  return sab / std::sqrt(saa * sbb);
}

double dtw_mean_distance(const std::vector<double>& a, const std::vector<double>& b, std::size_t window) {
  const std::size_t n = a.size(), m = b.size();
  if (n == 0 || m == 0) return kNaN;
  // The band must reach the corner (n−1, m−1).
  const std::size_t w = std::max(window, n > m ? n - m : m - n);
  const double inf = std::numeric_limits<double>::infinity();
  // Row i holds columns j in [i − w, i + w] ∩ [0, m): cost D and path length L, two rows kept.
  const std::size_t width = 2 * w + 1;
  std::vector<double> D_prev(width, inf), D_cur(width, inf);
  std::vector<std::size_t> L_prev(width, 0), L_cur(width, 0);
  const auto slot = [&](std::size_t i, std::size_t j) { return j + w - i; };  // j − i + w
  for (std::size_t i = 0; i < n; ++i) {
    std::fill(D_cur.begin(), D_cur.end(), inf);
    const std::size_t j_lo = i > w ? i - w : 0, j_hi = std::min(m - 1, i + w);
    for (std::size_t j = j_lo; j <= j_hi; ++j) {
      const double d = std::abs(a[i] - b[j]);
      double best = inf;
      std::size_t length = 0;
      const auto consider = [&](double D, std::size_t L) {
        if (D < best || (D == best && L + 1 < length)) best = D, length = L + 1;
      };
      if (i == 0 && j == 0) {
        best = 0.0, length = 1;
      } else {
        if (i > 0 && j > 0 && j - 1 + w >= i - 1 && j - 1 <= i - 1 + w)  // diagonal first
          consider(D_prev[slot(i - 1, j - 1)], L_prev[slot(i - 1, j - 1)]);
        if (i > 0 && j + w >= i - 1 && j <= i - 1 + w) consider(D_prev[slot(i - 1, j)], L_prev[slot(i - 1, j)]);
        if (j > j_lo) consider(D_cur[slot(i, j - 1)], L_cur[slot(i, j - 1)]);
      }
      D_cur[slot(i, j)] = best + d;
      L_cur[slot(i, j)] = length;
    }
    std::swap(D_prev, D_cur);
    std::swap(L_prev, L_cur);
  }
  const std::size_t corner = slot(n - 1, m - 1);
  return D_prev[corner] / static_cast<double>(L_prev[corner]);
}

double rmse_at_shift(const Series& a, const Series& b, double s, bool angle) {
  const Overlap o = overlap(a, b, s);
  if (o.last == o.first) return kNaN;
  const std::vector<double> bv = b_on_a(a, b, o, s, angle);
  double sum = 0.0;
  for (std::size_t k = o.first; k < o.last; ++k) sum += (bv[k - o.first] - a.values[k]) * (bv[k - o.first] - a.values[k]);
  return std::sqrt(sum / static_cast<double>(o.last - o.first));
}

Comparison compare(const Series& a, const Series& b, const CompareSettings& settings) {
  if (a.time.size() < 2 || b.time.empty()) throw std::invalid_argument("a series has fewer than 2 samples");
  const Overlap o = overlap(a, b, 0.0);
  const std::size_t n = o.last - o.first;
  if (n < 2)
    throw std::invalid_argument("the two series share fewer than 2 sample times (A spans " + std::to_string(a.time.front()) +
                                " to " + std::to_string(a.time.back()) + " s, B " + std::to_string(b.time.front()) + " to " +
                                std::to_string(b.time.back()) + " s)");
  Comparison c;
  c.samples = n;
  c.start = a.time[o.first];
  c.stop = a.time[o.last - 1];
  const std::vector<double> bv = b_on_a(a, b, o, 0.0, settings.angle);
  const std::vector<double> av(a.values.begin() + static_cast<long>(o.first), a.values.begin() + static_cast<long>(o.last));
  double sum2 = 0.0, sum = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const double e = bv[k] - av[k];
    sum2 += e * e;
    sum += e;
    c.max_error = std::max(c.max_error, std::abs(e));
  }
  c.rmse = std::sqrt(sum2 / static_cast<double>(n));
  c.mean_error = sum / static_cast<double>(n);
  c.pearson_r = pearson_r(av, bv);

  const std::vector<double> span_times(a.time.begin() + static_cast<long>(o.first), a.time.begin() + static_cast<long>(o.last));
  const double dt = median_interval(span_times);
  c.dtw_window = settings.dtw_window.value_or(0.1 * (c.stop - c.start));
  c.dtw = dtw_mean_distance(av, bv, static_cast<std::size_t>(std::llround(c.dtw_window / dt)));

  if (settings.max_shift > 0.0) {
    double best_s = 0.0, best = rmse_at_shift(a, b, 0.0, settings.angle);
    const long steps = static_cast<long>(std::ceil(settings.max_shift / dt));
    for (long k = -steps; k <= steps; ++k) {
      const double s = std::clamp(static_cast<double>(k) * dt, -settings.max_shift, settings.max_shift);
      const double r = rmse_at_shift(a, b, s, settings.angle);
      if (r < best) best = r, best_s = s;
    }
    // Golden section on [s* − dt, s* + dt] within the range.
    double lo = std::max(-settings.max_shift, best_s - dt), hi = std::min(settings.max_shift, best_s + dt);
    const double g = 0.5 * (std::sqrt(5.0) - 1.0);
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = rmse_at_shift(a, b, x1, settings.angle), f2 = rmse_at_shift(a, b, x2, settings.angle);
    for (int it = 0; it < 60 && hi - lo > 1e-9 * dt; ++it) {
      if (f1 < f2) hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = rmse_at_shift(a, b, x1, settings.angle);
      else lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = rmse_at_shift(a, b, x2, settings.angle);
    }
    const double s = 0.5 * (lo + hi), r = rmse_at_shift(a, b, s, settings.angle);
    if (r < best) best = r, best_s = s;
    c.has_shift = true;
    c.shift = best_s;
    c.rmse_at_shift = best;
  }
  return c;
}

}  // namespace uwsim::analysis
