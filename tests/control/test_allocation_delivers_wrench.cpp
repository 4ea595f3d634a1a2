// Allocation closes the loop with the dynamics: thrusts allocated for a commanded wrench, applied
// through the simulator's own thruster path (dynamics/actuation_stage.cpp: thrust at its point
// plus the propeller's reaction torque), give the commanded wrench back — also when every
// thruster has a reaction torque ([Nielsen2018] eq. 9; thruster_configuration.h (1)).
#include <doctest/doctest.h>

#include <random>

#include "control/thrust_allocation.h"
#include "control/thruster_configuration.h"
#include "dynamics/pipeline.h"
#include "support/simulate.h"

using namespace uwsim;
using spatial::Vec3;
using spatial::Vec6;

namespace {

// Six thrusters in a skewed layout (full rank), each with its own reaction torque: both
// handednesses, and large enough (up to 5 cm of lever per newton) to matter.
struct Layout {
  Vec3 position, direction;
  double reaction_torque;
};
const Layout kLayout[6] = {{{0.3, 0.2, 0.05}, {1.0, 0.2, 0.0}, 0.04},    {{0.3, -0.2, 0.05}, {1.0, -0.3, 0.1}, -0.04},
                           {{-0.3, 0.1, -0.1}, {0.1, 1.0, 0.0}, 0.05},   {{0.1, 0.25, 0.0}, {0.0, 0.2, 1.0}, -0.03},
                           {{-0.2, -0.25, 0.1}, {0.1, 0.0, 1.0}, 0.02},  {{0.0, 0.0, 0.2}, {-0.3, 1.0, 0.4}, -0.05}};

// The body with thrusters commanded to `thrusts` (linear thrusters, 1 N per unit): in a vacuum
// without gravity and at rest, so the thrusters' wrench is the only force.
scenario::Scenario rov_with_thrusts(const Eigen::VectorXd& thrusts) {
  model::BodySpec rov = test::plain_body("rov");
  rov.p_BoBcm_B = Vec3(0.02, -0.01, 0.03);
  rov.inertia_Bcm_B << 0.3, 0.02, -0.01, 0.02, 0.4, 0.03, -0.01, 0.03, 0.5;
  scenario::Scenario s = test::scenario_with({rov}, 1.0);
  s.environment.gravity = 0.0;
  s.environment.water_density = 0.0;
  for (int j = 0; j < 6; ++j) {
    model::ThrusterSpec t;
    t.body = "rov";
    t.thruster.name = std::string("t").append(std::to_string(j));  // not "t" + …: GCC 12 warns falsely (-Wrestrict)
    t.thruster.model = actuation::ThrusterModel::linear;
    t.thruster.gain = 1.0;
    t.thruster.p_BoT_B = kLayout[j].position;
    t.thruster.axis_B = kLayout[j].direction.normalized();
    t.thruster.reaction_torque = kLayout[j].reaction_torque;
    t.input.constant = thrusts[j];
    s.thrusters.push_back(t);
  }
  return s;
}

// The wrench the dynamics applies, recovered from the acceleration it produces: M ν̇ at rest.
Vec6 delivered_wrench(const scenario::Scenario& s) {
  const dynamics::Model model = model::build_model(s);
  dynamics::Workspace ws(model);
  std::vector<double> xdot(model.x0.size());
  dynamics::evaluate(model, 0.0, model.x0.data(), xdot.data(), ws);
  const Vec6 a = Eigen::Map<const Vec6>(xdot.data() + model.bodies[0].v_offset);
  return spatial::to_fossen_order(model.bodies[0].M_B * a);
}

}  // namespace

TEST_CASE("thrust allocation with reaction torques: the allocated thrusts, applied by the dynamics, deliver the commanded wrench") {
  const dynamics::Model model = model::build_model(rov_with_thrusts(Eigen::VectorXd::Zero(6)));
  REQUIRE(model.thrusters.size() == 6);
  control::ConfigurationMatrix T(6, 6), T_without(6, 6);
  for (int j = 0; j < 6; ++j) {
    const actuation::Thruster& th = model.thrusters[static_cast<std::size_t>(j)];
    T.col(j) = control::thruster_column(th.p_BoT_B, th.axis_B, th.reaction_torque);
    T_without.col(j) = control::thruster_column(th.p_BoT_B, th.axis_B);  // [d; p × d] alone
  }
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    Vec6 commanded;  // [X Y Z K M N]
    commanded << 20.0 * u(rng), 20.0 * u(rng), 20.0 * u(rng), 3.0 * u(rng), 3.0 * u(rng), 3.0 * u(rng);
    const Eigen::VectorXd thrusts = control::allocate_unsaturated(T, commanded, 0.0);
    const Vec6 delivered = delivered_wrench(rov_with_thrusts(thrusts));
    // Newton–Euler at rest: the wrench the bodies feel is the wrench asked for, to rounding.
    CHECK((delivered - commanded).norm() < 1e-10 * commanded.norm());
    // Without the reaction torques in the columns the same request is delivered with a moment
    // error Σ k_r,j u_j d_j — a few percent of the request at these reaction torques.
    const Eigen::VectorXd naive = control::allocate_unsaturated(T_without, commanded, 0.0);
    CHECK((delivered_wrench(rov_with_thrusts(naive)) - commanded).tail<3>().norm() > 1e-3 * commanded.norm());
  }
}
