// What scenarios/stability/README.md and its scenario files say the commands print, checked:
// the BlueROV2's trim in surge and where its pitch–heave and sway–yaw modes turn unstable,
// a yaw disturbance growing at the predicted rate in a simulation, the rest of a BlueROV2 with
// an arm against a long run, and the connected pair's modes.
#include <doctest/doctest.h>

#include <cmath>

#include "analysis/trim.h"
#include "analysis/variables.h"
#include "support/linear_models.h"
#include "support/simulate.h"

using namespace uwsim;

namespace {

const std::string kScenarios = std::string(UWSIM_SOURCE_DIR) + "/scenarios/";
const std::string kSurge = kScenarios + "stability/bluerov2_surge_stability.yaml";
const std::string kRov = "bodies.bluerov2/rov.";

struct Trimmed {
  scenario::Scenario scenario;
  analysis::TrimResult trim;
  test::Linearized linear;
};

Trimmed trim_and_linearize(const std::string& file, const std::vector<std::string>& overrides) {
  Trimmed out;
  out.scenario = scenario::load_scenario(file, overrides);
  const dynamics::Model model = model::build_model(out.scenario);
  analysis::TrimProblem problem;
  problem.unknowns = out.scenario.trim.unknowns;
  problem.steady = out.scenario.trim.steady;
  out.trim = analysis::trim(model, problem);
  REQUIRE(out.trim.converged);
  out.linear = test::linearize_model(analysis::with_trimmed_inputs(model, out.trim), out.trim.x);
  return out;
}

Trimmed surge_at(double speed, const std::vector<std::string>& more = {}) {
  std::vector<std::string> overrides = {kRov.substr(0, kRov.size() - 1) + ".initial.velocity.0=" + test::exact(speed)};
  overrides.insert(overrides.end(), more.begin(), more.end());
  return trim_and_linearize(kSurge, overrides);
}

double value_of(const analysis::TrimResult& r, const std::string& name) {
  for (std::size_t i = 0; i < r.unknown_names.size(); ++i)
    if (r.unknown_names[i] == name) return r.solution[static_cast<Eigen::Index>(i)];
  FAIL("no unknown " << name);
  return 0.0;
}

// The least stable eigenvalue of the modes in which the named components of the vehicle take
// more than half the part (as surge_stability_sweep.py picks them).
std::complex<double> least_stable(const test::Linearized& l, const std::vector<std::string>& components) {
  std::vector<std::string> names;
  for (const std::string& c : components) names.push_back(kRov + c);
  std::complex<double> best(-1e300, 0.0);
  for (const analysis::Mode& m : l.modes.modes)
    if (!m.neutral && m.eigenvalue.imag() >= 0.0 && test::share(l, m, names) > 0.5 && m.eigenvalue.real() > best.real())
      best = m.eigenvalue;
  REQUIRE(best.real() > -1e300);
  return best;
}

double pitch_heave(double speed, const std::vector<std::string>& more = {}) {
  return least_stable(surge_at(speed, more).linear, {"w", "q", "rot_y"}).real();
}
double sway_yaw(double speed, const std::vector<std::string>& more = {}) {
  return least_stable(surge_at(speed, more).linear, {"v", "r", "rot_z"}).real();
}

template <class F>
double crossing(F f, double lo, double hi, double tolerance) {
  REQUIRE(f(lo) < 0.0);
  REQUIRE(f(hi) > 0.0);
  while (hi - lo > tolerance) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) > 0.0 ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

// BlueROV2 figures (vehicles/bluerov2.yaml) for the closed forms.
constexpr double m = 11.5, g = 9.81, z_g = 0.02, X_ud = 5.5, Y_vd = 12.7, Z_wd = 14.57, M_qd = 0.12, I_y = 0.16;
constexpr double Y_v = 6.22, Z_w = 5.18, M_q = 0.07, N_r = 0.07;

}  // namespace

TEST_CASE("stability scenario: the BlueROV2 trimmed at 0.5 m/s and its two growing modes, as the README prints them") {
  const Trimmed t = surge_at(0.5);
  CHECK(value_of(t.trim, "inputs.surge_force") == doctest::Approx(7.22).epsilon(0.0007));
  CHECK(value_of(t.trim, kRov + "w") == doctest::Approx(-0.165).epsilon(0.003));
  CHECK(value_of(t.trim, kRov + "pitch") == doctest::Approx(-0.339).epsilon(0.0015));
  const std::complex<double> loop = least_stable(t.linear, {"w", "q", "rot_y"});
  CHECK(loop.real() == doctest::Approx(0.19161).epsilon(1e-4));
  CHECK(loop.imag() == doctest::Approx(2.0226).epsilon(1e-4));
  CHECK(2 * M_PI / loop.imag() == doctest::Approx(3.1).epsilon(0.02));   // period 3.1 s
  CHECK(1.0 / loop.real() == doctest::Approx(5.2).epsilon(0.01));        // e-fold 5.2 s
  const std::complex<double> turn = least_stable(t.linear, {"v", "r", "rot_z"});
  CHECK(turn.real() == doctest::Approx(1.9596).epsilon(1e-4));
  CHECK(turn.imag() == 0.0);
  int growing = 0;
  for (const analysis::Mode& mode : t.linear.modes.modes) growing += !mode.neutral && mode.eigenvalue.real() > 0 && mode.eigenvalue.imag() >= 0;
  CHECK(growing == 2);
}

TEST_CASE("stability scenario: the pitch–heave pair turns unstable at 0.390 m/s, and at the quartic's onset when neutral") {
  CHECK(crossing([](double u) { return pitch_heave(u); }, 0.35, 0.45, 1e-4) == doctest::Approx(0.390).epsilon(0.0005 / 0.390));
  // Neutrally buoyant: the closed forms of README.md apply. The quartic (surge coupling kept)
  // by its Hurwitz determinant, from the figures alone.
  const std::vector<std::string> neutral = {kRov.substr(0, kRov.size() - 1) + ".volume=0.0115"};
  const double u_c = crossing([&](double u) { return pitch_heave(u, neutral); }, 0.4, 0.5, 1e-7);
  const double X_u = 4.03, X_uu = 18.18, W = m * g, M_u = m + X_ud, M_w = m + Z_wd, J = I_y + m * z_g * z_g + M_qd;
  auto hurwitz = [&](double u0) {
    Eigen::Matrix4d M, F;
    M << M_u, 0, m * z_g, 0, 0, M_w, 0, 0, m * z_g, 0, J, 0, 0, 0, 0, 1;
    F << -(X_u + 2 * X_uu * u0), 0, 0, 0, 0, -Z_w, M_u * u0, 0, 0, (Z_wd - X_ud) * u0, -M_q, -W * z_g, 0, 0, 1, 0;
    const Eigen::Matrix4d A = M.inverse() * F;
    // Characteristic polynomial by Faddeev–LeVerrier.
    double c[5] = {0, 0, 0, 0, 1};
    Eigen::Matrix4d Mk = Eigen::Matrix4d::Zero();
    for (int k = 1; k <= 4; ++k) {
      Mk = A * Mk + c[4 - k + 1] * Eigen::Matrix4d::Identity();
      c[4 - k] = -(A * Mk).trace() / k;
    }
    return -(c[3] * c[2] * c[1] - c[1] * c[1] - c[3] * c[3] * c[0]);
  };
  CHECK(u_c == doctest::Approx(crossing(hurwitz, 0.4, 0.5, 1e-9)).epsilon(1e-6));
  CHECK(u_c == doctest::Approx(0.4666).epsilon(0.00005 / 0.4666));
  // The cubic's closed form (no surge coupling) and the static argument, as README.md quotes them.
  const double alpha = Z_w / M_w, delta = M_q / J, kappa = W * z_g / J;
  const double cubic = std::sqrt(J * M_w * delta * (alpha + kappa / (alpha + delta)) / (M_u * (Z_wd - X_ud)));
  CHECK(cubic == doctest::Approx(0.4619).epsilon(0.00005 / 0.4619));
  const double statics = std::sqrt(W * z_g / (Z_wd - X_ud));
  CHECK(statics == doctest::Approx(0.499).epsilon(0.0005 / 0.499));
  CHECK((statics - u_c) / u_c == doctest::Approx(0.07).epsilon(0.1));
}

TEST_CASE("stability scenario: the sway–yaw mode turns unstable near the 2-DOF estimate, and a yaw disturbance grows at its rate") {
  const std::vector<std::string> neutral = {kRov.substr(0, kRov.size() - 1) + ".volume=0.0115"};
  const double estimate = std::sqrt(Y_v * N_r / ((m + X_ud) * (Y_vd - X_ud)));
  CHECK(estimate == doctest::Approx(0.0597).epsilon(0.00005 / 0.0597));
  const double neutral_onset = crossing([&](double u) { return sway_yaw(u, neutral); }, 0.05, 0.07, 1e-5);
  CHECK(neutral_onset == doctest::Approx(0.0598).epsilon(0.00005 / 0.0598));
  // Roll enters through m z_g, of relative size (m z_g)² / (M_v J_x) ≈ 0.8 %: within 1 %.
  CHECK(neutral_onset == doctest::Approx(estimate).epsilon(0.01));
  CHECK(crossing([](double u) { return sway_yaw(u); }, 0.05, 0.07, 1e-5) == doctest::Approx(0.056).epsilon(0.0005 / 0.056));

  // At 0.3 m/s: λ = +1.096 1/s. Simulated from the trim with a yaw rate of 1e-7 rad/s, r grows
  // by exp(λ) per second once the stable modes (the fastest lateral one at −1.6 1/s) have died.
  const Trimmed t = surge_at(0.3);
  const double lambda = least_stable(t.linear, {"v", "r", "rot_z"}).real();
  CHECK(lambda == doctest::Approx(1.096).epsilon(0.0005 / 1.096));
  CHECK(1.0 / lambda == doctest::Approx(0.91).epsilon(0.005 / 0.91));
  dynamics::Model model = analysis::with_trimmed_inputs(model::build_model(t.scenario), t.trim);
  model.x0 = t.trim.x;
  const int r = model.bodies[0].v_offset + 2;  // V = [ω; v]: r is ω_z
  model.x0[static_cast<std::size_t>(r)] += 1e-7;
  test::Trajectory run;
  run.model = model;
  test::CollectingSink sink(run);
  integrate::Settings settings;
  settings.duration = 6.0;
  settings.output_rate = 1.0;
  run.result = integrate::run(model, settings, sink);
  REQUIRE(run.result.outcome == integrate::Outcome::completed);
  const double r4 = run.x[4][static_cast<std::size_t>(r)], r6 = run.x[6][static_cast<std::size_t>(r)];
  CHECK(std::abs(r6) > 1e-6);     // it grew
  CHECK(std::abs(r6) < 1e-3);     // and is still small: linear
  CHECK(std::log(r6 / r4) / 2.0 == doctest::Approx(lambda).epsilon(0.005));
}

TEST_CASE("stability scenario: the BlueROV2 with an arm rests where its 300 s run ends, as README.md prints it") {
  const std::string file = kScenarios + "stability/bluerov2_arm_rest.yaml";
  const Trimmed t = trim_and_linearize(file, {});
  CHECK(t.trim.iterations == 12);
  CHECK(t.trim.free_directions == 0);
  for (const analysis::Mode& mode : t.linear.modes.modes) CHECK((mode.neutral || mode.eigenvalue.real() < 0.0));
  const test::Trajectory run = test::simulate(t.scenario);
  REQUIRE(run.result.outcome == integrate::Outcome::completed);
  REQUIRE(run.t.back() == 300.0);
  const Eigen::VectorXd none;
  for (const std::string& name : t.trim.unknown_names) {
    std::string why;
    const auto v = analysis::resolve(run.model, *analysis::parse_variable(name, why), why);
    REQUIRE(v);
    CAPTURE(name);
    // "every unknown within 1e-7" (m/s, rad/s, rad): the trim's rates are below 1e-9
    CHECK(std::abs(v->value(run.x.back().data(), none) - value_of(t.trim, name)) < 1e-7);
  }
  CHECK(value_of(t.trim, kRov + "w") == doctest::Approx(-0.0417).epsilon(0.00005 / 0.0417));
  CHECK(value_of(t.trim, kRov + "u") == doctest::Approx(-0.0069).epsilon(0.00005 / 0.0069));
  CHECK(value_of(t.trim, kRov + "v") == doctest::Approx(-0.0028).epsilon(0.00005 / 0.0028));
  CHECK(value_of(t.trim, kRov + "r") == doctest::Approx(-2.33e-4).epsilon(0.005 / 2.33));
  CHECK(2 * M_PI / std::abs(value_of(t.trim, kRov + "r")) / 3600 == doctest::Approx(7.5).epsilon(0.05 / 7.5));
  CHECK(value_of(t.trim, kRov + "roll") == doctest::Approx(0.0631).epsilon(0.00005 / 0.0631));
  CHECK(value_of(t.trim, kRov + "pitch") == doctest::Approx(-0.1015).epsilon(0.00005 / 0.1015));
  CHECK(value_of(t.trim, "joints.arm/joint1.position") == doctest::Approx(1.469).epsilon(0.0005 / 1.469));
  CHECK(std::abs(value_of(t.trim, "joints.arm/joint2.position")) < 0.0005);
  // The slowest decay: the roll oscillation, period 2.28 s, τ = 8.7 s.
  const analysis::Mode& roll = test::mode_of(t.linear, {kRov + "p", kRov + "rot_x"}, true);
  CHECK(2 * M_PI / roll.eigenvalue.imag() == doctest::Approx(2.28).epsilon(0.005 / 2.28));
  CHECK(roll.time_constant == doctest::Approx(8.7).epsilon(0.05 / 8.7));
  for (const analysis::Mode& mode : t.linear.modes.modes)
    if (!mode.neutral) CHECK(mode.time_constant <= roll.time_constant);
  // The assembly's net buoyancy: 0.3 N up, the arm's links 0.11 and 0.06 kg heavy.
  const dynamics::Model& model = run.model;
  double net = 0.0;
  for (const dynamics::Body& b : model.bodies) net += b.buoyancy - b.weight;
  CHECK(net == doctest::Approx(0.3).epsilon(0.05 / 0.3));
  // Started with the arm up, trim finds the arm balanced upright — an unstable equilibrium.
  const Trimmed up = trim_and_linearize(file, {"manipulators.arm.links.0.joint.initial.position=-1.2"});
  CHECK(value_of(up.trim, "joints.arm/joint1.position") < -1.5);
  bool grows = false;
  for (const analysis::Mode& mode : up.linear.modes.modes) grows = grows || (!mode.neutral && mode.eigenvalue.real() > 0.0);
  CHECK(grows);
}

TEST_CASE("stability scenario: the connected pair's modes at 30 s, as README.md prints them") {
  const scenario::Scenario s = scenario::load_scenario(kScenarios + "two_bluerov_rigid.yaml", {"simulation.duration=30"});
  const test::Trajectory run = test::simulate(s);
  REQUIRE(run.result.outcome == integrate::Outcome::completed);
  const test::Linearized l = test::linearize_model(run.model, run.x.back());
  REQUIRE(l.linear.constrained);
  CHECK(l.linear.A.rows() == 36);
  CHECK(l.linear.constraint_rows == 24);
  CHECK(l.linear.constraint_rank == 24);
  CHECK(l.linear.basis.cols() == 12);
  CHECK(l.modes.neutral == 4);
  const std::vector<std::pair<std::complex<double>, double>> expected = {
      {{0.14964, 0.0}, 1e-5}, {{-0.074486, 0.0}, 1e-6}, {{-0.17077, 0.70746}, 1e-4},
      {{-0.64804, 0.78299}, 1e-5}, {{-3.8716, 0.0}, 1e-4}, {{-5.1849, 0.0}, 1e-4}};
  for (const auto& [e, digits] : expected) {
    double closest = 1e300;
    for (const analysis::Mode& mode : l.modes.modes) closest = std::min(closest, std::abs(mode.eigenvalue - e));
    CAPTURE(e);
    CHECK(closest < digits);
  }
  // The surge mode against the rigid translation of the three bodies (vehicles' and piece's
  // mass and added mass in surge; quadratic drag slopes at the steady speed of 20 N).
  const double drag = 2 * 34.96 + 21.24, u0 = std::sqrt(20.0 / drag);
  const double translation = -2.0 * drag * u0 / (2 * (7.31 + 2.6) + (1.0 + 1.52));
  CHECK(translation == doctest::Approx(-3.82).epsilon(0.005 / 3.82));
  CHECK(u0 == doctest::Approx(0.468).epsilon(0.0005 / 0.468));
}

TEST_CASE("stability scenario: the vehicle is Wu's BlueROV2, not paper 001's variant of it, which has no growing mode in surge") {
  // README.md: vehicles/bluerov2.yaml has the CB 2 cm above the CG, added masses 5.5, 12.7 and
  // 14.57 kg and quadratic damping; León-González et al.'s (leon-gonzalez2024/uvms.yaml) shares
  // its mass, inertia, CG and linear damping but has the CB at the CG, 11.702 kg of added mass
  // in every direction and no quadratic damping.
  const scenario::Scenario wu = scenario::load_scenario(kSurge);
  const scenario::Scenario paper = scenario::load_scenario(kScenarios + "leon-gonzalez2024/uvms_four_arms.yaml");
  const auto body = [](const scenario::Scenario& s, const std::string& name) -> const model::BodySpec& {
    for (const model::BodySpec& b : s.bodies)
      if (b.name == name) return b;
    FAIL("no body " << name);
    return s.bodies.front();
  };
  const model::BodySpec& a = body(wu, "bluerov2/rov");
  const model::BodySpec& b = body(paper, "uvms/rov");
  CHECK(a.mass == b.mass);
  CHECK(a.inertia_Bcm_B == b.inertia_Bcm_B);
  CHECK(a.p_BoBcm_B == b.p_BoBcm_B);
  CHECK(a.linear_damping == b.linear_damping);
  CHECK(a.volume == b.volume);
  CHECK((a.p_BoBcm_B - a.p_BoBcb_B).z() == doctest::Approx(0.02));
  CHECK(b.p_BoBcb_B == b.p_BoBcm_B);
  CHECK(a.added_mass_B.diagonal().head<3>() == Eigen::Vector3d(5.5, 12.7, 14.57));
  CHECK(b.added_mass_B.diagonal().head<3>() == Eigen::Vector3d::Constant(11.702));
  CHECK(a.quadratic_damping.minCoeff() > 0.0);
  CHECK(b.quadratic_damping.isZero());
  // With equal added masses the Munk moments vanish: trimmed at 0.5 m/s, every mode decays.
  const Trimmed equal = surge_at(0.5, {kRov + "added_mass=[11.702,11.702,11.702,0.12,0.12,0.12]"});
  for (const analysis::Mode& mode : equal.linear.modes.modes) CHECK((mode.neutral || mode.eigenvalue.real() < 0.0));
}
