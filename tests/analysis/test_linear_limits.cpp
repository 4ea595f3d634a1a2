// sim linearize at a joint stop (issue 43, trap 3): a pendulum hanging on its lower limit.
// On the limit the central differences straddle the stop's switch (a spurious stiff mode, which
// is flagged and marked); pressed into the stop, the stop's spring is real and its mode has the
// closed form of a critically damped spring plus gravity; moved inside the range, the stop is
// gone and the pendulum's own frequency is left.
#include <doctest/doctest.h>

#include <cmath>

#include "analysis/joint_limits.h"
#include "support/linear_models.h"

using namespace uwsim;

namespace {

// A link of 2 kg on a horizontal axis from the world, its CG 0.3 m below the axis when q = 0
// (hanging), in air; the lower limit is the hanging position.
constexpr double kMass = 2.0, kArm = 0.3, kIyy = 0.02, kGravity = 9.81;
const char* kPendulum = R"(
name: pendulum_on_stop
simulation: {duration: 1.0}
environment: {water_density: 0.0}
bodies:
  - {name: link, mass: 2.0, inertia: [0.01, 0.02, 0.01], center_of_gravity: [0.0, 0.0, 0.3]}
joints:
  - {name: j, type: revolute, parent: world, child: link, axis: [0.0, 1.0, 0.0], limits: {lower: 0.0, upper: 1.0}}
)";

const double kInertia = kIyy + kMass * kArm * kArm;  // about the axis
const double kOmegaStop = 2.0 * M_PI * 50.0;         // compliance.limit_frequency's default

}  // namespace

TEST_CASE("linearize on a joint's limit: the joint is flagged, and the stiff mode it dominates is the stop's") {
  const test::Linearized l = test::linearize_at(test::scenario_from(kPendulum));
  REQUIRE(l.linear.limit_contacts.size() == 1);
  const analysis::LimitContact& c = l.linear.limit_contacts[0];
  CHECK(c.joint == "j");
  CHECK_FALSE(c.upper);
  CHECK_FALSE(c.beyond);
  CHECK(c.limit == 0.0);
  CHECK(l.linear.state_names[static_cast<std::size_t>(c.position_state)] == "joints.j.position");
  CHECK(l.linear.state_names[static_cast<std::size_t>(c.velocity_state)] == "joints.j.velocity");
  // The differences see the spring on one side only: a mode far stiffer than the pendulum's
  // sqrt(mgl/I) = 8.6 rad/s, below the stop's own 314 rad/s — the one the joint dominates.
  const std::vector<std::size_t> dominated = analysis::modes_dominated_by(c, l.modes);
  REQUIRE(dominated.size() == 2);  // a conjugate pair
  const analysis::Mode& stop = l.modes.modes[dominated[0]];
  CHECK(stop.natural_frequency > 10.0 * std::sqrt(kMass * kGravity * kArm / kInertia));
  CHECK(stop.natural_frequency < kOmegaStop);

  // The same pendulum hanging on its upper limit instead.
  const test::Linearized upper = test::linearize_at(test::scenario_from(kPendulum, {"joints.j.limits={lower: -1.0, upper: 0.0}"}));
  REQUIRE(upper.linear.limit_contacts.size() == 1);
  CHECK(upper.linear.limit_contacts[0].upper);
  CHECK_FALSE(upper.linear.limit_contacts[0].beyond);
  CHECK(analysis::modes_dominated_by(upper.linear.limit_contacts[0], upper.modes).size() == 2);
  // Inside the range by more than the step: nothing flagged.
  CHECK(test::linearize_at(test::scenario_from(kPendulum, {"joints.j.initial.position=0.5"})).linear.limit_contacts.empty());
}

TEST_CASE("linearize pressed into a stop: the stop's mode is a critically damped spring stiffened by gravity") {
  // 0.01 rad beyond the lower limit: every difference sees the spring D(−ω²Δ − 2ωq̇) with
  // D = I, plus gravity's stiffness mgl·cos q: s² + 2ωs + ω² + mgl cos q / I = 0.
  // (A scenario cannot start there; a simulated state can be there, held by the stop.)
  const dynamics::Model model = model::build_model(test::scenario_from(kPendulum));
  std::vector<double> x = analysis::initial_state(model);
  x[static_cast<std::size_t>(model.bodies[0].q_offset)] = -0.01;
  const test::Linearized l = test::linearize_model(model, x);
  REQUIRE(l.linear.limit_contacts.size() == 1);
  CHECK(l.linear.limit_contacts[0].beyond);
  const analysis::Mode& stop = l.modes.modes[analysis::modes_dominated_by(l.linear.limit_contacts[0], l.modes)[0]];
  const double k_gravity = kMass * kGravity * kArm * std::cos(-0.01) / kInertia;
  CHECK(stop.eigenvalue.real() == doctest::Approx(-kOmegaStop).epsilon(1e-6));
  CHECK(std::abs(stop.eigenvalue.imag()) == doctest::Approx(std::sqrt(k_gravity)).epsilon(1e-4));
}

TEST_CASE("linearize just inside the range: moved off the stop, the pendulum's own frequency is left") {
  const scenario::Scenario s = test::scenario_from(kPendulum);
  const dynamics::Model model = model::build_model(s);
  std::vector<double> x = analysis::initial_state(model);
  const std::vector<analysis::LimitContact> contacts = analysis::joints_at_limits(model, x, 1e-5);
  REQUIRE(contacts.size() == 1);
  analysis::move_inside_limits(model, x, contacts, 1e-3);
  CHECK(x[static_cast<std::size_t>(contacts[0].x_index)] == doctest::Approx(1e-3).epsilon(1e-12));
  const test::Linearized l = test::linearize_model(model, x);
  CHECK(l.linear.limit_contacts.empty());
  const analysis::Mode& swing = test::mode_of(l, {"joints.j.position", "joints.j.velocity"}, true);
  CHECK(swing.natural_frequency == doctest::Approx(std::sqrt(kMass * kGravity * kArm * std::cos(1e-3) / kInertia)).epsilon(1e-6));
  CHECK(std::abs(swing.eigenvalue.real()) < 1e-6);  // no damping in air without joint damping
  for (const analysis::Mode& m : l.modes.modes) CHECK(m.natural_frequency < 20.0);

  // A range narrower than two margins puts the joint in its middle.
  std::vector<double> narrow = analysis::initial_state(model);
  analysis::move_inside_limits(model, narrow, contacts, 0.8);
  CHECK(narrow[static_cast<std::size_t>(contacts[0].x_index)] == doctest::Approx(0.5));
}
