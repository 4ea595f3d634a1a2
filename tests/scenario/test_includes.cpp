// `include:` of parts: placement under a name, at a pose and with overrides; errors where
// they are written, in the including file or in the part.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
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

const std::string kTwo = std::string(UWSIM_SOURCE_DIR) + "/scenarios/two_bluerov2.yaml";
const std::string kIncludesDir = std::string(UWSIM_TEST_DATA_DIR) + "/includes";
const std::string kMalformedDir = std::string(UWSIM_TEST_DATA_DIR) + "/malformed";



std::string normal(const std::string& p) { return fs::path(p).lexically_normal().string(); }

const BodySpec* body(const Scenario& s, const std::string& name) {
  for (const auto& b : s.bodies)
    if (b.name == name) return &b;
  return nullptr;
}

std::vector<std::string> body_names(const Scenario& s) {
  std::vector<std::string> names;
  for (const auto& b : s.bodies) names.push_back(b.name);
  return names;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "uwsim_test_includes";
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

const std::string kHead = "name: includes\nsimulation:\n  duration: 1.0\n";

}  // namespace

TEST_CASE("two vehicles from one part: named, placed and overridden") {
  const Scenario s = load_scenario(kTwo);
  REQUIRE(s.bodies.size() == 2);
  const BodySpec* left = body(s, "left/rov");
  const BodySpec* right = body(s, "right/rov");
  REQUIRE(left != nullptr);
  REQUIRE(right != nullptr);
  CHECK(left->initial.p_WB_W.isApprox(Eigen::Vector3d(0.0, -0.5, 5.0)));
  CHECK(right->initial.p_WB_W.isApprox(Eigen::Vector3d(0.0, 0.5, 5.0)));
  CHECK(left->mass == 11.5);
  CHECK(right->mass == 13.5);
  CHECK(left->added_mass_B(1, 1) == 12.7);
  REQUIRE(s.forces.size() == 2);
  CHECK(s.forces[0].body == "left/rov");
  CHECK(s.forces[1].body == "right/rov");
}

TEST_CASE("the resolved scenario has no include and reads back the same") {
  const Scenario s = load_scenario(kTwo);
  CHECK(s.resolved_yaml.find("include") == std::string::npos);
  CHECK(s.resolved_yaml.find("left/rov") != std::string::npos);
  const Scenario again = load_scenario(write_temp("resolved.yaml", s.resolved_yaml));
  CHECK(again.resolved_yaml == s.resolved_yaml);
  REQUIRE(again.bodies.size() == s.bodies.size());
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    CHECK(again.bodies[i].name == s.bodies[i].name);
    CHECK(again.bodies[i].mass == s.bodies[i].mass);
    CHECK(again.bodies[i].initial.p_WB_W == s.bodies[i].initial.p_WB_W);
  }
}

TEST_CASE("--set reaches included bodies by their full name") {
  const Scenario s = load_scenario(kTwo, {"bodies.left/rov.mass=20"});
  CHECK(body(s, "left/rov")->mass == 20.0);
  CHECK(body(s, "right/rov")->mass == 13.5);
  const auto ds = diagnostics_of(kTwo, {"bodies.left/rov.mass=-1"});
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == "--set bodies.left/rov.mass=-1");
}

TEST_CASE("a part including a part: names nest, the pose composes") {
  const Scenario s = load_scenario(kIncludesDir + "/nested.yaml");
  const BodySpec* floating = body(s, "t/float");
  REQUIRE(floating != nullptr);
  REQUIRE(body(s, "t/inner/box") != nullptr);
  REQUIRE(s.joints.size() == 1);
  CHECK(s.joints[0].name == "t/tether");
  CHECK(s.joints[0].parent == "t/float");
  CHECK(s.joints[0].child == "t/inner/box");
  // Placed at (0, 0, 10) turned 0.5 rad in yaw: the float's own (1, 0, 0) and yaw 0.5 compose.
  const Eigen::Vector3d expected =
      Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitZ()) * Eigen::Vector3d(1.0, 0.0, 0.0) +
      Eigen::Vector3d(0.0, 0.0, 10.0);
  CHECK(floating->initial.p_WB_W.isApprox(expected));
  const Eigen::Quaterniond yaw(Eigen::AngleAxisd(1.0, Eigen::Vector3d::UnitZ()));
  CHECK(floating->initial.q_WB.angularDistance(yaw) < 1e-12);
}

TEST_CASE("an include cycle is an error naming the files of the cycle") {
  const std::string path = kMalformedDir + "/include_cycle.yaml";
  const auto ds = diagnostics_of(path);
  CAPTURE(all_text(ds));
  REQUIRE(ds.size() == 1);
  CHECK(normal(ds[0].file) == normal(kMalformedDir + "/parts/cycle_b.yaml"));
  CHECK(ds[0].line == 3);
  CHECK(ds[0].message.find("include cycle:") != std::string::npos);
  CHECK(ds[0].message.find("cycle_a.yaml -> ") != std::string::npos);
  CHECK(ds[0].message.find("cycle_b.yaml -> ") != std::string::npos);
}

TEST_CASE("a missing file is reported first, at the include's file value, saying where it looked") {
  const std::string path = kMalformedDir + "/include_missing_file.yaml";
  const auto ds = diagnostics_of(path);
  CAPTURE(all_text(ds));
  // Only the cause: the scenario, without its part, has no bodies, but saying so would mislead.
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == path);
  CHECK(ds[0].line == 6);
  CHECK(ds[0].column == 11);
  CHECK(ds[0].message.find("no such file") != std::string::npos);
  CHECK(ds[0].message.find("looked in " + normal(kMalformedDir + "/parts")) != std::string::npos);
}

TEST_CASE("a problem inside a part is reported in the part, at its own line") {
  const std::string path = kMalformedDir + "/include_part_error.yaml";
  const auto ds = diagnostics_of(path);
  CAPTURE(all_text(ds));
  REQUIRE(ds.size() == 1);
  CHECK(normal(ds[0].file) == normal(kMalformedDir + "/parts/bad_mass.yaml"));
  CHECK(ds[0].line == 4);
  CHECK(ds[0].column == 11);
}

TEST_CASE("a part included twice reports its problem for each use, in the part") {
  const std::string part = normal(kMalformedDir + "/parts/bad_mass.yaml");
  const std::string path = write_temp(
      "twice.yaml", kHead + "include:\n  - {file: " + part + ", name: a}\n  - {file: " + part +
                        ", name: b}\n");
  const auto ds = diagnostics_of(path);
  CAPTURE(all_text(ds));
  REQUIRE(ds.size() == 2);
  CHECK(ds[0].file == part);
  CHECK(ds[1].file == part);
  CHECK(ds[0].line == 4);
}

TEST_CASE("a bad value given by `set` is reported at the set, in the including file") {
  const std::string part = normal(kMalformedDir + "/parts/small_box.yaml");
  const std::string path =
      write_temp("set_value.yaml", kHead + "include:\n  - file: " + part +
                                       "\n    name: a\n    set:\n      bodies.box.mass: -3\n");
  const auto ds = diagnostics_of(path);
  CAPTURE(all_text(ds));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == path);
  CHECK(ds[0].line == 8);
  CHECK(ds[0].column == 24);
  CHECK(ds[0].message.find("expected a positive number") != std::string::npos);
}

TEST_CASE("errors in the includer and in parts are all reported: a missing part first, then in file order") {
  const std::string part = normal(kMalformedDir + "/parts/bad_mass.yaml");
  const std::string path = write_temp(
      "both.yaml", "name: includes\nsimulation:\n  duration: -1.0\ninclude:\n  - {file: " +
                       part + ", name: a}\n  - {file: nowhere.yaml, name: b}\n");
  const auto ds = diagnostics_of(path);
  CAPTURE(all_text(ds));
  REQUIRE(ds.size() == 3);
  CHECK(ds[0].file == path);
  CHECK(ds[0].line == 6);  // nowhere.yaml: the part that is missing
  CHECK(ds[1].file == path);
  CHECK(ds[1].line == 3);
  CHECK(ds[2].file == part);
}

TEST_CASE("include bombs stay bounded") {
  // Each level includes the next twice: 2^20 uses without the limits.
  for (int level = 0; level < 20; ++level) {
    const std::string next = "bomb" + std::to_string(level + 1) + ".yaml";
    write_temp("bomb" + std::to_string(level) + ".yaml",
               "include:\n  - {file: " + next + ", name: a}\n  - {file: " + next +
                   ", name: b}\nbodies:\n  - {name: x, mass: 1, inertia: [1, 1, 1]}\n");
  }
  write_temp("bomb20.yaml", "bodies:\n  - {name: x, mass: 1, inertia: [1, 1, 1]}\n");
  const auto ds = diagnostics_of(write_temp("bomb.yaml", kHead +
                                                             "include:\n  - {file: bomb0.yaml, "
                                                             "name: top}\n"));
  CHECK(!ds.empty());
  CHECK(all_text(ds).find("includes") != std::string::npos);
}

TEST_CASE("every part in scenarios/ loads when included") {
  int count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(UWSIM_SOURCE_DIR) / "scenarios")) {
    if (entry.path().extension() != ".yaml" || !is_part_file(entry.path())) continue;
    ++count;
    CAPTURE(entry.path().string());
    const std::string path = write_temp(
        "part_" + std::to_string(count) + "_" + entry.path().stem().string() + ".yaml",
        kHead + "include:\n  - {file: " + entry.path().string() + ", name: p}\n");
    try {
      const auto bodies = load_scenario(path).bodies.size();
      CHECK(bodies > 0);
    } catch (const ScenarioError& e) {
      // A part's motors may wait for the including scenario's controllers (a pid gives their
      // current); everything else is an error of the part.
      for (const auto& d : e.diagnostics())
        if (d.message.find("has a motor without 'input'") == std::string::npos) FAIL_CHECK(format(d));
    }
  }
  CHECK(count >= 2);
}

TEST_CASE("an include through a symbolic link and '..' reads the file it checked") {
  // dir/link -> real/sub, so dir/link/../part.yaml is real/part.yaml, while lexically it
  // would be dir/part.yaml: a different file, which must not be read.
  const fs::path dir = fs::temp_directory_path() / "uwsim_test_includes" / "symlink";
  fs::remove_all(dir);
  fs::create_directories(dir / "real" / "sub");
  fs::create_symlink(fs::path("real") / "sub", dir / "link");
  const std::string body = "  - {mass: 1, inertia: [1, 1, 1], name: ";
  std::ofstream(dir / "real" / "part.yaml")
      << "include:\n  - {file: inner.yaml, name: i}\nbodies:\n" << body << "good}\n";
  std::ofstream(dir / "real" / "inner.yaml") << "bodies:\n" << body << "in}\n";
  std::ofstream(dir / "part.yaml") << "bodies:\n" << body << "wrong}\n";
  std::ofstream(dir / "inner.yaml") << "bodies:\n" << body << "wrong_inner}\n";
  std::ofstream(dir / "scenario.yaml")
      << kHead << "include:\n  - {file: link/../part.yaml, name: p}\n";
  const Scenario s = load_scenario((dir / "scenario.yaml").string());
  CHECK(body_names(s) == std::vector<std::string>{"p/good", "p/i/in"});

  // A scenario that is itself a link includes relative to the link, as given.
  fs::create_directories(dir / "elsewhere");
  std::ofstream(dir / "elsewhere" / "linked.yaml")
      << kHead << "include:\n  - {file: part.yaml, name: q}\n";
  fs::create_symlink(fs::path("elsewhere") / "linked.yaml", dir / "linked.yaml");
  const Scenario linked = load_scenario((dir / "linked.yaml").string());
  CHECK(body_names(linked) == std::vector<std::string>{"q/wrong"});
}

TEST_CASE("a part may start with a UTF-8 byte order mark") {
  const std::string part =
      write_temp("bom_part.yaml", "\xEF\xBB\xBF" "bodies:\n  - {name: x, mass: 1, inertia: [1, 1, 1]}\n");
  const Scenario s =
      load_scenario(write_temp("bom.yaml", kHead + "include:\n  - {file: " + part + ", name: b}\n"));
  CHECK(body_names(s) == std::vector<std::string>{"b/x"});
  // Its problems are still reported at its own lines.
  const std::string bad =
      write_temp("bom_bad.yaml", "\xEF\xBB\xBF" "bodies:\n  - name: x\n    mass: -1\n    inertia: [1, 1, 1]\n");
  const auto ds = diagnostics_of(
      write_temp("bom_bad_includer.yaml", kHead + "include:\n  - {file: " + bad + ", name: b}\n"));
  CAPTURE(all_text(ds));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == bad);
  CHECK(ds[0].line == 3);
}

TEST_CASE("an include's rpy composes with a body's attitude at pitch 90 degrees") {
  const std::string part = write_temp(
      "pitched.yaml",
      "bodies:\n  - name: x\n    mass: 1\n    inertia: [1, 1, 1]\n"
      "    initial: {rpy: [0.3, 1.5707963267948966, 0.0]}\n");
  const Scenario s = load_scenario(write_temp(
      "pitched_includer.yaml",
      kHead + "include:\n  - {file: " + part + ", name: p, rpy: [0.0, 0.0, 1.0]}\n"));
  REQUIRE(s.bodies.size() == 1);
  const Eigen::Quaterniond own = Eigen::AngleAxisd(0.0, Eigen::Vector3d::UnitZ()) *
                                 Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitY()) *
                                 Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitX());
  const Eigen::Quaterniond expected = Eigen::AngleAxisd(1.0, Eigen::Vector3d::UnitZ()) * own;
  CHECK(s.bodies[0].initial.q_WB.angularDistance(expected) < 1e-12);
  CHECK(s.resolved_yaml.find("quaternion") != std::string::npos);
  CHECK(s.resolved_yaml.find("rpy") == std::string::npos);
}

TEST_CASE("a placement beyond the range of numbers is reported at the include") {
  const std::string part = write_temp(
      "far.yaml", "bodies:\n  - name: x\n    mass: 1\n    inertia: [1, 1, 1]\n"
                  "    initial: {position: [1.5e308, 1.5e308, 0.0]}\n");
  const std::string path = write_temp(
      "far_position.yaml",
      kHead + "include:\n  - file: " + part + "\n    name: a\n    position: [1e308, 0, 0]\n");
  auto ds = diagnostics_of(path);
  CAPTURE(all_text(ds));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == path);
  CHECK(ds[0].line == 7);
  CHECK(ds[0].column == 15);
  CHECK(ds[0].message.find("finite") != std::string::npos);
  // Turned 45 degrees in yaw, (1.5e308, 1.5e308) leaves the range: reported at the rpy.
  const std::string turned = write_temp(
      "far_rpy.yaml",
      kHead + "include:\n  - file: " + part + "\n    name: a\n    rpy: [0, 0, 0.7853981633974483]\n");
  ds = diagnostics_of(turned);
  CAPTURE(all_text(ds));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == turned);
  CHECK(ds[0].line == 7);
  CHECK(ds[0].column == 10);
}

TEST_CASE("an include's set reaches initial of a free body that writes none") {
  const std::string part = fs::path(UWSIM_SOURCE_DIR) / "scenarios" / "vehicles" / "bluerov2.yaml";
  const Scenario s = load_scenario(write_temp(
      "set_initial.yaml",
      kHead + "include:\n  - file: " + part +
          "\n    name: p\n    set: {bodies.rov.initial.velocity: [0.5, 0, 0, 0, 0, 0]}\n"));
  REQUIRE(body(s, "p/rov") != nullptr);
  CHECK(body(s, "p/rov")->initial.nu_B[0] == 0.5);
  // Without a set of it, a body that writes no initial state gets none.
  const Scenario plain = load_scenario(write_temp(
      "set_mass.yaml",
      kHead + "include:\n  - file: " + part + "\n    name: p\n    set: {bodies.rov.mass: 12}\n"));
  CHECK(plain.resolved_yaml.find("initial") == std::string::npos);
  // A joint's child still takes none (the loader rejects it), so `set` cannot give it one.
  const std::string tethered = kIncludesDir + "/tethered.yaml";
  const auto ds = diagnostics_of(write_temp(
      "set_child_initial.yaml",
      kHead + "include:\n  - file: " + tethered +
          "\n    name: t\n    set: {bodies.inner/box.initial.velocity: [0.5, 0, 0, 0, 0, 0]}\n"));
  CAPTURE(all_text(ds));
  CHECK(!ds.empty());
}

TEST_CASE("a part that cannot be read is listed first, ahead of the errors that follow from its missing bodies") {
  // scenario → vehicle.yaml (a part) → arm.urdf, broken (a joint to a link that is not there),
  // and in another run → arm.yaml, a YAML syntax error. The scenario's controller and the
  // vehicle's mount refer to the arm's joint and link, so each also fails, on lines that come
  // earlier in file order than the URDF's or the part's own problem.
  const std::string urdf = write_temp("broken_arm.urdf", R"(<?xml version="1.0"?>
<robot name="arm">
  <link name="base"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/>
  </joint>
</robot>
)");
  const std::string yaml_arm = write_temp("broken_arm.yaml", "bodies:\n  - name: base\n    mass: [1\n");
  for (const std::string& arm : {urdf, yaml_arm}) {
    CAPTURE(arm);
    const std::string vehicle = write_temp(
        "vehicle_with_broken_arm.yaml",
        "joints:\n  - {name: mount, type: fixed, parent: rov, child: arm/base}\n"
        "bodies:\n  - {name: rov, mass: 10.0, inertia: [0.2, 0.2, 0.2], volume: 0.01}\n"
        "include:\n  - {file: " + arm + ", name: arm}\n");
    const std::string path = write_temp(
        "includes_broken_arm.yaml",
        kHead + "controllers:\n  - {name: hold, type: pid, joint: uvms/arm/shoulder, rate: 100.0, setpoint: 0.0, kp: 1.0}\n"
                "include:\n  - {file: " + vehicle + ", name: uvms}\n");
    const auto ds = diagnostics_of(path);
    CAPTURE(all_text(ds));
    REQUIRE(ds.size() == 3);  // the cause and its two consequences
    CHECK(normal(ds[0].file) == normal(arm));
    CHECK(ds[1].message.find("no joint named 'uvms/arm/shoulder'") != std::string::npos);
    CHECK(ds[2].message.find("no body named 'uvms/arm/base'") != std::string::npos);
  }
}

TEST_CASE("an include item's unknown key is reported and the part still placed, a wrong file value once") {
  const std::string part = std::string(UWSIM_SOURCE_DIR) + "/scenarios/vehicles/bluerov2.yaml";
  const std::string typo = write_temp("include_typo.yaml", kHead + "include:\n  - {file: " + part +
                                                                 ", name: rov, positon: [0, 0, 5]}\n");
  const auto ds = diagnostics_of(typo);
  CAPTURE(all_text(ds));
  // one problem: the typo (a part left out would add "needs at least one body")
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].message.find("positon") != std::string::npos);
  const std::string number = write_temp("include_number.yaml", kHead + "include:\n  - {file: 7, name: rov}\n");
  const auto dn = diagnostics_of(number);
  CAPTURE(all_text(dn));
  REQUIRE(!dn.empty());
  CHECK(dn[0].message.find("include[0].file") != std::string::npos);
  CHECK(all_text(dn).find("empty string") == std::string::npos);
}
