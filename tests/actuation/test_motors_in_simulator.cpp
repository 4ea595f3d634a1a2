// Gear motors and ball-screw linear actuators on joints, written as scenarios and run through
// the simulator's pipeline: the reflected rotor inertia inside the joint's inertia
// ([Leborne2018] eq. 2) and the lever's transmission against eq. 4 from the geometry.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "dynamics/pipeline.h"
#include "integrate/driver.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"
#include "support/simulate.h"

using namespace uwsim;

namespace {

scenario::Scenario load(const std::string& yaml) {
  return scenario::load_scenario_text(yaml, "motors.yaml");
}

// One link on a vertical revolute joint from the world, 0.5 kg m² about the axis, no fluid
// terms, no torque but the actuator's.
std::string single_joint(const std::string& actuator, double q0 = 0.0, const std::string& limits = "") {
  return "name: motor\n"
         "simulation: {duration: 1.0, step: 0.001, output_rate: 10.0}\n"
         "bodies:\n"
         "  - {name: link, mass: 2.0, inertia: [0.3, 0.3, 0.5]}\n"
         "joints:\n"
         "  - {name: j, type: revolute, parent: world, child: link, initial: {position: " + std::to_string(q0) + "}" +
         limits + ", actuator: " + actuator + "}\n";
}

double initial_acceleration(const scenario::Scenario& s) {
  const dynamics::Model m = model::build_model(s);
  std::vector<double> xdot(m.x0.size());
  dynamics::Workspace ws(m);
  dynamics::evaluate(m, 0.0, m.x0.data(), xdot.data(), ws);
  return xdot[static_cast<std::size_t>(m.nq)];
}

}  // namespace

TEST_CASE("gear motor in the simulator: the reflected rotor inertia N²·J_m slows the joint by I / (I + N²J_m)") {
  // k_T = 0.05 N m/A, N = 100, J_m = 2e-5 kg m², i = 2 A: drive N k_T i = 10 N m, armature 0.2 kg m².
  const std::string motor = "{type: gear_motor, input: 2.0, torque_constant: 0.05, gear_ratio: 100.0, rotor_inertia: 2.0e-5}";
  const std::string no_rotor = "{type: gear_motor, input: 2.0, torque_constant: 0.05, gear_ratio: 100.0}";
  const double with = initial_acceleration(load(single_joint(motor)));
  const double without = initial_acceleration(load(single_joint(no_rotor)));
  CHECK(without == doctest::Approx(10.0 / 0.5).epsilon(1e-12));
  CHECK(with == doctest::Approx(10.0 / (0.5 + 0.2)).epsilon(1e-12));
  CHECK(with / without == doctest::Approx(0.5 / 0.7).epsilon(1e-12));
  // Over a run the acceleration stays constant (no friction): q(1 s) = ½·q̈·t², exactly with rk4.
  const test::Trajectory run = test::simulate(load(single_joint(motor)));
  REQUIRE(run.result.outcome == integrate::Outcome::completed);
  CHECK(run.x.back()[0] == doctest::Approx(0.5 * 10.0 / 0.7).epsilon(1e-12));
  // Reflected viscous friction N²·f_v: at 1 rad/s, f_v = 1e-4 N m s/rad on the motor takes 1 N m.
  const std::string viscous = "{type: gear_motor, input: 0.0, torque_constant: 0.05, gear_ratio: 100.0, viscous_friction: 1.0e-4}";
  scenario::Scenario spinning = load(single_joint(viscous));
  spinning.joints[0].initial_velocity = 1.0;
  CHECK(initial_acceleration(spinning) == doctest::Approx(-1.0 / 0.5).epsilon(1e-12));
}

TEST_CASE("linear actuator in the simulator: the joint torque is l2·sin α·F_BS (eq. 4) over the joint range") {
  // Pivot A at l1 = 0.06 m on the parent, attachment B at l2 = 0.15 m on the link, θ = θ0 + q.
  const double l1 = 0.06, l2 = 0.15, theta0 = 1.2, pitch = 0.002, kT = 0.02, N = 4.0, i = 1.5;
  const double Jm = 5e-6, m_nut = 0.4, I = 0.5;
  const std::string actuator = "{type: linear_actuator, input: " + std::to_string(i) +
                               ", torque_constant: 0.02, gear_ratio: 4.0, rotor_inertia: 5.0e-6, nut_mass: 0.4, "
                               "pitch: 0.002, l1: 0.06, l2: 0.15, angle_offset: 1.2}";
  const std::string limits = ", limits: {lower: -1.0, upper: 1.8}";
  for (double q = -0.95; q < 1.8; q += 0.25) {
    // Independent geometry: O at the origin, A on the x axis, B at angle θ; the screw pushes B
    // away from A with F_BS = k_T·i·N·2π/p, and the joint feels the moment of that force about O.
    const double theta = theta0 + q;
    const Eigen::Vector2d A(l1, 0.0), B(l2 * std::cos(theta), l2 * std::sin(theta));
    const Eigen::Vector2d u = (B - A).normalized();
    const double lever_arm = B.x() * u.y() - B.y() * u.x();  // (OB × u)_z = dL/dθ = l2 sin α
    const double sin_alpha = l1 * std::sin(theta) / (B - A).norm();  // eq. 4's angle at B
    CHECK(lever_arm == doctest::Approx(l2 * sin_alpha).epsilon(1e-12));
    const double force = kT * i * N * 2.0 * M_PI / pitch;
    const double k1 = N * 2.0 * M_PI / pitch * lever_arm;
    const double armature = k1 * k1 * Jm + lever_arm * lever_arm * m_nut;
    const double qdd = initial_acceleration(load(single_joint(actuator, q, limits)));
    CHECK(qdd == doctest::Approx(lever_arm * force / (I + armature)).epsilon(1e-10));
  }
}
