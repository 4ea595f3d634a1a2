// Gear motor (paper 003 eq. 2): the library's reflected quantities against an independent model
// of the same drive — rotor and link as two bodies coupled by a stiff, damped gear mesh — whose
// rigid limit they must reproduce.
#include <doctest/doctest.h>

#include <cmath>

#include "actuation/gear_motor.h"

using namespace uwsim::actuation;

namespace {

// Rotor angle θ (motor shaft) and link angle q, meshed by a spring k and damper c acting on the
// gear's error θ − N q:
//   J_m θ̈ = k_T i − f_v θ̇ − f_s tanh(θ̇/ε) − τ_g,   I_L q̈ = N τ_g,   τ_g = k(θ − N q) + c(θ̇ − N q̇)
struct TwoInertiaDrive {
  GearMotor m;
  double I_link, current, k, c, eps = 1e-4;
  double x[4] = {0, 0, 0, 0};  // θ, θ̇, q, q̇

  void derivative(const double* s, double* ds) const {
    const double tau_g = k * (s[0] - m.gear_ratio * s[2]) + c * (s[1] - m.gear_ratio * s[3]);
    ds[0] = s[1];
    ds[1] = (m.torque_constant * current - m.viscous_friction * s[1] -
             m.dry_friction * std::tanh(s[1] / eps) - tau_g) / m.rotor_inertia;
    ds[2] = s[3];
    ds[3] = m.gear_ratio * tau_g / I_link;
  }
  void rk4(double h) {
    double k1[4], k2[4], k3[4], k4[4], s[4];
    derivative(x, k1);
    for (int i = 0; i < 4; ++i) s[i] = x[i] + h / 2 * k1[i];
    derivative(s, k2);
    for (int i = 0; i < 4; ++i) s[i] = x[i] + h / 2 * k2[i];
    derivative(s, k3);
    for (int i = 0; i < 4; ++i) s[i] = x[i] + h * k3[i];
    derivative(s, k4);
    for (int i = 0; i < 4; ++i) x[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
};

// A mesh stiff enough that the rotor follows N·q closely: its mode at
// ω = √(k (1/J_m + N²/I_L)) ≈ 2600 rad/s, damped at ζ ≈ 0.5.
TwoInertiaDrive make_drive(const GearMotor& m, double I_link, double current) {
  const double k = 10.0;
  const double m_eff = 1.0 / (1.0 / m.rotor_inertia + m.gear_ratio * m.gear_ratio / I_link);
  return {.m = m, .I_link = I_link, .current = current, .k = k, .c = 2 * 0.5 * std::sqrt(k / m_eff) * m_eff};
}

}  // namespace

TEST_CASE("gear motor: reflected inertia slows the joint's acceleration by I/(I + N²J_m)") {
  const GearMotor m{.torque_constant = 0.05, .gear_ratio = 100, .rotor_inertia = 2e-6, .dry_friction = 0.005};
  const double I_link = 0.05, current = 1.0, t_end = 0.2;
  const JointActuation a = gear_motor_actuation(m, current);
  CHECK(a.armature == doctest::Approx(100.0 * 100.0 * 2e-6));
  // The rigid model of eq. (1) in gear_motor.h: (I + N²J_m) q̈ = N k_T i − N f_s.
  const double predicted = (a.drive - a.coulomb) / (I_link + a.armature);

  TwoInertiaDrive drive = make_drive(m, I_link, current);
  const double h = 1e-5;
  for (int n = 0; n < std::lround(t_end / h); ++n) drive.rk4(h);
  const double measured = 2.0 * drive.x[2] / (t_end * t_end);  // q = ½ a t²
  CHECK(measured == doctest::Approx(predicted).epsilon(2e-3));
  // Against the same torque on the bare link, the factor I/(I + N²J_m) = 0.714…
  const double bare = (a.drive - a.coulomb) / I_link;
  CHECK(measured / bare == doctest::Approx(I_link / (I_link + a.armature)).epsilon(2e-3));
}

TEST_CASE("gear motor: viscous friction reflects with N², so the joint settles at k_T i / (N f_v)") {
  const GearMotor m{.torque_constant = 0.05, .gear_ratio = 100, .rotor_inertia = 2e-6, .viscous_friction = 1e-5};
  const double I_link = 0.05, current = 1.0;
  const JointActuation a = gear_motor_actuation(m, current);
  CHECK(a.viscous == doctest::Approx(100.0 * 100.0 * 1e-5));
  TwoInertiaDrive drive = make_drive(m, I_link, current);
  const double h = 1e-5;
  for (int n = 0; n < 1000000; ++n) drive.rk4(h);  // 10 s: 14 time constants (I + N²J)/(N² f_v)
  CHECK(drive.x[3] == doctest::Approx(a.drive / a.viscous).epsilon(1e-6));
  CHECK(gear_motor_speed(m, drive.x[3]) == doctest::Approx(drive.x[1]).epsilon(1e-6));
}
