// Identification of an arm's dynamic parameters from joint positions and motor currents (or
// joint efforts): the pipeline of `sim identify`.
// References: [Leborne2018] Sec. III-E and IV-C/D: eq. 18 (the observation matrix F and the
// vector b of stacked currents), eq. 19 (least squares), eq. 20–21 (predicted currents and
// their RMSE on a validation trajectory); Gautier 1991 and Golub & Van Loan 2013 Sec. 5.3
// (standard deviations from the residual variance, σ̂² = ‖b − Fβ̂‖²/(m − r), cov = σ̂²(FᵀF)⁻¹).
//
//   1. Measurements sampled uniformly at T: positions are low-passed forward and backward
//      (zero_phase_filter.h: order and cutoff as given; [Leborne2018] used order 3 at a
//      normalised cutoff of 0.1, i.e. f_s/20, the default; padded by odd reflection over six
//      periods of the cutoff, see zero_phase_filter.h), then differentiated twice by
//      central differences. Currents are not filtered ([Leborne2018]: filtering them would hide
//      the dry friction). `margin` samples at each end, where the filter and the differences
//      are least accurate, are dropped: one period of the cutoff, ⌈f_s/f_c⌉.
//   2. Base parameters from the regressor at random states (base_parameters.h).
//   3. Rows of F per sample and joint, b the measurement (regressor.h, with K(q) the motor's
//      torque per ampere):
//        current rows:  F = Φ_b / K(q),   b = i − (τ_known − effort)/K(q)                        (1)
//        effort rows:   F = Φ_b,          b = τ − τ_known                                       (2)
//      ((1) is eq. 14–15 with K(q) known from the scenario's motor constants and geometry: the
//      overall scale of currents against parameters cannot come from currents alone).
//   4. β̂ = F⁺ b by QR with column pivoting; σ̂ and the standard deviations above; cond(F) =
//      σ_max/σ_min (from R of the same QR: F and R share singular values), also with F's
//      columns scaled to unit norm, which removes the units from it.
//   5. The rank of F: the singular values of F with unit-norm columns (Fs = F S⁻¹) above
//      kRankTolerance of the largest. The base parameters are independent for the model, not
//      for every record: a joint that never moves leaves its friction and inertia out of every
//      row. Then Fs has a null space N (orthonormal, from the SVD), and β_k is determined by the
//      data exactly when it has no component along N, i.e. when (N Nᵀ)_kk = 0 [Golub & Van
//      Loan 2013 Sec. 5.5: the least-squares solutions differ by elements of N]; those that are
//      not form groups, two in one group when (N Nᵀ)_kl ≠ 0 (the data give only combinations of
//      them). σ̂ then has m − rank degrees of freedom, and the determined β_k and their standard
//      deviations come from the minimum-norm solution, with (FᵀF)⁺ in place of (FᵀF)⁻¹.
// Nothing here reads files; the app layer does (app/identify_command.h).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "analysis/base_parameters.h"
#include "analysis/regressor.h"

namespace uwsim::analysis {

// Uniformly sampled records of every row of a Regressor.
struct Measurements {
  double sample_interval = 0.0;                 // T, s
  double start_time = 0.0;                      // s, time of sample 0
  std::vector<std::vector<double>> position;    // per row: q (rad or m)
  std::vector<std::vector<double>> drive;       // per row: motor current (A) or effort
  std::vector<bool> is_current;                 // per row
  std::size_t samples() const { return position.empty() ? 0 : position.front().size(); }
};

struct FilterSettings {
  int order = 3;
  double cutoff = 0.0;  // Hz; 0: f_s/20 (normalised cutoff 0.1 of the Nyquist frequency)
};

// Positions, rates and accelerations after step 1, and the matching drive samples.
struct JointTrajectories {
  std::vector<double> time;
  std::vector<std::vector<double>> q, qd, qdd, drive;  // per row
  std::vector<bool> is_current;
  double cutoff = 0.0;  // Hz, as used
  std::size_t margin = 0;
};
// Throws std::invalid_argument if too few samples remain after the margins.
JointTrajectories differentiate(const Measurements& m, const FilterSettings& filter);

// The observation matrix and measurement vector of (1)–(2) over all samples, sample-major
// (rows k·n_joints + r), and the columns `columns` of Φ.
struct Observations {
  Eigen::MatrixXd F;
  Eigen::VectorXd b;
  Eigen::VectorXd offset;  // the known part b leaves out: prediction = F β + offset
};
Observations observations(Regressor& regressor, const JointTrajectories& data, const std::vector<int>& columns);

// Base parameters of the regressor from `states` random states within the joint limits.
BaseParameters base_parameters_of(Regressor& regressor, std::uint32_t seed, int states = 0);

struct Fit {
  BaseParameters base;
  Eigen::VectorXd estimate;     // β̂
  Eigen::VectorXd std_dev;      // σ̂ of each β̂
  Eigen::VectorXd model_value;  // β of the scenario's own parameters
  double condition = 0.0;       // cond(F)
  double scaled_condition = 0.0;  // cond(F) with unit-norm columns
  double sigma = 0.0;           // residual standard deviation
  std::size_t observations = 0; // rows of F
  std::size_t left_out = 0;     // rows below min_speed
  Eigen::MatrixXd covariance;
  // 5.: rank of F (= base.size() when the data determine every base parameter), and the groups
  // of base parameters (indices into base) they do not determine; their estimate and std_dev
  // are NaN.
  int rank = 0;
  std::vector<std::vector<int>> undetermined;
};
// Singular values of Fs below this fraction of the largest count as zero: F's entries carry the
// filter's and the differences' relative errors (about 1e-6 and above, step 1), far above it, so
// a rank it finds deficient is the data's, not rounding (cond(Fs) of 1e9 would make σ̂ a
// billion times the noise).
inline constexpr double kRankTolerance = 1e-9;
// Steps 4 and 5 on any observation matrix F and vector b: β̂ (minimum-norm where F's rank is
// deficient), σ̂, covariance, rank, the undetermined groups and both condition numbers; `base`
// and the counts are left to the caller. Also the statistics of a Gauss–Newton step at the
// optimum of a nonlinear fit (output_error.h: F the Jacobian, b the residual).
void solve_least_squares(const Eigen::MatrixXd& F, const Eigen::VectorXd& b, Fit& out);

// Rows of a joint moving slower than `min_speed` (rad/s or m/s) are left out of the fit: there
// the model's sign(q̇) cannot say which way dry friction acts (a joint at rest holds any load
// below it), and one such row can weigh more than many good ones. 0 keeps every row, as
// [Leborne2018] eq. 18 does.
Fit fit(Regressor& regressor, const BaseParameters& base, const JointTrajectories& data, double min_speed = 0.0);

// Eq. 20–21 on `data` (a validation trajectory or the identification data itself): each row's
// measured and predicted drive, and the RMSE per row.
// `rmse_moving`: the same over the samples where the joint moves at least `min_speed` (when > 0).
struct Prediction {
  std::vector<double> time;
  std::vector<std::vector<double>> measured, predicted;
  std::vector<double> rmse, rmse_moving;
};
Prediction predict(Regressor& regressor, const Fit& fit, const JointTrajectories& data, double min_speed = 0.0);

}  // namespace uwsim::analysis
