// The ardusub_mixer as a scenario gives it (scenario/read_mixer.cpp): motor k finds its
// thruster by name through a named include, several candidates are refused with the way out,
// an explicit list drives the thrusters it names, and bad keys are errors at their line.
#include <doctest/doctest.h>

#include <string>

#include "actuation/t200.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"
#include "support/recording.h"

using namespace uwsim;

namespace {

const std::string kHere = std::string(UWSIM_TEST_DATA_DIR) + "/includes/mixer_test.yaml";

std::string scenario_text(const std::string& includes, const std::string& mixer) {
  return "name: mixer_test\nsimulation: {duration: 0.1}\ninclude:\n" + includes +
         "controllers:\n  - {name: sub, type: ardusub_mixer, rate: 50, frame: vectored_6dof, "
         "rc: [1500, 1500, 1500, 1500, 1700, 1500]" + mixer + "}\n";
}

std::string errors_of(const std::string& text) {
  try {
    scenario::load_scenario_text(text, kHere);
  } catch (const scenario::ScenarioError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("ardusub mixer scenario: a part with ArduSub's motor names needs no thruster list, under any include name") {
  const scenario::Scenario s = scenario::load_scenario_text(
      scenario_text("  - {file: sub_motors.yaml, name: heavy}\n", ""), kHere);
  REQUIRE(s.controllers.size() == 1);
  const std::vector<std::string> expected = {"heavy/motor1", "heavy/motor2", "heavy/motor3", "heavy/motor4",
                                             "heavy/motor5", "heavy/motor6", "heavy/motor7", "heavy/motor8"};
  CHECK(s.controllers[0].thrusters == expected);
  const dynamics::Model m = model::build_model(s);
  // Each thruster reads its motor's command slot, in motor order.
  for (std::size_t k = 0; k < 8; ++k)
    CHECK(m.thrusters[k].command.channel == static_cast<int>(m.inputs.channels.size()) + m.controllers[0].output_slot + static_cast<int>(k));
}

TEST_CASE("ardusub mixer scenario: two candidates for a motor are refused, naming them, and a list picks one vehicle") {
  const std::string two = "  - {file: sub_motors.yaml, name: a}\n  - {file: sub_motors.yaml, name: b, position: [2, 0, 0]}\n";
  const std::string text = errors_of(scenario_text(two, ""));
  CHECK(text.find("several thrusters end in '/motor1'") != std::string::npos);
  CHECK(text.find("'a/motor1'") != std::string::npos);
  CHECK(text.find("'b/motor1'") != std::string::npos);
  CHECK(text.find("name the mixer's own in 'thrusters'") != std::string::npos);
  const std::string list = ", thrusters: [b/motor1, b/motor2, b/motor3, b/motor4, b/motor5, b/motor6, b/motor7, b/motor8]";
  const scenario::Scenario s = scenario::load_scenario_text(scenario_text(two, list), kHere);
  CHECK(s.controllers[0].thrusters.front() == "b/motor1");
  // A thruster driven by two mixers is refused.
  const std::string twice = scenario_text(two, list) +
                            "  - {name: sub2, type: ardusub_mixer, rate: 50, frame: vectored_6dof, rc: [1500, 1500, 1500, 1500, 1500, 1500]" + list + "}\n";
  CHECK(errors_of(twice).find("is already driven by controller 'sub'") != std::string::npos);
}

TEST_CASE("ardusub mixer scenario: wrong counts, directions, ranges and keys are errors at their line") {
  const std::string one = "  - {file: sub_motors.yaml, name: heavy}\n";
  CHECK(errors_of(scenario_text(one, ", thrusters: [heavy/motor1]")).find("expected 8 thruster names") != std::string::npos);
  CHECK(errors_of(scenario_text(one, ", directions: [1, 1, 1, 1, 1, 1, 1, 0.5]")).find("MOTk_DIRECTION as 1 or -1") != std::string::npos);
  CHECK(errors_of(scenario_text(one, ", rc_range: [1500, 1100, 1900]")).find("[min, trim, max] increasing") != std::string::npos);
  CHECK(errors_of(scenario_text(one, ", pwm_limits: [1600, 1900]")).find("around the neutral 1500 us") != std::string::npos);
  CHECK(errors_of(scenario_text(one, ", forward_vertical_coupling: 1.2")).find("applies to frame 'vectored' only") != std::string::npos);
  CHECK(errors_of(scenario_text(one, ", delay: 61")).find("at most 60 s") != std::string::npos);
  const std::string no_motors = "name: x\nsimulation: {duration: 0.1}\nbodies:\n  - {name: rov, mass: 10, inertia: [0.2, 0.2, 0.2], volume: 0.01}\n"
                                "controllers:\n  - {name: sub, type: ardusub_mixer, rate: 50, frame: vectored, rc: [1500, 1500, 1500, 1500, 1500, 1500]}\n";
  const std::string text = errors_of(no_motors);
  CHECK(text.find("mixer_test.yaml:6:") != std::string::npos);
  CHECK(text.find("no thruster for motor(s) 1, 2, 3, 4, 5, 6: motor k drives the thruster named 'motork'") != std::string::npos);
  CHECK(text.find("motor(s)", text.find("motor(s)") + 1) == std::string::npos);  // one error, not six
  // `delay` belongs to the types that send commands.
  const std::string pose = "name: x\nsimulation: {duration: 0.1}\nbodies:\n  - {name: rov, mass: 10, inertia: [0.2, 0.2, 0.2], volume: 0.01}\n"
                           "controllers:\n  - {name: p, type: pose_pd, rate: 50, body: rov, position: [0, 0, 0], delay: 0.1}\n";
  CHECK(errors_of(pose).find("applies to types 'pid' and 'thrust_allocation' and 'ardusub_mixer' only") != std::string::npos);
}

TEST_CASE("ardusub mixer scenario: a delayed command arrives exactly at its sample + delay, for rk4 and dopri5 (exact impulse)") {
  // Motors 1–4 of sub_motors.yaml push along +x at the body origin; no drag, no added mass, so
  // the surge momentum at t = 1 s is the impulse of their thrust. Forward steps to 1700 us at
  // 0.2 s (a mixer sample): motors 1–2 go to 1300 us, 3–4 to 1700 us, 0.25 s later.
  for (const char* method : {"rk4", "dopri5"}) {
    CAPTURE(method);
    const std::string text =
        "name: mixer_delay\nsimulation: {duration: 1.0, integrator: " + std::string(method) + ", step: 0.001, output_rate: 7.0}\n"
        "inputs:\n  - {name: fwd, type: step, initial: 1500, steps: [[0.2, 1700]]}\n"
        "include:\n  - {file: sub_motors.yaml, name: heavy}\n"
        "controllers:\n  - {name: sub, type: ardusub_mixer, rate: 50, frame: vectored_6dof, "
        "rc: [1500, 1500, 1500, 1500, fwd, 1500], delay: 0.25}\n";
    const test::Run run = test::run_scenario(scenario::load_scenario_text(text, kHere));
    const inputs::Table t200 = actuation::t200_thrust_table(16.0);
    const double X = 2 * (t200.linear(1300) + t200.linear(1700));
    CHECK(X > 0.0);
    CHECK(run.rec.V_WB_B.back()[0][0] * 10.0 == doctest::Approx(X * (1.0 - 0.2 - 0.25)).epsilon(1e-11));
  }
}
