// References: see finite_difference.h.
#include "analysis/finite_difference.h"

#include <limits>

namespace uwsim::analysis {

JacobianEstimate jacobian(const VectorFunction& F, const Eigen::VectorXd& x, const Eigen::VectorXd& h, int m,
                          const std::atomic<bool>* stop) {
  const Eigen::Index n = x.size();
  JacobianEstimate out{Eigen::MatrixXd::Zero(m, n), Eigen::MatrixXd::Zero(m, n)};
  Eigen::VectorXd probe = x, plus(m), minus(m);
  constexpr double eps = std::numeric_limits<double>::epsilon();
  for (Eigen::Index j = 0; j < n; ++j) {
    check_stop(stop);
    Eigen::VectorXd D[3];  // D(h), D(h/2), D(h/4) of (1)
    for (int level = 0; level < 3; ++level) {
      // A step that is exact in binary (x + s − x = s), so the difference divides by its step.
      const double step = (x[j] + h[j] / static_cast<double>(1 << level)) - x[j];
      probe[j] = x[j] + step;
      F(probe, plus);
      probe[j] = x[j] - step;
      F(probe, minus);
      D[level] = (plus - minus) / (2.0 * step);
      if (level == 2) {
        const Eigen::VectorXd R = (8.0 * D[2] - 6.0 * D[1] + D[0]) / 3.0;  // (2)
        const Eigen::VectorXd R1 = 2.0 * D[2] - D[1];                       // (3)
        out.value.col(j) = R;
        out.error.col(j) = (R - R1).cwiseAbs() +                            // (4)
                           (8.0 / 3.0) * eps * (plus.cwiseAbs() + minus.cwiseAbs()) / (2.0 * step);
      }
    }
    probe[j] = x[j];
  }
  return out;
}

}  // namespace uwsim::analysis
