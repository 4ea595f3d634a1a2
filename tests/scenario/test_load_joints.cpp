// Joints, manipulators and shapes in scenario files. The malformed inputs are in
// tests/data/malformed (checked by test_load_scenario.cpp); the scenario read here is
// tests/data/joints/rov_arm.yaml.
#include <doctest/doctest.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "model/shape_hydrodynamics.h"
#include "scenario/load_scenario.h"
#include "support/scenario_errors.h"

namespace fs = std::filesystem;
using namespace uwsim::scenario;
using namespace uwsim::model;  // the spec types the loader fills
using uwsim::test::diagnostics_of;

namespace {

const std::string kArm = std::string(UWSIM_TEST_DATA_DIR) + "/joints/rov_arm.yaml";
constexpr double kRho = 1025.0;  // environment.water_density of rov_arm.yaml

std::string write_scratch(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("uwsim_test_load_joints_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}


const BodySpec& body(const Scenario& s, const std::string& name) {
  auto it = std::find_if(s.bodies.begin(), s.bodies.end(), [&](auto& b) { return b.name == name; });
  REQUIRE(it != s.bodies.end());
  return *it;
}

const JointSpec& joint(const Scenario& s, const std::string& name) {
  auto it = std::find_if(s.joints.begin(), s.joints.end(), [&](auto& j) { return j.name == name; });
  REQUIRE(it != s.joints.end());
  return *it;
}

std::vector<std::string> body_names(const Scenario& s) {
  std::vector<std::string> out;
  for (const auto& b : s.bodies) out.push_back(b.name);
  return out;
}

// Exact equality of everything the loader fills in.
void check_same(const BodySpec& a, const BodySpec& b) {
  CAPTURE(a.name);
  CHECK(a.name == b.name);
  CHECK(a.mass == b.mass);
  CHECK(a.inertia_Bcm_B == b.inertia_Bcm_B);
  CHECK(a.p_BoBcm_B == b.p_BoBcm_B);
  CHECK(a.p_BoBcb_B == b.p_BoBcb_B);
  CHECK(a.p_BoBcd_B == b.p_BoBcd_B);
  CHECK(a.volume == b.volume);
  CHECK(a.added_mass_B == b.added_mass_B);
  CHECK(a.linear_damping == b.linear_damping);
  CHECK(a.quadratic_damping == b.quadratic_damping);
  CHECK(a.shape.kind == b.shape.kind);
  CHECK(a.shape.radius == b.shape.radius);
  CHECK(a.shape.length == b.shape.length);
  CHECK(a.shape.size == b.shape.size);
  CHECK(a.shape.center_B == b.shape.center_B);
  CHECK(a.shape.drag_coefficients == b.shape.drag_coefficients);
  CHECK(a.initial.p_WB_W == b.initial.p_WB_W);
  CHECK(a.initial.q_WB.coeffs() == b.initial.q_WB.coeffs());
  CHECK(a.initial.nu_B == b.initial.nu_B);
}

void check_same(const JointSpec& a, const JointSpec& b) {
  CAPTURE(a.name);
  CHECK(a.name == b.name);
  CHECK(a.type == b.type);
  CHECK(a.parent == b.parent);
  CHECK(a.child == b.child);
  const JointPlacementSpec &p = a.placement, &q = b.placement;
  CHECK(p.kind == q.kind);
  CHECK(p.xyz == q.xyz);
  CHECK(p.rpy == q.rpy);
  CHECK(p.axis == q.axis);
  CHECK(p.theta == q.theta);
  CHECK(p.d == q.d);
  CHECK(p.a == q.a);
  CHECK(p.alpha == q.alpha);
  CHECK(p.r == q.r);
  CHECK(p.mount_xyz == q.mount_xyz);
  CHECK(p.mount_rpy == q.mount_rpy);
  CHECK(a.initial_position == b.initial_position);
  CHECK(a.initial_velocity == b.initial_velocity);
  CHECK(a.limits.lower == b.limits.lower);
  CHECK(a.limits.upper == b.limits.upper);
  CHECK(a.limits.effort == b.limits.effort);
  CHECK(a.limits.velocity == b.limits.velocity);
  CHECK(a.damping == b.damping);
  CHECK(a.friction == b.friction);
  CHECK(a.effort == b.effort);
}

ShapeSpec cylinder(double radius, double length, Vector3 center, Vector3 drag = Vector3::Ones()) {
  ShapeSpec s;
  s.kind = ShapeSpec::Kind::cylinder;
  s.radius = radius;
  s.length = length;
  s.center_B = center;
  s.drag_coefficients = drag;
  return s;
}

Matrix6 symmetric(const Matrix6& m) { return 0.5 * (m + m.transpose()); }

// The link of arm1 at `index` in resolved_yaml (manipulators stay unexpanded there).
YAML::Node resolved_link(const Scenario& s, int index) {
  return YAML::Load(s.resolved_yaml)["manipulators"][0]["links"][index];
}

}  // namespace

TEST_CASE("joints and a manipulator expand to bodies and joints in depth-first order") {
  const Scenario s = load_scenario(kArm);
  // Roots first in file order (bodies, then manipulator links), each followed by its
  // subtree: `pan` is listed before its parent `camera` in the file and moves after it.
  CHECK(body_names(s) == std::vector<std::string>{"rov", "camera", "pan", "arm1/link1",
                                                   "arm1/upper", "arm1/link3"});
  REQUIRE(s.joints.size() == 5);
  // Joints in the order of their children.
  CHECK(s.joints[0].name == "camera_mount");
  CHECK(s.joints[1].name == "pan_joint");
  CHECK(s.joints[2].name == "arm1/joint1");
  CHECK(s.joints[3].name == "arm1/elbow");   // the joint's own `name`
  CHECK(s.joints[4].name == "arm1/joint3");
  for (std::size_t i = 0; i < s.joints.size(); ++i) {
    CAPTURE(s.joints[i].name);
    const auto child = std::find_if(s.bodies.begin(), s.bodies.end(),
                                    [&](auto& b) { return b.name == s.joints[i].child; });
    const auto parent = std::find_if(s.bodies.begin(), s.bodies.end(),
                                     [&](auto& b) { return b.name == s.joints[i].parent; });
    REQUIRE(child != s.bodies.end());
    REQUIRE(parent != s.bodies.end());
    CHECK(parent < child);
  }

  const JointSpec& mount = joint(s, "camera_mount");
  CHECK(mount.type == JointType::fixed);
  CHECK(mount.parent == "rov");
  CHECK(mount.child == "camera");
  CHECK(mount.placement.kind == JointPlacementSpec::Kind::origin);
  CHECK(mount.placement.xyz == Vector3(0.2, 0.0, 0.1));
  CHECK(mount.placement.rpy == Vector3::Zero());

  const JointSpec& pan = joint(s, "pan_joint");
  CHECK(pan.type == JointType::revolute);
  CHECK(pan.parent == "camera");
  CHECK(pan.child == "pan");
  CHECK(pan.placement.kind == JointPlacementSpec::Kind::origin);
  CHECK(pan.placement.xyz == Vector3(0.01, 0.0, 0.02));
  CHECK(pan.placement.rpy == Vector3(0.0, 0.5, 0.0));
  CHECK(pan.placement.axis == Vector3::UnitZ());  // [0, 0, 2] normalised
  CHECK(pan.placement.mount_xyz == Vector3::Zero());
  CHECK(pan.limits.lower == -1.0);
  CHECK(pan.limits.upper == 1.0);
  CHECK(pan.limits.effort == 0.5);
  CHECK(pan.limits.velocity == 2.0);
  CHECK(pan.initial_position == 0.3);
  CHECK(pan.initial_velocity == -0.1);
  CHECK(pan.damping == 0.01);
  CHECK(pan.friction == 0.002);
  CHECK(pan.effort == 0.05);

  const JointSpec& j1 = joint(s, "arm1/joint1");
  CHECK(j1.type == JointType::revolute);
  CHECK(j1.parent == "rov");  // the manipulator's base
  CHECK(j1.child == "arm1/link1");
  CHECK(j1.placement.kind == JointPlacementSpec::Kind::mdh);
  CHECK(j1.placement.r == 0.05);
  CHECK(j1.placement.alpha == 0.0);
  CHECK(j1.placement.mount_xyz == Vector3(0.08, 0.18, 0.32));  // only the first joint
  CHECK(j1.placement.mount_rpy == Vector3(0.0, 0.0, 0.1));
  CHECK(j1.limits.lower == -3.0);
  CHECK(std::isinf(j1.limits.effort));

  const JointSpec& elbow = joint(s, "arm1/elbow");
  CHECK(elbow.parent == "arm1/link1");
  CHECK(elbow.child == "arm1/upper");  // the link's own `name`
  CHECK(elbow.placement.kind == JointPlacementSpec::Kind::mdh);
  CHECK(elbow.placement.alpha == 1.5707963267948966);
  CHECK(elbow.placement.d == 0.02);
  CHECK(elbow.placement.theta == 0.1);
  CHECK(elbow.placement.mount_xyz == Vector3::Zero());
  CHECK(elbow.placement.mount_rpy == Vector3::Zero());
  CHECK(elbow.initial_position == 0.5);
  CHECK(elbow.damping == 0.1);

  const JointSpec& j3 = joint(s, "arm1/joint3");
  CHECK(j3.type == JointType::prismatic);
  CHECK(j3.parent == "arm1/upper");
  CHECK(j3.child == "arm1/link3");
  CHECK(j3.placement.d == 0.15);
  CHECK(j3.limits.upper == 0.1);
  CHECK(j3.initial_position == 0.05);

  CHECK(body(s, "arm1/link1").mass == 0.096);
  CHECK(body(s, "camera").p_BoBcd_B == Vector3(0.01, 0.0, 0.0));
  CHECK(body(s, "rov").initial.p_WB_W == Vector3(0.0, 0.0, 5.0));
  REQUIRE(s.forces.size() == 1);
  CHECK(s.forces[0].body == "arm1/link3");  // forces may act on links
}

TEST_CASE("a cylinder link gets its volume, centres, inertia, added mass and drag from the shape") {
  const Scenario s = load_scenario(kArm);
  const BodySpec& upper = body(s, "arm1/upper");
  const ShapeSpec shape = cylinder(0.02, 0.15, Vector3(0.075, 0.0, 0.0));
  CHECK(upper.shape.kind == ShapeSpec::Kind::cylinder);
  CHECK(upper.shape.radius == 0.02);
  CHECK(upper.shape.length == 0.15);
  CHECK(upper.shape.center_B == shape.center_B);
  CHECK(upper.shape.drag_coefficients == Vector3::Ones());

  CHECK(upper.volume == uwsim::model::shape_volume(shape));
  CHECK(upper.p_BoBcm_B == shape.center_B);
  CHECK(upper.p_BoBcb_B == shape.center_B);
  CHECK(upper.p_BoBcd_B == shape.center_B);
  CHECK(upper.inertia_Bcm_B == uwsim::model::homogeneous_inertia(shape, 0.3));
  CHECK(upper.quadratic_damping == uwsim::model::shape_quadratic_drag(shape, kRho));
  const Matrix6 added = uwsim::model::shape_added_mass(shape, 0.3, kRho);
  // Stored exactly symmetric (as reading a matrix makes it), equal to the function's value.
  CHECK(upper.added_mass_B == symmetric(added));
  CHECK(upper.added_mass_B.isApprox(added, 1e-15));
  CHECK(upper.added_mass_B(1, 5) != 0.0);  // moved from the shape centre to the body origin
  CHECK(upper.linear_damping == Vector6::Zero());

  // A box body: the derived coefficients come from the box, the explicit added mass stays.
  const BodySpec& pan = body(s, "pan");
  CHECK(pan.shape.kind == ShapeSpec::Kind::box);
  CHECK(pan.shape.size == Vector3(0.05, 0.04, 0.03));
  CHECK(pan.volume == uwsim::model::shape_volume(pan.shape));
  CHECK(pan.inertia_Bcm_B == uwsim::model::homogeneous_inertia(pan.shape, 0.05));
  CHECK(pan.added_mass_B.diagonal()[0] == 0.01);
}

TEST_CASE("explicit keys win over the shape's") {
  const Scenario s = load_scenario(kArm);
  const BodySpec& link3 = body(s, "arm1/link3");
  const ShapeSpec shape = cylinder(0.015, 0.1, Vector3::Zero(), Vector3(0.5, 1.2, 1.2));
  CHECK(link3.shape.drag_coefficients == shape.drag_coefficients);
  CHECK(link3.volume == 0.0001);
  Vector6 drag;
  drag << 1.0, 2.0, 3.0, 4.0, 5.0, 6.0;
  CHECK(link3.quadratic_damping == drag);
  CHECK(link3.inertia_Bcm_B == Matrix3(Vector3(2.0e-4, 3.0e-4, 3.0e-4).asDiagonal()));
  CHECK(link3.p_BoBcm_B == Vector3(0.01, 0.0, 0.0));
  // ... and what is not given still comes from the shape.
  CHECK(link3.p_BoBcb_B == Vector3::Zero());
  CHECK(link3.added_mass_B == symmetric(uwsim::model::shape_added_mass(shape, 0.1, kRho)));

  CHECK(body(load_scenario(kArm, {"manipulators.arm1.links.2.volume=0.0002"}), "arm1/link3")
            .volume == 0.0002);
}

TEST_CASE("derived values are written under `derived` in resolved_yaml and read back the same") {
  const Scenario s = load_scenario(kArm);
  const YAML::Node upper = resolved_link(s, 1);
  const YAML::Node derived = upper["derived"];
  REQUIRE(derived.IsMap());
  for (const char* key : {"volume", "center_of_gravity", "center_of_buoyancy", "center_of_drag",
                          "inertia", "added_mass", "quadratic_damping"}) {
    CAPTURE(key);
    CHECK(derived[key].IsDefined());
    CHECK(!upper[key].IsDefined());  // never as the body's own key: that would freeze it
  }
  CHECK(derived.size() == 7);
  CHECK(derived["volume"].as<double>() == body(s, "arm1/upper").volume);
  CHECK(derived["added_mass"].size() == 6);            // off-diagonal: 6 rows of 6
  CHECK(derived["added_mass"][0].IsSequence());
  CHECK(derived["inertia"].size() == 3);               // diagonal: the 3 moments
  CHECK(derived["inertia"][0].IsScalar());
  // Explicit keys are kept as written; only what was derived is listed.
  const YAML::Node link3 = resolved_link(s, 2);
  CHECK(link3["volume"].Scalar() == "0.0001");
  REQUIRE(link3["derived"].IsMap());
  CHECK(link3["derived"].size() == 2);
  CHECK(link3["derived"]["center_of_buoyancy"].IsDefined());
  CHECK(link3["derived"]["added_mass"][0].IsScalar());  // diagonal: the 6-list
  // A body without a shape gets nothing added.
  CHECK(!YAML::Load(s.resolved_yaml)["bodies"][0]["derived"].IsDefined());

  const Scenario again = load_scenario(write_scratch("rov_arm_resolved.yaml", s.resolved_yaml));
  REQUIRE(again.bodies.size() == s.bodies.size());
  REQUIRE(again.joints.size() == s.joints.size());
  for (std::size_t i = 0; i < s.bodies.size(); ++i) check_same(again.bodies[i], s.bodies[i]);
  for (std::size_t i = 0; i < s.joints.size(); ++i) check_same(again.joints[i], s.joints[i]);
  CHECK(again.resolved_yaml == s.resolved_yaml);
}

TEST_CASE("a resolved scenario re-derives: --set of the shape or the mass changes the values") {
  const Scenario s = load_scenario(kArm);
  const std::string resolved = write_scratch("rov_arm_resolved_set.yaml", s.resolved_yaml);
  const Scenario wider =
      load_scenario(resolved, {"manipulators.arm1.links.upper.shape.cylinder.radius=0.03"});
  const ShapeSpec shape = cylinder(0.03, 0.15, Vector3(0.075, 0.0, 0.0));
  CHECK(body(wider, "arm1/upper").volume == uwsim::model::shape_volume(shape));
  CHECK(body(wider, "arm1/upper").volume != body(s, "arm1/upper").volume);
  CHECK(body(wider, "arm1/upper").quadratic_damping ==
        uwsim::model::shape_quadratic_drag(shape, kRho));
  CHECK(YAML::Load(wider.resolved_yaml)["manipulators"][0]["links"][1]["derived"]["volume"]
            .as<double>() == body(wider, "arm1/upper").volume);

  const Scenario heavier = load_scenario(resolved, {"manipulators.arm1.links.upper.mass=0.6"});
  const ShapeSpec original = cylinder(0.02, 0.15, Vector3(0.075, 0.0, 0.0));
  CHECK(body(heavier, "arm1/upper").inertia_Bcm_B ==
        uwsim::model::homogeneous_inertia(original, 0.6));
  CHECK(body(heavier, "arm1/upper").added_mass_B ==
        symmetric(uwsim::model::shape_added_mass(original, 0.6, kRho)));

  // Values written under `derived` by hand are ignored too, and a --set into them is an
  // error rather than a silent no-op.
  const std::vector<Diagnostic> ds =
      diagnostics_of(resolved, {"manipulators.arm1.links.upper.derived.volume=1"});
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].file == "--set manipulators.arm1.links.upper.derived.volume=1");
  CHECK(ds[0].message.starts_with("manipulators[0].links[1].derived.volume: values under "
                                  "'derived' are ignored when read"));
}

TEST_CASE("the centre of drag is the shape's only when the drag comes from the shape") {
  const std::string text = R"(name: drag
simulation: {duration: 1}
bodies:
  - name: derived_drag
    mass: 1
    shape: {cylinder: {radius: 0.05, length: 0.4}, center: [0.2, 0, 0]}
    derived: {volume: 99, center_of_drag: [9, 9, 9]}   # ignored
  - name: linear_given
    mass: 1
    shape: {cylinder: {radius: 0.05, length: 0.4}, center: [0.2, 0, 0]}
    linear_damping: [1, 1, 1, 0.1, 0.1, 0.1]
  - name: quadratic_given
    mass: 1
    shape: {cylinder: {radius: 0.05, length: 0.4}, center: [0.2, 0, 0]}
    quadratic_damping: [1, 1, 1, 0.1, 0.1, 0.1]
  - name: explicit_centre
    mass: 1
    shape: {cylinder: {radius: 0.05, length: 0.4}, center: [0.2, 0, 0]}
    linear_damping: [1, 1, 1, 0.1, 0.1, 0.1]
    center_of_drag: [0.1, 0, 0]
)";
  const Scenario s = load_scenario(write_scratch("drag.yaml", text));
  const Vector3 centre(0.2, 0.0, 0.0);
  CHECK(body(s, "derived_drag").p_BoBcd_B == centre);
  CHECK(body(s, "derived_drag").volume ==
        uwsim::model::shape_volume(cylinder(0.05, 0.4, centre)));
  CHECK(body(s, "linear_given").p_BoBcd_B == Vector3::Zero());
  // The quadratic drag is still derived, but acts with the identified linear damping at Bo.
  CHECK(body(s, "linear_given").quadratic_damping ==
        uwsim::model::shape_quadratic_drag(cylinder(0.05, 0.4, centre), 1000.0));
  CHECK(body(s, "quadratic_given").p_BoBcd_B == Vector3::Zero());
  CHECK(body(s, "explicit_centre").p_BoBcd_B == Vector3(0.1, 0.0, 0.0));
  // The other centres still come from the shape.
  CHECK(body(s, "linear_given").p_BoBcm_B == centre);
  CHECK(body(s, "linear_given").p_BoBcb_B == centre);
  const YAML::Node resolved = YAML::Load(s.resolved_yaml)["bodies"];
  CHECK(resolved[0]["derived"]["center_of_drag"][0].as<double>() == 0.2);
  CHECK(!resolved[1]["derived"]["center_of_drag"].IsDefined());
}

TEST_CASE("a fixed-base arm stands alone: no `bodies`, only a manipulator on the world") {
  for (const char* bodies : {"", "bodies: []\n", "bodies:\n"}) {
    CAPTURE(bodies);
    const std::string text = std::string("name: arm_only\nsimulation: {duration: 1}\n") +
                             bodies + R"(manipulators:
  - name: arm
    base: world
    convention: dh
    links:
      - joint: {type: revolute, dh: {d: 0.1}}
        mass: 0.1
        shape: {cylinder: {radius: 0.02, length: 0.1}, center: [0.05, 0, 0]}
      - joint: {type: revolute, dh: {a: 0.1}}
        mass: 0.1
        inertia: [1.0e-4, 1.0e-4, 1.0e-4]
)";
    const Scenario s = load_scenario(write_scratch("arm_only.yaml", text));
    CHECK(body_names(s) == std::vector<std::string>{"arm/link1", "arm/link2"});
    REQUIRE(s.joints.size() == 2);
    CHECK(s.joints[0].name == "arm/joint1");
    CHECK(s.joints[0].parent == "world");
    CHECK(s.joints[1].parent == "arm/link1");
    // ... and its resolved scenario reads back the same.
    const Scenario again = load_scenario(write_scratch("arm_only_resolved.yaml", s.resolved_yaml));
    for (std::size_t i = 0; i < s.bodies.size(); ++i) check_same(again.bodies[i], s.bodies[i]);
  }
}

TEST_CASE("names may nest with '/' as long as no name continues another") {
  const std::string text = R"(name: nested
simulation: {duration: 1}
bodies:
  - {name: rov, mass: 1, inertia: [1, 1, 1]}
  - {name: rov_2/hull, mass: 1, inertia: [1, 1, 1]}
  - {name: rov_2/camera, mass: 1, inertia: [1, 1, 1]}
  - {name: arm1x, mass: 1, inertia: [1, 1, 1]}
  - {name: v1.2, mass: 1, inertia: [1, 1, 1]}
joints:
  - {name: j/1, type: fixed, parent: rov_2/hull, child: rov_2/camera}
  - {name: j/2, type: revolute, parent: rov, child: arm1x}
manipulators:
  - name: arm1
    base: rov
    convention: dh
    links:
      - name: a/b
        joint: {type: revolute, dh: {d: 0.1}, name: x/y}
        mass: 0.1
        inertia: [1.0e-4, 1.0e-4, 1.0e-4]
)";
  const Scenario s = load_scenario(write_scratch("nested.yaml", text));
  CHECK(body(s, "arm1/a/b").mass == 0.1);
  CHECK(joint(s, "arm1/x/y").parent == "rov");

  // Several links of one manipulator nesting in the same body: reported once, at its name.
  const std::string clash = R"(name: clash
simulation: {duration: 1}
bodies:
  - {name: arm, mass: 1, inertia: [1, 1, 1]}
manipulators:
  - name: arm
    base: world
    convention: dh
    links:
      - {joint: {type: revolute}, mass: 1, inertia: [1, 1, 1]}
      - {joint: {type: revolute}, mass: 1, inertia: [1, 1, 1]}
)";
  const std::vector<Diagnostic> ds = diagnostics_of(write_scratch("clash.yaml", clash));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].line == 6);
  CHECK(ds[0].message.starts_with("manipulators[0].name: the body 'arm/link1' of "
                                  "manipulators[0].links[0] would be written inside"));
}

TEST_CASE("--set reaches manipulator links only through the manipulator") {
  // The YAML is overridden before manipulators expand: a link is addressed in its arm, by
  // index or by its `name`, and the derived values follow the overridden inputs.
  const Scenario s = load_scenario(
      kArm, {"manipulators.arm1.links.0.mass=0.1", "manipulators.arm1.links.upper.mass=0.6",
             "manipulators.arm1.links.upper.joint.damping=0.3",
             "environment.water_density=1000"});
  CHECK(body(s, "arm1/link1").mass == 0.1);
  CHECK(body(s, "arm1/upper").mass == 0.6);
  CHECK(joint(s, "arm1/elbow").damping == 0.3);
  const ShapeSpec shape = cylinder(0.02, 0.15, Vector3(0.075, 0.0, 0.0));
  CHECK(body(s, "arm1/upper").inertia_Bcm_B == uwsim::model::homogeneous_inertia(shape, 0.6));
  CHECK(body(s, "arm1/upper").quadratic_damping ==
        uwsim::model::shape_quadratic_drag(shape, 1000.0));

  // The expanded names do NOT work as --set paths: `bodies` holds only the file's bodies.
  // The message lists those and names the path that does work.
  const std::vector<Diagnostic> ds =
      diagnostics_of(kArm, {"bodies.arm1/link1.mass=0.1", "joints.arm1/elbow.damping=1"});
  REQUIRE(ds.size() == 2);
  CHECK(ds[0].file == "--set bodies.arm1/link1.mass=0.1");
  CHECK(ds[0].message ==
        "no item named 'arm1/link1' in 'bodies'; available names: rov, pan, camera (or an index "
        "0 to 2); 'arm1/link1' comes from manipulator 'arm1' and is set there: --set "
        "manipulators.arm1.links.0.mass=...");
  CHECK(ds[1].file == "--set joints.arm1/elbow.damping=1");
  CHECK(ds[1].message.find("--set manipulators.arm1.links.upper.joint.damping=...") !=
        std::string::npos);

  // A problem in an overridden link value is reported against the argument.
  const std::vector<Diagnostic> bad = diagnostics_of(kArm, {"manipulators.arm1.links.upper.mass=-1"});
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].file == "--set manipulators.arm1.links.upper.mass=-1");
  CHECK(bad[0].message == "manipulators[0].links[1].mass: expected a positive number (kg), got -1");
}

TEST_CASE("bodies jointed to the world are roots — subtrees follow their parent") {
  const std::string text = R"(name: tree
simulation: {duration: 1}
bodies:
  - {name: c, mass: 1, inertia: [1, 1, 1]}
  - {name: free, mass: 1, inertia: [1, 1, 1]}
  - {name: b, mass: 1, inertia: [1, 1, 1]}
  - {name: a, mass: 1, inertia: [1, 1, 1]}
  - {name: d, mass: 1, inertia: [1, 1, 1]}
joints:
  - {name: ja, type: fixed, parent: world, child: a, axis: [0, 0, 0]}
  - {name: jc, type: prismatic, parent: b, child: c, mdh: {alpha: 0.1, r: 0.2}}
  - {name: jb, type: revolute, parent: a, child: b, dh: {theta: 0.1, d: 0.2, a: 0.3, alpha: 0.4}}
  - {name: jd, type: revolute, parent: a, child: d}
manipulators:
  - name: m
    base: world
    convention: dh
    links:
      - joint: {type: revolute, dh: {a: 0.5}}
        shape: {box: {size: [0.1, 0.2, 0.3]}}
        mass: 2
)";
  const Scenario s = load_scenario(write_scratch("tree.yaml", text));
  // Roots in list order: free (no joint), a (world), m/link1 (world); a's children b, d in
  // list order (b before d), then b's child c.
  CHECK(body_names(s) == std::vector<std::string>{"free", "a", "b", "c", "d", "m/link1"});
  std::vector<std::string> joint_names;
  for (const auto& j : s.joints) joint_names.push_back(j.name);
  CHECK(joint_names == std::vector<std::string>{"ja", "jb", "jc", "jd", "m/joint1"});
  CHECK(joint(s, "ja").placement.axis == Vector3::UnitZ());  // ignored for a fixed joint
  const JointPlacementSpec& dh = joint(s, "jb").placement;
  CHECK(dh.kind == JointPlacementSpec::Kind::dh);
  CHECK(Eigen::Vector4d(dh.theta, dh.d, dh.a, dh.alpha) == Eigen::Vector4d(0.1, 0.2, 0.3, 0.4));
  CHECK(joint(s, "jd").placement.kind == JointPlacementSpec::Kind::origin);
  CHECK(joint(s, "m/joint1").parent == "world");
  CHECK(joint(s, "m/joint1").placement.a == 0.5);
}

TEST_CASE("a problem can be reported once for every joint and link") {
  const std::string text = R"(name: many
simulation: {duration: 1}
bodies:
  - {name: rov, mass: 1, inertia: [1, 1, 1], initial: {position: [0, 0, 1]}}
  - {name: x, mass: 1, inertia: [1, 1, 1]}
joints:
  - {name: j1, type: revolute, parent: rob, child: x}
  - {name: j2, type: fixed, parent: world, child: rov}
manipulators:
  - name: arm
    base: x
    convention: mdh
    links:
      - joint: {type: revolute, dh: {}}
        mass: 1
        shape: {cylinder: {radius: 0, length: 1}}
)";
  const std::string path = write_scratch("many.yaml", text);
  const std::vector<Diagnostic> ds = diagnostics_of(path);
  std::string all;
  for (const auto& d : ds) all += format(d) + "\n";
  CAPTURE(all);
  REQUIRE(ds.size() == 4);
  CHECK(ds[0].line == 4);
  CHECK(ds[0].message.starts_with("bodies[0].initial: a body moved by joint 'j2'"));
  CHECK(ds[1].line == 7);
  CHECK(ds[1].message.starts_with("joints[0].parent: no body named 'rob'; did you mean 'rov'?"));
  CHECK(ds[2].line == 14);
  CHECK(ds[2].message.starts_with("manipulators[0].links[0].joint.dh: this manipulator's convention is 'mdh'"));
  CHECK(ds[3].line == 16);
  CHECK(ds[3].message == "manipulators[0].links[0].shape.cylinder.radius: expected a positive "
                         "number (m), got 0");
}
