// References: see compare_metrics.h.
#include "analysis/compare_metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>

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

// Finite and strictly increasing, or the searches below would leave the arrays.
void check_times(const Series& s, const char* which) {
  for (std::size_t k = 0; k < s.time.size(); ++k)
    if (!std::isfinite(s.time[k]) || (k > 0 && !(s.time[k] > s.time[k - 1])))
      throw std::invalid_argument(std::string(which) + "'s times are not finite and increasing (sample " + std::to_string(k) + ")");
}

std::string text(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", x);
  return buffer;
}

// The window in samples: w = round(window / dt), any w ≥ n − 1 being the whole matrix.
std::size_t window_samples(double window, double dt, std::size_t n) {
  const double ratio = window / dt;
  return ratio < static_cast<double>(n - 1) ? static_cast<std::size_t>(std::llround(ratio)) : n - 1;
}

std::uint64_t band_cells(std::size_t n, std::size_t w) { return static_cast<std::uint64_t>(n) * (2 * static_cast<std::uint64_t>(w) + 1); }

// RMSE evaluations of the shift search besides its grid (compare_metrics.h).
constexpr double kSearchEvaluations = 49.0;

// The grid of the shift search, k·dt for k in [first, last]: only where the spans can overlap
// (one step more each way, so that no shift compare() would have found is left out).
struct ShiftGrid {
  double first = 0.0, last = -1.0;
  double evaluations(std::size_t n) const { return (last - first + 1.0 + kSearchEvaluations) * static_cast<double>(n); }
};
ShiftGrid shift_grid(const Series& a, const Series& b, double max_shift, double dt) {
  const double steps = std::ceil(max_shift / dt);
  return {std::max(-steps, std::floor((b.time.front() - a.time.back()) / dt) - 1.0),
          std::min(steps, std::ceil((b.time.back() - a.time.front()) / dt) + 1.0)};
}

double median_interval(std::span<const double> t) {
  std::vector<double> d(t.size() - 1);
  for (std::size_t k = 0; k + 1 < t.size(); ++k) d[k] = t[k + 1] - t[k];
  std::nth_element(d.begin(), d.begin() + static_cast<long>(d.size() / 2), d.end());
  return d[d.size() / 2];
}

// B at A's time k (shifted by s), brought to A's branch for angles; `hint` as for value_at.
double b_at(const Series& a, const Series& b, std::size_t k, double s, bool angle, std::size_t& hint) {
  const double v = value_at(b, std::clamp(a.time[k] + s, b.time.front(), b.time.back()), hint);
  return angle ? a.values[k] + wrap_angle(v - a.values[k]) : v;
}

// B at A's times of `o` (shifted by s).
std::vector<double> b_on_a(const Series& a, const Series& b, const Overlap& o, double s, bool angle) {
  std::vector<double> out(o.last - o.first);
  std::size_t hint = 0;
  for (std::size_t k = o.first; k < o.last; ++k) out[k - o.first] = b_at(a, b, k, s, angle, hint);
  return out;
}

}  // namespace

double wrap_angle(double x) {
  const double two_pi = 2.0 * std::numbers::pi;
  double y = std::fmod(x + std::numbers::pi, two_pi);
  if (y <= 0.0) y += two_pi;  // (0, 2π]
  return y - std::numbers::pi;
}

double pearson_r(std::span<const double> a, std::span<const double> b) {
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

double dtw_mean_distance(std::span<const double> a, std::span<const double> b, std::size_t window) {
  const std::size_t n = a.size(), m = b.size();
  if (n == 0 || m == 0) return kNaN;
  // The band must reach the corner (n−1, m−1); beyond max(n, m) − 1 it is the whole matrix.
  const std::size_t w = std::min(std::max(window, n > m ? n - m : m - n), std::max(n, m) - 1);
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
  double sum = 0.0;  // summed as it goes: the search calls this some hundred times
  std::size_t hint = 0;
  for (std::size_t k = o.first; k < o.last; ++k) {
    const double e = b_at(a, b, k, s, angle, hint) - a.values[k];
    sum += e * e;
  }
  return std::sqrt(sum / static_cast<double>(o.last - o.first));
}

CompareCost compare_cost(const Series& a, const Series& b, const CompareSettings& settings) {
  if (a.time.size() < 2 || b.time.empty()) throw std::invalid_argument("a series has fewer than 2 samples");
  check_times(a, "A");
  check_times(b, "B");
  const Overlap o = overlap(a, b, 0.0);
  const std::size_t n = o.last - o.first;
  if (n < 2)
    throw std::invalid_argument("the two series share fewer than 2 sample times (A spans " + text(a.time.front()) + " to " +
                                text(a.time.back()) + " s, B " + text(b.time.front()) + " to " + text(b.time.back()) + " s)");
  CompareCost cost;
  cost.samples = n;
  cost.interval = median_interval(std::span(a.time).subspan(o.first, n));
  const double window = settings.dtw_window.value_or(0.1 * (a.time[o.last - 1] - a.time[o.first]));
  if (!(window >= 0.0) || !std::isfinite(window)) throw std::invalid_argument("the DTW window must be a finite number ≥ 0");
  if (!(settings.max_shift >= 0.0) || !std::isfinite(settings.max_shift))
    throw std::invalid_argument("the largest shift must be a finite number ≥ 0");
  cost.window = window_samples(window, cost.interval, n);
  cost.dtw_cells = band_cells(n, cost.window);
  if (settings.max_shift > 0.0) {
    const double evaluations = shift_grid(a, b, settings.max_shift, cost.interval).evaluations(n);
    cost.shift_samples = evaluations < 1.8e19 ? static_cast<std::uint64_t>(evaluations) : UINT64_MAX;
  }
  return cost;
}

Comparison compare(const Series& a, const Series& b, const CompareSettings& settings) {
  const CompareCost cost = compare_cost(a, b, settings);
  const Overlap o = overlap(a, b, 0.0);
  const std::size_t n = cost.samples;
  const double dt = cost.interval;
  Comparison c;
  c.samples = n;
  c.start = a.time[o.first];
  c.stop = a.time[o.last - 1];
  // DTW's band within its budget: the diagonal (w = 0) always.
  std::size_t w = cost.window;
  if (cost.dtw_cells > settings.dtw_max_cells && w > 0) {
    const std::uint64_t fits = settings.dtw_max_cells / n;
    const std::size_t widest = fits > 1 ? static_cast<std::size_t>((fits - 1) / 2) : 0;
    if (settings.dtw_window)
      throw std::length_error("DTW within ±" + std::to_string(w) + " samples (" + text(*settings.dtw_window) + " s) of " +
                              std::to_string(n) + " takes " + std::to_string(cost.dtw_cells) + " cells, more than the " +
                              std::to_string(settings.dtw_max_cells) + " sim computes; the widest window within them is " +
                              text(static_cast<double>(widest) * dt) + " s");
    w = widest;
    c.dtw_narrowed = true;
  }
  if (settings.max_shift > 0.0 && cost.shift_samples > settings.shift_max_samples) {
    const double per_shift = static_cast<double>(n),
                 grid = static_cast<double>(settings.shift_max_samples) / per_shift - kSearchEvaluations - 1.0;
    throw std::length_error("the shift search within ±" + text(settings.max_shift) + " s at steps of " + text(dt) + " s over " +
                            std::to_string(n) + " samples evaluates " + std::to_string(cost.shift_samples) + " samples, more than the " +
                            std::to_string(settings.shift_max_samples) + " sim computes; the largest shift within them is " +
                            text(std::max(0.0, std::floor(grid / 2.0)) * dt) + " s");
  }
  const std::vector<double> bv = b_on_a(a, b, o, 0.0, settings.angle);
  const std::span<const double> av = std::span(a.values).subspan(o.first, n);  // a view: a series may hold 10^6 samples
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

  c.dtw_window = c.dtw_narrowed ? static_cast<double>(w) * dt : settings.dtw_window.value_or(0.1 * (c.stop - c.start));
  c.dtw = dtw_mean_distance(av, bv, w);

  if (settings.max_shift > 0.0) {
    double best_s = 0.0, best = rmse_at_shift(a, b, 0.0, settings.angle);
    const ShiftGrid grid = shift_grid(a, b, settings.max_shift, dt);
    for (auto k = static_cast<long>(grid.first); k <= static_cast<long>(grid.last); ++k) {
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
