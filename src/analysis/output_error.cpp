// References: see output_error.h; steps 1–4 there.
#include "analysis/output_error.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>

namespace uwsim::analysis {

namespace {

// Counts evaluations, polls the stop request and applies the weights.
class Residuals {
 public:
  explicit Residuals(const OutputErrorProblem& p) : p_(p) {}

  bool unweighted(const Eigen::VectorXd& theta, Eigen::VectorXd& r) {
    if (p_.stop && p_.stop->load()) throw OutputErrorInterrupted();
    ++evaluations;
    r.resize(static_cast<Eigen::Index>(p_.group.size()));
    if (!p_.residual(theta, r)) return false;
    if (r.size() != static_cast<Eigen::Index>(p_.group.size())) throw std::invalid_argument("the residual changed its size");
    return r.allFinite();
  }
  bool weighted(const Eigen::VectorXd& theta, Eigen::VectorXd& r) {
    if (!unweighted(theta, r)) return false;
    for (Eigen::Index i = 0; i < r.size(); ++i) r[i] *= weight[p_.group[static_cast<std::size_t>(i)]];
    return true;
  }
  // RMS of each group's residuals.
  Eigen::VectorXd group_rms(const Eigen::VectorXd& r) const {
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(p_.noise_floor.size()), count = sum;
    for (Eigen::Index i = 0; i < r.size(); ++i) {
      const int g = p_.group[static_cast<std::size_t>(i)];
      sum[g] += r[i] * r[i];
      count[g] += 1.0;
    }
    for (Eigen::Index g = 0; g < sum.size(); ++g) sum[g] = count[g] > 0 ? std::sqrt(sum[g] / count[g]) : 0.0;
    return sum;
  }
  // Step 1.
  void set_weights(const Eigen::VectorXd& unweighted_r) {
    const Eigen::VectorXd rms = group_rms(unweighted_r);
    weight = rms.cwiseMax(p_.noise_floor).cwiseInverse();
  }

  Eigen::VectorXd weight;
  int evaluations = 0;

 private:
  const OutputErrorProblem& p_;
};

Eigen::VectorXd clamp(const Eigen::VectorXd& theta, const OutputErrorProblem& p) {
  return theta.cwiseMax(p.lower).cwiseMin(p.upper);
}

// Step 2's Jacobian of the weighted residuals; false if a perturbed model diverged.
bool jacobian(Residuals& f, const OutputErrorProblem& p, double relative_step, const Eigen::VectorXd& theta, Eigen::MatrixXd& J) {
  const Eigen::Index n = theta.size();
  Eigen::VectorXd plus, minus;
  for (Eigen::Index k = 0; k < n; ++k) {
    const double h = relative_step * p.scale[k];
    Eigen::VectorXd hi = theta, lo = theta;
    hi[k] = std::min(theta[k] + h, p.upper[k]);
    lo[k] = std::max(theta[k] - h, p.lower[k]);
    if (!(hi[k] > lo[k])) throw std::invalid_argument("a parameter's bounds leave no room for its differences");
    if (!f.weighted(hi, plus) || !f.weighted(lo, minus)) return false;
    if (J.rows() != plus.size()) J.resize(plus.size(), n);
    J.col(k) = (plus - minus) / (hi[k] - lo[k]);
  }
  return true;
}

struct Round {
  Eigen::VectorXd theta;
  int iterations = 0;
  bool converged = false;
};

// Step 2 with the weights fixed; `iterations` counts the accepted steps.
Round solve_round(Residuals& f, const OutputErrorProblem& p, const OutputErrorSettings& s, Eigen::VectorXd theta) {
  Round out;
  Eigen::VectorXd r, trial_r;
  if (!f.weighted(theta, r)) throw std::invalid_argument("the model diverged at the parameters the fit started from");
  double cost = 0.5 * r.squaredNorm();
  double lambda = 1e-3;
  Eigen::MatrixXd J;
  bool fresh = false;  // J belongs to theta
  while (out.iterations < s.max_iterations) {
    if (!fresh) {
      if (!jacobian(f, p, s.relative_step, theta, J)) throw std::invalid_argument("the model diverged next to the current estimate");
      fresh = true;
    }
    const Eigen::MatrixXd A = J.transpose() * J;
    const Eigen::VectorXd g = J.transpose() * r;
    const double floor = 1e-12 * std::max(A.diagonal().maxCoeff(), 1e-300);
    Eigen::MatrixXd damped = A;
    for (Eigen::Index k = 0; k < A.rows(); ++k) damped(k, k) += lambda * std::max(A(k, k), floor);
    // A parameter on a bound that the gradient pushes beyond it stays there, out of the step:
    // clamping its share of a joint step afterwards would leave the others' shares wrong.
    Eigen::VectorXd rhs = -g;
    for (Eigen::Index k = 0; k < A.rows(); ++k) {
      const bool held = (theta[k] <= p.lower[k] && g[k] > 0.0) || (theta[k] >= p.upper[k] && g[k] < 0.0);
      if (!held) continue;
      damped.row(k).setZero(), damped.col(k).setZero(), damped(k, k) = 1.0, rhs[k] = 0.0;
    }
    const Eigen::VectorXd delta = damped.ldlt().solve(rhs);
    const Eigen::VectorXd trial = clamp(theta + delta, p);
    if (!f.weighted(trial, trial_r) || !(0.5 * trial_r.squaredNorm() < cost)) {
      lambda *= 4.0;
      if (lambda > 1e12) {  // no step, however short, lowers the cost: at a minimum to rounding
        out.converged = true;
        break;
      }
      continue;
    }
    ++out.iterations;
    const double new_cost = 0.5 * trial_r.squaredNorm();
    const bool small_step = ((trial - theta).cwiseAbs().array() <= s.tolerance * p.scale.array()).all();
    const bool small_change = cost - new_cost <= s.tolerance * s.tolerance * cost;
    theta = trial, r = trial_r, cost = new_cost, fresh = false;
    lambda = std::max(lambda / 3.0, 1e-9);
    if (small_step || small_change) {
      out.converged = true;
      break;
    }
  }
  out.theta = theta;
  return out;
}

}  // namespace

OutputErrorFit fit_output_error(const OutputErrorProblem& p, const OutputErrorSettings& s) {
  const Eigen::Index n = p.initial.size();
  if (p.scale.size() != n || p.lower.size() != n || p.upper.size() != n || n == 0)
    throw std::invalid_argument("the parameters' initial values, scales and bounds disagree in number");
  if (p.group.empty()) throw std::invalid_argument("no residuals");
  Residuals f(p);
  OutputErrorFit out;
  Eigen::VectorXd theta = clamp(p.initial, p), r;
  if (!f.unweighted(theta, r)) throw std::invalid_argument("the model diverged at the parameters the fit started from");
  out.initial_rms = f.group_rms(r);
  for (int round = 0; round < std::max(1, s.reweightings); ++round) {
    f.set_weights(r);
    const Round result = solve_round(f, p, s, theta);
    theta = result.theta;
    out.iterations += result.iterations;
    out.converged = result.converged;
    if (!f.unweighted(theta, r)) throw std::invalid_argument("the model diverged at the estimate");
  }
  // Step 3, with the last round's weights.
  Eigen::MatrixXd J;
  Eigen::VectorXd rw;
  if (!f.weighted(theta, rw) || !jacobian(f, p, s.relative_step, theta, J))
    throw std::invalid_argument("the model diverged next to the estimate");
  Fit linear;
  solve_least_squares(J, -rw, linear);
  out.estimate = theta;
  out.std_dev = linear.std_dev;
  out.covariance = linear.covariance;
  out.sigma = linear.sigma;
  out.rank = linear.rank;
  out.condition = linear.condition;
  out.scaled_condition = linear.scaled_condition;
  out.undetermined = linear.undetermined;
  out.correlation = out.covariance;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) out.correlation(i, j) = out.covariance(i, j) / (out.std_dev[i] * out.std_dev[j]);
  out.group_rms = f.group_rms(r);
  out.residuals = p.group.size();
  for (Eigen::Index k = 0; k < n; ++k) {
    const double sd = out.std_dev[k];  // NaN in an undetermined group
    out.identified.push_back(std::isfinite(sd) && !(sd > p.scale[k] && sd > std::abs(theta[k])));
    out.at_bound.push_back(theta[k] <= p.lower[k] || theta[k] >= p.upper[k]);
  }
  out.evaluations = f.evaluations;
  return out;
}

}  // namespace uwsim::analysis
