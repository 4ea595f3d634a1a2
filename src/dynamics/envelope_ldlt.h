// Minimum-norm solutions of W·λ = r for a symmetric positive semi-definite W made of blocks
// (one per connector, 3 or 6 rows) and stored by its block envelope (each block row from its
// first non-zero block), by a block LDLᵀ factorisation that drops dependent rows. Used for the
// connectors' W = A·M⁻¹·Aᵀ, which is sparse (block-tridiagonal for a chain of vehicles) and
// singular when connectors are redundant.
// References: [George & Liu 1981] Ch. 4 (envelope methods: LDLᵀ fills only inside the
// envelope); [Golub & Van Loan 2013] Sec. 4.2 (LDLᵀ, semidefinite case), 5.6 (minimum norm).
//
// Factorisation, block row I, for J = first(I) … I − 1 (up-looking, T = L·D):
//   T_IJ = W_IJ − Σ_K T_IK L_JKᵀ,   L_IJ = T_IJ L_JJ⁻ᵀ D_J⁻¹                               (1)
//   S_II = W_II − Σ_K T_IK L_IKᵀ = L_II D_I L_IIᵀ   (a scalar LDLᵀ of the d×d block)       (2)
// with K over first(I) … J − 1. The block products are fixed-size 6×6 (smaller blocks are
// zero-padded), so the work is a few dense products per block rather than scalar recurrences.
// A pivot D_i ≤ rank_tolerance · W_ii marks row i as a combination of earlier rows (in exact
// arithmetic its Schur complement row is zero): D_i and column i of L are set to zero.
// Each dropped row k gives a null vector n_k = L⁻ᵀ e_k (W n_k = L D e_k = 0); with N their
// columns, P = 1 − N (Nᵀ N)⁻¹ Nᵀ projects onto the range of W. Solve: r' = P r, then L y = r',
// z_i = y_i / D_i (0 for dropped rows), Lᵀ λ_p = z, which solves W λ = r' exactly, and
//   λ = P λ_p = W⁺ r                                                                      (3)
// the pseudo-inverse's minimum-norm (least-squares, if r has a part outside the range) answer.
// Storage is sized once (null vectors for up to every row, as far as 32 MB of them go);
// factor() and solve() do not allocate unless a rank deficiency goes past that reserve.
#pragma once

#include <vector>

#include "spatial/spatial.h"

namespace uwsim::dynamics {

using spatial::Mat6;
using spatial::Vec6;

class EnvelopeLdlt {
 public:
  EnvelopeLdlt() = default;
  // block_size[I] ∈ 1…6 rows; first_block[I] ≤ I: the first block of block row I's envelope.
  EnvelopeLdlt(std::vector<int> block_size, std::vector<int> first_block, double rank_tolerance = 1e-10);

  int size() const { return rows_; }                // scalar rows
  int offset(int I) const { return offset_[static_cast<std::size_t>(I)]; }  // first scalar row of block I
  // W_IJ for first_block[I] ≤ J ≤ I (for J = I only the lower triangle is read); write W
  // here (top-left d_I × d_J, the rest zero) before factor().
  Mat6& block(int I, int J) { return blocks_[static_cast<std::size_t>(start_[static_cast<std::size_t>(I)] + J - first_[static_cast<std::size_t>(I)])]; }

  void factor();                                    // (1), (2)
  int rank_deficiency() const { return static_cast<int>(dropped_.size()); }
  // λ = W⁺ r (3): r and lambda have size() entries and may alias.
  void solve(const double* r, double* lambda);

 private:
  const Mat6& block(int I, int J) const { return blocks_[static_cast<std::size_t>(start_[static_cast<std::size_t>(I)] + J - first_[static_cast<std::size_t>(I)])]; }
  void factor_diagonal(int I, Mat6& S);
  void solve_lower(Vec6* y) const;   // L y = r in place, block vectors
  void solve_upper(Vec6* x) const;   // Lᵀ x = z in place
  void prepare_null_space();                 // N and the Cholesky factor of Nᵀ N
  void project_out_null_space(Vec6* x);      // x ← P x, (3)
  double dot(const Vec6* a, const Vec6* b) const;  // over all blocks

  int rows_ = 0;
  std::vector<int> size_, first_, offset_, start_;
  std::vector<Mat6> blocks_;     // W, then L (unit diagonal blocks)
  std::vector<Vec6> pivots_;     // D per block (0 for dropped and padding rows)
  std::vector<Vec6> diagonal_;   // W_ii before factoring, for the relative rank test
  std::vector<Mat6> t_;          // T_IJ of the block row being factored
  std::vector<Vec6> work_;       // solve scratch, one padded vector per block
  std::vector<int> dropped_;     // scalar rows whose pivot vanished
  std::vector<Vec6> null_;       // null vectors, blocks() entries each
  std::vector<double> gram_, coeff_;
  double rank_tolerance_ = 1e-10;
};

}  // namespace uwsim::dynamics
