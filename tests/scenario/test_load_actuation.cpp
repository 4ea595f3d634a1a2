// The loader's `inputs`, `thrusters` and joint `actuator` keys, through the shipped surge
// scenarios (the BlueROV2 part's thrusters, driven through include `set`).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "scenario/load_scenario.h"
#include "support/scenario_errors.h"

using namespace uwsim::scenario;
using namespace uwsim::model;  // the spec types the loader fills

namespace {
const std::string kSteps = std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_surge_free.yaml";
const std::string kTrial = std::string(UWSIM_SOURCE_DIR) + "/scenarios/nielsen2018/trial.yaml";
}  // namespace

TEST_CASE("the surge scenario drives the part's four horizontal thrusters from its PWM steps") {
  const Scenario s = load_scenario(kSteps);
  REQUIRE(s.inputs.size() == 1);
  const uwsim::inputs::ChannelParameters& c = s.inputs[0].channel;
  CHECK(c.name == "surge_pwm");
  CHECK(c.kind == uwsim::inputs::ChannelKind::step);
  CHECK(c.units == "us");
  CHECK(c.value == 1500.0);
  CHECK(c.table.x == std::vector<double>{2.0, 12.0, 22.0});
  CHECK(c.table.y == std::vector<double>{1600.0, 1700.0, 1800.0});
  REQUIRE(s.thrusters.size() == 8);
  int driven = 0;
  for (const ThrusterSpec& t : s.thrusters) {
    CHECK(t.body == "bluerov2/rov");
    CHECK(t.thruster.name.rfind("bluerov2/", 0) == 0);
    CHECK(t.thruster.model == uwsim::actuation::ThrusterModel::table);
    CHECK(t.thruster.command_min == 1100.0);
    CHECK(t.thruster.command_max == 1900.0);
    CHECK(t.thruster.axis_B.norm() == doctest::Approx(1.0));
    if (t.input.channel == "surge_pwm") {
      ++driven;
      CHECK(t.thruster.axis_B.x() == doctest::Approx(std::sqrt(0.5)));
      CHECK(std::abs(t.thruster.p_BoT_B.z() - 0.085) < 1e-15);
    } else {
      CHECK(t.input.channel.empty());
      CHECK(t.input.constant == 1500.0);
    }
  }
  CHECK(driven == 4);
  // The resolved scenario reads back the same.
  const std::filesystem::path again = std::filesystem::temp_directory_path() / "uwsim_surge_resolved.yaml";
  std::ofstream(again) << s.resolved_yaml;
  const Scenario r = load_scenario(again.string());
  REQUIRE(r.thrusters.size() == 8);
  CHECK(r.thrusters[0].thruster.thrust_table.x == s.thrusters[0].thruster.thrust_table.x);
  CHECK(r.thrusters[0].thruster.thrust_table.y == s.thrusters[0].thruster.thrust_table.y);
  CHECK(r.inputs[0].channel.table.y == c.table.y);
}

TEST_CASE("a sweep sets the PWM step of paper 000's trial through the step's table") {
  const Scenario s = load_scenario(kTrial, {"inputs.delta_pwm.steps.0.1=300"});
  CHECK(s.inputs[0].channel.table.x == std::vector<double>{3.0});
  CHECK(s.inputs[0].channel.table.y == std::vector<double>{300.0});
}

TEST_CASE("a command is a number or a channel name — a channel may not be named like a number") {
  const std::string base = std::string(UWSIM_TEST_DATA_DIR) + "/inputs/replay.yaml";
  const Scenario constant = load_scenario(base, {"thrusters.t.input=12.5"});
  CHECK(constant.thrusters[0].input.channel.empty());
  CHECK(constant.thrusters[0].input.constant == 12.5);
  const auto d = uwsim::test::diagnostics_of(base, {"inputs.pwm_held.name=1abc", "thrusters.t.input=pwm_linear"});
  CHECK(uwsim::test::all_text(d).find("does not start like a number") != std::string::npos);
}

TEST_CASE("a manipulator link's joint takes an effort actuator, a fixed joint none") {
  const std::string uvms = std::string(UWSIM_SOURCE_DIR) + "/scenarios/leon-gonzalez2024/uvms_four_arms.yaml";
  const Scenario s = load_scenario(uvms, {"manipulators.uvms/arm1.links.0.joint.actuator={type: effort, input: 0.25}"});
  int actuated = 0;
  for (const JointSpec& j : s.joints) {
    if (j.actuator.kind != uwsim::actuation::JointActuatorKind::effort) continue;
    ++actuated;
    CHECK(j.name == "uvms/arm1/joint1");
    CHECK(j.actuator.input.constant == 0.25);
  }
  CHECK(actuated == 1);
  const std::string tethered = std::string(UWSIM_TEST_DATA_DIR) + "/malformed/joint_fixed_with_effort.yaml";
  const auto d = uwsim::test::diagnostics_of(tethered, {"joints.0.actuator={type: effort, input: 1.0}"});
  CHECK(uwsim::test::all_text(d).find("'actuator' does not apply") != std::string::npos);
}

TEST_CASE("a shaft speed given both as a power law and as a table is one problem, said once") {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "uwsim_shaft_speed_both.yaml";
  std::ofstream(path) << "name: both\nsimulation: {duration: 1.0}\n"
                         "bodies:\n  - {name: rov, mass: 1, inertia: [1, 1, 1]}\n"
                         "thrusters:\n  - name: t\n    body: rov\n    input: 1500\n    model: propeller\n"
                         "    propeller:\n      thrust_coefficient: 1.0\n"
                         "      shaft_speed: {power_law: {a: 1, b: 0, c: 0}, neutral: 1500, table: [[0, 0], [1, 1]]}\n";
  const auto d = uwsim::test::diagnostics_of(path.string());
  CAPTURE(uwsim::test::all_text(d));
  REQUIRE(d.size() == 1);
  CHECK(d[0].message.find("exactly one") != std::string::npos);
}
