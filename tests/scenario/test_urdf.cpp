// URDF files as parts: the frame conversion against the URDF's own semantics on an asymmetric
// link, a URDF arm against the same arm written in YAML, massless frames merged, and the
// resolved scenario as plain YAML. (Errors in URDF files: tests/data/malformed/urdf_*.yaml.)
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "dynamics/kinematics.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"
#include "support/simulate.h"

namespace fs = std::filesystem;
using namespace uwsim;
using Eigen::Matrix3d;
using Eigen::Vector3d;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "uwsim_test_urdf";
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

// URDF semantics, written out here on their own: an origin is a translation, then
// R = Rz(yaw)·Ry(pitch)·Rx(roll); a revolute joint turns its child about the axis, in the
// joint frame, by q.
Eigen::Isometry3d urdf_origin(const Vector3d& xyz, const Vector3d& rpy) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.translate(xyz);
  T.rotate(Eigen::AngleAxisd(rpy[2], Vector3d::UnitZ()) * Eigen::AngleAxisd(rpy[1], Vector3d::UnitY()) *
           Eigen::AngleAxisd(rpy[0], Vector3d::UnitX()));
  return T;
}

// The URDF's z-up world seen in NED: D = Rx(π).
const Matrix3d kD = Vector3d(1.0, -1.0, -1.0).asDiagonal();

// World poses of every body at the scenario's initial state, by name.
std::map<std::string, spatial::Pose> poses(const scenario::Scenario& s, const dynamics::Model& m) {
  dynamics::Workspace ws(m);
  dynamics::compute_kinematics(m, m.x0.data(), ws);
  std::map<std::string, spatial::Pose> out;
  for (std::size_t i = 0; i < m.bodies.size(); ++i) out[s.bodies[i].name] = ws.bodies[i].X_WB;
  return out;
}

const model::BodySpec& body(const scenario::Scenario& s, const std::string& name) {
  for (const auto& b : s.bodies)
    if (b.name == name) return b;
  FAIL("no body " << name);
  return s.bodies.front();
}

// A base and an arm, both with CG offsets on every axis, products of inertia, a rotated
// inertial frame, and a joint with a rotated origin and an oblique axis: a sign lost anywhere
// moves something.
const char* kAsymmetric = R"(<?xml version="1.0"?>
<robot name="asymmetric">
  <link name="base">
    <inertial>
      <origin xyz="0.03 -0.02 0.05" />
      <mass value="2.0" />
      <inertia ixx="0.05" ixy="0.004" ixz="-0.003" iyy="0.06" iyz="0.005" izz="0.07" />
    </inertial>
  </link>
  <link name="arm">
    <inertial>
      <origin xyz="0.07 0.01 -0.02" rpy="0.1 0.2 -0.3" />
      <mass value="0.5" />
      <inertia ixx="0.002" ixy="0.0003" ixz="-0.0002" iyy="0.003" iyz="0.0004" izz="0.0025" />
    </inertial>
  </link>
  <joint name="hinge" type="revolute">
    <parent link="base" />
    <child link="arm" />
    <origin xyz="0.1 0.2 -0.05" rpy="0.3 -0.4 0.5" />
    <axis xyz="0 0.6 0.8" />
    <limit lower="-2" upper="2" effort="5" velocity="1" />
  </joint>
</robot>
)";

}  // namespace

TEST_CASE("urdf: an asymmetric link's CG, inertia and joint axis are where the URDF puts them, in NED") {
  const std::string urdf = write_temp("asymmetric.urdf", kAsymmetric);
  const double q = 0.7;
  const scenario::Scenario s = scenario::load_scenario_text(
      "name: asymmetric\nsimulation: {duration: 0.1}\ninclude:\n  - file: " + urdf +
          "\n    name: r\n    set: {joints.hinge.initial.position: " + std::to_string(q) + "}\n",
      write_temp("asymmetric.yaml", ""));
  const dynamics::Model m = model::build_model(s);
  const auto X = poses(s, m);

  // The URDF robot in its own z-up world, base at the origin.
  const Eigen::Isometry3d T_base = Eigen::Isometry3d::Identity();
  const Vector3d axis_J(0.0, 0.6, 0.8);
  const Eigen::Isometry3d T_arm = T_base * urdf_origin({0.1, 0.2, -0.05}, {0.3, -0.4, 0.5}) *
                                  Eigen::Isometry3d(Eigen::AngleAxisd(q, axis_J));
  const Eigen::Isometry3d T_arm_inertial = T_arm * urdf_origin({0.07, 0.01, -0.02}, {0.1, 0.2, -0.3});
  Matrix3d I_arm;
  I_arm << 0.002, 0.0003, -0.0002, 0.0003, 0.003, 0.0004, -0.0002, 0.0004, 0.0025;
  Matrix3d I_base;
  I_base << 0.05, 0.004, -0.003, 0.004, 0.06, 0.005, -0.003, 0.005, 0.07;

  // Expected in NED: every world vector turned by D, every world tensor by D·I·D.
  const Vector3d cg_arm = kD * T_arm_inertial.translation();
  const Matrix3d inertia_arm = kD * T_arm_inertial.linear() * I_arm * T_arm_inertial.linear().transpose() * kD;
  const Vector3d cg_base = kD * Vector3d(0.03, -0.02, 0.05);
  const Matrix3d inertia_base = kD * I_base * kD;
  const Vector3d joint_point = kD * T_arm.translation();
  const Vector3d joint_axis = kD * (T_arm.linear() * axis_J);

  auto world_cg = [&](const std::string& name) {
    const spatial::Pose& P = X.at(name);
    return Vector3d(P.p + P.R * body(s, name).p_BoBcm_B);
  };
  auto world_inertia = [&](const std::string& name) {
    const spatial::Pose& P = X.at(name);
    return Matrix3d(P.R * body(s, name).inertia_Bcm_B * P.R.transpose());
  };
  CHECK((world_cg("r/base") - cg_base).norm() < 1e-15);
  CHECK((world_inertia("r/base") - inertia_base).norm() < 1e-15);
  CHECK((world_cg("r/arm") - cg_arm).norm() < 1e-14);
  CHECK((world_inertia("r/arm") - inertia_arm).norm() < 1e-15);
  CHECK((X.at("r/arm").p - joint_point).norm() < 1e-15);
  // The child frame is the joint frame: its axis, seen from the world, is the URDF's.
  CHECK((X.at("r/arm").R * m.bodies[1].joint.axis_J - joint_axis).norm() < 1e-14);
  CHECK(body(s, "r/arm").mass == 0.5);
}

TEST_CASE("urdf: an arm read from a URDF moves exactly as the same arm written in YAML") {
  // Three links on a free base, with offsets, rotated origins, oblique axes and products of
  // inertia; hydrodynamics (volume, CB, added mass, drag) given the same way to both.
  const std::string urdf = write_temp("arm3.urdf", R"(<?xml version="1.0"?>
<robot name="arm3">
  <link name="base"><inertial><origin xyz="0.01 0.02 -0.03"/><mass value="3.0"/>
    <inertia ixx="0.04" ixy="0.001" ixz="0.002" iyy="0.05" iyz="-0.003" izz="0.06"/></inertial></link>
  <link name="upper"><inertial><origin xyz="0.0 0.01 -0.08"/><mass value="0.6"/>
    <inertia ixx="0.003" ixy="0" ixz="0.0002" iyy="0.0032" iyz="0" izz="0.0004"/></inertial></link>
  <link name="fore"><inertial><origin xyz="0.06 -0.005 0.01"/><mass value="0.4"/>
    <inertia ixx="0.0002" ixy="0.00003" ixz="0" iyy="0.0015" iyz="0.00001" izz="0.0015"/></inertial></link>
  <link name="wrist"><inertial><origin xyz="0 0 0.03"/><mass value="0.2"/>
    <inertia ixx="0.0001" ixy="0" ixz="0" iyy="0.0001" iyz="0" izz="0.00005"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0.2 -0.05 -0.1" rpy="0.1 0.2 0.3"/><axis xyz="0 1 0"/>
    <limit lower="-1.5" upper="1.5" effort="8" velocity="2"/><dynamics damping="0.02"/></joint>
  <joint name="elbow" type="continuous"><parent link="upper"/><child link="fore"/>
    <origin xyz="0 0 -0.16" rpy="0 0 1.2"/><axis xyz="0.6 0 0.8"/></joint>
  <joint name="slide" type="prismatic"><parent link="fore"/><child link="wrist"/>
    <origin xyz="0.12 0 0" rpy="-0.4 0 0"/><axis xyz="1 0 0"/>
    <limit lower="-0.02" upper="0.05" effort="20" velocity="0.1"/></joint>
</robot>
)");
  const std::string head =
      "name: arm3\nsimulation: {duration: 1.5, step: 0.001, output_rate: 100.0}\n"
      "environment: {water_density: 1000.0}\n";
  // The same hydrodynamics and drive for both, by the parts' own names.
  const std::string set =
      "    set:\n"
      "      bodies.base.volume: 0.0031\n"
      "      bodies.base.center_of_buoyancy: [0.01, -0.02, -0.05]\n"
      "      bodies.base.added_mass: [1.0, 2.0, 3.0, 0.01, 0.02, 0.03]\n"
      "      bodies.base.quadratic_damping: [5.0, 6.0, 7.0, 0.1, 0.1, 0.1]\n"
      "      bodies.fore.shape: {cylinder: {radius: 0.02, length: 0.12, axis: x}, center: [0.06, 0, 0]}\n"
      "      joints.shoulder.effort: 0.4\n"
      "      joints.elbow.effort: -0.05\n";
  const scenario::Scenario from_urdf = scenario::load_scenario_text(
      head + "include:\n  - file: " + urdf + "\n    name: a\n" + set, write_temp("urdf_arm.yaml", ""));

  // The same arm by hand, by urdf_part.h's rule: (x, y, z) → (x, −y, −z), rpy → (r, −p, −y),
  // inertia products xy and xz negated, yz kept; continuous → revolute without a range.
  const std::string yaml_part = write_temp("arm3.yaml", R"(bodies:
  - {name: base, mass: 3.0, center_of_gravity: [0.01, -0.02, 0.03],
     inertia: [[0.04, -0.001, -0.002], [-0.001, 0.05, -0.003], [-0.002, -0.003, 0.06]]}
  - {name: upper, mass: 0.6, center_of_gravity: [0.0, -0.01, 0.08],
     inertia: [[0.003, 0, -0.0002], [0, 0.0032, 0], [-0.0002, 0, 0.0004]]}
  - {name: fore, mass: 0.4, center_of_gravity: [0.06, 0.005, -0.01],
     inertia: [[0.0002, -0.00003, 0], [-0.00003, 0.0015, 0.00001], [0, 0.00001, 0.0015]]}
  - {name: wrist, mass: 0.2, center_of_gravity: [0, 0, -0.03], inertia: [0.0001, 0.0001, 0.00005]}
joints:
  - {name: shoulder, type: revolute, parent: base, child: upper,
     origin: {xyz: [0.2, 0.05, 0.1], rpy: [0.1, -0.2, -0.3]}, axis: [0, -1, 0],
     limits: {lower: -1.5, upper: 1.5, effort: 8, velocity: 2}, damping: 0.02}
  - {name: elbow, type: revolute, parent: upper, child: fore,
     origin: {xyz: [0, 0, 0.16], rpy: [0, 0, -1.2]}, axis: [0.6, 0, -0.8]}
  - {name: slide, type: prismatic, parent: fore, child: wrist,
     origin: {xyz: [0.12, 0, 0], rpy: [-0.4, 0, 0]}, axis: [1, 0, 0],
     limits: {lower: -0.02, upper: 0.05, effort: 20, velocity: 0.1}}
)");
  const scenario::Scenario from_yaml = scenario::load_scenario_text(
      head + "include:\n  - file: " + yaml_part + "\n    name: a\n" + set, write_temp("yaml_arm.yaml", ""));

  const test::Trajectory a = test::simulate(from_urdf);
  const test::Trajectory b = test::simulate(from_yaml);
  REQUIRE(a.x.size() == b.x.size());
  REQUIRE(a.x.size() == 151);
  // The arm moves (joints and base), and the two runs agree bit for bit.
  CHECK(std::abs(a.x.back()[a.model.bodies[1].q_offset]) > 0.05);
  for (std::size_t k = 0; k < a.x.size(); ++k) CHECK(a.x[k] == b.x[k]);
}

TEST_CASE("urdf: massless frames are merged into the links they are fixed to, mass and CG kept") {
  // A massless root with a massive link fixed to it, a massless flange on the arm and a
  // massive tool beyond it, a massless tool-centre frame: two bodies remain.
  const std::string urdf = write_temp("frames.urdf", R"(<?xml version="1.0"?>
<robot name="frames">
  <link name="base_link"/>
  <link name="housing"><inertial><origin xyz="-0.05 0.01 0.02"/><mass value="1.0"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.002"/></inertial></link>
  <link name="arm"><inertial><origin xyz="0 0 0.1"/><mass value="0.5"/>
    <inertia ixx="0.002" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.0001"/></inertial></link>
  <link name="flange"/>
  <link name="tool"><inertial><origin xyz="0.01 0 0.02" rpy="0 0.5 0"/><mass value="0.3"/>
    <inertia ixx="0.0003" ixy="0" ixz="0" iyy="0.0002" iyz="0" izz="0.0001"/></inertial></link>
  <link name="tcp"/>
  <joint name="mount" type="fixed"><parent link="base_link"/><child link="housing"/>
    <origin xyz="0.1 0 0.02" rpy="0 0 0.3"/></joint>
  <joint name="pivot" type="revolute"><parent link="housing"/><child link="arm"/>
    <origin xyz="0 0 0.03"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="to_flange" type="fixed"><parent link="arm"/><child link="flange"/>
    <origin xyz="0 0 0.2" rpy="0.2 0 0"/></joint>
  <joint name="to_tool" type="fixed"><parent link="flange"/><child link="tool"/>
    <origin xyz="0 0.01 0.01"/></joint>
  <joint name="to_tcp" type="fixed"><parent link="tool"/><child link="tcp"/>
    <origin xyz="0 0 0.05"/></joint>
</robot>
)");
  const double q = 0.4;
  const scenario::Scenario s = scenario::load_scenario_text(
      "name: frames\nsimulation: {duration: 0.1}\ninclude:\n  - file: " + urdf +
          "\n    name: f\n    set: {joints.pivot.initial.position: " + std::to_string(q) + "}\n",
      write_temp("frames.yaml", ""));
  std::vector<std::string> names;
  for (const auto& b : s.bodies) names.push_back(b.name);
  CHECK(names == std::vector<std::string>{"f/base_link", "f/arm", "f/tool"});
  const dynamics::Model m = model::build_model(s);
  const auto X = poses(s, m);

  // URDF forward kinematics of the three masses, each to its CG, in the z-up world.
  const Eigen::Isometry3d T_housing = urdf_origin({0.1, 0, 0.02}, {0, 0, 0.3});
  const Eigen::Isometry3d T_arm = T_housing * urdf_origin({0, 0, 0.03}, {0, 0, 0}) *
                                  Eigen::Isometry3d(Eigen::AngleAxisd(q, Vector3d::UnitY()));
  const Eigen::Isometry3d T_tool =
      T_arm * urdf_origin({0, 0, 0.2}, {0.2, 0, 0}) * urdf_origin({0, 0.01, 0.01}, {0, 0, 0});
  const Vector3d cg_housing = kD * (T_housing * Vector3d(-0.05, 0.01, 0.02));
  const Vector3d cg_arm = kD * (T_arm * Vector3d(0, 0, 0.1));
  const Vector3d cg_tool = kD * (T_tool * Vector3d(0.01, 0, 0.02));
  auto world_cg = [&](const std::string& name) {
    return Vector3d(X.at(name).p + X.at(name).R * body(s, name).p_BoBcm_B);
  };
  CHECK(body(s, "f/base_link").mass == 1.0);
  CHECK((world_cg("f/base_link") - cg_housing).norm() < 1e-15);
  CHECK((world_cg("f/arm") - cg_arm).norm() < 1e-15);
  CHECK((world_cg("f/tool") - cg_tool).norm() < 1e-15);
  // The tool's inertia, rotated by its inertial rpy and the chain, seen from the world.
  Matrix3d I_tool = Vector3d(0.0003, 0.0002, 0.0001).asDiagonal();
  const Matrix3d R_tool = T_tool.linear() * Eigen::AngleAxisd(0.5, Vector3d::UnitY()).toRotationMatrix();
  const Matrix3d expected = kD * R_tool * I_tool * R_tool.transpose() * kD;
  const Matrix3d got = X.at("f/tool").R * body(s, "f/tool").inertia_Bcm_B * X.at("f/tool").R.transpose();
  CHECK((got - expected).norm() < 1e-15);
}

TEST_CASE("urdf: the resolved scenario of a URDF include is plain YAML that reads back the same") {
  const std::string alpha = std::string(UWSIM_SOURCE_DIR) + "/scenarios/kolano2024/alpha5.urdf";
  const scenario::Scenario s = scenario::load_scenario_text(
      "name: alpha\nsimulation: {duration: 0.1}\ninclude:\n  - {file: " + alpha + ", name: alpha}\n",
      write_temp("alpha.yaml", ""));
  CHECK(s.resolved_yaml.find("include") == std::string::npos);
  CHECK(s.resolved_yaml.find("<") == std::string::npos);
  const scenario::Scenario again = scenario::load_scenario_text(s.resolved_yaml, write_temp("again.yaml", ""));
  REQUIRE(again.bodies.size() == s.bodies.size());
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    CHECK(again.bodies[i].name == s.bodies[i].name);
    CHECK(again.bodies[i].mass == s.bodies[i].mass);
    CHECK(again.bodies[i].inertia_Bcm_B == s.bodies[i].inertia_Bcm_B);
  }
  CHECK(again.resolved_yaml == s.resolved_yaml);
  // Four joints move: E, D, C, B; the gripper is closed (see the file's header).
  int moving = 0;
  for (const auto& j : s.joints) moving += j.type != model::JointType::fixed;
  CHECK(moving == 4);
}

TEST_CASE("urdf: a massless root link named world is the world: its joints fix the arm to it") {
  const std::string urdf = write_temp("on_world.urdf", R"(<?xml version="1.0"?>
<robot name="on_world">
  <link name="world"/>
  <link name="base"><inertial><mass value="1.0"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="arm"><inertial><origin xyz="0 0 0.1"/><mass value="0.5"/>
    <inertia ixx="0.002" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.0001"/></inertial></link>
  <joint name="bolt" type="fixed"><parent link="world"/><child link="base"/>
    <origin xyz="0 0 1.0"/></joint>
  <joint name="pivot" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
)");
  const scenario::Scenario s = scenario::load_scenario_text(
      "name: on_world\nsimulation: {duration: 0.1}\ninclude:\n  - {file: " + urdf + ", name: w}\n",
      write_temp("on_world.yaml", ""));
  REQUIRE(s.bodies.size() == 2);
  REQUIRE(s.joints.size() == 2);
  CHECK(s.joints[0].name == "w/bolt");
  CHECK(s.joints[0].parent == "world");
  // 1 m up in the URDF's z-up world is 1 m up in NED: z = -1.
  const dynamics::Model m = model::build_model(s);
  CHECK((poses(s, m).at("w/base").p - Vector3d(0.0, 0.0, -1.0)).norm() < 1e-15);
}
