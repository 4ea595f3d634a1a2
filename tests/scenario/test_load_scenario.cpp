#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "scenario/load_scenario.h"
#include "support/scenario_errors.h"

namespace fs = std::filesystem;
using namespace uwsim::scenario;
using namespace uwsim::model;  // the spec types the loader fills
using uwsim::test::all_text;
using uwsim::test::diagnostics_of;
using uwsim::test::is_part_file;

namespace {

const std::string kExample = std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_push.yaml";
const std::string kMalformedDir = std::string(UWSIM_TEST_DATA_DIR) + "/malformed";

bool has_diagnostic(const std::vector<Diagnostic>& ds, const std::string& file, int line,
                    int column, const std::string& substring) {
  for (const auto& d : ds)
    if (d.file == file && d.line == line && d.column == column &&
        d.message.find(substring) != std::string::npos)
      return true;
  return false;
}


// A scratch file outside the source tree, for inputs too odd to keep as test data.
std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("uwsim_test_load_scenario_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

std::string example_text() {
  std::ifstream in(kExample, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("the example scenario loads with the values of the file") {
  const Scenario s = load_scenario(kExample);
  CHECK(s.name == "bluerov2_push");
  CHECK(s.description == "BlueROV2 pushed forward by a constant 4 N surge force at its origin.");
  CHECK(s.source_path == kExample);
  CHECK(s.environment.gravity == 9.81);
  CHECK(s.environment.water_density == 1000.0);
  CHECK(s.simulation.duration == 30.0);
  CHECK(s.simulation.integrator == IntegratorKind::rk4);
  CHECK(s.simulation.step == 0.001);
  CHECK(s.simulation.max_step == 0.0);
  CHECK(s.simulation.abs_tol == 1e-8);
  CHECK(s.simulation.output_rate == 50.0);

  REQUIRE(s.bodies.size() == 1);
  const BodySpec& b = s.bodies[0];
  CHECK(b.name == "rov");
  CHECK(b.mass == 11.5);
  CHECK(b.inertia_Bcm_B.isApprox(Matrix3(Vector3(0.16, 0.16, 0.16).asDiagonal())));
  CHECK(b.p_BoBcm_B == Vector3(0.0, 0.0, 0.02));
  CHECK(b.volume == 0.011702);
  Vector6 added;
  added << 5.5, 12.7, 14.57, 0.12, 0.12, 0.12;
  CHECK(b.added_mass_B.diagonal() == added);
  CHECK((b.added_mass_B - Matrix6(added.asDiagonal())).norm() == 0.0);
  CHECK(b.linear_damping[1] == 6.22);
  CHECK(b.quadratic_damping[2] == 36.99);
  CHECK(b.initial.p_WB_W == Vector3(0.0, 0.0, 5.0));
  CHECK(b.initial.q_WB.isApprox(Eigen::Quaterniond::Identity()));
  CHECK(b.initial.nu_B == Vector6::Zero());

  REQUIRE(s.forces.size() == 1);
  const ForceSpec& f = s.forces[0];
  CHECK(f.name == "push");
  CHECK(f.body == "rov");
  CHECK(f.frame == ForceFrame::body);
  CHECK(f.force == Vector3(4.0, 0.0, 0.0));
  CHECK(f.moment == Vector3::Zero());
  CHECK(f.start == 0.0);
  CHECK(std::isinf(f.stop));
}

TEST_CASE("resolved_yaml reads back to the same scenario") {
  const Scenario s = load_scenario(kExample, {"bodies.rov.mass=12", "name=\"007\""});
  const Scenario again = load_scenario(write_temp("resolved.yaml", s.resolved_yaml));
  CHECK(again.name == "007");
  CHECK(again.bodies[0].mass == 12.0);
  CHECK(again.bodies[0].added_mass_B == s.bodies[0].added_mass_B);
  CHECK(again.forces[0].force == s.forces[0].force);
  CHECK(again.resolved_yaml == s.resolved_yaml);
}

// "# expect: [FILE:]LINE:COL substring" → {file, line, column, substring}; line 0 if
// malformed. FILE (for a problem in a file the scenario includes) is relative to the
// malformed file; without it the diagnostic is in the malformed file itself.
struct Expectation {
  std::string file;
  int line = 0;
  int column = 0;
  std::string substring;
};

Expectation parse_expectation(const std::string& first_line, const std::string& path) {
  const std::string tag = "# expect: ";
  if (first_line.compare(0, tag.size(), tag) != 0) return {};
  const std::string rest = first_line.substr(tag.size());
  const std::size_t space = rest.find(' ');
  if (space == std::string::npos) return {};
  const std::string where = rest.substr(0, space);
  // FILE:LINE:COL or LINE:COL: the last two ':'-separated fields are the numbers.
  const std::size_t c2 = where.rfind(':');
  const std::size_t c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos
                                                            : where.rfind(':', c2 - 1);
  if (c2 == std::string::npos) return {};
  Expectation e;
  const std::string line_text =
      c1 == std::string::npos ? where.substr(0, c2) : where.substr(c1 + 1, c2 - c1 - 1);
  const std::string column_text = where.substr(c2 + 1);
  auto number = [](const std::string& t) {
    return !t.empty() && t.find_first_not_of("0123456789") == std::string::npos ? std::stoi(t)
                                                                                : 0;
  };
  e.line = number(line_text);
  e.column = number(column_text);
  e.file = c1 == std::string::npos
               ? path
               : (fs::path(path).parent_path() / where.substr(0, c1)).lexically_normal().string();
  e.substring = rest.substr(space + 1);
  return e;
}

TEST_CASE("every malformed file reports its expected diagnostic") {
  int files = 0;
  for (const auto& entry : fs::directory_iterator(kMalformedDir)) {
    if (entry.path().extension() != ".yaml") continue;
    ++files;
    const std::string path = entry.path().string();
    CAPTURE(path);
    std::ifstream in(path);
    std::string first;
    std::getline(in, first);
    const Expectation e = parse_expectation(first, path);
    REQUIRE(e.line > 0);
    REQUIRE(!e.substring.empty());
    const std::vector<Diagnostic> ds = diagnostics_of(path);
    const std::string got = all_text(ds);
    CAPTURE(got);
    // An included file's diagnostics name it as the includer's directory joined with the
    // include's `file`, normalised.
    std::vector<Diagnostic> normalised = ds;
    for (auto& d : normalised)
      if (d.file != path) d.file = fs::path(d.file).lexically_normal().string();
    CHECK(has_diagnostic(normalised, e.file, e.line, e.column, e.substring));
  }
  CHECK(files >= 50);
}

TEST_CASE("independent errors are all reported, in file order") {
  const std::string path = kMalformedDir + "/three_errors.yaml";
  const std::vector<Diagnostic> ds = diagnostics_of(path);
  REQUIRE(ds.size() == 3);
  CHECK(has_diagnostic(ds, path, 10, 15, "simulation.integrator: expected one of"));
  CHECK(has_diagnostic(ds, path, 15, 11, "bodies[0].mass: expected a positive number (kg)"));
  CHECK(has_diagnostic(ds, path, 30, 12, "forces[0].frame: expected one of 'body', 'world'"));
  CHECK(ds[0].line < ds[1].line);
  CHECK(ds[1].line < ds[2].line);
}

TEST_CASE("--set overrides change values") {
  SUBCASE("a body addressed by name") {
    CHECK(load_scenario(kExample, {"bodies.rov.mass=12"}).bodies[0].mass == 12.0);
  }
  SUBCASE("a body addressed by index") {
    CHECK(load_scenario(kExample, {"bodies.0.mass=12"}).bodies[0].mass == 12.0);
  }
  SUBCASE("a simulation value") {
    CHECK(load_scenario(kExample, {"simulation.duration=5"}).simulation.duration == 5.0);
  }
  SUBCASE("a key the file omits") {
    CHECK(load_scenario(kExample, {"simulation.abs_tol=1e-9"}).simulation.abs_tol == 1e-9);
  }
  SUBCASE("a list value, a string value, later arguments win") {
    const Scenario s = load_scenario(
        kExample, {"bodies.rov.added_mass=[1,2,3,4,5,6]", "name=foo", "name=bar",
                   "simulation.integrator=dopri5"});
    CHECK(s.bodies[0].added_mass_B(5, 5) == 6.0);
    CHECK(s.name == "bar");
    CHECK(s.simulation.integrator == IntegratorKind::dopri5);
    CHECK(s.resolved_yaml.find("name: bar") != std::string::npos);
  }
}

TEST_CASE("a bad --set path is reported against the argument") {
  const std::vector<Diagnostic> ds = diagnostics_of(
      kExample, {"bodies.rob.mass=1", "simulation.nope.x=1", "bodies.3.mass=1", "no_equals"});
  const std::string got = all_text(ds);
  CAPTURE(got);
  REQUIRE(ds.size() == 4);
  CHECK(has_diagnostic(ds, "--set bodies.rob.mass=1", 0, 0, "no item named 'rob'"));
  CHECK(has_diagnostic(ds, "--set bodies.rob.mass=1", 0, 0, "available names: rov"));
  CHECK(has_diagnostic(ds, "--set simulation.nope.x=1", 0, 0, "key 'nope' not found"));
  CHECK(has_diagnostic(ds, "--set simulation.nope.x=1", 0, 0, "duration, integrator"));
  CHECK(has_diagnostic(ds, "--set bodies.3.mass=1", 0, 0, "index 3 out of range"));
  CHECK(has_diagnostic(ds, "--set no_equals", 0, 0, "expected key.path=value"));
  CHECK(format(ds[0]).starts_with("--set "));
  CHECK(format(ds[0]).find(": error: ") != std::string::npos);
}

TEST_CASE("a --set value that fails validation names the argument") {
  const std::vector<Diagnostic> ds = diagnostics_of(kExample, {"bodies.rov.mass=-1"});
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == "--set bodies.rov.mass=-1");
  CHECK(ds[0].line == 0);
  CHECK(ds[0].message == "bodies[0].mass: expected a positive number (kg), got -1");
  CHECK(format(ds[0]) ==
        "--set bodies.rov.mass=-1: error: bodies[0].mass: expected a positive number (kg), got -1");

  const std::vector<Diagnostic> nested =
      diagnostics_of(kExample, {"bodies.rov.added_mass=[1,2,3,4,-5,6]"});
  REQUIRE(nested.size() == 1);
  CHECK(nested[0].file == "--set bodies.rov.added_mass=[1,2,3,4,-5,6]");
  CHECK(nested[0].message.starts_with("bodies[0].added_mass[4]: expected a non-negative"));
}

TEST_CASE("attitude, matrices and force timing") {
  std::string text = example_text();
  text.replace(text.find("rpy: [0.0, 0.0, 0.0]"), 20, "rpy: [0.0, 0.0, 1.5707963267948966]");
  text.replace(text.find("added_mass: [5.5, 12.7, 14.57, 0.12, 0.12, 0.12]"), 48,
               "added_mass:\n"
               "      - [5.5, 0, 0, 0, 0.5, 0]\n      - [0, 12.7, 0, 0, 0, 0]\n"
               "      - [0, 0, 14.57, 0, 0, 0]\n      - [0, 0, 0, 0.12, 0, 0]\n"
               "      - [0.5, 0, 0, 0, 0.12, 0]\n      - [0, 0, 0, 0, 0, 0.12]");
  text += "    start: 1\n    stop: 2.5\n";
  const Scenario s = load_scenario(write_temp("variants.yaml", text));
  // Yaw of +90°: body x (forward) points along NED y (east).
  CHECK((s.bodies[0].initial.q_WB * Vector3::UnitX()).isApprox(Vector3::UnitY()));
  CHECK(s.bodies[0].added_mass_B(0, 4) == 0.5);
  CHECK(s.bodies[0].added_mass_B(4, 0) == 0.5);
  CHECK(s.forces[0].start == 1.0);
  CHECK(s.forces[0].stop == 2.5);

  std::string quat = example_text();
  quat.replace(quat.find("rpy: [0.0, 0.0, 0.0]"), 20,
               "quaternion: [0.7071067811865476, 0.0, 0.0, 0.7071067811865476]");
  const Scenario q = load_scenario(write_temp("quaternion.yaml", quat));
  CHECK((q.bodies[0].initial.q_WB * Vector3::UnitX()).isApprox(Vector3::UnitY()));
}

TEST_CASE("odd inputs give ScenarioError and nothing else") {
  const std::string missing = std::string(UWSIM_TEST_DATA_DIR) + "/does_not_exist.yaml";
  const std::vector<Diagnostic> ds = diagnostics_of(missing);
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == missing);
  CHECK(ds[0].line == 0);
  CHECK(format(ds[0]) == missing + ": error: no such file");

  diagnostics_of(UWSIM_TEST_DATA_DIR);
  diagnostics_of(write_temp("empty.yaml", ""));
  diagnostics_of(write_temp("scalar.yaml", "just a string\n"));
  diagnostics_of(write_temp("list.yaml", "- 1\n- 2\n"));
  diagnostics_of(write_temp("two_documents.yaml", example_text() + "---\nname: x\n"));
  diagnostics_of(write_temp("recursive_alias.yaml", "name: &a [*a]\n"));
  diagnostics_of(write_temp("deep.yaml", std::string(5000, '[') + std::string(5000, ']')));
  std::string laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (char i = '1'; i <= '9'; ++i) {
    const std::string prev = std::string("*a") + static_cast<char>(i - 1);
    laughs += std::string("a") + i + ": &a" + i + " [" + prev + ", " + prev + ", " + prev +
              ", " + prev + ", " + prev + ", " + prev + "]\n";
  }
  diagnostics_of(write_temp("laughs.yaml", laughs));
  diagnostics_of(kExample, {"bodies.rov=", "=1", "bodies..mass=1", "name=[unclosed"});
  diagnostics_of(kExample, {"bodies.rov.inertia=[[1,0,0],[0,1,0],[0,0]]"});
  diagnostics_of(kExample, {"simulation.step=.inf", "simulation.duration=0x10"});
}

TEST_CASE("every scenario in scenarios/ loads") {
  int count = 0;
  for (const auto& entry :
       fs::recursive_directory_iterator(std::string(UWSIM_SOURCE_DIR) + "/scenarios")) {
    const auto ext = entry.path().extension();
    if (!entry.is_regular_file() || (ext != ".yaml" && ext != ".yml")) continue;
    // Parts (included by scenarios, not scenarios themselves; their modeline names the part
    // schema) are loaded in test_includes.
    if (is_part_file(entry.path())) continue;
    ++count;
    const std::string path = entry.path().string();
    CAPTURE(path);
    try {
      load_scenario(path, uwsim::test::stand_in_overrides(entry.path()));
    } catch (const ScenarioError& e) {
      FAIL_CHECK(e.what());
    }
  }
  CHECK(count >= 1);
}
