// Trim and linearize stop when asked (a Ctrl-C or SIGTERM sets the flag, app/stop_signals.h):
// the finite-difference loop checks before each column, trim before each iteration, and both
// throw Interrupted instead of returning a partial result.
#include <doctest/doctest.h>

#include <atomic>

#include "analysis/finite_difference.h"
#include "analysis/linearize.h"
#include "analysis/trim.h"
#include "model/build_model.h"
#include "support/linear_models.h"

using namespace uwsim;

TEST_CASE("interrupt: a stop requested during a Jacobian ends it before the next column") {
  std::atomic<bool> stop{false};
  int calls = 0;
  const analysis::VectorFunction F = [&](const Eigen::VectorXd& x, Eigen::VectorXd& out) {
    if (++calls == 7) stop = true;  // the first call of column 1 (six per column)
    out = x.array().square();
  };
  const Eigen::VectorXd x = Eigen::VectorXd::Ones(5), h = Eigen::VectorXd::Constant(5, 1e-3);
  CHECK_THROWS_AS(analysis::jacobian(F, x, h, 5, &stop), analysis::Interrupted);
  CHECK(calls == 12);  // column 1 finished, column 2 never begun
  stop = false;
  calls = 0;
  const analysis::JacobianEstimate J = analysis::jacobian(F, x, h, 5, nullptr);  // no flag: to the end
  CHECK(calls == 30);
  CHECK(J.value(3, 3) == doctest::Approx(2.0));
}

TEST_CASE("interrupt: trim and linearize with a stop requested throw Interrupted") {
  const scenario::Scenario s = test::scenario_from(R"(
name: body
simulation: {duration: 1.0}
bodies:
  - {name: b, mass: 11.5, inertia: [0.16, 0.2, 0.25], volume: 0.0112, linear_damping: [4, 6, 5, 0.1, 0.1, 0.1]}
)");
  const dynamics::Model model = model::build_model(s);
  std::atomic<bool> stop{true};
  analysis::TrimProblem problem;
  problem.unknowns = {{analysis::VariableKind::body, "b", "w"}};
  problem.stop = &stop;
  CHECK_THROWS_AS(analysis::trim(model, problem), analysis::Interrupted);
  problem.stop = nullptr;
  CHECK(analysis::trim(model, problem).converged);
  analysis::OperatingPoint point;
  point.x = model.x0;
  analysis::LinearizeOptions options;
  options.stop = &stop;
  CHECK_THROWS_AS(analysis::linearize(model, point, options), analysis::Interrupted);
}
