// Minimum-norm solutions of W·λ = r for a symmetric positive semi-definite W stored by its
// envelope (the lower triangle of each row from its first non-zero column), by an LDLᵀ
// factorisation that drops dependent rows. Used for the connectors' W = A·M⁻¹·Aᵀ, which is
// sparse (block-banded for a chain of vehicles) and singular when connectors are redundant.
// References: [George & Liu 1981] Ch. 4 (envelope methods; LDLᵀ fills only inside the
// envelope); [Golub & Van Loan 2013] Sec. 4.2.8 (semidefinite LDLᵀ), 5.6 (minimum norm).
//
// Factorisation (row by row, inside the envelope):
//   L_ij = (W_ij − Σ_k L_ik D_k L_jk) / D_j,   D_i = W_ii − Σ_k L_ik² D_k               (1)
// A pivot D_i ≤ rank_tolerance · W_ii marks row i as a combination of earlier rows (in exact
// arithmetic its Schur complement row is zero): D_i and column i of L are set to zero.
// Solve: L y = r, z_i = y_i / D_i (0 for dropped rows), Lᵀ λ_p = z. λ_p solves W λ = r
// whenever r lies in the range of W (always, for consistent constraints). Each dropped row k
// gives a null vector n_k = L⁻ᵀ e_k (W n_k = L D e_k = 0), and the minimum-norm solution, the
// pseudo-inverse's λ = W⁺ r, is λ_p with its null-space part removed:
//   λ = λ_p − N (Nᵀ N)⁻¹ Nᵀ λ_p                                                          (2)
// Storage and scratch are sized once; factor() and solve() do not allocate.
#pragma once

#include <vector>

namespace uwsim::constraints {

class EnvelopeLdlt {
 public:
  EnvelopeLdlt() = default;
  // first_column[i] ≤ i: the first column of row i's envelope.
  explicit EnvelopeLdlt(std::vector<int> first_column, double rank_tolerance = 1e-10);

  int size() const { return static_cast<int>(first_.size()); }
  // W_ij for first_column[i] ≤ j ≤ i; write the lower triangle here before factor().
  double& at(int i, int j) { return values_[static_cast<std::size_t>(start_[i] + j - first_[i])]; }
  void set_zero();

  void factor();                                 // (1), in place
  int rank_deficiency() const { return static_cast<int>(dropped_.size()); }
  // λ = W⁺ r (2). r and lambda have size() entries and may alias.
  void solve(const double* r, double* lambda);

 private:
  double l(int i, int j) const { return j < first_[i] ? 0.0 : values_[static_cast<std::size_t>(start_[i] + j - first_[i])]; }
  void solve_lower(double* y) const;        // L y = r in place
  void solve_upper(double* x) const;        // Lᵀ x = z in place
  void remove_null_space(double* lambda);   // (2)

  std::vector<int> first_, start_;
  std::vector<double> values_;   // row i: W (then L, with D on the diagonal) for columns first_[i]..i
  std::vector<double> diagonal_; // W_ii before factoring, for the relative rank test
  std::vector<int> dropped_;     // rows whose pivot vanished
  std::vector<double> null_;     // null vectors n_k, one per dropped row, size() each
  std::vector<double> gram_;     // Nᵀ N and its Cholesky factor
  std::vector<double> coeff_;
  double rank_tolerance_ = 1e-10;
};

}  // namespace uwsim::constraints
