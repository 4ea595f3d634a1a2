// The BlueROV2 examples tell the truth: every figure their comments and the README claim is
// checked here against the physics it follows from — force and moment balances computed from
// the scenario's own parameters, and the Munk instability's onset from the linear pitch–heave
// model (README "The Munk instability"), derived here independently of the simulator.
#include <doctest/doctest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "spatial/rotation.h"
#include "support/recording.h"

using namespace uwsim;
using spatial::Vec3;
using spatial::Vec6;

namespace {

constexpr double kDeg = 180.0 / std::numbers::pi;

// The body's roll, pitch, yaw at sample k.
Vec3 euler_at(const test::Run& run, std::size_t k, std::size_t body = 0) {
  return spatial::euler_zyx_from_rotation(run.rec.X_WB[k][body].R);
}
Vec6 nu_at(const test::Run& run, std::size_t k, std::size_t body = 0) {
  const dynamics::Body& b = run.model.bodies[body];
  return spatial::to_fossen_order(Eigen::Map<const Vec6>(run.rec.x[k].data() + b.v_offset));
}
std::size_t sample_at(const test::Run& run, double t) {
  return static_cast<std::size_t>(std::lower_bound(run.rec.t.begin(), run.rec.t.end(), t - 1e-9) - run.rec.t.begin());
}
// max − min of f(k) over samples with t in [a, b].
template <class F>
double spread(const test::Run& run, double a, double b, F f) {
  double lo = 1e300, hi = -1e300;
  for (std::size_t k = sample_at(run, a); k < run.rec.t.size() && run.rec.t[k] <= b; ++k) {
    lo = std::min(lo, f(k));
    hi = std::max(hi, f(k));
  }
  return hi - lo;
}
template <class F>
double largest(const test::Run& run, double a, double b, F f) {
  double hi = -1e300;
  for (std::size_t k = sample_at(run, a); k < run.rec.t.size() && run.rec.t[k] <= b; ++k) hi = std::max(hi, f(k));
  return hi;
}

// u > 0 with X_uu·u² + X_u·u = F.
double steady_speed(double X_uu, double X_u, double F) {
  return (-X_u + std::sqrt(X_u * X_u + 4 * X_uu * F)) / (2 * X_uu);
}

// The pitch–heave motion of a body in level surge at speed u (README "The Munk instability"):
// diagonal added mass, CG a distance BG below the CB at the origin, linear damping, W = B:
//   (m + Z_ẇ) ẇ = (m + X_u̇) u q − Z_w w
//   (I_y + M_q̇) q̇ = (Z_ẇ − X_u̇) u w − M_q q − W·BG·θ
//   θ̇ = q
// (I_y about the origin.) Its matrix, states (w, q, θ).
struct PitchHeave {
  double m, X_ud, Z_wd, I_q, Z_w, M_q, WBG;
  Eigen::Matrix3d matrix(double u) const {
    const double m_w = m + Z_wd;
    Eigen::Matrix3d A;
    A << -Z_w / m_w, (m + X_ud) * u / m_w, 0.0,  //
        (Z_wd - X_ud) * u / I_q, -M_q / I_q, -WBG / I_q,  //
        0.0, 1.0, 0.0;
    return A;
  }
  // Routh–Hurwitz on a₃s³ + a₂s² + a₁(u)s + a₀: stable iff a₁a₂ > a₀a₃ (all positive).
  double onset_speed() const {
    const double m_w = m + Z_wd;
    const double a3 = m_w * I_q, a2 = I_q * Z_w + M_q * m_w, a0 = WBG * Z_w;
    return std::sqrt((WBG * m_w + M_q * Z_w - a0 * a3 / a2) / ((Z_wd - X_ud) * (m + X_ud)));
  }
  std::complex<double> oscillatory_eigenvalue(double u) const {
    const Eigen::Vector3cd ev = Eigen::EigenSolver<Eigen::Matrix3d>(matrix(u)).eigenvalues();
    for (int i = 0; i < 3; ++i)
      if (ev[i].imag() > 0) return ev[i];
    return {0, 0};
  }
};

PitchHeave pitch_heave_of(const model::BodySpec& b, double g) {
  const double z_g = b.p_BoBcm_B.z() - b.p_BoBcb_B.z();
  return PitchHeave{b.mass, b.added_mass_B(0, 0), b.added_mass_B(2, 2),
                    b.inertia_Bcm_B(1, 1) + b.mass * b.p_BoBcm_B.squaredNorm() + b.added_mass_B(4, 4),
                    b.linear_damping[2], b.linear_damping[4], b.mass * g * z_g};
}

}  // namespace

TEST_CASE("Munk instability: the BlueROV2's level surge loses stability at the README's u*, with the linear model's frequency") {
  const scenario::Scenario s = scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_push.yaml");
  const model::BodySpec& b = s.bodies.at(0);
  const PitchHeave ph = pitch_heave_of(b, s.environment.gravity);
  const double u_star = ph.onset_speed();
  CHECK(u_star == doctest::Approx(0.46).epsilon(0.01));  // the README's figure
  // The static rule of thumb of the README: the Munk stiffness (Z_ẇ − X_u̇)u² equals W·BG at 0.50 m/s.
  CHECK(std::sqrt(ph.WBG / (ph.Z_wd - ph.X_ud)) == doctest::Approx(0.50).epsilon(0.01));
  CHECK(ph.WBG == doctest::Approx(2.26).epsilon(0.01));
  CHECK((ph.Z_wd - ph.X_ud) * 0.5 * 0.5 == doctest::Approx(2.27).epsilon(0.01));

  // The full simulator, neutrally buoyant (so the level surge is the steady state), pushed at
  // its origin to 0.85 u* and 1.15 u*, released with a 0.1° pitch. At these small amplitudes
  // the quadratic damping is negligible, so the oscillation decays or grows as the linear
  // model says: the growth rate's sign, and its frequency to 5 % (what the 3-state model leaves
  // out: the surge coupling through the 2 cm CG offset, and the quadratic terms).
  for (double factor : {0.85, 1.15}) {
    CAPTURE(factor);
    const double u = factor * u_star;
    const double F = b.linear_damping[0] * u + b.quadratic_damping[0] * u * u;
    const test::Run run = test::run_file(
        "scenarios/bluerov2_push.yaml",
        {"bodies.rov.volume=" + std::to_string(b.mass / s.environment.water_density), "forces.push.force.0=" + std::to_string(F),
         "bodies.rov.initial.velocity=[" + std::to_string(u) + ",0,0,0,0,0]", "bodies.rov.initial.rpy=[0,0.001745,0]",
         "simulation.duration=50"});
    const auto pitch = [&](std::size_t k) { return euler_at(run, k)[1]; };
    const double early = spread(run, 5, 15, pitch), late = spread(run, 35, 45, pitch);
    const std::complex<double> lambda = ph.oscillatory_eigenvalue(u);
    const double measured_rate = std::log(late / early) / 30.0;
    CAPTURE(measured_rate);
    CAPTURE(lambda);
    if (factor < 1) CHECK(late < 0.5 * early);
    else CHECK(late > 2.0 * early);
    CHECK(measured_rate * lambda.real() > 0);
    // The period from the zero crossings of the pitch rate over 5–45 s.
    int crossings = 0;
    double first = 0, last = 0;
    for (std::size_t k = sample_at(run, 5) + 1; k < run.rec.t.size() && run.rec.t[k] <= 45; ++k) {
      const double q0 = nu_at(run, k - 1)[4], q1 = nu_at(run, k)[4];
      if (q0 < 0 && q1 >= 0) {
        const double tc = run.rec.t[k - 1] + (run.rec.t[k] - run.rec.t[k - 1]) * q0 / (q0 - q1);
        if (crossings == 0) first = tc;
        last = tc;
        ++crossings;
      }
    }
    REQUIRE(crossings > 5);
    const double omega = 2 * std::numbers::pi * (crossings - 1) / (last - first);
    CHECK(omega == doctest::Approx(lambda.imag()).epsilon(0.05));
  }
}

TEST_CASE("bluerov2_push (the default): 4 N settle it at the surge speed and nose-down trim the README derives") {
  const test::Run run = test::run_file("scenarios/bluerov2_push.yaml");
  const model::BodySpec& b = run.scenario.bodies.at(0);
  const double g = run.scenario.environment.gravity;
  const double W = b.mass * g, B = run.scenario.environment.water_density * g * b.volume;
  const std::size_t end = run.rec.t.size() - 1;
  const Vec6 nu = nu_at(run, end);
  const double pitch = euler_at(run, end)[1];
  // Steady: after 20 s the pitch–heave oscillation of the start is within 0.1° of the trim.
  CHECK(spread(run, 20, 30, [&](std::size_t k) { return euler_at(run, k)[1]; }) * kDeg < 0.2);
  // Surge balance in body axes: push = drag + the net weight's component (W − B) sin θ.
  const double F = run.scenario.forces.at(0).force.x();
  const double u = steady_speed(b.quadratic_damping[0], b.linear_damping[0], F - (W - B) * std::sin(pitch));
  CHECK(nu[0] == doctest::Approx(u).epsilon(1e-3));
  CHECK(nu[0] == doctest::Approx(0.34).epsilon(0.02));  // the README's figure
  // Pitch balance about the origin (push, drag and buoyancy act there): the Munk moment of the
  // climb through the water, (Z_ẇ − X_u̇)·u·w, equals the righting moment W·BG·sin θ.
  const double munk = (b.added_mass_B(2, 2) - b.added_mass_B(0, 0)) * nu[0] * nu[2];
  CHECK(munk == doctest::Approx(W * b.p_BoBcm_B.z() * std::sin(pitch)).epsilon(0.01));
  CHECK(nu[2] < 0);  // rising through the water (body axes)
  CHECK(pitch * kDeg == doctest::Approx(-13.5).epsilon(0.02));  // nose down, the README's figure
  // It climbs (2 N buoyant) but is still under water at the end.
  const Vec3 p_end = run.rec.X_WB[end][0].p;
  CHECK(p_end.z() < 5.0 - 2.0);
  CHECK(p_end.z() > 0.0);
  CHECK(run.result.warnings.empty());
}

TEST_CASE("bluerov2_surge_steps: under the autopilot the pilot's three demands settle at thrust = drag, level and on course") {
  const test::Run run = test::run_file("scenarios/bluerov2_surge_steps.yaml");
  const model::BodySpec& b = run.scenario.bodies.at(0);
  const double c45 = std::sqrt(0.5);
  const double table[] = {6.4, 18.2, 34.6};  // the T200 table at 1600, 1700, 1800 µs (N)
  const double pwm[] = {1600, 1700, 1800};
  const double claimed[] = {0.89, 1.57, 2.21};
  for (int i = 0; i < 3; ++i) {
    const std::size_t k = sample_at(run, 12.0 + 10.0 * i - 0.02);
    const double u = steady_speed(b.quadratic_damping[0], b.linear_damping[0], 4 * c45 * table[i]);
    CAPTURE(i);
    // Pitch below 2° and 2 N of net buoyancy change the balance by < 0.1 %; the table's
    // quoted thrusts are rounded to 0.1 N (0.3 % at 1600 µs).
    CHECK(nu_at(run, k)[0] == doctest::Approx(u).epsilon(0.005));
    CHECK(nu_at(run, k)[0] == doctest::Approx(claimed[i]).epsilon(0.005));
    for (std::size_t j = 0; j < 4; ++j) CHECK(run.rec.thrusters[k][j].command == doctest::Approx(pwm[i]).epsilon(0.003));
    // The front verticals push down (+z), the rear ones up: they carry the thrust's pitch moment.
    CHECK(run.rec.thrusters[k][4].thrust > 0);
    CHECK(run.rec.thrusters[k][6].thrust < 0);
  }
  const auto depth_error = [&](std::size_t k) { return std::abs(run.rec.X_WB[k][0].p.z() - 5.0); };
  const auto tilt = [&](std::size_t k) { return euler_at(run, k).cwiseAbs().maxCoeff() * kDeg; };
  CHECK(largest(run, 0, 32, depth_error) < 0.05);
  CHECK(largest(run, 0, 32, tilt) < 2.0);
  CHECK(run.result.warnings.empty());
}

TEST_CASE("bluerov2_surge_free: with no autopilot the vehicle passes u*, pitches through 90° and loops until it surfaces") {
  const test::Run run = test::run_file("scenarios/bluerov2_surge_free.yaml");
  const scenario::Scenario& s = run.scenario;
  const model::BodySpec& b = s.bodies.at(0);
  // The thrusters' nose-up moment at 1600 µs: 4·6.4 N·cos 45° at 8.5 cm below the origin, and
  // the pitch at which BG alone balances it.
  const double moment = 4 * 6.4 * std::sqrt(0.5) * 0.085;
  CHECK(moment == doctest::Approx(1.5).epsilon(0.05));
  CHECK(std::asin(moment / (b.mass * s.environment.gravity * b.p_BoBcm_B.z())) * kDeg == doctest::Approx(43).epsilon(0.03));
  const double u_star = pitch_heave_of(b, s.environment.gravity).onset_speed();
  double t_fast = -1, t_up = -1;  // when u first exceeds u*, and pitch first reaches 85°
  for (std::size_t k = 0; k < run.rec.t.size(); ++k) {
    if (t_fast < 0 && nu_at(run, k)[0] > u_star) t_fast = run.rec.t[k];
    if (t_up < 0 && euler_at(run, k)[1] * kDeg > 85) t_up = run.rec.t[k];
  }
  CHECK(t_fast > 2.0);
  CHECK(t_fast < t_up);
  CHECK(t_up < 4.5);  // within 2.5 s of the first step
  // Looping: from then on the pitch rate never reverses, and it peaks near 3.3 rad/s.
  CHECK(largest(run, t_up, 32, [&](std::size_t k) { return -nu_at(run, k)[4]; }) < 0);
  CHECK(largest(run, 0, 32, [&](std::size_t k) { return nu_at(run, k)[4]; }) == doctest::Approx(3.3).epsilon(0.05));
  REQUIRE(run.result.warnings.size() == 1);
  CHECK(run.result.warnings[0].find("bluerov2/rov") != std::string::npos);
  CHECK(run.result.warnings[0].find("t = 24.48 s") != std::string::npos);
}

TEST_CASE("bluerov2_current: carried by the current, the vehicle turns as in still water and rises at its heave speed") {
  const test::Run run = test::run_file("scenarios/bluerov2_current.yaml");
  const scenario::Scenario& s = run.scenario;
  const model::BodySpec& b = s.bodies.at(0);
  const Vec3 current = s.environment.current_W;
  // The yaw of a body turning about its vertical axis in still water, integrated here on its own
  // (RK4 at 1 ms): (I_z + N_ṙ) ṙ = N(t) − N_r r − N_|r|r |r| r.
  const double I = b.inertia_Bcm_B(2, 2) + b.mass * (b.p_BoBcm_B.x() * b.p_BoBcm_B.x() + b.p_BoBcm_B.y() * b.p_BoBcm_B.y()) +
                   b.added_mass_B(5, 5);
  const double N_r = b.linear_damping[5], N_rr = b.quadratic_damping[5];
  const model::ForceSpec& pulse = s.forces.at(0);
  const auto rdot = [&](double t, double r) {
    return ((t >= pulse.start && t < pulse.stop ? pulse.moment.z() : 0.0) - N_r * r - N_rr * std::abs(r) * r) / I;
  };
  double r = 0, yaw = 0, t = 0;
  const double h = 1e-3;
  std::size_t k = 0;
  double worst_yaw = 0, worst_drift = 0;
  const double B = s.environment.water_density * s.environment.gravity * b.volume, W = b.mass * s.environment.gravity;
  const double w_rise = steady_speed(b.quadratic_damping[2], b.linear_damping[2], B - W);
  for (; k < run.rec.t.size(); ++k) {
    while (t < run.rec.t[k] - 1e-12) {  // RK4 on (yaw, r), landing on the pulse's edges
      const double k1 = rdot(t, r), k2 = rdot(t + h / 2, r + h / 2 * k1), k3 = rdot(t + h / 2, r + h / 2 * k2), k4 = rdot(t + h, r + h * k3);
      yaw += h / 6 * (r + 2 * (r + h / 2 * k1) + 2 * (r + h / 2 * k2) + (r + h * k3));
      r += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
      t += h;
    }
    worst_yaw = std::max(worst_yaw, std::abs(std::remainder(euler_at(run, k)[2] - yaw, 2 * std::numbers::pi)));
    const Vec3 v_W = run.rec.X_WB[k][0].R * nu_at(run, k).head<3>();
    worst_drift = std::max(worst_drift, (v_W.head<2>() - current.head<2>()).norm());
  }
  CHECK(yaw * kDeg > 30.0);  // it does turn
  // The 3-DOF rise (heave, with the CG 2 cm off the turning axis) perturbs the 1-DOF yaw slightly.
  CHECK(worst_yaw * kDeg < 0.5);
  CHECK(worst_drift < 1e-3);
  // Rising at the heave speed where damping balances the 2 N of buoyancy (body w < 0 is up).
  CHECK(-nu_at(run, run.rec.t.size() - 1)[2] == doctest::Approx(w_rise).epsilon(0.01));
}

TEST_CASE("bluerov2_roll_decay: the roll oscillation decays with the period of the coupled sway–roll motion, near 2π√((I_x+K_ṗ)/(W·BG))") {
  const test::Run run = test::run_file("scenarios/bluerov2_roll_decay.yaml");
  const model::BodySpec& b = run.scenario.bodies.at(0);
  const double g = run.scenario.environment.gravity, W = b.mass * g, BG = b.p_BoBcm_B.z();
  const double rule = 2 * std::numbers::pi * std::sqrt((b.inertia_Bcm_B(0, 0) + b.added_mass_B(3, 3)) / (W * BG));
  CHECK(rule == doctest::Approx(2.2).epsilon(0.01));  // the comment's figure
  // The small-amplitude motion about the origin (CB) of a vehicle rising steadily at w₀ (2 N
  // buoyant; w₀ < 0 is up in body axes): sway v and roll φ couple through the CG offset z_g in
  // M_RB (Fossen 2011 eq. 3.44) and through the rise, in ν×(Mν) linearised about (0, 0, w₀):
  //   (m + Y_v̇) v̇ − m z_g ṗ − (m + Z_ẇ) w₀ p + Y_v v = 0
  //   (I_x + m z_g² + K_ṗ) ṗ − m z_g v̇ + m z_g w₀ p + (Z_ẇ − Y_v̇) w₀ v + K_p p + W·BG·φ = 0
  // whose oscillatory eigenvalue gives the period.
  const double m = b.mass, zg = BG, Yv = b.added_mass_B(1, 1), Zw = b.added_mass_B(2, 2);
  const double B = run.scenario.environment.water_density * g * b.volume;
  const double w0 = -steady_speed(b.quadratic_damping[2], b.linear_damping[2], B - W);
  Eigen::Matrix2d M;
  M << m + Yv, -m * zg, -m * zg, b.inertia_Bcm_B(0, 0) + m * zg * zg + b.added_mass_B(3, 3);
  Eigen::Matrix<double, 2, 3> K;  // the other terms, on (v, p, φ), moved to the right-hand side
  K << -b.linear_damping[1], (m + Zw) * w0, 0.0,  //
      -(Zw - Yv) * w0, -m * zg * w0 - b.linear_damping[3], -W * BG;
  Eigen::Matrix3d A = Eigen::Matrix3d::Zero();  // states (v, p, φ)
  A.topRows<2>() = M.inverse() * K;
  A(2, 1) = 1;
  const Eigen::Vector3cd ev = Eigen::EigenSolver<Eigen::Matrix3d>(A).eigenvalues();
  double omega = 0;
  for (int i = 0; i < 3; ++i) omega = std::max(omega, ev[i].imag());
  const double coupled = 2 * std::numbers::pi / omega;
  // Periods between downward zero crossings of the roll; after the first swing (20°, where
  // sin φ < φ lengthens it) the motion is small and the quadratic damping weak.
  std::vector<double> crossings;
  for (std::size_t k = 1; k < run.rec.t.size(); ++k) {
    const double a = euler_at(run, k - 1)[0], c = euler_at(run, k)[0];
    if (a > 0 && c <= 0) crossings.push_back(run.rec.t[k - 1] + (run.rec.t[k] - run.rec.t[k - 1]) * a / (a - c));
  }
  REQUIRE(crossings.size() >= 5);
  const double late = crossings.back() - crossings[crossings.size() - 2];
  CHECK(late == doctest::Approx(coupled).epsilon(0.003));
  CHECK(late == doctest::Approx(rule).epsilon(0.02));
  // It decays, and (2 N buoyant) rises.
  CHECK(spread(run, 12, 15, [&](std::size_t k) { return euler_at(run, k)[0]; }) < 0.1 * 20 / kDeg);
  CHECK(run.rec.X_WB.back()[0].p.z() < 4.0);
}

TEST_CASE("two_bluerov2: one part, two vehicles — the left one moves exactly as bluerov2_push's, the heavier right one sinks") {
  const test::Run two = test::run_file("scenarios/two_bluerov2.yaml");
  const test::Run push = test::run_file("scenarios/bluerov2_push.yaml");
  REQUIRE(two.rec.t.size() == push.rec.t.size());
  double worst = 0;
  for (std::size_t k = 0; k < push.rec.t.size(); ++k)
    worst = std::max(worst, (two.rec.X_WB[k][0].p - Vec3(0, -0.5, 0) - push.rec.X_WB[k][0].p).norm());
  CHECK(worst == 0.0);
  const double heavy = (13.5 - 11.5) * two.scenario.environment.gravity - 1.98;
  CHECK(heavy == doctest::Approx(17.6).epsilon(0.01));
  CHECK(two.rec.X_WB.back()[1].p.z() > 5.0 + 2.0);
  CHECK(two.rec.X_WB.back()[0].p.z() < 5.0);
}
