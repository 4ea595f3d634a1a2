// How far one time series is from another: the figures `sim compare` reports.
// References: [Nielsen2018] Sec. 4.2 (dynamic time warping and Pearson's R between simulated
// and measured trajectories); [Kolano] Sec. V (RMSE of roll and pitch, and the RMSE after
// shifting the simulation 1.6 s in time); Sakoe & Chiba 1978 (the warping window).
//
// B is compared with A at A's sample times t_k that lie within both spans, B interpolated
// linearly there; e_k = B(t_k) − A(t_k), wrapped into (−π, π] for angles (compared on the
// circle: B is first brought to the 2π branch nearest A, sample by sample, so R and DTW see
// the same values).
//   RMSE = √(mean e²)       max = max |e|       mean = mean e (B's bias over A)
//   R    = Σ(a − ā)(b − b̄) / √(Σ(a − ā)² Σ(b − b̄)²)                        (Pearson)
//   DTW  = the mean of |a_i − b_j| along the warping path (i, j) that minimises Σ |a_i − b_j|
//          from (0, 0) to (n−1, n−1) with steps (1,0), (0,1), (1,1) and |i − j| ≤ w (window,
//          in samples); [Nielsen2018] report this "average distance" after warping. Ties
//          between predecessors go to the diagonal, then to the shorter path.
//   shift: s in [−max_shift, max_shift] minimising RMSE(s) of A(t) against B(t + s), over the
//          t with t + s in B's span: B lags A by s (s > 0: B happens later). A grid search at
//          A's median sample interval, refined by golden section within ±1 interval.
//
// Bounded work. Both series' times must be finite and strictly increasing (else
// std::invalid_argument: a search in unsorted times would read outside them). DTW fills the
// band of n·(2w + 1) cells (n compared samples, w the window in samples, at most n − 1: the
// whole matrix), keeping two rows, so O(n·w) time and O(w) memory; a comparison computes at
// most dtw_max_cells of them: a window asked for beyond that is refused (std::length_error,
// saying the widest window within it), the default window is narrowed to fit (and says so,
// dtw_narrowed). The shift search evaluates RMSE at the grid's 2·steps + 1 shifts (only those
// where the spans still overlap) and 49 more (shift 0, the golden section's 45 steps from 2 dt
// to 1e-9 dt at 0.618 a step, its two starts and its end), each over at most n samples: at
// most shift_max_samples samples in all, else std::length_error with the largest shift within.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "analysis/series.h"

namespace uwsim::analysis {

// What one `sim compare` computes at most, DTW cells and shift samples together, in all its
// series: some 0.25 s on this project's machines (3 ns a DTW cell, 4 ns a shift sample), so
// that with the largest CSV it may read (0.4 s) it stays within a second.
inline constexpr std::uint64_t kMaxCompareWork = 80'000'000;

struct CompareSettings {
  bool angle = false;           // wrap errors to (−π, π]
  std::optional<double> dtw_window;  // s (finite, ≥ 0); default 10 % of the compared span
  double max_shift = 0.0;       // s (finite, ≥ 0); 0: no shift search
  std::uint64_t dtw_max_cells = kMaxCompareWork;
  std::uint64_t shift_max_samples = kMaxCompareWork;
};

// The work compare() will do with these settings (before any narrowing), and its inputs.
struct CompareCost {
  std::size_t samples = 0;         // n: A's samples within both spans
  double interval = 0.0;           // s, A's median sample interval there
  std::size_t window = 0;          // w, samples, of the window asked for (or the default)
  std::uint64_t dtw_cells = 0;     // n·(2w + 1)
  std::uint64_t shift_samples = 0; // 0 without a shift search
};
// Throws as compare() does for series it cannot compare.
CompareCost compare_cost(const Series& a, const Series& b, const CompareSettings& settings);

struct Comparison {
  std::size_t samples = 0;
  double start = 0.0, stop = 0.0;   // s, the compared span
  double rmse = 0.0, max_error = 0.0, mean_error = 0.0;
  double pearson_r = 0.0;           // NaN when either series is constant
  double dtw = 0.0;
  double dtw_window = 0.0;          // s, as used
  bool dtw_narrowed = false;        // the default window, narrowed to dtw_max_cells
  bool has_shift = false;
  double shift = 0.0, rmse_at_shift = 0.0;
};

// Throws std::invalid_argument when the spans overlap in fewer than 2 of A's samples or the
// times are not finite and increasing, std::length_error beyond the settings' bounds.
Comparison compare(const Series& a, const Series& b, const CompareSettings& settings);

// The pieces, each tested against closed forms.
double wrap_angle(double x);  // into (−π, π]
double pearson_r(std::span<const double> a, std::span<const double> b);
// Any window: one of n − 1 or more is the whole matrix.
double dtw_mean_distance(std::span<const double> a, std::span<const double> b, std::size_t window);
// RMSE of A(t) against B(t + s) over A's samples with t + s in B's span (NaN if none).
double rmse_at_shift(const Series& a, const Series& b, double s, bool angle);

}  // namespace uwsim::analysis
