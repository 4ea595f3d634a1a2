// The tools under sim linearize, each against an independent statement of what it computes:
// the chart's attitude rate against a time difference of the coordinates along an exact
// rotation, the Richardson Jacobian against analytic derivatives (smooth and |x|·x), and
// participation factors against their unit invariance and a block-diagonal system.
#include <doctest/doctest.h>

#include <cmath>

#include "analysis/finite_difference.h"
#include "analysis/modes.h"
#include "analysis/state_chart.h"
#include "spatial/rotation.h"
#include "support/linear_models.h"

using namespace uwsim;

namespace {

// [w, x, y, z] of a rotation by `angle` about the unit `axis`.
spatial::Quat axis_angle(const Eigen::Vector3d& axis, double angle) {
  const Eigen::Vector3d v = std::sin(angle / 2) * axis.normalized();
  return spatial::Quat(std::cos(angle / 2), v.x(), v.y(), v.z());
}

}  // namespace

TEST_CASE("state chart: the attitude's coordinates move at J_r⁻¹(δθ)·ω along a rotation at constant body rate") {
  const dynamics::Model model = model::build_model(test::scenario_from(R"(
name: chart
simulation: {duration: 1.0}
bodies:
  - {name: b, mass: 1.0, inertia: [0.1, 0.1, 0.1]}
)"));
  const analysis::StateChart chart(model);
  REQUIRE(chart.size() == 12);
  std::vector<double> x_ref = model.x0, x(x_ref.size()), xdot(x_ref.size(), 0.0);
  Eigen::Map<spatial::Quat>(x_ref.data() + 3) = axis_angle(Eigen::Vector3d(0.3, -1.0, 0.5), 0.7);
  // At constant body rate ω, q(t) = q1 ⊗ exp(ωt/2): the coordinates at t ± dt by the chart's
  // own inverse (local), their central difference against rate().
  const Eigen::Vector3d omega(0.4, -0.9, 1.3);
  const spatial::Quat q1 = axis_angle(Eigen::Vector3d(1.0, 2.0, -0.5), 1.9);  // 1.9 rad away
  auto state_at = [&](double t) {
    std::vector<double> s = x_ref;
    const spatial::Quat e = axis_angle(omega, omega.norm() * t);
    const spatial::Quat& a = q1;  // Hamilton product a ⊗ e
    Eigen::Map<spatial::Quat>(s.data() + 3) << a[0] * e[0] - a[1] * e[1] - a[2] * e[2] - a[3] * e[3],
        a[0] * e[1] + a[1] * e[0] + a[2] * e[3] - a[3] * e[2], a[0] * e[2] - a[1] * e[3] + a[2] * e[0] + a[3] * e[1],
        a[0] * e[3] + a[1] * e[2] - a[2] * e[1] + a[3] * e[0];
    Eigen::Map<Eigen::Vector3d>(s.data() + 7) = omega;  // V = [ω; v]
    return s;
  };
  const double dt = 1e-5;
  Eigen::VectorXd z_plus(12), z_minus(12), z(12), zdot(12);
  chart.local(x_ref.data(), state_at(dt).data(), z_plus.data());
  chart.local(x_ref.data(), state_at(-dt).data(), z_minus.data());
  const std::vector<double> now = state_at(0.0);
  chart.local(x_ref.data(), now.data(), z.data());
  chart.rate(z.data(), now.data(), xdot.data(), zdot.data());
  const Eigen::Vector3d measured = ((z_plus - z_minus) / (2 * dt)).segment<3>(3);
  CHECK((measured - zdot.segment<3>(3)).norm() < 1e-8 * omega.norm());
  // Far from the reference J_r⁻¹ is not the identity: the check is not trivial.
  CHECK((zdot.segment<3>(3) - omega).norm() > 0.1);
  // retract and local are inverses.
  std::vector<double> back(x_ref.size());
  chart.retract(x_ref.data(), z.data(), back.data());
  for (int i = 3; i < 7; ++i) CHECK(back[static_cast<std::size_t>(i)] == doctest::Approx(now[static_cast<std::size_t>(i)]).epsilon(1e-14).scale(1.0));
}

TEST_CASE("finite differences: Richardson extrapolation is exact for |x|·x and reports what it cannot remove") {
  // F(x) = [sin x0 · e^{x1}, |x0|·x0 + 3 x1², tanh(x1 / 1e-3)] at x = (0, 0.2): the second has
  // a kink at x0 = 0 (its slope there is 0), the third a steep but smooth slope.
  const analysis::VectorFunction F = [](const Eigen::VectorXd& x, Eigen::VectorXd& out) {
    out << std::sin(x[0]) * std::exp(x[1]), std::abs(x[0]) * x[0] + 3 * x[1] * x[1], std::tanh((x[1] - 0.2) / 1e-3);
  };
  const Eigen::Vector2d x(0.0, 0.2), h(1e-5, 1e-5);
  const analysis::JacobianEstimate J = analysis::jacobian(F, x, h, 3);
  Eigen::Matrix<double, 3, 2> exact;
  exact << std::exp(0.2), 0.0, 0.0, 6 * 0.2, 0.0, 1e3;
  const Eigen::MatrixXd error = (J.value - exact).cwiseAbs();
  CHECK(error(1, 0) < 1e-12);   // the kink: a plain central difference would be off by h
  CHECK(error(0, 0) < 1e-10);
  CHECK(error(1, 1) < 1e-10);
  CHECK(error(2, 1) < 1e-6 * 1e3);
  // The estimate bounds the true error (rounding included) ...
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) CHECK(error(i, j) <= J.error(i, j) + 1e-15);
  // ... and says where the steps were too coarse: tanh's slope over steps of 1e-2 of its scale.
  CHECK(J.error(2, 1) > 1e-4);
}

TEST_CASE("modes: participation factors do not depend on the states' units, and separate uncoupled blocks") {
  // Two uncoupled oscillators and a free integrator (a position driven by the first).
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(5, 5);
  A.block<2, 2>(0, 0) << 0, 1, -4, -0.4;
  A.block<2, 2>(2, 2) << 0, 1, -9, -0.3;
  A(4, 1) = 1.0;  // ż₄ = z₂: the integral of the first oscillator's velocity
  const analysis::ModalAnalysis plain = analysis::modal_analysis(A);
  const Eigen::VectorXd units = (Eigen::VectorXd(5) << 1.0, 1e3, 0.01, 7.0, 0.5).finished();
  const Eigen::MatrixXd scaled = units.asDiagonal() * A * units.cwiseInverse().asDiagonal();
  const analysis::ModalAnalysis rescaled = analysis::modal_analysis(scaled);
  REQUIRE(plain.modes.size() == 5);
  CHECK(plain.neutral == 1);
  CHECK_FALSE(plain.participation_from_magnitudes);
  for (std::size_t i = 0; i < 5; ++i) {
    CHECK(std::abs(plain.modes[i].eigenvalue - rescaled.modes[i].eigenvalue) < 1e-12);
    CHECK((plain.modes[i].participation - rescaled.modes[i].participation).norm() < 1e-12);
  }
  for (const analysis::Mode& m : plain.modes) {
    CHECK(m.participation.sum() == doctest::Approx(1.0));
    if (m.neutral) {
      CHECK(m.participation[4] == doctest::Approx(1.0));
    } else if (std::abs(m.natural_frequency - 2.0) < 1e-9) {  // the first oscillator, ω_n = 2
      CHECK(m.participation.head<2>().sum() == doctest::Approx(1.0));
      CHECK(m.damping_ratio == doctest::Approx(0.4 / (2 * 2.0)));
    } else {
      CHECK(m.natural_frequency == doctest::Approx(3.0));
      CHECK(m.participation.segment<2>(2).sum() == doctest::Approx(1.0));
    }
  }
}
