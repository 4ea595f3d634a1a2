// sim trim against closed forms (terminal speeds where thrust or net weight equals drag), a
// case with no equilibrium, and where a long simulation of a vehicle with an arm settles.
#include <doctest/doctest.h>

#include <cmath>

#include "analysis/trim.h"
#include "analysis/variables.h"
#include "support/linear_models.h"
#include "support/simulate.h"

using namespace uwsim;
using analysis::VariableKind;

namespace {

const char* kBody = R"(
name: body
simulation: {duration: 1.0}
bodies:
  - name: b
    mass: 11.5
    inertia: [0.16, 0.2, 0.25]
    center_of_gravity: [0.0, 0.0, 0.02]
    volume: 0.0115
    added_mass: [5.5, 12.7, 14.57, 0.12, 0.12, 0.12]
    linear_damping: [4.03, 6.22, 5.18, 0.07, 0.07, 0.07]
    quadratic_damping: [18.18, 21.66, 36.99, 1.55, 1.55, 1.55]
)";

constexpr double d_u = 4.03, d_uu = 18.18, d_w = 5.18, d_ww = 36.99;

analysis::TrimResult trim_of(const scenario::Scenario& s, std::vector<analysis::VariableRef> unknowns,
                             std::vector<analysis::VariableRef> steady = {}) {
  const dynamics::Model model = model::build_model(s);
  analysis::TrimProblem problem;
  problem.unknowns = std::move(unknowns);
  problem.steady = std::move(steady);
  return analysis::trim(model, problem);
}

double value_of(const analysis::TrimResult& r, const std::string& name) {
  for (std::size_t i = 0; i < r.unknown_names.size(); ++i)
    if (r.unknown_names[i] == name) return r.solution[static_cast<Eigen::Index>(i)];
  FAIL("no unknown " << name);
  return 0.0;
}

// The positive root of d·v + d₂·v² = F.
double terminal_speed(double d, double d2, double F) { return (-d + std::sqrt(d * d + 4.0 * d2 * F)) / (2.0 * d2); }

}  // namespace

TEST_CASE("trim: the surge speed under a constant thrust is where X_u·u + X_|u|u·u|u| equals it") {
  const std::string yaml = std::string(kBody) + R"(
forces:
  - {name: push, body: b, force: [10.0, 0.0, 0.0]}
)";
  // The speed alone, and with the attitude and heave free too (they stay level and 0: the
  // push acts at the origin, the body is neutral).
  const analysis::TrimResult r = trim_of(test::scenario_from(yaml), {{VariableKind::body, "b", "u"}});
  REQUIRE(r.converged);
  CHECK(value_of(r, "bodies.b.u") == doctest::Approx(terminal_speed(d_u, d_uu, 10.0)).epsilon(1e-10));
  CHECK(r.free_directions == 0);
  const analysis::TrimResult all = trim_of(
      test::scenario_from(yaml),
      {{VariableKind::body, "b", "u"}, {VariableKind::body, "b", "w"}, {VariableKind::body, "b", "pitch"}});
  REQUIRE(all.converged);
  CHECK(value_of(all, "bodies.b.u") == doctest::Approx(terminal_speed(d_u, d_uu, 10.0)).epsilon(1e-10));
  CHECK(std::abs(value_of(all, "bodies.b.pitch")) < 1e-9);
  CHECK(all.residual.cwiseAbs().maxCoeff() <= 1e-9);
}

TEST_CASE("trim: the thrust that holds a surge speed, through a thruster's spin-up state") {
  const std::string yaml = std::string(kBody) + R"(    initial: {velocity: [0.8, 0.0, 0.0, 0.0, 0.0, 0.0]}
inputs:
  - {name: cmd, type: constant, value: 1.0}
thrusters:
  - {name: t, body: b, direction: [1.0, 0.0, 0.0], input: cmd, model: linear, gain: 4.0, time_constant: 0.3}
)";
  const analysis::TrimResult r = trim_of(test::scenario_from(yaml), {{VariableKind::input, "cmd", ""}});
  REQUIRE(r.converged);
  const double drag = d_u * 0.8 + d_uu * 0.8 * 0.8;
  // Residuals below 1e-9 (the default tolerance) leave ~1e-10 relative in the solution.
  CHECK(value_of(r, "inputs.cmd") == doctest::Approx(drag / 4.0).epsilon(1e-8));
  // The spin-up state is an unknown of its own, at the thrust it lags behind.
  CHECK(value_of(r, "thrusters.t.state") == doctest::Approx(drag).epsilon(1e-8));
}

TEST_CASE("trim: a heavy body's depth rate settles where its net weight equals the heave drag") {
  const scenario::Scenario s = test::scenario_from(kBody, {"bodies.b.volume=0.0112"});
  const double net = (11.5 - 1000.0 * 0.0112) * 9.81;
  const analysis::TrimResult r = trim_of(s, {{VariableKind::body, "b", "w"}, {VariableKind::body, "b", "roll"},
                                             {VariableKind::body, "b", "pitch"}});
  REQUIRE(r.converged);
  CHECK(value_of(r, "bodies.b.w") == doctest::Approx(terminal_speed(d_w, d_ww, net)).epsilon(1e-9));
}

TEST_CASE("trim: a heavy body with its heave speed held finds no equilibrium and says which rate stays") {
  const scenario::Scenario s = test::scenario_from(kBody, {"bodies.b.volume=0.0112"});
  const analysis::TrimResult r = trim_of(s, {{VariableKind::body, "b", "roll"}, {VariableKind::body, "b", "pitch"}});
  CHECK_FALSE(r.converged);
  Eigen::Index worst = 0;
  r.residual.cwiseAbs().maxCoeff(&worst);
  CHECK(r.residual_names[static_cast<std::size_t>(worst)] == "bodies.b.w");
  // What is left is the net weight on the body at rest: (W − B)/(m + Z_ẇ) at the level attitude,
  // the attitude that makes the least of it.
  CHECK(r.residual[worst] == doctest::Approx((11.5 - 11.2) * 9.81 / (11.5 + 14.57)).epsilon(1e-6));
  CHECK(r.message.find("minimum") != std::string::npos);
}

TEST_CASE("trim: a variable that names nothing, no unknowns or a connected body is refused") {
  const scenario::Scenario s = test::scenario_from(kBody);
  CHECK_THROWS_AS(trim_of(s, {{VariableKind::joint, "elbow", "position"}}), analysis::TrimError);
  CHECK_THROWS_AS(trim_of(s, {}), analysis::TrimError);
  const std::string connected = std::string(kBody) + R"(    initial: {position: [0.0, 0.0, 5.0]}
connectors:
  - {name: hook, type: ball, bodies: [b, world], point: [0.0, 0.0, -0.3]}
)";
  CHECK_THROWS_WITH_AS(trim_of(test::scenario_from(connected), {{VariableKind::body, "b", "pitch"}}),
                       doctest::Contains("connector"), analysis::TrimError);
}

TEST_CASE("trim: a vehicle with an arm rests where a long simulation from another pose settles") {
  const scenario::Scenario s = scenario::load_scenario(std::string(UWSIM_TEST_DATA_DIR) + "/analysis/small_uvms.yaml");
  const analysis::TrimResult r = trim_of(s, s.trim.unknowns);
  REQUIRE(r.converged);
  CHECK(r.free_directions == 0);
  // 30 s of dopri5 at 1e-11 from the arm raised and the vehicle level (the scenario's start).
  const test::Trajectory settled = test::simulate(s);
  REQUIRE(settled.result.outcome == integrate::Outcome::completed);
  const dynamics::Model& model = settled.model;
  const Eigen::VectorXd no_inputs;
  for (const std::string& name : r.unknown_names) {
    std::string why;
    std::string text = name;
    const auto ref = analysis::parse_variable(text, why);
    const auto v = analysis::resolve(model, *ref, why);
    REQUIRE(v);
    CAPTURE(name);
    CHECK(v->value(settled.x.back().data(), no_inputs) == doctest::Approx(value_of(r, name)).epsilon(1e-6).scale(1.0));
  }
  // The pose is not trivial: the vehicle rolls and pitches, and the arm hangs far from its start.
  CHECK(std::abs(value_of(r, "bodies.rov.roll")) > 0.01);
  CHECK(std::abs(value_of(r, "bodies.rov.pitch")) > 0.01);
  CHECK(std::abs(value_of(r, "joints.shoulder.position") + 0.4) > 0.5);
}
