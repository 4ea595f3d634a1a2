// The modes of a linear system ż = A z: eigenvalues λ, with for each
//   natural frequency  ω_n = |λ|                       rad/s
//   damping ratio      ζ = −Re λ / |λ|                  (< 0: the mode grows)
//   time constant      τ = −1 / Re λ                    s (< 0: the e-folding time of growth)
// (MATLAB's damp() conventions; a real λ has ζ = ±1). An eigenvalue with |λ| at rounding
// level (a neutral direction: position, heading) is reported as 0 with ζ undefined (NaN)
// and τ infinite.
//
// Which states take part in a mode: participation factors [Pérez-Arriaga, Verghese, Schweppe
// 1982, "Selective modal analysis with applications to electric power systems", IEEE Trans.
// PAS-101(9)]: with v the right and w the left eigenvector (wᵀA = λwᵀ, wᵀv = 1),
//   p_k = |v_k·w_k| / Σ_j |v_j·w_j|                                                         (1)
// which sums to 1 over the states and, unlike |v_k|, does not depend on the units in which
// the states are measured (the product is invariant under any diagonal scaling of z).
//
// Neutral directions are split off first. Positions are pure integrals (no rate depends on
// them), but their rates depend on attitude and velocity, which chains zero eigenvalues into
// Jordan blocks in any steady motion (east drifts with the heading at speed u), where left
// eigenvectors do not exist. So, on A balanced first by a diagonal similarity D⁻¹AD
// (Osborne's iteration, powers of 2: rows and columns of like size, whatever the states'
// units [Parlett & Reinsch 1969, Numer. Math. 13]), G is the generalised kernel — the
// invariant subspace of the zero eigenvalue — grown as G₁ = null(A), G_{k+1} =
// null((1 − P_{G_k})A) until it stops growing (numerical null spaces at 1e-9 of A's largest
// singular value, so a mode with |λ| below that is neutral), and with Q = [Q_G Q_D]
// orthonormal,
//   QᵀAQ = [A_GG A_GD; 0 A_DD],   A_GG nilpotent                                          (2)
//   - G gives the neutral modes (λ = 0), one per dimension, each shown by a basis vector of G
//     that is 1 on one state and 0 on the others' (pivoted QR), with p = |v_k| / Σ|v_j|;
//   - the modes of A_DD are the others: v = Q[(λ − A_GG)⁻¹A_GD v_D; v_D], w = Q[0; w_D],
//     so that directions that only drift take no part in them by (1).
// When A_DD is itself defective or nearly so, its left eigenvectors do not exist; then
// p_k = |v_k| / Σ_j |v_j| is used instead, and flagged. With a basis N (linearize.h (2):
// z = N y), A is A_T in y, and v and w are mapped to z (N v, N w) so that p names the
// physical states.
#pragma once

#include <Eigen/Core>
#include <complex>
#include <vector>

namespace uwsim::analysis {

struct Mode {
  std::complex<double> eigenvalue;
  double natural_frequency = 0.0;  // rad/s
  double damping_ratio = 0.0;      // NaN for a neutral mode
  double time_constant = 0.0;      // s; +∞ for Re λ = 0
  bool neutral = false;            // |λ| at rounding level
  Eigen::VectorXd participation;   // (1), one per state of z
};

struct ModalAnalysis {
  std::vector<Mode> modes;         // by decreasing real part: the least stable first
  bool participation_from_magnitudes = false;  // A_DD (nearly) defective: |v_k| normalised
  int neutral = 0;                 // dim G: neutral directions (positions, heading, ...)
};

// `basis` (may be null): N, with A given in y, z = N y.
ModalAnalysis modal_analysis(const Eigen::MatrixXd& A, const Eigen::MatrixXd* basis = nullptr);

}  // namespace uwsim::analysis
