// The complementary attitude filter (control/complementary_filter.h) against the closed forms of
// its error dynamics: a tilt error decays as tan(θ/2) = tan(θ₀/2) e^{−t/τ} (6), a gyroscope bias
// leaves sin θ = bτ reached as a first-order response (7), a heading error decays with τ_ψ on a
// heading sensor or a magnetometer, and a known rotation with an exact gyroscope is followed.
#include <doctest/doctest.h>

#include <cmath>

#include "control/complementary_filter.h"
#include "control/attitude_error.h"

using namespace uwsim;
using spatial::Mat3;
using spatial::Quat;
using spatial::Vec3;

namespace {

constexpr double kG = 9.81;
constexpr double kT = 0.01;  // s

// What an accelerometer at rest reads for attitude R_WB: f = −g R_WBᵀ e_z.
Vec3 at_rest(const Mat3& R_WB) { return -kG * R_WB.transpose() * Vec3::UnitZ(); }

double angle_between(const Quat& a, const Quat& b) { return control::attitude_error(a, b).norm(); }

}  // namespace

TEST_CASE("complementary filter: a tilt error decays as tan(theta/2) = tan(theta0/2) exp(-t/tau)") {
  // Level and at rest; the estimate starts rolled by θ₀ = 0.3 rad. With an exact (zero) gyro,
  // (5) is Euler's step of θ̇ = −sin θ / τ: its solution (6) within Euler's global error, which
  // for kT = T/τ is at most about (kT/2)·(t/τ)·θ at the time t (the product (1 − kT)^n against
  // e^{−n kT} ≈ e^{−n kT²/2} for the linear decay; sin θ < θ only slows both alike).
  const double tau = 1.0, theta0 = 0.3;
  control::ComplementaryFilter filter({tau, 1.0});
  filter.start(spatial::quaternion_from_euler_zyx(theta0, 0.0, 0.0));
  const Quat truth(1, 0, 0, 0);
  double worst = 0.0;
  for (int k = 1; k <= 500; ++k) {
    filter.update(kT, Vec3::Zero(), at_rest(Mat3::Identity()), {});
    const double t = k * kT;
    const double closed = 2.0 * std::atan(std::tan(theta0 / 2.0) * std::exp(-t / tau));
    const double theta = angle_between(filter.attitude(), truth);
    const double bound = 0.5 * (kT / tau) * (t / tau) * closed * 1.05 + 1e-15;
    worst = std::max(worst, std::abs(theta - closed) / bound);
  }
  CHECK(worst <= 1.0);
  CHECK(worst > 0.3);  // the bound is Euler's error, not a loose band
}

TEST_CASE("complementary filter: a gyro bias b leaves a tilt error of sine b tau reached with time constant tau") {
  // A roll-rate bias b: the roll error obeys θ̇ = b − sin θ / τ, fixed point sin θ = bτ, and
  // θ(t) = bτ(1 − e^{−t/τ}) for small bτ (7). Band: the linearisation (sin θ against θ, a
  // relative θ²/6 ≈ 4e-4) and Euler's error kT·(t/τ)/2 relative, as above.
  const double tau = 2.0, b = 0.01;  // rad/s: a 0.57 °/s bias, bτ = 0.02 rad
  control::ComplementaryFilter filter({tau, 1.0});
  filter.start(Quat(1, 0, 0, 0));
  double worst = 0.0;
  for (int k = 1; k <= 2000; ++k) {
    filter.update(kT, Vec3(b, 0.0, 0.0), at_rest(Mat3::Identity()), {});
    const double t = k * kT;
    const double closed = b * tau * (1.0 - std::exp(-t / tau));
    const double roll = spatial::euler_zyx_from_rotation(spatial::rotation_from_quaternion(filter.attitude())).x();
    // … and the sample's gyro step T·b, taken before the correction.
    const double bound = (0.5 * (kT / tau) * std::max(1.0, t / tau) + 1e-3) * b * tau + kT * b;
    worst = std::max(worst, std::abs(roll - closed) / bound);
  }
  CHECK(worst <= 1.0);
  const double roll = spatial::euler_zyx_from_rotation(spatial::rotation_from_quaternion(filter.attitude())).x();
  CHECK(roll == doctest::Approx(std::asin(b * tau) - kT * b).epsilon(1e-6));  // 20 τ on: at the fixed point sin(θ + Tb) = bτ
}

TEST_CASE("complementary filter: a heading error decays with its time constant on a heading sensor or a magnetometer") {
  // Yaw error δ₀ = 0.5 rad, level, the vehicle at yaw 1.0: e_ψ is exact in yaw (3), so the
  // error is δ_k = δ₀(1 − T/τ_ψ)^k exactly (to rounding), whichever source gives the heading.
  const double tau_psi = 0.5, yaw = 1.0, delta0 = 0.5;
  const Mat3 R_WB = spatial::rotation_from_euler_zyx(Vec3(0.0, 0.0, yaw));
  const Vec3 field_W(2e-5, 0.3e-5, 4.5e-5);
  for (int source = 0; source < 2; ++source) {
    control::ComplementaryFilter filter({1.0, tau_psi});
    filter.start(spatial::quaternion_from_euler_zyx(0.0, 0.0, yaw + delta0));
    control::HeadingMeasurement h;
    if (source == 0) {
      h.kind = control::HeadingMeasurement::Kind::yaw;
      h.yaw = yaw;
    } else {
      h.kind = control::HeadingMeasurement::Kind::field;
      h.field_B = R_WB.transpose() * field_W;
      h.field_W = field_W;
    }
    for (int k = 1; k <= 200; ++k) {
      filter.update(kT, Vec3::Zero(), at_rest(R_WB), h);
      const Vec3 rpy = spatial::euler_zyx_from_rotation(spatial::rotation_from_quaternion(filter.attitude()));
      const double expected = delta0 * std::pow(1.0 - kT / tau_psi, k);
      CHECK(rpy.z() - yaw == doctest::Approx(expected).epsilon(1e-9));
      CHECK(std::abs(rpy.x()) < 1e-12);
      CHECK(std::abs(rpy.y()) < 1e-12);
    }
  }
}

TEST_CASE("complementary filter: an exact gyro follows a known rotation and the first sample starts from gravity and heading") {
  // A body turning at a constant rate ω about a tilted axis: R(t) = R₀ exp(t ω×). An exact
  // gyroscope and an exact accelerometer (at rest, the rotation alone): (5) integrates exactly,
  // the correction (4) stays zero to rounding.
  const Vec3 w(0.2, -0.1, 0.4);
  const Mat3 R0 = spatial::rotation_from_euler_zyx(Vec3(0.1, -0.2, 0.3));
  control::ComplementaryFilter filter({0.5, 0.5});
  control::HeadingMeasurement h;
  h.kind = control::HeadingMeasurement::Kind::yaw;
  h.yaw = 0.3;
  // The first update starts the estimate: roll and pitch from f, yaw from the heading sensor.
  filter.update(kT, w, at_rest(R0), h);
  CHECK(angle_between(filter.attitude(), spatial::quaternion_from_rotation(R0)) < 1e-12);
  for (int k = 1; k <= 1000; ++k) {
    const Mat3 R = R0 * spatial::rotation_about(w.normalized(), w.norm() * k * kT);
    h.yaw = spatial::euler_zyx_from_rotation(R).z();
    filter.update(kT, w, at_rest(R), h);
    CHECK(angle_between(filter.attitude(), spatial::quaternion_from_rotation(R)) < 1e-10);
  }
  // Held heading: without a heading source the first sample takes the yaw it is given.
  control::ComplementaryFilter held({1.0, 1.0});
  held.update(kT, Vec3::Zero(), at_rest(R0), {}, 0.3);
  CHECK(angle_between(held.attitude(), spatial::quaternion_from_rotation(R0)) < 1e-12);
  CHECK_THROWS_AS(control::ComplementaryFilter({0.0, 1.0}), std::invalid_argument);
}
