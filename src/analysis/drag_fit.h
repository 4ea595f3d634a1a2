// Quadratic plus linear damping from towing-tank data: f = c₁|u|u + c₂u with c₁, c₂ ≥ 0.
// References: [Nielsen2018] Sec. 4.1, eq. 36–38 (stationary segments reduced to a mean and a
// variance per run, fused per speed by inverse-variance weighting, then eq. 38 fitted by
// bounded least squares).
//
// The model is linear in (c₁, c₂), so the fit is a weighted linear least-squares problem,
//   min Σ w_k (f_k − c₁|u_k|u_k − c₂u_k)²,  w_k = 1/P_k (or 1 without variances)          (1)
// Weighting every run by 1/P_k gives the same estimate as fusing runs at one speed first by
// eq. 36–37 and fitting the fused points. The bounds c ≥ 0 are met exactly by trying the
// unconstrained solution, then each coefficient alone (the other held at 0), and keeping the
// feasible one with the least weighted residual (the active-set solution for two unknowns).
// Uncertainty: cov = s²(AᵀWA)⁻¹ over the free coefficients, with s² = 1 when variances are
// given (they are the noise), else the residual variance Σ w r²/(m − k). A coefficient held at
// its bound has no standard deviation (reported as 0).
// Units: u in m/s (rad/s), f in N (N m); c₁ in kg/m (kg m), c₂ in kg/s (kg m²/s).
// One speed: where every point has the same |u| = s, c₁|u|u + c₂u = (c₁s + c₂)·u, so (1) has a
// line of minima: the data give c₁s + c₂ (the slope k of f = k·u) and nothing of its split into
// c₁ and c₂. Such data are refused, with k: any split reported would be arbitrary.
#pragma once

#include <vector>

namespace uwsim::analysis {

struct DragFit {
  double quadratic = 0.0, linear = 0.0;          // c₁, c₂
  double quadratic_std = 0.0, linear_std = 0.0;
  bool quadratic_at_bound = false, linear_at_bound = false;
  double rmse = 0.0;                             // unweighted, of the fitted force
  std::size_t points = 0;
};

// `variance` empty, or one P_k > 0 per point. Throws std::invalid_argument for fewer than 2
// points, sizes that differ, a non-positive variance, or points at fewer than two speeds |u| > 0.
DragFit fit_drag(const std::vector<double>& speed, const std::vector<double>& force, const std::vector<double>& variance = {});

}  // namespace uwsim::analysis
