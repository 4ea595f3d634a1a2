// The `visual` key and the meshes it names: what the reader makes of each solid, where a URDF's
// <visual> lands, the STL and Collada readers against geometry written out here, decimation
// to its budget, and that a scenario loaded from a text opens no mesh file. (Where the stored
// triangles sit in a result file, against the URDF's own kinematics: tests/app/test_replay.cpp.)
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "scenario/load_scenario.h"
#include "scenario/mesh_files.h"
#include "scenario/visual_meshes.h"

namespace fs = std::filesystem;
using namespace uwsim;
using Eigen::Matrix3d;
using Eigen::Vector3d;
using model::VisualSpec;

namespace {

fs::path temp_dir() {
  const fs::path dir = fs::temp_directory_path() / "uwsim_test_visuals";
  fs::create_directories(dir / "meshes");
  return dir;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path path = temp_dir() / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

const std::string kCube = std::string(UWSIM_TEST_DATA_DIR) + "/replay/meshes/cube.stl";

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A scenario of one free body with the given `visual` list (YAML flow text).
std::string one_body(const std::string& visual) {
  return "name: visuals\nsimulation: {duration: 0.1}\nbodies:\n  - name: b\n    mass: 1.0\n"
         "    inertia: [0.01, 0.01, 0.01]\n    visual: " + visual + "\n";
}

Matrix3d rpy_rotation(const Vector3d& rpy) {
  return (Eigen::AngleAxisd(rpy[2], Vector3d::UnitZ()) * Eigen::AngleAxisd(rpy[1], Vector3d::UnitY()) *
          Eigen::AngleAxisd(rpy[0], Vector3d::UnitX()))
      .toRotationMatrix();
}

std::string first_error(const std::string& yaml, const std::string& name) {
  try {
    scenario::load_scenario_text(yaml, name);
  } catch (const scenario::ScenarioError& e) {
    return scenario::format(e.diagnostics().front());
  }
  return "";
}

// The corners of the unit cube [0, 1]³.
std::vector<Vector3d> cube_corners() {
  std::vector<Vector3d> out;
  for (int i = 0; i < 8; ++i) out.emplace_back(i & 1, (i >> 1) & 1, (i >> 2) & 1);
  return out;
}

bool has_point(const std::vector<Vector3d>& points, const Vector3d& p, double tolerance) {
  return std::any_of(points.begin(), points.end(), [&](const Vector3d& q) { return (q - p).norm() < tolerance; });
}

}  // namespace

TEST_CASE("visuals: each solid of a body's visual list is read into its frame in the body frame") {
  const scenario::Scenario s = scenario::load_scenario_text(
      one_body("[{box: {size: [0.3, 0.2, 0.1]}, origin: {xyz: [0.1, 0.2, 0.3], rpy: [0.1, -0.2, 0.3]}, color: [1, 0.5, 0]},"
               " {cylinder: {radius: 0.05, length: 0.4}}, {cylinder: {radius: 0.05, length: 0.4, axis: y}, origin: {rpy: [0.4, 0, 0]}},"
               " {sphere: {radius: 0.07}, color: [0, 0, 1, 0.5]}]"),
      "visuals.yaml");
  const std::vector<VisualSpec>& v = s.bodies.at(0).visuals;
  REQUIRE(v.size() == 4);
  CHECK(v[0].kind == VisualSpec::Kind::box);
  CHECK(v[0].size.isApprox(Vector3d(0.3, 0.2, 0.1)));
  CHECK(v[0].p_BV_B.isApprox(Vector3d(0.1, 0.2, 0.3)));
  CHECK((v[0].R_BV - rpy_rotation(Vector3d(0.1, -0.2, 0.3))).norm() < 1e-12);
  CHECK(v[0].rgba.isApprox(Eigen::Vector4d(1, 0.5, 0, 1)));
  // A cylinder is stored along its frame's z; `axis` (default x, as a shape's) says where that goes.
  CHECK(v[1].kind == VisualSpec::Kind::cylinder);
  CHECK(v[1].size.isApprox(Vector3d(0.05, 0.4, 0.0)));
  CHECK((v[1].R_BV * Vector3d::UnitZ() - Vector3d::UnitX()).norm() < 1e-15);
  CHECK((v[2].R_BV * Vector3d::UnitZ() - rpy_rotation(Vector3d(0.4, 0, 0)) * Vector3d::UnitY()).norm() < 1e-15);  // y, turned by the origin
  CHECK(v[1].R_BV.determinant() == doctest::Approx(1.0));
  CHECK(v[2].R_BV.determinant() == doctest::Approx(1.0));
  CHECK(v[1].rgba[0] < 0);  // no colour: the body's
  CHECK(v[3].kind == VisualSpec::Kind::sphere);
  CHECK(v[3].rgba[3] == 0.5);
  // The model never sees them: the same body without them builds the same spec otherwise.
  const scenario::Scenario plain = scenario::load_scenario_text(one_body("[]"), "visuals.yaml");
  CHECK(plain.bodies.at(0).visuals.empty());
  CHECK(plain.bodies.at(0).inertia_Bcm_B == s.bodies.at(0).inertia_Bcm_B);
  CHECK(plain.bodies.at(0).volume == s.bodies.at(0).volume);
}

TEST_CASE("visuals: the BlueROV2 outline lies within the vehicle's 457 x 338 x 254 mm, moved by its origin") {
  const scenario::Scenario s = scenario::load_scenario_text(
      one_body("[{outline: bluerov2}, {outline: bluerov2, origin: {xyz: [1, 0, 0], rpy: [0.3, 0.2, 1.5]}, color: [1, 0, 0]}]"),
      "outline.yaml");
  const Matrix3d R = rpy_rotation(Vector3d(0.3, 0.2, 1.5));
  const std::vector<VisualSpec>& v = s.bodies.at(0).visuals;
  REQUIRE(v.size() % 2 == 0);
  const std::size_t n = v.size() / 2;
  CHECK(n >= 10);
  const Vector3d half(0.457 / 2, 0.338 / 2, 0.254 / 2);
  for (std::size_t k = 0; k < n; ++k) {
    CAPTURE(k);
    // The solid's extreme points in the body frame: its half-extent along each axis of V.
    Vector3d extent_V = v[k].size / 2;
    if (v[k].kind == VisualSpec::Kind::cylinder) extent_V = Vector3d(v[k].size[0], v[k].size[0], v[k].size[1] / 2);
    if (v[k].kind == VisualSpec::Kind::sphere) extent_V = Vector3d::Constant(v[k].size[0]);
    const Vector3d reach = v[k].R_BV.cwiseAbs() * extent_V;
    CHECK(((v[k].p_BV_B.cwiseAbs() + reach).array() <= half.array() + 1e-9).all());
    // The second, placed by its origin: every piece's frame carried by it.
    CHECK((v[n + k].p_BV_B - (Vector3d::UnitX() + R * v[k].p_BV_B)).norm() < 1e-12);
    CHECK((v[n + k].R_BV - R * v[k].R_BV).norm() < 1e-12);
    CHECK(v[n + k].rgba.isApprox(Eigen::Vector4d(1, 0, 0, 1)));
  }
}

TEST_CASE("visuals: a wrong visual item is reported where it is written") {
  // Two solids in one item: reported at the second's key, as any two keys that exclude each other.
  CHECK(first_error(one_body("[{box: {size: [1, 1, 1]}, sphere: {radius: 1}}]"), "v.yaml")
            .find("v.yaml:7:39: error: bodies[0].visual[0]: give the item's solid as one of 'box', 'cylinder', "
                  "'sphere', 'mesh' or 'outline', not several") == 0);
  CHECK(first_error(one_body("[{origin: {xyz: [0, 0, 0]}}]"), "v.yaml").find("expected one solid") != std::string::npos);
  // An empty solid or origin is no mapping (a table that is not nullable takes no defaults).
  CHECK(first_error(one_body("[{box: }]"), "v.yaml").find("bodies[0].visual[0].box: expected a mapping") !=
        std::string::npos);
  CHECK(first_error(one_body("[{sphere: {radius: 1}, origin: }]"), "v.yaml")
            .find("bodies[0].visual[0].origin: expected a mapping") != std::string::npos);
  CHECK(first_error(one_body("[{sphere: {radius: 1}, color: [1, 2, 0]}]"), "v.yaml").find("from 0 to 1") != std::string::npos);
  CHECK(first_error(one_body("[{outline: bluerov3}]"), "v.yaml").find("bluerov2") != std::string::npos);
  CHECK(first_error(one_body("[{mesh: {file: cube.stl, scale: [1, 0, 1]}}]"), "v.yaml").find("scale") != std::string::npos);
}

TEST_CASE("visuals: mesh files are read for a scenario loaded from its file, never for one loaded from a text") {
  fs::copy_file(kCube, temp_dir() / "meshes/cube.stl", fs::copy_options::overwrite_existing);
  const std::string yaml = one_body("[{mesh: {file: meshes/cube.stl, scale: [2, 3, 4]}}]");
  const std::string path = write_temp("mesh.yaml", yaml);
  const scenario::Scenario from_file = scenario::load_scenario(path);
  const VisualSpec& v = from_file.bodies.at(0).visuals.at(0);
  CHECK(v.kind == VisualSpec::Kind::mesh);
  REQUIRE(v.vertices.size() == 8);  // a cube's corners, each once
  CHECK(v.triangles.size() == 12);
  for (const Vector3d& c : cube_corners()) CHECK(has_point(v.vertices, c.cwiseProduct(Vector3d(2, 3, 4)), 1e-12));
  CHECK(std::count(from_file.input_files.begin(), from_file.input_files.end(), (temp_dir() / "meshes/cube.stl").string()) == 1);
  // The same text, the mesh beside it: nothing is opened.
  const scenario::Scenario from_text = scenario::load_scenario_text(yaml, path);
  CHECK(from_text.bodies.at(0).visuals.at(0).mesh_file == "meshes/cube.stl");
  CHECK(from_text.bodies.at(0).visuals.at(0).vertices.empty());
  // A missing mesh, from the file: reported at its `file` key, with where it was looked for.
  const std::string missing = write_temp("missing.yaml", one_body("[{mesh: {file: meshes/none.stl}}]"));
  try {
    scenario::load_scenario(missing);
    FAIL("a missing mesh file was not reported");
  } catch (const scenario::ScenarioError& e) {
    const std::string text = scenario::format(e.diagnostics().front());
    CHECK(text.find(missing + ":7:28: error:") == 0);
    CHECK(text.find("no such file") != std::string::npos);
  }
  const std::string obj = write_temp("obj.yaml", one_body("[{mesh: {file: meshes/cube.obj}}]"));
  CHECK_THROWS_WITH_AS(scenario::load_scenario(obj), doctest::Contains("STL (.stl) or Collada (.dae)"), scenario::ScenarioError);
}

TEST_CASE("visuals: binary and ASCII STL files give the same cube") {
  std::string why;
  const auto ascii = scenario::read_stl(read_bytes(kCube), why);
  REQUIRE(ascii);
  // The same triangles in the binary form: 80-byte header (starting "solid", as some writers
  // do), a count, then per triangle a normal, three corners and two spare bytes.
  std::string binary = "solid but binary";
  binary.resize(80, ' ');
  auto put = [&](const void* p, std::size_t n) { binary.append(static_cast<const char*>(p), n); };
  const std::uint32_t count = static_cast<std::uint32_t>(ascii->triangles.size());
  put(&count, 4);
  for (const Eigen::Vector3i& t : ascii->triangles) {
    const float normal[3] = {0, 0, 0};
    put(normal, 12);
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3f c = ascii->vertices[static_cast<std::size_t>(t[k])].cast<float>();
      put(c.data(), 12);
    }
    put("\0\0", 2);
  }
  REQUIRE(binary.size() == 84 + 50 * count);
  const auto read = scenario::read_stl(binary, why);
  REQUIRE(read);
  CHECK(read->vertices == ascii->vertices);
  CHECK(read->triangles == ascii->triangles);
  CHECK_FALSE(scenario::read_stl("solid nothing\nendsolid\n", why));
}

TEST_CASE("visuals: a Collada document's polygons are placed by its scene, in metres, its up axis not applied") {
  // A unit square quad (a <polylist> of one 4-gon) and a triangle, in centimetres, Y up,
  // instanced by a node moved 100 cm along x and turned 90° about its z, and again through a
  // library node placed by a row-major <matrix> (turned 90° about z, moved by (2, 0, 0.5) cm).
  // The up axis is left alone, as RViz and Gazebo leave it: a mesh's coordinates are its link's.
  const char* dae = R"(<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit meter="0.01" name="centimeter"/><up_axis>Y_UP</up_axis></asset>
  <library_geometries>
    <geometry id="g">
      <mesh>
        <source id="p">
          <float_array id="pa" count="15">0 0 0  10 0 0  10 10 0  0 10 0  0 0 20</float_array>
          <technique_common><accessor source="#pa" count="5" stride="3"/></technique_common>
        </source>
        <source id="n"><float_array id="na" count="3">0 0 1</float_array></source>
        <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
        <polylist count="2">
          <input semantic="VERTEX" source="#v" offset="0"/>
          <input semantic="NORMAL" source="#n" offset="1"/>
          <vcount>4 3</vcount>
          <p>0 0 1 0 2 0 3 0  0 0 1 0 4 0</p>
        </polylist>
      </mesh>
    </geometry>
  </library_geometries>
  <library_nodes>
    <node id="b"><matrix>0 -1 0 2  1 0 0 0  0 0 1 0.5  0 0 0 1</matrix><instance_geometry url="#g"/></node>
  </library_nodes>
  <library_visual_scenes>
    <visual_scene id="s">
      <node id="a"><translate>100 0 0</translate><rotate>0 0 1 90</rotate><instance_geometry url="#g"/></node>
      <node id="c"><instance_node url="#b"/></node>
    </visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
)";
  std::vector<scenario::Diagnostic> problems;
  const auto mesh = scenario::read_collada("square.dae", dae, problems);
  REQUIRE(problems.empty());
  REQUIRE(mesh);
  CHECK(mesh->triangles.size() == 6);  // per instance: the quad's fan of two, and the triangle
  CHECK(mesh->vertices.size() == 10);
  // By hand: turned 90° about z, (x, y, z) → (−y, x, z); moved 100 cm along x, or by the
  // matrix's (2, 0, 0.5) cm; in metres.
  const auto first = [](double x, double y, double z) { return Vector3d(0.01 * (100 - y), 0.01 * x, 0.01 * z); };
  const auto second = [](double x, double y, double z) { return Vector3d(0.01 * (2 - y), 0.01 * x, 0.01 * (z + 0.5)); };
  for (const auto& place : {std::function<Vector3d(double, double, double)>(first), std::function<Vector3d(double, double, double)>(second)})
    for (const Vector3d& p : {place(0, 0, 0), place(10, 0, 0), place(10, 10, 0), place(0, 10, 0), place(0, 0, 20)}) {
      CAPTURE(p.transpose());
      CHECK(has_point(mesh->vertices, p, 1e-12));
    }
  // Through a scenario's `visual` key: the same vertices, scaled.
  write_temp("meshes/square.dae", dae);
  const scenario::Scenario s =
      scenario::load_scenario(write_temp("dae.yaml", one_body("[{mesh: {file: meshes/square.dae, scale: 2}}]")));
  const VisualSpec& v = s.bodies.at(0).visuals.at(0);
  REQUIRE(v.vertices.size() == 10);
  for (std::size_t i = 0; i < 10; ++i) CHECK((v.vertices[i] - 2.0 * mesh->vertices[i]).norm() < 1e-15);
  CHECK(v.triangles == mesh->triangles);
  // An error at its line and column: a reference to nothing.
  std::string broken = dae;
  broken.replace(broken.find("url=\"#g\""), 8, "url=\"#h\"");
  CHECK_FALSE(scenario::read_collada("broken.dae", broken, problems));
  REQUIRE(problems.size() == 1);
  CHECK(scenario::format(problems.front()) == "broken.dae:23:72: error: no element with id 'h'");
}

TEST_CASE("visuals: decimation keeps a fine sphere within its triangle budget and on its surface") {
  // A UV sphere of radius 1 with 200 × 100 quads (about 40 000 triangles).
  scenario::MeshBuilder builder;
  const int across = 200, up = 100;
  auto at = [&](int i, int j) {
    const double phi = 2 * M_PI * i / across, theta = M_PI * j / up;
    return builder.vertex(Vector3d(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta)));
  };
  for (int i = 0; i < across; ++i)
    for (int j = 0; j < up; ++j) {
      builder.triangle(at(i, j), at(i + 1, j), at(i + 1, j + 1));
      builder.triangle(at(i, j), at(i + 1, j + 1), at(i, j + 1));
    }
  const scenario::Mesh sphere = builder.take();
  REQUIRE(sphere.triangles.size() > 39000);
  for (const std::size_t budget : {std::size_t{100}, std::size_t{2000}, std::size_t{10000}}) {
    CAPTURE(budget);
    const scenario::Mesh small = scenario::decimated(sphere, budget);
    CHECK(small.triangles.size() <= budget);
    CHECK(small.triangles.size() > budget / 4);  // the finest grid within budget, not a crude one
    // Every vertex is the mean of a cluster of the sphere's vertices within one grid cell:
    // within a cell's diagonal of the surface. The cell: 2 / cells, and cells² triangles ≈ budget.
    const double cell = 2.0 / std::sqrt(static_cast<double>(small.triangles.size()) / 8.0);
    for (const Vector3d& p : small.vertices) CHECK(std::abs(p.norm() - 1.0) < std::sqrt(3.0) * cell);
  }
  CHECK(scenario::decimated(sphere, 1000000).triangles.size() == sphere.triangles.size());
}

TEST_CASE("visuals: a URDF part's visuals land on its bodies in NED, mesh paths relative to the URDF, merged links' on the link they join") {
  fs::copy_file(kCube, temp_dir() / "meshes/cube.stl", fs::copy_options::overwrite_existing);
  fs::create_directories(temp_dir() / "pkg/robot/urdf");
  fs::create_directories(temp_dir() / "pkg/robot/meshes");
  fs::copy_file(kCube, temp_dir() / "pkg/robot/meshes/cube.stl", fs::copy_options::overwrite_existing);
  // `tool` has no mass and is fixed to `base`: it is merged, and its sphere drawn on base.
  write_temp("pkg/robot/urdf/r.urdf", R"(<robot name="r">
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <visual><origin xyz="0.1 0.2 0.3" rpy="0.1 0.2 0.3"/><geometry><box size="0.1 0.2 0.3"/></geometry></visual>
    <visual><geometry><mesh filename="package://robot/meshes/cube.stl"/></geometry></visual>
    <visual><geometry><mesh filename="package://elsewhere/meshes/cube.stl"/></geometry></visual>
  </link>
  <link name="tool"><visual><origin xyz="0 0 0.05"/><geometry><sphere radius="0.02"/></geometry></visual></link>
  <joint name="mount" type="fixed"><parent link="base"/><child link="tool"/><origin xyz="0.5 0 0" rpy="0 0 1.5707963267948966"/></joint>
</robot>
)");
  const std::string path = write_temp("urdf.yaml", "name: u\nsimulation: {duration: 0.1}\ninclude:\n"
                                                   "  - {file: pkg/robot/urdf/r.urdf, name: r}\n");
  const scenario::Scenario s = scenario::load_scenario(path);
  const std::vector<VisualSpec>& v = s.bodies.at(0).visuals;
  REQUIRE(v.size() == 3);  // the box, the package mesh found, the sphere; the unknown package left out
  REQUIRE(s.warnings.size() == 1);
  CHECK(s.warnings[0].find("r.urdf:6:") != std::string::npos);
  CHECK(s.warnings[0].find("package://elsewhere") != std::string::npos);
  // A point v of a solid, in NED body axes: D·(xyz + R(rpy)·v), D = Rx(π).
  const Matrix3d D = Vector3d(1, -1, -1).asDiagonal();
  const Vector3d corner(0.05, 0.1, 0.15);
  CHECK((v[0].p_BV_B + v[0].R_BV * corner - D * (Vector3d(0.1, 0.2, 0.3) + rpy_rotation(Vector3d(0.1, 0.2, 0.3)) * corner)).norm() <
        1e-12);
  CHECK(v[0].size.isApprox(Vector3d(0.1, 0.2, 0.3)));
  CHECK(v[1].kind == VisualSpec::Kind::mesh);
  CHECK(fs::equivalent(v[1].mesh_file, temp_dir() / "pkg/robot/meshes/cube.stl"));
  REQUIRE(v[1].vertices.size() == 8);
  for (const Vector3d& c : cube_corners()) CHECK(has_point(v[1].vertices, c, 1e-12));
  CHECK((v[1].R_BV - D).norm() < 1e-12);  // the mesh's own coordinates, turned with the link
  // The merged tool's sphere: at the fixed joint's origin composed with its own.
  CHECK(v[2].kind == VisualSpec::Kind::sphere);
  CHECK((v[2].p_BV_B - D * (Vector3d(0.5, 0, 0) + rpy_rotation(Vector3d(0, 0, M_PI / 2)) * Vector3d(0, 0, 0.05))).norm() < 1e-12);
}
