// The base parameters of an identification model: the independent combinations of the full
// parameter vector θ that the efforts depend on, found numerically.
// References: [Leborne2018] Sec. III (base parameters; eq. 16–17 for the actuators); Gautier
// 1991, "Numerical calculation of the base inertial parameters of robots" (QR of an
// observation matrix at random states); Golub & Van Loan 2013 Sec. 5.4.2 (QR with column
// pivoting).
//
// With W the stacked regressor at many random states (every column a function of (q, q̇, q̈)),
// scaled to unit column norms Ws = W S⁻¹, QR with column pivoting, Ws P = Q R, gives the rank r:
// the number of pivots |R_kk| above tolerance·|R_00| (|R_kk| is the part of the k-th pivoted
// column outside the span of the previous ones). Which r columns stand for the combinations
// is then chosen in a preferred order: a column is kept when its part outside the span of the
// columns kept before it exceeds the same tolerance (Gram–Schmidt, twice for accuracy), so
// that, as in Khalil's symbolic rules, a parent's parameter absorbs its child's mass
// (MXR1 = MX1 + l·M2) rather than the other way round. If that choice does not give r columns
// (a column at the edge of the tolerance) the pivoted QR's own columns are kept. Then
//   Ws_d = Ws_b Bs  (least squares, exact for dependent columns),  W θ = W_b (θ_b + B θ_d),
//   B = S_b⁻¹ Bs S_d                                                                            (1)
// and β = θ_b + B θ_d are the base parameters. Columns that are zero at every state (a body
// fixed to the world) are in no β: nothing identifies them. Entries of Bs below 1e-10 are
// rounding and set to zero, so the expressions read like Khalil's symbolic ones.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "analysis/regressor.h"

namespace uwsim::analysis {

struct BaseParameters {
  std::vector<int> independent;  // columns of θ kept, ascending: β_k starts with θ[independent[k]]
  std::vector<int> dependent;    // the others, ascending
  Eigen::MatrixXd B;             // (1): β = θ[independent] + B θ[dependent]

  int size() const { return static_cast<int>(independent.size()); }
  Eigen::VectorXd of(const Eigen::VectorXd& theta) const;  // β of a full θ
  // "arm/link2.mx + 0.443·arm/link3.m − arm/link3.YY", from the parameters' names.
  std::string expression(int k, const std::vector<Parameter>& parameters) const;
};

// `preferred`: the columns in the order they should stand for combinations (all columns, each
// once); empty: their natural order.
BaseParameters base_parameters(const Eigen::MatrixXd& W, const std::vector<int>& preferred = {}, double tolerance = 1e-9);

}  // namespace uwsim::analysis
