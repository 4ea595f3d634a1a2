// `sim replay`: the scene it draws (solids, joint axes) and the page it writes. The page's
// drawing is checked in a real browser by tests/tools/test_replay_browser.py.
#include "app/replay_scene.h"

#include <doctest/doctest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "dynamics/kinematics.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"

#include "support/sim_process.h"

namespace fs = std::filesystem;

namespace {

const std::string kSim = UWSIM_SIM_EXE;
const std::string kSource = UWSIM_SOURCE_DIR;

const fs::path& test_dir() {
  static const fs::path dir = uwsim::test::fresh_dir("replay");  // removed when the tests exit
  return dir;
}

int run(const std::string& command) {
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

// A 1 s run of the arm-swing scenario (51 samples at 50 Hz).
const fs::path& swing_file() {
  static const fs::path path = [] {
    const fs::path out = test_dir() / "swing.h5";
    REQUIRE(run("'" + kSim + "' -q '" + kSource + "/scenarios/bluerov2_arm_swing.yaml' --duration 1 -o '" + out.string() + "'") == 0);
    return out;
  }();
  return path;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The page's data: the JSON literal after "const DATA = ".
nlohmann::json page_data(const fs::path& page) {
  const std::string text = read_text(page);
  const std::string marker = "const DATA = ";
  const std::size_t start = text.find(marker);
  REQUIRE(start != std::string::npos);
  const std::size_t end = text.find(";\nconst THREE_VERSION", start);
  REQUIRE(end != std::string::npos);
  return nlohmann::json::parse(text.substr(start + marker.size(), end - start - marker.size()));
}

std::string stored_scenario(const fs::path& file) {
  const hid_t f = H5Fopen(file.string().c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  const hid_t attribute = H5Aopen(f, "scenario", H5P_DEFAULT);
  const hid_t type = H5Aget_type(attribute);
  char* value = nullptr;
  REQUIRE(H5Aread(attribute, type, &value) >= 0);
  std::string text = value;
  H5free_memory(value);
  H5Tclose(type);
  H5Aclose(attribute);
  H5Fclose(f);
  return text;
}

}  // namespace

TEST_CASE("replay: the box of an inertia has the edges of the box that has that inertia") {
  // A 0.5 × 0.3 × 0.1 m box of 3 kg, turned by a known rotation: I = R diag(…) Rᵀ with
  // I_x = m(b² + c²)/12 and its siblings (the box's own formula, written here).
  const double m = 3.0, a = 0.5, b = 0.3, c = 0.1;
  const Eigen::Vector3d principal(m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12);
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  const Eigen::Matrix3d inertia = R * principal.asDiagonal() * R.transpose();
  const uwsim::app::ReplaySolid solid = uwsim::app::box_of_inertia(m, inertia, Eigen::Vector3d(0.1, 0, 0.02));
  CHECK(solid.source == "inertia");
  CHECK(solid.center_B.isApprox(Eigen::Vector3d(0.1, 0, 0.02)));
  CHECK(solid.R_BS.determinant() == doctest::Approx(1.0));
  // Each solid axis carries its edge: the solid's inertia turned back equals the given one.
  const Eigen::Vector3d e = solid.size;
  const Eigen::Vector3d back(m * (e[1] * e[1] + e[2] * e[2]) / 12, m * (e[0] * e[0] + e[2] * e[2]) / 12,
                             m * (e[0] * e[0] + e[1] * e[1]) / 12);
  CHECK((solid.R_BS * back.asDiagonal() * solid.R_BS.transpose() - inertia).norm() < 1e-12);
  Eigen::Vector3d sorted = e;
  std::sort(sorted.data(), sorted.data() + 3);
  CHECK((sorted - Eigen::Vector3d(c, b, a)).norm() < 1e-12);
}

// Turning a revolute joint moves its child but not the joint's axis line: the axis and
// origin the scene gives in the child's frame, carried to the world, are the same at two
// joint positions (the world poses come from the model's forward kinematics).
static void check_joint_axes(const std::string& yaml) {
  const uwsim::app::ReplayScene scene = uwsim::app::scene_from_scenario(yaml);
  const uwsim::dynamics::Model model = uwsim::model::build_model(uwsim::scenario::load_scenario_text(yaml, "axes"));
  REQUIRE(scene.bodies.size() == model.bodies.size());
  REQUIRE_FALSE(scene.joints.empty());
  for (const uwsim::app::ReplayJoint& joint : scene.joints) {
    const auto& body = model.bodies[static_cast<std::size_t>(joint.body)];
    std::vector<double> x = model.x0;
    const auto X0 = uwsim::dynamics::world_poses(model, x)[static_cast<std::size_t>(joint.body)];
    x[static_cast<std::size_t>(body.q_offset)] += 0.8;
    const auto X1 = uwsim::dynamics::world_poses(model, x)[static_cast<std::size_t>(joint.body)];
    CAPTURE(joint.name);
    CHECK_FALSE(X0.R.isApprox(X1.R, 1e-6));  // the child did turn
    CHECK((X0.R * joint.axis_B - X1.R * joint.axis_B).norm() < 1e-12);
    CHECK((X0.p + X0.R * joint.p_B - X1.p - X1.R * joint.p_B).norm() < 1e-12);
  }
}

TEST_CASE("replay: each joint axis drawn is the line its child turns about") {
  SUBCASE("classic DH, modified DH and a tilted origin/axis joint, where the child frame is not the joint frame") {
    check_joint_axes(R"(name: axes
simulation: {duration: 1.0}
bodies:
  - {name: a, mass: 1.0, inertia: [0.01, 0.02, 0.03]}
  - {name: b, mass: 1.0, inertia: [0.01, 0.02, 0.03]}
  - {name: c, mass: 1.0, inertia: [0.01, 0.02, 0.03]}
joints:
  - {name: j1, type: revolute, parent: world, child: a, dh: {theta: 0.3, d: 0.1, a: 0.2, alpha: 0.7}}
  - {name: j2, type: revolute, parent: a, child: b, origin: {xyz: [0.1, 0.2, 0.0], rpy: [0.4, -0.2, 0.9]}, axis: [0.6, 0.0, 0.8]}
  - {name: j3, type: revolute, parent: b, child: c, mdh: {alpha: 0.5, d: 0.1, theta: 0.2, r: 0.15}}
)");
  }
  SUBCASE("the arm-swing scenario as stored in its result file") {
    const std::string yaml = stored_scenario(swing_file());
    check_joint_axes(yaml);
    const uwsim::app::ReplayScene scene = uwsim::app::scene_from_scenario(yaml);
    CHECK(scene.joints.size() == 4);
    CHECK(scene.bodies[0].solid.source == "inertia");  // the vehicle has no shape
    CHECK(scene.bodies[1].solid.kind == uwsim::app::ReplaySolid::Kind::cylinder);
  }
}

TEST_CASE("replay: sim replay writes one page with the file's bodies, decimated to the frame budget") {
  const fs::path page = test_dir() / "swing.html";
  REQUIRE(run("'" + kSim + "' replay -q '" + swing_file().string() + "' -o '" + page.string() + "' --frames 10") == 0);
  const nlohmann::json data = page_data(page);
  CHECK(data["samples"] == 51);
  const auto& time = data["time"];
  CHECK(time.size() <= 10);
  CHECK(time.front().get<double>() == 0.0);
  CHECK(time.back().get<double>() == doctest::Approx(1.0));  // the last sample is always shown
  CHECK(data["bodies"].size() == 5);
  CHECK(data["joints"].size() == 4);
  CHECK(data["bodies"][0]["position"].size() == 3 * time.size());
  CHECK(data["bodies"][0]["quaternion"].size() == 4 * time.size());
  CHECK(data["warning"] == "");
  const std::string text = read_text(page);
  CHECK(text.find("<script src") == std::string::npos);  // nothing fetched: three.js is inline
  CHECK(text.find("REVISION") != std::string::npos);
}

TEST_CASE("replay: a file whose scenario does not load still replays its bodies, with a warning") {
  const fs::path copy = test_dir() / "no_scenario.h5";
  fs::copy_file(swing_file(), copy, fs::copy_options::overwrite_existing);
  const hid_t f = H5Fopen(copy.string().c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  REQUIRE(f >= 0);
  REQUIRE(H5Adelete(f, "scenario") >= 0);
  H5Fclose(f);
  const fs::path page = test_dir() / "no_scenario.html";
  REQUIRE(run("'" + kSim + "' replay -q '" + copy.string() + "' -o '" + page.string() + "'") == 0);
  const nlohmann::json data = page_data(page);
  CHECK(data["bodies"].size() == 5);
  CHECK(data["bodies"][0]["solid"]["source"] == "unknown");
  CHECK(data["joints"].empty());
  CHECK(data["warning"].get<std::string>().find("scenario") != std::string::npos);
}

TEST_CASE("replay: a missing or non-result file is an error with exit code 2 and writes nothing") {
  const fs::path page = test_dir() / "missing.html";
  CHECK(run("'" + kSim + "' replay -q '" + (test_dir() / "nothing.h5").string() + "' -o '" + page.string() + "' 2>/dev/null") == 2);
  const fs::path text = test_dir() / "not_hdf5.h5";
  std::ofstream(text) << "time,x\n0,1\n";
  CHECK(run("'" + kSim + "' replay -q '" + text.string() + "' -o '" + page.string() + "' 2>/dev/null") == 2);
  CHECK_FALSE(fs::exists(page));
}

TEST_CASE("replay: a scenario with CSV channels replays without its CSV file beside it") {
  // The stored scenario names replay.csv relative to where the scenario was; the test runs
  // elsewhere, so loading it as it is fails, and the replay (which needs no channel values)
  // turns the channels into constants first.
  const fs::path result = test_dir() / "csv.h5";
  REQUIRE(run("'" + kSim + "' -q '" + std::string(UWSIM_TEST_DATA_DIR) + "/inputs/replay.yaml' -o '" + result.string() + "'") == 0);
  const std::string yaml = stored_scenario(result);
  REQUIRE(yaml.find("type: csv") != std::string::npos);
  CHECK_THROWS_AS(uwsim::scenario::load_scenario_text(yaml, (test_dir() / "elsewhere.yaml").string()), uwsim::scenario::ScenarioError);
  const uwsim::app::ReplayScene scene = uwsim::app::scene_from_scenario(yaml);
  REQUIRE(scene.thrusters.size() == 1);
  CHECK(scene.thrusters[0].name == "t");
  CHECK(scene.thrusters[0].axis_B.isApprox(Eigen::Vector3d::UnitX()));
}

namespace {

// URDF semantics, written out here on their own: an origin is a translation, then
// R = Rz(yaw)·Ry(pitch)·Rx(roll); a revolute joint turns its child about its axis by q.
Eigen::Isometry3d urdf_origin(const Eigen::Vector3d& xyz, const Eigen::Vector3d& rpy) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.translate(xyz);
  T.rotate(Eigen::AngleAxisd(rpy[2], Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(rpy[1], Eigen::Vector3d::UnitY()) *
           Eigen::AngleAxisd(rpy[0], Eigen::Vector3d::UnitX()));
  return T;
}

// A body's pose at sample k of a result file (position, quaternion [w x y z]).
Eigen::Isometry3d pose_at(const uwsim::test::ResultFile& f, const std::string& body, std::size_t k) {
  const std::vector<double> p = f.values("/bodies/" + body + "/position"), q = f.values("/bodies/" + body + "/quaternion");
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.translate(Eigen::Vector3d(p[3 * k], p[3 * k + 1], p[3 * k + 2]));
  T.rotate(Eigen::Quaterniond(q[4 * k], q[4 * k + 1], q[4 * k + 2], q[4 * k + 3]).normalized());
  return T;
}

// Row `row` of /visuals/<body>/shapes as the transform of the solid's frame in the body frame.
Eigen::Isometry3d solid_frame(const std::vector<double>& shapes, std::size_t row) {
  const double* r = shapes.data() + 15 * row;
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.translate(Eigen::Vector3d(r[4], r[5], r[6]));
  T.rotate(Eigen::Quaterniond(r[7], r[8], r[9], r[10]));
  return T;
}

}  // namespace

TEST_CASE("replay: a URDF mesh is stored as its STL box's triangles at the URDF's origin and scale, where the URDF's kinematics put it") {
  // tests/data/replay/mesh_robot.urdf: the unit cube [0, 1]³ (meshes/cube.stl) on each link,
  // scaled and placed by its <visual>; the flap on a revolute hinge. At every sample the
  // stored corners, carried by the file's own body poses, must be where the URDF's numbers
  // (written out here) put them: the hull's pose from the file, then the URDF chain turned
  // into NED by D = Rx(π) (the body frame of every link is its URDF frame turned by D).
  const fs::path out = test_dir() / "mesh_robot.h5";
  REQUIRE(run("'" + kSim + "' -q '" + std::string(UWSIM_TEST_DATA_DIR) + "/replay/mesh_robot.yaml' -o '" + out.string() + "'") == 0);
  const uwsim::test::ResultFile f(out);
  REQUIRE(f.ok());
  const Eigen::Matrix3d D = Eigen::Vector3d(1, -1, -1).asDiagonal();
  const Eigen::Isometry3d hull_visual = urdf_origin({0.1, -0.05, 0.02}, {0.3, -0.2, 1.2});
  const Eigen::Vector3d hull_scale(0.4, 0.2, 0.1), flap_scale(0.1, 0.12, 0.05);
  const Eigen::Isometry3d hinge = urdf_origin({-0.3, 0.0, 0.1}, {0.0, 0.4, 0.0});
  const Eigen::Isometry3d flap_visual = urdf_origin({0.0, 0.05, 0.0}, {0.1, 0.0, 0.0});
  const std::vector<double> hull_shapes = f.values("/visuals/robot/hull/shapes");
  const std::vector<double> flap_shapes = f.values("/visuals/robot/flap/shapes");
  REQUIRE(hull_shapes.size() == 15);
  REQUIRE(flap_shapes.size() == 30);
  CHECK(hull_shapes[0] == 4);  // a mesh
  CHECK(flap_shapes[0] == 4);
  CHECK(flap_shapes[15] == 1);  // and a box
  CHECK(Eigen::Vector4d(hull_shapes[11], hull_shapes[12], hull_shapes[13], hull_shapes[14])== Eigen::Vector4d(0.961, 0.510, 0.192, 1));  // as written, though urdfdom keeps floats
  const std::vector<double> time = f.values("/time"), hinge_q = f.values("/joints/robot/hinge/position");
  REQUIRE(time.size() == 21);
  CHECK(hinge_q[0] == doctest::Approx(0.7));
  for (const char* body : {"hull", "flap"}) {
    const std::string base = std::string("/visuals/robot/") + body + "/mesh0/";
    const std::vector<double> vertices = f.values(base + "vertices"), triangles = f.values(base + "triangles");
    REQUIRE(vertices.size() == 8 * 3);  // the cube's corners, each once
    REQUIRE(triangles.size() == 12 * 3);
    for (std::size_t k : {std::size_t{0}, std::size_t{10}, time.size() - 1}) {
      CAPTURE(body);
      CAPTURE(time[k]);
      const Eigen::Isometry3d X_WH = pose_at(f, "robot/hull", k);
      const bool flap = std::string(body) == "flap";
      const Eigen::Isometry3d X_WB = pose_at(f, std::string("robot/") + body, k);
      const Eigen::Isometry3d X_BV = solid_frame(flap ? flap_shapes : hull_shapes, 0);
      // The URDF's own chain, in the hull's URDF frame, then into NED.
      const Eigen::Isometry3d chain =
          flap ? hinge * Eigen::AngleAxisd(hinge_q[k], Eigen::Vector3d::UnitZ()) * flap_visual : hull_visual;
      std::vector<Eigen::Vector3d> stored;
      for (std::size_t i = 0; i < 8; ++i)
        stored.push_back(X_WB * (X_BV * Eigen::Vector3d(vertices[3 * i], vertices[3 * i + 1], vertices[3 * i + 2])));
      for (int c = 0; c < 8; ++c) {
        const Eigen::Vector3d corner(c & 1, (c >> 1) & 1, (c >> 2) & 1);
        const Eigen::Vector3d expected = X_WH * (D * (chain * corner.cwiseProduct(flap ? flap_scale : hull_scale)));
        const bool found = std::any_of(stored.begin(), stored.end(), [&](const Eigen::Vector3d& p) { return (p - expected).norm() < 1e-9; });
        CAPTURE(expected.transpose());
        CHECK(found);
      }
      // Every triangle faces out of the box: its normal (by its winding) away from the centre.
      Eigen::Vector3d centre = Eigen::Vector3d::Zero();
      for (const auto& p : stored) centre += p / 8.0;
      for (std::size_t t = 0; t < 12; ++t) {
        const Eigen::Vector3d& a = stored[static_cast<std::size_t>(triangles[3 * t])];
        const Eigen::Vector3d& b = stored[static_cast<std::size_t>(triangles[3 * t + 1])];
        const Eigen::Vector3d& c = stored[static_cast<std::size_t>(triangles[3 * t + 2])];
        CHECK((b - a).cross(c - a).dot((a + b + c) / 3.0 - centre) > 0.0);
      }
    }
  }
  // The flap's box: 5 cm, at its <visual> origin (0, 0, 0.1) in the flap's URDF frame.
  const Eigen::Isometry3d X_BV = solid_frame(flap_shapes, 1);
  CHECK(Eigen::Vector3d(flap_shapes[16], flap_shapes[17], flap_shapes[18]).isApprox(Eigen::Vector3d::Constant(0.05)));
  CHECK((X_BV.translation() - D * Eigen::Vector3d(0, 0, 0.1)).norm() < 1e-12);
}

TEST_CASE("replay: the page draws the meshes stored in the result file, which replay reads alone (the mesh file changed or gone)") {
  // The stored scenario names meshes/cube.stl; replay must not open it (issue 37: a stored
  // scenario is data). A copy of the robot is run, its mesh then rewritten and removed.
  const fs::path dir = test_dir() / "mesh_copy";
  fs::create_directories(dir / "meshes");
  const std::string data = std::string(UWSIM_TEST_DATA_DIR) + "/replay/";
  for (const char* name : {"mesh_robot.yaml", "mesh_robot.urdf", "meshes/cube.stl"})
    fs::copy_file(data + name, dir / name, fs::copy_options::overwrite_existing);
  REQUIRE(run("'" + kSim + "' -q '" + (dir / "mesh_robot.yaml").string() + "' -o '" + (dir / "run.h5").string() + "'") == 0);
  std::ofstream(dir / "meshes/cube.stl") << "solid moved\n facet normal 0 0 1\n  outer loop\n   vertex 9 9 9\n   vertex 8 9 9\n"
                                            "   vertex 9 8 9\n  endloop\n endfacet\nendsolid\n";
  REQUIRE(run("'" + kSim + "' replay -q '" + (dir / "run.h5").string() + "' -o '" + (dir / "changed.html").string() + "'") == 0);
  fs::remove(dir / "meshes/cube.stl");
  REQUIRE(run("'" + kSim + "' replay -q '" + (dir / "run.h5").string() + "' -o '" + (dir / "gone.html").string() + "'") == 0);
  const uwsim::test::ResultFile f(dir / "run.h5");
  const std::vector<double> stored = f.values("/visuals/robot/hull/mesh0/vertices");
  REQUIRE(stored.size() == 24);
  for (const char* page : {"changed.html", "gone.html"}) {
    const nlohmann::json data_json = page_data(dir / page);
    CAPTURE(page);
    CHECK(data_json["warning"] == "");
    const auto& hull = data_json["bodies"][0];
    REQUIRE(hull["name"] == "robot/hull");
    CHECK(hull["free"] == true);
    const auto& vertices = hull["visuals"]["meshes"]["0"]["vertices"];
    REQUIRE(vertices.size() == 24);
    for (std::size_t i = 0; i < 24; ++i) CHECK(vertices[i].get<double>() == doctest::Approx(stored[i]).epsilon(1e-5));
    CHECK(hull["visuals"]["meshes"]["0"]["triangles"].size() == 36);
    CHECK(data_json["bodies"][1]["free"] == false);
  }
}

TEST_CASE("replay: the BlueROV2 parts are drawn as the outline, with a duct at each of their thrusters") {
  // The Heavy of vehicles/bluerov2.yaml: the outline's solids under /visuals, and all eight
  // thrusters (each drawn as a duct at its position by the page) in the page's data.
  const fs::path out = test_dir() / "heavy.h5", page = test_dir() / "heavy.html";
  REQUIRE(run("'" + kSim + "' -q '" + kSource + "/scenarios/bluerov2_surge_steps.yaml' --duration 0.2 -o '" + out.string() + "'") == 0);
  REQUIRE(run("'" + kSim + "' replay -q '" + out.string() + "' -o '" + page.string() + "'") == 0);
  const nlohmann::json data = page_data(page);
  REQUIRE(data["bodies"].size() == 1);
  const auto& shapes = data["bodies"][0]["visuals"]["shapes"];
  const uwsim::scenario::Scenario part = uwsim::scenario::load_scenario_text(
      "name: o\nsimulation: {duration: 0.1}\nbodies:\n  - {name: b, mass: 1.0, inertia: [1, 1, 1], visual: [{outline: bluerov2}]}\n", "o.yaml");
  CHECK(shapes.size() == 15 * part.bodies[0].visuals.size());
  REQUIRE(data["thrusters"].size() == 8);
  const std::vector<std::array<double, 3>> positions = {{0.156, 0.111, 0.085}, {0.156, -0.111, 0.085}, {-0.156, 0.111, 0.085},
                                                        {-0.156, -0.111, 0.085}, {0.12, 0.218, 0.0}, {0.12, -0.218, 0.0},
                                                        {-0.12, 0.218, 0.0}, {-0.12, -0.218, 0.0}};
  for (std::size_t k = 0; k < 8; ++k)
    for (int i = 0; i < 3; ++i) CHECK(data["thrusters"][k]["point"][static_cast<std::size_t>(i)].get<double>() == doctest::Approx(positions[k][static_cast<std::size_t>(i)]));
}

TEST_CASE("replay: the /visuals a run stores are no series: sim compare of two such runs compares their series alone") {
  // Two runs of the mesh robot (its /visuals: shapes and a mesh per link, of their own row
  // counts) compare with exit 0 and name no /visuals dataset; comparing a dataset of theirs was
  // an error ("cannot compare visuals/...: ... rows where /time has 21").
  const fs::path a = test_dir() / "compare_a.h5", b = test_dir() / "compare_b.h5", log = test_dir() / "compare.txt";
  const std::string scenario = std::string(UWSIM_TEST_DATA_DIR) + "/replay/mesh_robot.yaml";
  REQUIRE(run("'" + kSim + "' -q '" + scenario + "' -o '" + a.string() + "'") == 0);
  REQUIRE(run("'" + kSim + "' -q '" + scenario + "' -o '" + b.string() + "'") == 0);
  REQUIRE(uwsim::test::ResultFile(a).values("/visuals/robot/hull/shapes").size() == 15);
  CHECK(run("'" + kSim + "' compare '" + a.string() + "' '" + b.string() + "' > '" + log.string() + "' 2>&1") == 0);
  std::ifstream in(log);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CAPTURE(text);
  CHECK(text.find("visuals") == std::string::npos);
  CHECK(text.find("bodies/robot/hull/position") != std::string::npos);
}
