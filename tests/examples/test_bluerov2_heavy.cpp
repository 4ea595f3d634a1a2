// The BlueROV2 Heavy parts tell the truth (issue 43, trap 2): vehicles/bluerov2_heavy.yaml's
// motors against ArduSub's own factor table, written out here from ArduPilot's source, not from
// the part; its body's weight and buoyancy; vehicles/bluerov2_heavy_alpha5.yaml's arm against
// paper 004's part and its untrimmed hydrostatics; and what bluerov2_heavy_alpha5_hold.yaml's
// header says of its run.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <string>

#include "analysis/joint_limits.h"
#include "analysis/trim.h"
#include "dynamics/pipeline.h"
#include "spatial/rotation.h"
#include "support/hydrostatics.h"
#include "support/recording.h"

using namespace uwsim;
using spatial::Vec3;
using spatial::Vec6;

namespace {

// ArduPilot, libraries/AP_Motors/AP_Motors6DOF.cpp, AP_Motors6DOF::setup_motors(), case
// SUB_FRAME_VECTORED_6DOF: add_motor_raw_6dof(motor, roll, pitch, yaw, throttle, forward,
// lateral, testing order). Positive: roll right, pitch up, yaw right, up, forward, to starboard.
enum Axis { kRoll, kPitch, kYaw, kThrottle, kForward, kLateral };
constexpr std::array<std::array<double, 6>, 8> kFactors = {{
    {0, 0, 1, 0, -1, 1},    // motor 1
    {0, 0, -1, 0, -1, -1},  // motor 2
    {0, 0, -1, 0, 1, 1},    // motor 3
    {0, 0, 1, 0, 1, -1},    // motor 4
    {1, -1, 0, -1, 0, 0},   // motor 5
    {-1, -1, 0, -1, 0, 0},  // motor 6
    {1, 1, 0, -1, 0, 0},    // motor 7
    {-1, 1, 0, -1, 0, 0},   // motor 8
}};
// In body axes (x forward, y starboard, z down) [X Y Z K M N], the component each axis is, and
// its sign: "up" is −Z.
constexpr std::array<int, 6> kComponent = {3, 4, 5, 2, 0, 1};
constexpr std::array<double, 6> kSign = {1, 1, 1, -1, 1, 1};

std::string heavy_with(const std::string& set) {
  return "name: heavy\nsimulation: {duration: 0.01, step: 0.001, output_rate: 100.0}\n"
         "include:\n  - {file: vehicles/bluerov2_heavy.yaml, name: h, position: [0.0, 0.0, 5.0]" +
         (set.empty() ? std::string() : ", set: {" + set + "}") + "}\n";
}

scenario::Scenario load_text(const std::string& yaml) {
  return scenario::load_scenario_text(yaml, std::string(UWSIM_SOURCE_DIR) + "/scenarios/inline_test.yaml");
}

const actuation::Thruster& motor(const dynamics::Model& model, int k) {
  for (const actuation::Thruster& t : model.thrusters)
    if (t.name == "h/motor" + std::to_string(k)) return t;
  FAIL("no thruster h/motor" << k);
  return model.thrusters.front();
}

}  // namespace

TEST_CASE("bluerov2_heavy: each column of ArduSub's VECTORED_6DOF factor table pushes its own way, and only that way") {
  const dynamics::Model model = model::build_model(load_text(heavy_with("")));
  REQUIRE(model.thrusters.size() == 8);
  for (int axis = kRoll; axis <= kLateral; ++axis) {
    CAPTURE(axis);
    // Unit thrust along each motor's positive direction, scaled by its factor: the wrench
    // about the origin, [f; p × f], by the cross product (no code of the part's allocation).
    Vec6 wrench = Vec6::Zero();
    for (int k = 1; k <= 8; ++k) {
      const actuation::Thruster& t = motor(model, k);
      const Vec3 f = kFactors[static_cast<std::size_t>(k - 1)][static_cast<std::size_t>(axis)] * t.axis_B;
      wrench.head<3>() += f;
      wrench.tail<3>() += t.p_BoT_B.cross(f);
    }
    const int c = kComponent[static_cast<std::size_t>(axis)];
    CHECK(kSign[static_cast<std::size_t>(axis)] * wrench[c] > 0.1);  // of the sign asked for (arms are over 0.1 m)
    // A force pattern gives no other force, a moment pattern no other moment (the frame's
    // symmetry); a forward push below the origin also pitches, which is the frame's, not a sign.
    const int first = c < 3 ? 0 : 3;
    for (int other = first; other < first + 3; ++other)
      if (other != c) CHECK(std::abs(wrench[other]) < 1e-12);
  }
  // Vertical pattern: throttle up needs every vertical motor pushing up, i.e. its positive
  // direction is down (+z), and the horizontal ones lie in the x-y plane.
  for (int k = 1; k <= 8; ++k) CHECK(std::abs(motor(model, k).axis_B.z()) == doctest::Approx(k > 4 ? 1.0 : 0.0));
}

TEST_CASE("bluerov2_heavy: ArduSub's mix of a logged servo output k on motor k accelerates the vehicle the way the stick asks") {
  // Each factor column as servo outputs 1500 + 100·factor µs (ArduSub's calc_thrust_to_pwm:
  // 1500 + 400·thrust), each on its motor as it is: the body's acceleration at rest, level.
  for (int axis = kRoll; axis <= kLateral; ++axis) {
    CAPTURE(axis);
    std::string set;
    for (int k = 1; k <= 8; ++k) {
      const double pwm = 1500.0 + 100.0 * kFactors[static_cast<std::size_t>(k - 1)][static_cast<std::size_t>(axis)];
      set += (k > 1 ? ", " : "") + std::string("thrusters.motor") + std::to_string(k) + ".input: " + std::to_string(pwm);
    }
    const dynamics::Model model = model::build_model(load_text(heavy_with(set)));
    dynamics::Workspace ws(model);
    std::vector<double> x = model.x0, xdot(x.size());
    dynamics::evaluate(model, 0.0, x.data(), xdot.data(), ws);
    const Vec6 nu_dot = spatial::to_fossen_order(Eigen::Map<const Vec6>(xdot.data() + model.bodies[0].v_offset));
    const int c = kComponent[static_cast<std::size_t>(axis)];
    CHECK(kSign[static_cast<std::size_t>(axis)] * nu_dot[c] > 0.1);  // m/s² or rad/s²; the vehicle's 0.98 N sink gives 0.03
  }
}

TEST_CASE("bluerov2_heavy: von Benzon et al.'s Heavy in fresh water, 0.98 N heavy (W = 132.4 N, B = 131.5 N)") {
  const dynamics::Model model = model::build_model(load_text(heavy_with("")));
  const dynamics::Body& rov = model.bodies[0];
  CHECK(rov.weight == doctest::Approx(13.5 * 9.81));
  CHECK(rov.buoyancy == doctest::Approx(1000.0 * 9.81 * 0.0134));
  CHECK(std::abs(rov.weight - 132.4) < 0.05);
  CHECK(std::abs(rov.buoyancy - 131.5) < 0.05);
  CHECK(std::abs(rov.weight - rov.buoyancy - 0.98) < 0.005);
  CHECK(rov.p_BoBcb_B.z() == doctest::Approx(-0.01));  // CB above the CG at the origin
}

TEST_CASE("bluerov2_heavy_alpha5: its arm is paper 004's, link for link, and untrimmed it is 9.2 N heavy and nose-heavy") {
  const std::string start = "name: uvms\nsimulation: {duration: 0.01, step: 0.001, output_rate: 100.0}\ninclude:\n  - {file: ";
  const test::Run heavy = test::run_text(start + "vehicles/bluerov2_heavy_alpha5.yaml, name: uvms, position: [0.0, 0.0, 5.0]}\n");
  const test::Run paper = test::run_text(start + "kolano2024/bluerov2_alpha5.yaml, name: uvms, position: [0.0, 0.0, 5.0]}\n");
  int links = 0;
  for (const dynamics::Body& a : heavy.model.bodies) {
    if (!a.name.starts_with("uvms/alpha/")) continue;
    ++links;
    CAPTURE(a.name);
    const int i = paper.model.body_index(a.name);
    REQUIRE(i >= 0);
    const dynamics::Body& b = paper.model.bodies[static_cast<std::size_t>(i)];
    CHECK(a.M_RB_B == b.M_RB_B);
    CHECK(a.M_A_B == b.M_A_B);
    CHECK(a.weight == b.weight);
    CHECK(a.buoyancy == b.buoyancy);
    CHECK(a.p_BoBcm_B == b.p_BoBcm_B);
    CHECK(a.p_BoBcb_B == b.p_BoBcb_B);
    CHECK(a.p_BoBcd_B == b.p_BoBcd_B);
    CHECK(a.linear_damping == b.linear_damping);
    CHECK(a.quadratic_damping == b.quadratic_damping);
    CHECK(a.joint.lower == b.joint.lower);
    CHECK(a.joint.upper == b.joint.upper);
    const spatial::Pose pa = a.joint.pose_in_parent(0.0), pb = b.joint.pose_in_parent(0.0);
    CHECK((pa.p - pb.p).norm() == 0.0);
    CHECK((pa.R - pb.R).norm() == 0.0);
    // A fixed joint has no coordinate (q_offset −1): indexing x0 with it read the word before
    // the vector, which passed or failed with the heap's layout.
    REQUIRE((a.q_offset < 0) == (b.q_offset < 0));
    if (a.q_offset >= 0)
      CHECK(heavy.model.x0[static_cast<std::size_t>(a.q_offset)] == paper.model.x0[static_cast<std::size_t>(b.q_offset)]);
  }
  CHECK(links == 8);

  // The header: in fresh water the vehicle is 0.98 N heavy and the arm 8.2 N, together 9.2 N;
  // about the vehicle's CG (its origin) at home they pitch it nose down by 2.2 N m (and roll
  // it to starboard by 0.8 N m), against B·BG = 1.31 N m/rad.
  const std::size_t rov = static_cast<std::size_t>(heavy.model.body_index("uvms/heavy/rov"));
  const test::Hydrostatics h = test::hydrostatics(heavy, 0, heavy.rec.X_WB[0][rov].p);
  double arm = 0.0;
  for (const dynamics::Body& a : heavy.model.bodies)
    if (a.name.starts_with("uvms/alpha/")) arm += a.weight - a.buoyancy;
  CHECK(std::abs(arm - 8.2) < 0.05);
  CHECK(std::abs(-h.net_up - 9.2) < 0.05);
  const Vec3 moment_B = heavy.rec.X_WB[0][rov].R.transpose() * h.moment_W;
  CHECK(std::abs(moment_B.y() + 2.2) < 0.05);  // pitch: negative is nose down
  CHECK(std::abs(moment_B.x() - 0.8) < 0.05);  // roll: positive is to starboard
  CHECK(heavy.model.bodies[rov].buoyancy * 0.01 == doctest::Approx(1.31).epsilon(0.005));
  // Three joints on their lower limits at home, which sim linearize flags.
  const std::vector<analysis::LimitContact> stops = analysis::joints_at_limits(heavy.model, heavy.model.x0, 1e-5);
  REQUIRE(stops.size() == 3);
  for (const analysis::LimitContact& c : stops) CHECK_FALSE(c.upper);
}

TEST_CASE("bluerov2_heavy_alpha5_hold: the Heavy holds its pose through its motors while the arm moves, then rests at its trim") {
  const test::Run run = test::run_file("scenarios/bluerov2_heavy_alpha5_hold.yaml");
  const std::size_t rov = static_cast<std::size_t>(run.model.body_index("uvms/heavy/rov"));
  double depth = 0.0, horizontal = 0.0, tilt = 0.0, heading = 0.0, thrust = 0.0;
  for (std::size_t k = 0; k < run.rec.t.size(); ++k) {
    const spatial::Pose& X = run.rec.X_WB[k][rov];
    const Vec3 e = spatial::euler_zyx_from_rotation(X.R);
    depth = std::max(depth, std::abs(X.p.z() - 5.0));
    horizontal = std::max(horizontal, X.p.head<2>().norm());
    tilt = std::max({tilt, std::abs(e[0]), std::abs(e[1])});
    heading = std::max(heading, std::abs(e[2]));
    for (const actuation::ThrusterState& t : run.rec.thrusters[k]) thrust = std::max(thrust, std::abs(t.thrust));
  }
  CHECK(depth < 0.03);        // the 9.2 N net weight sinks it 2.9 cm while the depth integral builds
  CHECK(horizontal < 5e-4);
  CHECK(tilt < 0.010);
  CHECK(heading < 2e-4);
  CHECK(depth > 0.025);       // it does sink first: the integral has to build
  CHECK(thrust < 10.0);       // of the T200s' 40-51 N

  // The trim of the file's own trim block (the plant under its controllers) is where it rests.
  analysis::TrimProblem problem;
  problem.unknowns = run.scenario.trim.unknowns;
  problem.time = run.scenario.trim.time;
  const analysis::TrimResult trim = analysis::trim(run.model, problem);
  REQUIRE(trim.converged);
  const std::vector<double>& x_end = run.rec.x.back();
  const dynamics::Body& body = run.model.bodies[rov];
  for (int i = 0; i < 3; ++i)
    CHECK(std::abs(x_end[static_cast<std::size_t>(body.q_offset + i)] - trim.x[static_cast<std::size_t>(body.q_offset + i)]) < 1e-5);
  const auto rotation = [&](const std::vector<double>& x) {
    return spatial::rotation_from_quaternion(Eigen::Map<const spatial::Quat>(x.data() + body.q_offset + 3).normalized());
  };
  const Vec3 e_end = spatial::euler_zyx_from_rotation(rotation(x_end)), e_trim = spatial::euler_zyx_from_rotation(rotation(trim.x));
  CHECK((e_end - e_trim).cwiseAbs().maxCoeff() < 1e-6);
  CHECK(std::abs(e_trim[0] - 0.0049) < 5e-5);
  CHECK(std::abs(e_trim[1] + 0.0078) < 5e-5);
  // The pitch is the PD's answer to the arm's moment: M = K_P·e_θ, the moment it holds.
  CHECK(trim.held.signals[0].output[4] == doctest::Approx(300.0 * -e_trim[1]).epsilon(0.01));
  // There the depth integral cancels the net weight: the held force is −R_WBᵀ (0, 0, W − B).
  const test::Hydrostatics h = test::hydrostatics(run, run.rec.t.size() - 1, Vec3::Zero());
  const int station = run.model.controllers[0].name == "station" ? 0 : -1;
  REQUIRE(station == 0);
  const Vec3 held_force = trim.held.signals[0].output.head<3>();
  const Vec3 expected = -rotation(trim.x).transpose() * Vec3(0.0, 0.0, -h.net_up);
  CHECK((held_force - expected).norm() < 1e-8 * expected.norm());
  // And the depth: the setpoint along the body's z, which the integral zeroes.
  CHECK(std::abs(trim.x[static_cast<std::size_t>(body.q_offset + 2)] - 5.0) < 1e-5);
}
