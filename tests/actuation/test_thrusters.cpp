// Thrusters, effort actuators and channel-driven forces, against closed forms: the thrust
// table, eq. 8, 9, 12 and 39 of [Nielsen2018], steady surge where thrust equals drag, the
// first-order spin-up, exact impulses across channel jumps, and CSV replay.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

#include "dynamics/pipeline.h"
#include "scenario/load_scenario.h"
#include "support/simulate.h"

using namespace uwsim;
using actuation::ThrusterModel;

namespace {

const double kC = std::sqrt(0.5);  // cos 45°

// The T200 16 V table of scenarios/vehicles/bluerov2.yaml, read from the file.
actuation::ThrusterParameters part_thruster() {
  const std::string part = std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_surge_free.yaml";
  const scenario::Scenario s = scenario::load_scenario(part);
  REQUIRE(s.thrusters.size() == 8);
  return s.thrusters[0].thruster;
}

inputs::Channel constant_channel(const std::string& name, double value) {
  inputs::Channel c;
  c.name = name;
  c.kind = inputs::ChannelKind::constant;
  c.value = value;
  return c;
}

// A BlueROV2-sized body with the Wu 2018 damping, neutral, CG = CB = origin. Its added mass
// is the same on all three axes: no Munk moment, which would otherwise turn any rounding-size
// yaw or pitch into a tumble in surge (a finless body is directionally unstable).
model::BodySpec surge_body() {
  model::BodySpec b = test::plain_body("rov");
  b.added_mass_B.diagonal() << 5.5, 5.5, 5.5, 0.12, 0.12, 0.12;
  b.linear_damping << 4.03, 6.22, 5.18, 0.07, 0.07, 0.07;
  b.quadratic_damping << 18.18, 21.66, 36.99, 1.55, 1.55, 1.55;
  return b;
}

// Four horizontal thrusters in the BlueROV2 Heavy layout but in the plane of the origin, so
// that equal commands give pure surge with no pitch moment.
std::vector<model::ThrusterSpec> surge_thrusters(const actuation::ThrusterParameters& model, const std::string& channel) {
  const double x = 0.156, y = 0.111;
  const std::vector<std::pair<Eigen::Vector3d, Eigen::Vector3d>> placed = {
      {{x, y, 0}, {kC, -kC, 0}}, {{x, -y, 0}, {kC, kC, 0}}, {{-x, y, 0}, {kC, kC, 0}}, {{-x, -y, 0}, {kC, -kC, 0}}};
  std::vector<model::ThrusterSpec> out;
  for (std::size_t i = 0; i < placed.size(); ++i) {
    model::ThrusterSpec t;
    t.thruster = model;
    t.thruster.name = "t" + std::to_string(i);
    t.thruster.p_BoT_B = placed[i].first;
    t.thruster.axis_B = placed[i].second;
    t.body = "rov";
    t.input.channel = channel;
    out.push_back(t);
  }
  return out;
}

// u with X_uu·u² + X_u·u = F, u > 0.
double steady_speed(double X_uu, double X_u, double F) { return (-X_u + std::sqrt(X_u * X_u + 4 * X_uu * F)) / (2 * X_uu); }

}  // namespace

TEST_CASE("thruster: the T200 table gives its thrust at the table points and linearly between them") {
  const actuation::ThrusterParameters t = part_thruster();
  REQUIRE(t.model == ThrusterModel::table);
  const double kgf = 9.80665;
  // The points of the part file (Blue Robotics T200, 16 V), reverse then forward.
  const std::vector<std::pair<double, double>> points = {{1100, -4.07}, {1184, -2.94}, {1308, -1.35}, {1472, 0.0},
                                                         {1528, 0.0}, {1624, 0.87}, {1728, 2.22}, {1840, 4.25},
                                                         {1864, 4.71}, {1900, 5.25}};
  // The file gives newtons to 1 mN.
  for (const auto& [pwm, thrust] : points)
    CHECK(std::abs(actuation::evaluate_thruster(t, pwm, 0.0, 0.0).thrust - thrust * kgf) <= 5e-4);
  for (std::size_t k = 0; k + 1 < points.size(); ++k) {
    for (double f : {0.25, 0.5, 0.9}) {
      const double pwm = points[k].first + f * (points[k + 1].first - points[k].first);
      const double expected = points[k].second + f * (points[k + 1].second - points[k].second);
      CHECK(std::abs(actuation::evaluate_thruster(t, pwm, 0.0, 0.0).thrust - expected * kgf) <= 5e-4);
    }
  }
  CHECK(actuation::evaluate_thruster(t, 1500.0, 0.0, 0.0).thrust == 0.0);   // dead band
  CHECK(actuation::evaluate_thruster(t, 2500.0, 0.0, 0.0).thrust == doctest::Approx(5.25 * kgf).epsilon(2e-5));  // limits
  CHECK(actuation::evaluate_thruster(t, 2500.0, 0.0, 0.0).command == 1900.0);
  CHECK(actuation::evaluate_thruster(t, 1700.0, 2.0, 0.0).thrust == actuation::evaluate_thruster(t, 1700.0, 0.0, 0.0).thrust);
}

TEST_CASE("thruster: eq. 8 angles, eq. 39 power law with dead band, eq. 12 advance speed") {
  // Eq. 8.
  CHECK((actuation::direction_from_angles(0.0, 0.0) - Eigen::Vector3d::UnitX()).norm() < 1e-15);
  CHECK((actuation::direction_from_angles(0.0, M_PI / 2) + Eigen::Vector3d::UnitY()).norm() < 1e-15);
  CHECK((actuation::direction_from_angles(M_PI / 2, 0.3) - Eigen::Vector3d::UnitZ()).norm() < 1e-15);
  CHECK(actuation::direction_from_angles(0.4, -1.1).norm() == doctest::Approx(1.0));

  // Eq. 39: ω = a·u^(−b) + c forward, mirrored about neutral in reverse, 0 in the dead band.
  actuation::PowerLawSpeedMap map{-4.0e6, 1.5, 300.0, 1500.0, 25.0};
  CHECK(actuation::shaft_speed_of(map, 1500.0) == 0.0);
  CHECK(actuation::shaft_speed_of(map, 1525.0) == 0.0);
  CHECK(actuation::shaft_speed_of(map, 1474.0) == doctest::Approx(-std::max(0.0, -4.0e6 * std::pow(1526.0, -1.5) + 300.0)));
  CHECK(actuation::shaft_speed_of(map, 1800.0) == doctest::Approx(-4.0e6 * std::pow(1800.0, -1.5) + 300.0));
  CHECK(actuation::shaft_speed_of(map, 1200.0) == doctest::Approx(-actuation::shaft_speed_of(map, 1800.0)));

  // Eq. 12: the drop with advance speed is exactly T_|ω|u·|ω|·u_a, for either sign of ω.
  const double T_ww = 2.1e-4, T_wu = -1.3e-2;
  for (double w : {-180.0, 40.0, 250.0}) {
    const double bollard = actuation::propeller_thrust(T_ww, T_wu, w, 0.0);
    CHECK(bollard == doctest::Approx(T_ww * std::abs(w) * w));
    for (double ua : {-0.5, 0.3, 1.2}) {
      const double drop = bollard - actuation::propeller_thrust(T_ww, T_wu, w, ua);
      CHECK(drop == doctest::Approx(-T_wu * std::abs(w) * ua));
    }
  }
}

TEST_CASE("thruster: advance speed is the water speed through the disc, relative to the current") {
  model::BodySpec b = surge_body();
  scenario::Scenario s = test::scenario_with({b}, 1.0);
  s.environment.current_W = Eigen::Vector3d(0.3, -0.2, 0.1);
  s.inputs.push_back({constant_channel("u", 0.5), {}});
  model::ThrusterSpec t;
  t.body = "rov";
  t.input.channel = "u";
  t.thruster.name = "p";
  t.thruster.model = ThrusterModel::propeller;
  t.thruster.p_BoT_B = Eigen::Vector3d(-0.2, 0.1, 0.05);
  t.thruster.axis_B = actuation::direction_from_angles(0.2, -0.4);
  t.thruster.speed_from_table = true;
  t.thruster.speed_table = inputs::Table{{-1.0, 1.0}, {-300.0, 300.0}};
  t.thruster.thrust_coefficient = 2e-4;
  t.thruster.advance_coefficient = -1e-2;
  t.thruster.reaction_torque = 0.02;
  s.thrusters.push_back(t);
  const dynamics::Model m = model::build_model(s);
  std::vector<double> x = m.x0;
  const Eigen::Quaterniond q_WB = Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()));
  x[3] = q_WB.w(), x[4] = q_WB.x(), x[5] = q_WB.y(), x[6] = q_WB.z();
  const Eigen::Vector3d w_B(0.1, -0.3, 0.2), v_B(0.8, 0.1, -0.2);
  Eigen::Map<Eigen::Vector3d>(x.data() + m.bodies[0].v_offset) = w_B;
  Eigen::Map<Eigen::Vector3d>(x.data() + m.bodies[0].v_offset + 3) = v_B;
  dynamics::Workspace ws(m);
  std::vector<double> xdot(x.size());
  dynamics::evaluate(m, 0.0, x.data(), xdot.data(), ws);

  const Eigen::Vector3d v_c_B = q_WB.toRotationMatrix().transpose() * s.environment.current_W;
  const Eigen::Vector3d& p = t.thruster.p_BoT_B;
  const Eigen::Vector3d& axis = m.thrusters[0].axis_B;
  const double u_a = axis.dot(v_B - v_c_B + w_B.cross(p));
  const double omega = 150.0;
  const double expected = 2e-4 * omega * omega - 1e-2 * omega * u_a;  // eq. 12
  CHECK(ws.thrusters[0].shaft_speed == doctest::Approx(omega));
  CHECK(ws.thrusters[0].thrust == doctest::Approx(expected).epsilon(1e-13));
  CHECK(u_a > 0.1);  // moving forward through the water: less thrust than at the bollard
  CHECK(ws.thrusters[0].thrust < 2e-4 * omega * omega);

  // Eq. 9 and the reaction torque: the thruster adds [p × f + k·f; f] to the body's wrench.
  dynamics::Model bare = m;
  bare.thrusters.clear();
  dynamics::Workspace ws_bare(bare);
  dynamics::evaluate(bare, 0.0, x.data(), xdot.data(), ws_bare);
  const Eigen::Vector3d f = expected * axis;
  const spatial::Vec6 added = ws.bodies[0].F_Bo_B - ws_bare.bodies[0].F_Bo_B;
  CHECK((spatial::angular(added) - (p.cross(f) + 0.02 * f)).norm() < 1e-12);
  CHECK((spatial::linear(added) - f).norm() < 1e-12);
}

TEST_CASE("thruster: a BlueROV2 reaches the surge speed where T200 thrust equals its drag") {
  scenario::Scenario s = test::scenario_with({surge_body()}, 30.0, 1e-3, 10.0);
  s.inputs.push_back({constant_channel("pwm", 1700.0), {}});
  s.thrusters = surge_thrusters(part_thruster(), "pwm");
  const test::Trajectory tr = test::simulate(s);
  REQUIRE(tr.result.outcome == integrate::Outcome::completed);
  const double T = 8.532 + (21.771 - 8.532) * 76.0 / 104.0;   // the table (N) at 1700 µs
  const double u = steady_speed(18.18, 4.03, 4 * kC * T);
  const spatial::Vec6 nu = tr.nu(tr.t.size() - 1);
  CHECK(nu[0] == doctest::Approx(u).epsilon(1e-6));
  CHECK(u > 0.5);
  for (int k = 1; k < 6; ++k) CHECK(std::abs(nu[k]) < 1e-9);
}

TEST_CASE("thruster: with a propeller the steady surge speed solves eq. 12 against the drag, in a current") {
  actuation::Thruster prop;
  prop.model = ThrusterModel::propeller;
  prop.speed_from_table = true;
  prop.speed_table = inputs::Table{{-1.0, 1.0}, {-300.0, 300.0}};
  prop.thrust_coefficient = 2e-4;
  prop.advance_coefficient = -1e-2;
  scenario::Scenario s = test::scenario_with({surge_body()}, 30.0, 1e-3, 10.0);
  s.environment.current_W = Eigen::Vector3d(0.2, 0.0, 0.0);
  s.inputs.push_back({constant_channel("u", 0.5), {}});
  s.thrusters = surge_thrusters(prop, "u");
  const test::Trajectory tr = test::simulate(s);
  // Relative surge speed u_r: X_uu u_r² + (X_u − 4c²·T_|ω|u·ω) u_r − 4c·T_|ω|ω·ω² = 0, with
  // u_a = c·u_r at every thruster.
  const double w = 150.0, X_u = 4.03, X_uu = 18.18;
  const double b = X_u - 4 * kC * kC * (-1e-2) * w, F0 = 4 * kC * 2e-4 * w * w;
  const double u_r = (-b + std::sqrt(b * b + 4 * X_uu * F0)) / (2 * X_uu);
  CHECK(tr.nu(tr.t.size() - 1)[0] == doctest::Approx(u_r + 0.2).epsilon(1e-6));
  // Without the advance term it would be faster.
  CHECK(steady_speed(X_uu, X_u, F0) > u_r + 0.05);
}

TEST_CASE("thruster: spin-up follows the first-order response ω(t) = ω_c (1 − e^(−t/T))") {
  actuation::Thruster prop;
  prop.model = ThrusterModel::propeller;
  prop.speed_from_table = true;
  prop.speed_table = inputs::Table{{0.0, 1.0}, {0.0, 200.0}};
  prop.thrust_coefficient = 1e-4;
  prop.time_constant = 0.25;
  scenario::Scenario s = test::scenario_with({surge_body()}, 1.0, 1e-3, 20.0);
  s.inputs.push_back({constant_channel("u", 0.75), {}});
  s.thrusters = surge_thrusters(prop, "u");
  const test::Trajectory tr = test::simulate(s);
  REQUIRE(tr.model.na == 4);
  const int k_state = tr.model.thrusters[0].state_index;
  CHECK(k_state == tr.model.nq + tr.model.nv);
  for (std::size_t k = 0; k < tr.t.size(); ++k) {
    const double expected = 150.0 * (1.0 - std::exp(-tr.t[k] / 0.25));
    CHECK(tr.x[k][static_cast<std::size_t>(k_state)] == doctest::Approx(expected).epsilon(1e-10));
    CHECK(tr.xdot[k][static_cast<std::size_t>(k_state)] == doctest::Approx((150.0 - expected) / 0.25).epsilon(1e-9));
  }
}

TEST_CASE("forces: a channel scales the wrench, and rk4 and dopri5 land on its jumps (exact impulse)") {
  for (auto method : {scenario::IntegratorKind::rk4, scenario::IntegratorKind::dopri5}) {
    model::BodySpec b = test::plain_body("rov");
    scenario::Scenario s = test::scenario_with({b}, 1.0, 1e-3, 7.0);
    s.simulation.integrator = method;
    // 100 Hz zero-order hold of irregular values, switched on at an odd time.
    inputs::Channel held;
    held.name = "held";
    held.kind = inputs::ChannelKind::piecewise_linear;
    held.interpolation = inputs::Interpolation::hold;
    double expected_impulse = 0.0;
    for (int k = 0; k <= 60; ++k) {
      held.table.x.push_back(0.1237 + 0.01 * k);
      held.table.y.push_back(k == 60 ? 0.0 : 2.0 + std::sin(1.7 * k));
      if (k < 60) expected_impulse += held.table.y.back() * 0.01;
    }
    held.table.y.front() = 2.0 + std::sin(0.0);  // holds before the first sample too
    expected_impulse += held.table.y.front() * 0.1237;
    s.inputs.push_back({held, {}});
    model::ForceSpec f;
    f.name = "push";
    f.body = "rov";
    f.force = Eigen::Vector3d(1.0, 0.0, 0.0);
    f.input = "held";
    s.forces.push_back(f);
    const test::Trajectory tr = test::simulate(s);
    // No drag: the momentum gained is the impulse of the held samples, exactly.
    CHECK(tr.nu(tr.t.size() - 1)[0] * 11.5 == doctest::Approx(expected_impulse).epsilon(1e-11));
  }
}

TEST_CASE("joints: an effort actuator adds its command to the effort, saturated by the effort limit") {
  model::BodySpec link = test::plain_body("link");
  link.volume = 0.0;
  scenario::Scenario s = test::scenario_with({link}, 1.0);
  s.environment.gravity = 0.0;
  model::JointSpec j;
  j.name = "j";
  j.type = model::JointType::revolute;
  j.parent = "world";
  j.child = "link";
  j.effort = 0.5;
  j.limits.effort = 2.0;
  j.actuator.kind = actuation::JointActuatorKind::effort;
  j.actuator.input.channel = "torque";
  s.joints.push_back(j);
  inputs::Channel ramp;
  ramp.name = "torque";
  ramp.kind = inputs::ChannelKind::ramp;
  ramp.start = 0.0, ramp.stop = 1.0, ramp.from = -1.0, ramp.to = 3.0;
  s.inputs.push_back({ramp, {}});
  const dynamics::Model m = model::build_model(s);
  dynamics::Workspace ws(m);
  std::vector<double> xdot(m.x0.size());
  const double D = 0.16;  // the link's inertia about z (CG on the axis)
  for (double t : {0.0, 0.2, 0.5, 0.9}) {
    dynamics::evaluate(m, t, m.x0.data(), xdot.data(), ws);
    const double expected = std::clamp(0.5 + (-1.0 + 4.0 * t), -2.0, 2.0);
    CHECK(ws.bodies[0].tau == doctest::Approx(expected));
    CHECK(xdot[static_cast<std::size_t>(m.bodies[0].v_offset)] == doctest::Approx(expected / D));
  }
}

namespace {
// Keeps each sample's channel values.
class InputSink : public integrate::SampleSink {
 public:
  std::vector<double> t;
  std::vector<std::vector<double>> values;
  void on_sample(double time, const double*, const double*, const dynamics::Workspace& ws) override {
    t.push_back(time);
    values.push_back(ws.inputs);
  }
};
}  // namespace

TEST_CASE("csv: replay reproduces the file's samples, interpolated and held") {
  const scenario::Scenario s = scenario::load_scenario(std::string(UWSIM_TEST_DATA_DIR) + "/inputs/replay.yaml");
  REQUIRE(s.inputs.size() == 2);
  const std::vector<double> times = {0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8};
  const std::vector<double> pwm = {1500, 1520, 1610.5, 1700, 1680, 1540, 1400, 1333.25, 1500};
  CHECK(s.inputs[0].channel.table.x == times);
  CHECK(s.inputs[0].channel.table.y == pwm);
  const dynamics::Model m = model::build_model(s);
  CHECK(m.discontinuities() == std::vector<double>(times.begin() + 1, times.end()));
  InputSink sink;
  integrate::run(m, scenario::integration_settings(s.simulation), sink);
  REQUIRE(sink.t.size() == 11);
  for (std::size_t k = 0; k < sink.t.size(); ++k) {
    const double expected = k < pwm.size() ? pwm[k] : pwm.back();
    CHECK(sink.values[k][0] == expected);
    CHECK(sink.values[k][1] == expected);
  }
  // Between samples: linear for one, held for the other.
  dynamics::Workspace ws(m);
  std::vector<double> xdot(m.x0.size());
  dynamics::evaluate(m, 0.25, 0.2, m.x0.data(), xdot.data(), ws);
  CHECK(ws.inputs[0] == doctest::Approx(0.5 * (1610.5 + 1700)));
  CHECK(ws.inputs[1] == 1610.5);
  CHECK(ws.thrusters[0].thrust == doctest::Approx(16.105));
}
