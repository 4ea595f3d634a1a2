// README "Your first scenario" tells the truth: the YAML block printed there is read from
// README.md itself, run, and checked against the closed form the README gives for a body
// under a constant force and quadratic drag, (m + X_u̇)·u̇ = F − k·u², from rest:
//   u(t) = u_T·tanh(t/τ), u_T = √(F/k), τ = (m + X_u̇)/√(F·k), x(t) = ((m + X_u̇)/k)·ln cosh(t/τ).
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "support/recording.h"

using namespace uwsim;

namespace {

// The first ```yaml block after the heading `heading` in README.md.
std::string readme_yaml_after(const std::string& heading) {
  std::ifstream in(std::string(UWSIM_SOURCE_DIR) + "/README.md");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const std::size_t at = text.find("\n" + heading + "\n");
  REQUIRE(at != std::string::npos);
  const std::size_t open = text.find("```yaml\n", at);
  REQUIRE(open != std::string::npos);
  const std::size_t begin = open + 8, end = text.find("```", begin);
  REQUIRE(end != std::string::npos);
  return text.substr(begin, end - begin);
}

}  // namespace

TEST_CASE("README 'Your first scenario': the box reaches u_T = 0.577 m/s as tanh(t/τ) and travels 10.85 m in 20 s") {
  const std::string yaml = readme_yaml_after("## Your first scenario");
  const test::Run run = test::run_scenario(
      scenario::load_scenario_text(yaml, std::string(UWSIM_SOURCE_DIR) + "/first.yaml"));
  const dynamics::Body& box = run.model.bodies.at(0);
  // The derived values the README states: neutral, surge drag 30 N s²/m².
  CHECK(box.buoyancy == doctest::Approx(box.weight).epsilon(1e-12));
  // Surge drag ½ρ·C_d·A with A the box's 0.3 × 0.2 m face (spatial order: surge is index 3).
  const double k = 0.5 * run.scenario.environment.water_density * 1.0 * (0.3 * 0.2);
  CHECK(k == doctest::Approx(30.0));
  CHECK(box.quadratic_damping[3] == doctest::Approx(k).epsilon(1e-12));
  const double F = run.scenario.forces.at(0).force.x();
  const double m = run.scenario.bodies.at(0).mass + run.scenario.bodies.at(0).added_mass_B(0, 0);
  const double u_T = std::sqrt(F / k), tau = m / std::sqrt(F * k);
  CHECK(u_T == doctest::Approx(0.577).epsilon(0.0005 / 0.577));
  CHECK(tau == doctest::Approx(1.73).epsilon(0.005 / 1.73));
  CHECK(std::tanh(5.0 / tau) > 0.99);
  CHECK((m / k) * std::log(std::cosh(20.0 / tau)) == doctest::Approx(10.85).epsilon(0.005 / 10.85));
  // The run against the closed form at every sample (rk4 at 1 ms: errors far below 1e-6), and
  // nothing but surge: the push, weight, buoyancy and drag all act at the centre.
  for (std::size_t s = 0; s < run.rec.t.size(); ++s) {
    const double t = run.rec.t[s];
    const spatial::Vec6& nu = run.rec.V_WB_B[s][0];
    const spatial::Vec3 p = run.rec.X_WB[s][0].p;
    CAPTURE(t);
    CHECK(nu[0] == doctest::Approx(u_T * std::tanh(t / tau)).epsilon(1e-6).scale(1.0));
    CHECK(p.x() == doctest::Approx((m / k) * std::log(std::cosh(t / tau))).epsilon(1e-6).scale(1.0));
    CHECK(std::abs(p.y()) + std::abs(p.z() - 2.0) + nu.tail<5>().norm() < 1e-9);
  }
}
