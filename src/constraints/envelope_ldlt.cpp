// References: see envelope_ldlt.h.
#include "constraints/envelope_ldlt.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace uwsim::constraints {

EnvelopeLdlt::EnvelopeLdlt(std::vector<int> first_column, double rank_tolerance)
    : first_(std::move(first_column)), rank_tolerance_(rank_tolerance) {
  const int n = size();
  start_.resize(static_cast<std::size_t>(n));
  int offset = 0;
  for (int i = 0; i < n; ++i) {
    if (first_[i] < 0 || first_[i] > i) throw std::invalid_argument("EnvelopeLdlt: first column out of range");
    start_[i] = offset;
    offset += i - first_[i] + 1;
  }
  values_.assign(static_cast<std::size_t>(offset), 0.0);
  diagonal_.assign(static_cast<std::size_t>(n), 0.0);
  dropped_.reserve(static_cast<std::size_t>(n));
  coeff_.assign(static_cast<std::size_t>(n), 0.0);
}

void EnvelopeLdlt::set_zero() { std::fill(values_.begin(), values_.end(), 0.0); }

void EnvelopeLdlt::factor() {
  const int n = size();
  dropped_.clear();
  for (int i = 0; i < n; ++i) {
    double* row_i = values_.data() + start_[i] - first_[i];  // row_i[j] = entry (i, j)
    diagonal_[i] = row_i[i];
    // (1): off-diagonal entries of row i, left to right; each uses the finished rows j < i.
    for (int j = first_[i]; j < i; ++j) {
      const double* row_j = values_.data() + start_[j] - first_[j];
      const double d_j = row_j[j];
      if (d_j == 0.0) {  // row j was dropped: its column of L is zero
        row_i[j] = 0.0;
        continue;
      }
      double s = row_i[j];
      for (int k = std::max(first_[i], first_[j]); k < j; ++k) {
        const double* row_k = values_.data() + start_[k] - first_[k];
        s -= row_i[k] * row_k[k] * row_j[k];
      }
      row_i[j] = s / d_j;
    }
    double d = row_i[i];
    for (int k = first_[i]; k < i; ++k) {
      const double* row_k = values_.data() + start_[k] - first_[k];
      d -= row_i[k] * row_i[k] * row_k[k];
    }
    if (!(d > rank_tolerance_ * diagonal_[i])) {  // dependent row (or W_ii = 0): drop it
      d = 0.0;
      dropped_.push_back(i);
    }
    row_i[i] = d;
  }
}

void EnvelopeLdlt::solve_lower(double* y) const {
  for (int i = 0; i < size(); ++i) {
    const double* row_i = values_.data() + start_[i] - first_[i];
    double s = y[i];
    for (int k = first_[i]; k < i; ++k) s -= row_i[k] * y[k];
    y[i] = s;
  }
}

void EnvelopeLdlt::solve_upper(double* x) const {
  for (int i = size() - 1; i >= 0; --i) {
    const double* row_i = values_.data() + start_[i] - first_[i];
    const double xi = x[i];
    for (int k = first_[i]; k < i; ++k) x[k] -= row_i[k] * xi;
  }
}

void EnvelopeLdlt::solve(const double* r, double* lambda) {
  const int n = size();
  if (lambda != r) std::copy(r, r + n, lambda);
  solve_lower(lambda);
  for (int i = 0; i < n; ++i) {
    const double d = values_[static_cast<std::size_t>(start_[i] + i - first_[i])];
    lambda[i] = d == 0.0 ? 0.0 : lambda[i] / d;
  }
  solve_upper(lambda);
  if (!dropped_.empty()) remove_null_space(lambda);
}

void EnvelopeLdlt::remove_null_space(double* lambda) {
  const std::size_t n = static_cast<std::size_t>(size());
  const std::size_t m = dropped_.size();
  // Grows only when a larger rank deficiency than ever before appears.
  if (null_.size() < n * m) null_.resize(n * m);
  if (gram_.size() < m * m) gram_.resize(m * m);
  for (std::size_t c = 0; c < m; ++c) {  // n_c = L⁻ᵀ e_k
    double* v = null_.data() + c * n;
    std::fill(v, v + n, 0.0);
    v[dropped_[c]] = 1.0;
    solve_upper(v);
  }
  // coeff = (Nᵀ N)⁻¹ Nᵀ λ with Nᵀ N by Cholesky: the n_c are columns of the invertible L⁻ᵀ,
  // so independent, and Nᵀ N is positive definite.
  for (std::size_t a = 0; a < m; ++a) {
    const double* va = null_.data() + a * n;
    double s = 0.0;
    for (std::size_t i = 0; i < n; ++i) s += va[i] * lambda[i];
    coeff_[a] = s;
    for (std::size_t b = 0; b <= a; ++b) {
      const double* vb = null_.data() + b * n;
      double g = 0.0;
      for (std::size_t i = 0; i < n; ++i) g += va[i] * vb[i];
      gram_[a * m + b] = g;
    }
  }
  for (std::size_t j = 0; j < m; ++j) {  // in-place Cholesky of the lower triangle
    double d = gram_[j * m + j];
    for (std::size_t k = 0; k < j; ++k) d -= gram_[j * m + k] * gram_[j * m + k];
    gram_[j * m + j] = std::sqrt(d);
    for (std::size_t i = j + 1; i < m; ++i) {
      double s = gram_[i * m + j];
      for (std::size_t k = 0; k < j; ++k) s -= gram_[i * m + k] * gram_[j * m + k];
      gram_[i * m + j] = s / gram_[j * m + j];
    }
  }
  for (std::size_t i = 0; i < m; ++i) {  // forward, then backward substitution
    double s = coeff_[i];
    for (std::size_t k = 0; k < i; ++k) s -= gram_[i * m + k] * coeff_[k];
    coeff_[i] = s / gram_[i * m + i];
  }
  for (std::size_t i = m; i-- > 0;) {
    double s = coeff_[i];
    for (std::size_t k = i + 1; k < m; ++k) s -= gram_[k * m + i] * coeff_[k];
    coeff_[i] = s / gram_[i * m + i];
  }
  for (std::size_t c = 0; c < m; ++c) {
    const double* v = null_.data() + c * n;
    for (std::size_t i = 0; i < n; ++i) lambda[i] -= coeff_[c] * v[i];
  }
}

}  // namespace uwsim::constraints
