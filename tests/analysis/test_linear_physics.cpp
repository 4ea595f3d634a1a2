// sim linearize against closed forms of single-body physics: heave decay, the metacentric roll
// pendulum, a thruster's spin-up, and the onset speed of the pitch–heave instability in surge
// (the Munk moment against the righting moment), derived here by hand from Fossen's model.
#include <doctest/doctest.h>

#include <Eigen/Eigenvalues>
#include <cmath>

#include "support/linear_models.h"

using namespace uwsim;
using test::Linearized;

namespace {

// A BlueROV2-sized body (the figures of scenarios/bluerov2_push.yaml) with its origin at the CG;
// distinct principal inertias, so that roll and pitch are distinct modes.
const char* kBody = R"(
name: body
simulation: {duration: 1.0}
bodies:
  - name: b
    mass: 11.5
    inertia: [0.16, 0.2, 0.25]
    volume: 0.0115
    added_mass: [5.5, 12.7, 14.57, 0.12, 0.12, 0.12]
    linear_damping: [4.03, 6.22, 5.18, 0.07, 0.07, 0.07]
)";

constexpr double m = 11.5, rho = 1000.0, g = 9.81, volume = 0.0115;
constexpr double a_u = 5.5, a_w = 14.57, a_p = 0.12, a_q = 0.12, I = 0.16;
constexpr double d_u = 4.03, d_w = 5.18, d_q = 0.07, d_uu = 18.18;

}  // namespace

TEST_CASE("linearize: heave of a single body has the eigenvalue −Z_w / (m + Z_ẇ)") {
  const Linearized l = test::linearize_at(test::scenario_from(kBody));
  const double expected = -d_w / (m + a_w);
  const int w = test::state_index(l.linear, "bodies.b.w");
  REQUIRE(w >= 0);
  CHECK(l.linear.A(w, w) == doctest::Approx(expected).epsilon(1e-12));
  const analysis::Mode& heave = test::mode_of(l, {"bodies.b.w"});
  CHECK(heave.eigenvalue.real() == doctest::Approx(expected).epsilon(1e-12));
  CHECK(heave.eigenvalue.imag() == 0.0);
  CHECK(heave.participation[w] == doctest::Approx(1.0).epsilon(1e-9));
  CHECK(heave.time_constant == doctest::Approx((m + a_w) / d_w).epsilon(1e-12));
  CHECK(l.linear.A_error.maxCoeff() < 1e-9);
}

TEST_CASE("linearize: the roll pendulum has eigenvalues ±iω with the metacentric period 2π·√((I_x + K_ṗ) / (B·BG))") {
  const double BG = 0.05;
  const std::string yaml = std::string(kBody) + "    center_of_buoyancy: [0.0, 0.0, -0.05]\n";
  // No damping: an undamped pendulum in roll (and in pitch).
  const Linearized l = test::linearize_at(test::scenario_from(yaml, {"bodies.b.linear_damping=[0, 0, 0, 0, 0, 0]"}));
  const double B = rho * g * volume;  // the buoyancy at the CB, above the origin (the CG)
  const double omega = std::sqrt(B * BG / (I + a_p));
  const analysis::Mode& roll = test::mode_of(l, {"bodies.b.p", "bodies.b.rot_x"});
  CHECK(std::abs(roll.eigenvalue.real()) < 1e-9 * omega);
  CHECK(roll.eigenvalue.imag() == doctest::Approx(omega).epsilon(1e-9));
  CHECK(2.0 * M_PI / roll.eigenvalue.imag() == doctest::Approx(2.0 * M_PI * std::sqrt((I + a_p) / (B * BG))).epsilon(1e-9));
  CHECK(roll.damping_ratio == doctest::Approx(0.0).epsilon(1e-9));
  CHECK(test::share(l, roll, {"bodies.b.p", "bodies.b.rot_x"}) == doctest::Approx(1.0).epsilon(1e-9));
}

TEST_CASE("linearize: a thruster's spin-up state has rate −1/T and takes its command through gain/T") {
  const std::string yaml = std::string(kBody) + R"(
inputs:
  - {name: cmd, type: constant, value: 3.0}
thrusters:
  - {name: t, body: b, direction: [1.0, 0.0, 0.0], input: cmd, model: linear, gain: 2.0, time_constant: 0.5}
forces:
  - {name: push, body: b, force: [1.0, 0.0, 0.0], input: cmd}
)";
  const Linearized l = test::linearize_at(test::scenario_from(yaml));
  const int s = test::state_index(l.linear, "thrusters.t.state"), u = test::state_index(l.linear, "bodies.b.u");
  REQUIRE(s >= 0);
  REQUIRE(l.linear.input_names == std::vector<std::string>{"inputs.cmd"});
  // Exact but for rounding: (4) of finite_difference.h, ~1e-10 of the entries' size.
  CHECK(l.linear.A(s, s) == doctest::Approx(-1.0 / 0.5).epsilon(1e-9));
  CHECK(l.linear.B(s, 0) == doctest::Approx(2.0 / 0.5).epsilon(1e-9));
  CHECK(l.linear.A(u, s) == doctest::Approx(1.0 / (m + a_u)).epsilon(1e-9));
  CHECK(l.linear.A(u, u) == doctest::Approx(-d_u / (m + a_u)).epsilon(1e-9));
  // The force scaled by the same channel: 1 N per unit on the surge acceleration.
  CHECK(l.linear.B(u, 0) == doctest::Approx(1.0 / (m + a_u)).epsilon(1e-9));
  // The error estimate is its rounding term here: ε·|ż| / (h/2) with |ż| ≈ 12 N/s, h = 1e-5.
  CHECK(l.linear.A_error.maxCoeff() < 1e-8);
  CHECK(l.linear.zdot0[s] == doctest::Approx(2.0 * 3.0 / 0.5));  // the state starts at 0
}

namespace {

// The scenario of the onset tests: the body in steady surge at u0, pushed at its origin by a
// channel that is set to the drag at u0, so the state is an equilibrium (apart from north).
// Quadratic damping on every axis: at w = q = 0 it has no slope, which the onset shows.
Linearized steady_surge(const std::string& yaml, double u0) {
  const double thrust = d_u * u0 + d_uu * u0 * u0;
  const Linearized l = test::linearize_at(test::scenario_from(
      yaml, {"bodies.b.initial.velocity.0=" + test::exact(u0), "inputs.thrust.value=" + test::exact(thrust)}));
  const int north = test::state_index(l.linear, "bodies.b.north");
  for (int i = 0; i < l.linear.zdot0.size(); ++i)
    if (i != north) REQUIRE(std::abs(l.linear.zdot0[i]) < 1e-9);
  return l;
}

double pitch_heave_real_part(const std::string& yaml, double u0) {
  const Linearized l = steady_surge(yaml, u0);
  // The pitch–heave pair: oscillatory (a real heave–pitch mode shares its states).
  const analysis::Mode& mode = test::mode_of(l, {"bodies.b.w", "bodies.b.q", "bodies.b.rot_y"}, true);
  return mode.eigenvalue.real();
}

// The speed in [lo, hi] where f changes sign, by bisection.
template <class F>
double crossing(F f, double lo, double hi) {
  REQUIRE(f(lo) < 0.0);
  REQUIRE(f(hi) > 0.0);
  for (int k = 0; k < 60; ++k) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) > 0.0 ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

std::string surge_scenario(const std::string& cg_and_cb) {
  return std::string(R"(
name: surge
simulation: {duration: 1.0}
inputs:
  - {name: thrust, type: constant, value: 0.0, units: N}
forces:
  - {name: push, body: b, force: [1.0, 0.0, 0.0], input: thrust}
bodies:
  - name: b
    mass: 11.5
    inertia: [0.16, 0.16, 0.16]
    volume: 0.0115
    added_mass: [5.5, 12.7, 14.57, 0.12, 0.12, 0.12]
    linear_damping: [4.03, 6.22, 5.18, 0.07, 0.07, 0.07]
    quadratic_damping: [18.18, 21.66, 36.99, 1.55, 1.55, 1.55]
    initial: {velocity: [0.5, 0.0, 0.0, 0.0, 0.0, 0.0]}
)") + cg_and_cb;
}

}  // namespace

// Origin at the CG, CB at BG above it, neutral (W = B), diagonal added mass, damping at the
// origin, steady surge u0 (w = q = θ = 0). Linearised in (w, q, θ), the surge decoupled:
//   M_w ẇ = −d_w w + M_u u0 q                        (the centripetal term of the added mass)
//   J q̇   = (Z_ẇ − X_u̇) u0 w − d_q q − B·BG θ      (the Munk moment and the righting moment)
//   θ̇     = q
// with M_u = m + X_u̇, M_w = m + Z_ẇ, J = I_y + M_q̇. Its characteristic polynomial is
//   s³ + (α + δ) s² + (κ + αδ − βγ) s + ακ,   α = d_w/M_w, δ = d_q/J, κ = B·BG/J,
//   β = M_u u0/M_w, γ = (Z_ẇ − X_u̇) u0/J,
// and Routh–Hurwitz (a₂a₁ > a₀, the others always hold) puts the onset — a complex pair
// crossing into the right half-plane, a Hopf bifurcation, not a static divergence — at
//   βγ = δ (α + κ/(α + δ)),   i.e.   u_c² = J M_w δ (α + κ/(α + δ)) / (M_u (Z_ẇ − X_u̇)).
TEST_CASE("linearize: the pitch–heave pair crosses into the right half-plane at the Routh–Hurwitz onset speed") {
  const double BG = 0.02;
  const std::string yaml = surge_scenario("    center_of_buoyancy: [0.0, 0.0, -0.02]\n");
  const double M_u = m + a_u, M_w = m + a_w, J = I + a_q;
  const double alpha = d_w / M_w, delta = d_q / J, kappa = rho * g * volume * BG / J;
  const double expected = std::sqrt(J * M_w * delta * (alpha + kappa / (alpha + delta)) / (M_u * (a_w - a_u)));
  const double u_c = crossing([&](double u) { return pitch_heave_real_part(yaml, u); }, 0.3, 0.7);
  CHECK(u_c == doctest::Approx(expected).epsilon(1e-7));
  // The static argument (Munk stiffness (Z_ẇ − X_u̇)u² against B·BG) is 8 % off here.
  CHECK(std::abs(u_c - std::sqrt(rho * g * volume * BG / (a_w - a_u))) > 0.03);
  // At the onset the pair is ±i√a₁, a₁ = κ + αδ − βγ.
  const Linearized l = steady_surge(yaml, expected);
  const analysis::Mode& onset = test::mode_of(l, {"bodies.b.w", "bodies.b.q", "bodies.b.rot_y"}, true);
  const double beta_gamma = M_u * (a_w - a_u) * expected * expected / (M_w * J);
  CHECK(onset.eigenvalue.imag() == doctest::Approx(std::sqrt(kappa + alpha * delta - beta_gamma)).epsilon(1e-7));
}

namespace {

// Faddeev–LeVerrier: the characteristic polynomial sⁿ + c[n−1] sⁿ⁻¹ + … + c[0] of A.
Eigen::VectorXd characteristic_polynomial(const Eigen::MatrixXd& A) {
  const Eigen::Index n = A.rows();
  Eigen::VectorXd c = Eigen::VectorXd::Zero(n + 1);
  c[n] = 1.0;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index k = 1; k <= n; ++k) {
    M = A * M + c[n - k + 1] * Eigen::MatrixXd::Identity(n, n);
    c[n - k] = -(A * M).trace() / static_cast<double>(k);
  }
  return c;
}

}  // namespace

// The vehicle as scenarios/bluerov2_push.yaml has it: origin at the CB, CG z_g = 2 cm below.
// Then M_RB couples surge and pitch (m z_g), and the surge damping slope D_u = d_u + 2 d_uu u0
// enters. Written by hand in (δu, w, q, θ) (Fossen 2011 eq. 3.44 and 6.43 for M_RB, C_RB):
//   [M_u 0 m z_g 0; 0 M_w 0 0; m z_g 0 J 0; 0 0 0 1] ẋ =
//   [−D_u 0 0 0; 0 −d_w M_u u0 0; 0 (Z_ẇ − X_u̇)u0 −d_q −W z_g; 0 0 1 0] x,   J = I_y + m z_g² + M_q̇
// The onset is where its quartic's Hurwitz determinant a₃a₂a₁ − a₁² − a₃²a₀ changes sign.
TEST_CASE("linearize: with the CG below the origin, A's surge–heave–pitch block and the onset match the hand-built quartic") {
  const double z_g = 0.02, W = m * g;
  const std::string yaml = surge_scenario("    center_of_gravity: [0.0, 0.0, 0.02]\n");
  const double M_u = m + a_u, M_w = m + a_w, J = I + m * z_g * z_g + a_q;
  auto hand_built = [&](double u0) {
    Eigen::Matrix4d M, F;
    M << M_u, 0, m * z_g, 0, 0, M_w, 0, 0, m * z_g, 0, J, 0, 0, 0, 0, 1;
    F << -(d_u + 2 * d_uu * u0), 0, 0, 0, 0, -d_w, M_u * u0, 0, 0, (a_w - a_u) * u0, -d_q, -W * z_g, 0, 0, 1, 0;
    return Eigen::Matrix4d(M.inverse() * F);
  };
  // W·z_g: the weight at the CG; the buoyancy acts at the origin and has no moment.
  const Linearized l = steady_surge(yaml, 0.4);
  const std::vector<int> s = {test::state_index(l.linear, "bodies.b.u"), test::state_index(l.linear, "bodies.b.w"),
                              test::state_index(l.linear, "bodies.b.q"), test::state_index(l.linear, "bodies.b.rot_y")};
  const Eigen::Matrix4d expected = hand_built(0.4);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      CHECK(l.linear.A(s[i], s[j]) == doctest::Approx(expected(i, j)).epsilon(1e-9).scale(1.0));
    }
  auto hurwitz = [&](double u0) {
    const Eigen::VectorXd a = characteristic_polynomial(hand_built(u0));
    return -(a[3] * a[2] * a[1] - a[1] * a[1] - a[3] * a[3] * a[0]);  // > 0: unstable
  };
  const double expected_onset = crossing(hurwitz, 0.3, 0.6);
  const double u_c = crossing([&](double u) { return pitch_heave_real_part(yaml, u); }, 0.3, 0.6);
  CHECK(u_c == doctest::Approx(expected_onset).epsilon(1e-7));
}
