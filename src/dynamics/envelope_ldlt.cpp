// References: see envelope_ldlt.h.
#include "dynamics/envelope_ldlt.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace uwsim::dynamics {

EnvelopeLdlt::EnvelopeLdlt(std::vector<int> block_size, std::vector<int> first_block, double rank_tolerance)
    : size_(std::move(block_size)), first_(std::move(first_block)), rank_tolerance_(rank_tolerance) {
  const std::size_t n = size_.size();
  if (first_.size() != n) throw std::invalid_argument("EnvelopeLdlt: one first block per block row");
  offset_.resize(n);
  start_.resize(n);
  int blocks = 0, widest = 0;
  for (std::size_t I = 0; I < n; ++I) {
    if (size_[I] < 1 || size_[I] > 6) throw std::invalid_argument("EnvelopeLdlt: blocks have 1 to 6 rows");
    if (first_[I] < 0 || first_[I] > static_cast<int>(I)) throw std::invalid_argument("EnvelopeLdlt: first block out of range");
    offset_[I] = rows_;
    rows_ += size_[I];
    start_[I] = blocks;
    blocks += static_cast<int>(I) - first_[I] + 1;
    widest = std::max(widest, static_cast<int>(I) - first_[I] + 1);
  }
  blocks_.assign(static_cast<std::size_t>(blocks), Mat6::Zero());
  pivots_.assign(n, Vec6::Zero());
  diagonal_.assign(n, Vec6::Zero());
  t_.assign(static_cast<std::size_t>(widest), Mat6::Zero());
  work_.assign(n, Vec6::Zero());
  dropped_.reserve(static_cast<std::size_t>(rows_));
  // Room for the null vectors of up to every row (at most 32 MB; past that, storage grows the
  // first time a larger rank deficiency appears), so the step path does not allocate.
  const std::size_t reserved = std::min<std::size_t>(static_cast<std::size_t>(rows_), (std::size_t{32} << 20) / (sizeof(Vec6) * n + 1));
  null_.resize(reserved * n);
  gram_.resize(reserved * reserved);
  coeff_.resize(reserved);
}

// (2): S = L D Lᵀ by scalar LDLᵀ of the d×d block, dropping dependent rows; padding rows get a
// unit diagonal and a zero pivot.
void EnvelopeLdlt::factor_diagonal(int I, Mat6& S) {
  const int d = size_[static_cast<std::size_t>(I)];
  Vec6& D = pivots_[static_cast<std::size_t>(I)];
  const Vec6& W_ii = diagonal_[static_cast<std::size_t>(I)];
  D.setZero();
  for (int j = 0; j < d; ++j) {
    double p = S(j, j);
    for (int k = 0; k < j; ++k) p -= S(j, k) * S(j, k) * D[k];
    const bool dropped = !(p > rank_tolerance_ * W_ii[j]);
    D[j] = dropped ? 0.0 : p;
    if (dropped) dropped_.push_back(offset_[static_cast<std::size_t>(I)] + j);
    for (int i = j + 1; i < d; ++i) {
      double s = S(i, j);
      for (int k = 0; k < j; ++k) s -= S(i, k) * S(j, k) * D[k];
      S(i, j) = dropped ? 0.0 : s / D[j];
    }
  }
  // Unit lower triangle, zero above; padding rows and columns of an identity.
  for (int j = 0; j < 6; ++j) {
    for (int i = 0; i < j; ++i) S(i, j) = 0.0;
    S(j, j) = 1.0;
    if (j >= d)
      for (int i = j + 1; i < 6; ++i) S(i, j) = 0.0;
  }
}

void EnvelopeLdlt::factor() {
  dropped_.clear();
  const int n = static_cast<int>(size_.size());
  for (int I = 0; I < n; ++I) {
    const int fI = first_[static_cast<std::size_t>(I)];
    for (int J = fI; J < I; ++J) {  // (1)
      Mat6 T = block(I, J);
      for (int K = std::max(fI, first_[static_cast<std::size_t>(J)]); K < J; ++K)
        T.noalias() -= t_[static_cast<std::size_t>(K - fI)] * block(J, K).transpose();
      // T L_JJ⁻ᵀ: solve X L_JJᵀ = T column by column, X_j = T_j − Σ_{k<j} X_k L_jk.
      const Mat6& L_JJ = block(J, J);
      for (int j = 1; j < 6; ++j)
        for (int k = 0; k < j; ++k) T.col(j) -= L_JJ(j, k) * T.col(k);
      t_[static_cast<std::size_t>(J - fI)] = T;
      const Vec6& D = pivots_[static_cast<std::size_t>(J)];
      Mat6& L = block(I, J);
      for (int j = 0; j < 6; ++j) L.col(j) = D[j] == 0.0 ? Vec6::Zero() : Vec6(T.col(j) / D[j]);
    }
    Mat6& S = block(I, I);  // only its lower triangle is read
    diagonal_[static_cast<std::size_t>(I)] = S.diagonal();
    for (int K = fI; K < I; ++K) S.noalias() -= t_[static_cast<std::size_t>(K - fI)] * block(I, K).transpose();
    factor_diagonal(I, S);
  }
  if (!dropped_.empty()) prepare_null_space();
}

void EnvelopeLdlt::solve_lower(Vec6* y) const {
  for (std::size_t I = 0; I < size_.size(); ++I) {
    for (int J = first_[I]; J < static_cast<int>(I); ++J) y[I].noalias() -= block(static_cast<int>(I), J) * y[J];
    const Mat6& L = block(static_cast<int>(I), static_cast<int>(I));
    for (int i = 1; i < 6; ++i)
      for (int k = 0; k < i; ++k) y[I][i] -= L(i, k) * y[I][k];
  }
}

void EnvelopeLdlt::solve_upper(Vec6* x) const {
  for (std::size_t I = size_.size(); I-- > 0;) {
    const Mat6& L = block(static_cast<int>(I), static_cast<int>(I));
    for (int i = 4; i >= 0; --i)
      for (int k = i + 1; k < 6; ++k) x[I][i] -= L(k, i) * x[I][k];
    for (int J = first_[I]; J < static_cast<int>(I); ++J) x[J].noalias() -= block(static_cast<int>(I), J).transpose() * x[I];
  }
}

void EnvelopeLdlt::solve(const double* r, double* lambda) {
  const std::size_t n = size_.size();
  for (std::size_t I = 0; I < n; ++I) {
    work_[I].setZero();
    for (int i = 0; i < size_[I]; ++i) work_[I][i] = r[offset_[I] + i];
  }
  // r's part outside the range of W (contradictory rows, e.g. Baumgarte terms of a drifted
  // loop) is what W⁺ ignores: remove it, so that the rows kept are solved for exactly W⁺ r.
  if (!dropped_.empty()) project_out_null_space(work_.data());
  solve_lower(work_.data());
  for (std::size_t I = 0; I < n; ++I)
    for (int i = 0; i < 6; ++i) work_[I][i] = pivots_[I][i] == 0.0 ? 0.0 : work_[I][i] / pivots_[I][i];
  solve_upper(work_.data());
  if (!dropped_.empty()) project_out_null_space(work_.data());  // (3)
  for (std::size_t I = 0; I < n; ++I)
    for (int i = 0; i < size_[I]; ++i) lambda[offset_[I] + i] = work_[I][i];
}

void EnvelopeLdlt::prepare_null_space() {
  const std::size_t blocks = size_.size(), m = dropped_.size();
  if (null_.size() < blocks * m) null_.resize(blocks * m);  // only past the reserved deficiency
  if (gram_.size() < m * m) gram_.resize(m * m), coeff_.resize(m);
  for (std::size_t c = 0; c < m; ++c) {  // n_c = L⁻ᵀ e_k
    Vec6* v = null_.data() + c * blocks;
    std::fill(v, v + blocks, Vec6::Zero());
    const int row = dropped_[c];
    const std::size_t I = static_cast<std::size_t>(std::upper_bound(offset_.begin(), offset_.end(), row) - offset_.begin() - 1);
    v[I][row - offset_[I]] = 1.0;
    solve_upper(v);
  }
  // Nᵀ N = C Cᵀ by Cholesky: the n_c are columns of the invertible L⁻ᵀ, so independent.
  for (std::size_t a = 0; a < m; ++a)
    for (std::size_t b = 0; b <= a; ++b) gram_[a * m + b] = dot(null_.data() + a * blocks, null_.data() + b * blocks);
  for (std::size_t j = 0; j < m; ++j) {
    double d = gram_[j * m + j];
    for (std::size_t k = 0; k < j; ++k) d -= gram_[j * m + k] * gram_[j * m + k];
    gram_[j * m + j] = std::sqrt(d);
    for (std::size_t i = j + 1; i < m; ++i) {
      double s = gram_[i * m + j];
      for (std::size_t k = 0; k < j; ++k) s -= gram_[i * m + k] * gram_[j * m + k];
      gram_[i * m + j] = s / gram_[j * m + j];
    }
  }
}

double EnvelopeLdlt::dot(const Vec6* a, const Vec6* b) const {
  double s = 0.0;
  for (std::size_t I = 0; I < size_.size(); ++I) s += a[I].dot(b[I]);
  return s;
}

void EnvelopeLdlt::project_out_null_space(Vec6* x) {
  const std::size_t blocks = size_.size(), m = dropped_.size();
  for (std::size_t a = 0; a < m; ++a) coeff_[a] = dot(null_.data() + a * blocks, x);  // Nᵀ x
  for (std::size_t i = 0; i < m; ++i) {  // (Nᵀ N)⁻¹ Nᵀ x
    double s = coeff_[i];
    for (std::size_t k = 0; k < i; ++k) s -= gram_[i * m + k] * coeff_[k];
    coeff_[i] = s / gram_[i * m + i];
  }
  for (std::size_t i = m; i-- > 0;) {
    double s = coeff_[i];
    for (std::size_t k = i + 1; k < m; ++k) s -= gram_[k * m + i] * coeff_[k];
    coeff_[i] = s / gram_[i * m + i];
  }
  for (std::size_t c = 0; c < m; ++c)
    for (std::size_t I = 0; I < blocks; ++I) x[I] -= coeff_[c] * null_[c * blocks + I];
}

}  // namespace uwsim::dynamics
