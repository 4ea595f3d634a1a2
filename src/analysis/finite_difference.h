// Jacobians by central differences with Richardson extrapolation, and an estimate of their
// error.
//
// For each column j, with step h_j and e_j the unit vector, the central difference
//   D(h) = (F(x + h e_j) − F(x − h e_j)) / (2h) = F' + c₁h + c₂h² + c₄h⁴ + …                  (1)
// has c₁ = 0 where F is smooth; c₁ ≠ 0 where F has a |x|·x kink at x (quadratic damping
// |w|w at w = 0, eq. 12's |ω|ω at ω = 0: every body at rest has them), which makes D(h)
// wrong by c₁h. From D at h, h/2 and h/4, Richardson extrapolation [Richardson 1911; e.g.
// Press et al., Numerical Recipes, 3rd ed., Sec. 5.7] removes the h and h² terms:
//   R = (8·D(h/4) − 6·D(h/2) + D(h)) / 3                                               (2)
// exact for any quadratic and any |x|·x term, error O(h⁴) for a smooth F. It is checked
// against the extrapolation that removes the h term only,
//   R₁ = 2·D(h/4) − D(h/2)                                                              (3)
// and the reported error of each entry is
//   |R − R₁| + (8/3)·ε·(|F(x + h/4 e_j)| + |F(x − h/4 e_j)|) / (h/2)                     (4)
// the disagreement of the two (R₁'s own error, −c₂h²/8 where F is smooth, so an upper
// estimate of R's; 0 for a quadratic or a |x|·x kink, where both are exact) plus the
// rounding of the function values amplified by the smallest step (ε the machine epsilon).
// Where F has a corner (a thrust table's breakpoint) every D is the mean of the two slopes:
// that is what R gives, and (4) cannot see it.
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <functional>
#include <stdexcept>

namespace uwsim::analysis {

// F(x, out): out = F(x); out has the size given to jacobian().
using VectorFunction = std::function<void(const Eigen::VectorXd& x, Eigen::VectorXd& out)>;

struct JacobianEstimate {
  Eigen::MatrixXd value;  // R of (2)
  Eigen::MatrixXd error;  // (4), entry by entry
};

// Thrown where a stop was requested (Ctrl-C, SIGTERM: app/stop_signals.h) inside a loop of trim or
// linearize: they keep no partial result.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};
// Throws Interrupted if `stop` (may be null) is set.
inline void check_stop(const std::atomic<bool>* stop) {
  if (stop != nullptr && stop->load(std::memory_order_relaxed)) throw Interrupted();
}

// The Jacobian of F (m outputs) at x, with steps h (one per column, > 0). Calls F 6·n times;
// checks `stop` before each column.
JacobianEstimate jacobian(const VectorFunction& F, const Eigen::VectorXd& x, const Eigen::VectorXd& h, int m,
                          const std::atomic<bool>* stop = nullptr);

}  // namespace uwsim::analysis
