// The `trim` block: every variable checked against what the scenario has, errors at the line
// and column of the offending name.
#include <doctest/doctest.h>

#include "scenario/load_scenario.h"

using namespace uwsim::scenario;
using namespace uwsim::analysis;  // the trim block's types

namespace {

const std::string kBase = R"(name: t
simulation: {duration: 1.0}
inputs:
  - {name: cmd, type: constant, value: 1.0}
bodies:
  - {name: rov, mass: 10.0, inertia: [0.1, 0.1, 0.1]}
  - {name: link, mass: 1.0, inertia: [0.01, 0.01, 0.01]}
joints:
  - {name: hinge, type: revolute, parent: rov, child: link}
thrusters:
  - {name: fast, body: rov, input: cmd, model: linear, gain: 1.0}
  - {name: lagged, body: rov, input: cmd, model: linear, gain: 1.0, time_constant: 0.2}
)";

std::string error_of(const std::string& trim) {
  try {
    load_scenario_text(kBase + trim, "t.yaml");
  } catch (const ScenarioError& e) {
    return format(e.diagnostics().front());
  }
  return "";
}

}  // namespace

TEST_CASE("scenario: a trim block reads its unknowns, steady variables and time") {
  const Scenario s = load_scenario_text(kBase + R"(trim:
  unknowns: [bodies.rov.pitch, joints.hinge.position, inputs.cmd, thrusters.lagged.state]
  steady: [bodies.rov.w, joints.hinge.velocity]
  time: 2.0
)", "t.yaml");
  REQUIRE(s.trim.given);
  REQUIRE(s.trim.unknowns.size() == 4);
  CHECK(s.trim.unknowns[0].text() == "bodies.rov.pitch");
  CHECK(s.trim.unknowns[2].kind == VariableKind::input);
  CHECK(s.trim.steady[1].component == "velocity");
  CHECK(s.trim.time == 2.0);
  CHECK(s.joints[0].key_path == "joints.0");
}

TEST_CASE("scenario: trim variables that name nothing are errors at their line and column") {
  CHECK(error_of("trim:\n  unknowns: [bodies.rov.pich]\n") ==
        "t.yaml:14:14: error: trim.unknowns[0]: unknown component 'pich' in 'bodies.rov.pich'; bodies have "
        "north, east, down, roll, pitch, yaw, u, v, w, p, q, r");
  CHECK(error_of("trim:\n  unknowns: [bodies.rvo.pitch]\n").find("14:14: error: trim.unknowns[0]: no body named 'rvo'; did you mean 'rov'?") != std::string::npos);
  CHECK(error_of("trim:\n  unknowns: [bodies.link.roll]\n").find("hangs from a joint") != std::string::npos);
  CHECK(error_of("trim:\n  unknowns: [thrusters.fast.state]\n").find("no time_constant") != std::string::npos);
  CHECK(error_of("trim:\n  unknowns: [bodies.rov.u]\n  steady: [inputs.cmd]\n").find("15:12: error: trim.steady[0]: an input channel has no rate") != std::string::npos);
  CHECK(error_of("trim:\n  unknowns: [bodies.rov.u, bodies.rov.u]\n").find("14:28: error: trim.unknowns[1]: 'bodies.rov.u' is listed twice") != std::string::npos);
  CHECK(error_of("trim:\n  unknowns: [rov.u]\n").find("expected a variable") != std::string::npos);
  CHECK(error_of("trim:\n  steady: [bodies.rov.u]\n").find("unknowns") != std::string::npos);
}
