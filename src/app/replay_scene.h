// What `sim replay` draws besides the motion: each body's solid, joint axes, thrusters and
// connectors, in the frames of the bodies they belong to, from a result file's resolved
// scenario (the root attribute `scenario`), read with the scenario loader and the model.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <string>
#include <vector>

namespace uwsim::app {

struct ReplaySolid {
  // box: size = edge lengths along the solid's x, y, z; cylinder: size = [radius, length, 0]
  // with its axis along the solid's x. The solid's frame S sits at center_B with axes R_BS.
  enum class Kind { box, cylinder };
  Kind kind = Kind::box;
  Eigen::Vector3d size = Eigen::Vector3d::Constant(0.2);
  Eigen::Vector3d center_B = Eigen::Vector3d::Zero();
  Eigen::Matrix3d R_BS = Eigen::Matrix3d::Identity();
  // "shape": the scenario's `shape`; "inertia": the uniform box with the body's mass and
  // principal inertia, about its CG; "unknown": no scenario to read, a marker box.
  std::string source = "shape";
};

struct ReplayBody {
  std::string name;   // as in /bodies/<name>/
  ReplaySolid solid;
  bool free = false;  // a free body (no joint): the page's readout follows the first one
};

struct ReplayJoint {
  std::string name;
  int body = 0;                                           // the child body (index into bodies)
  bool prismatic = false;
  Eigen::Vector3d p_B = Eigen::Vector3d::Zero();          // joint origin in the child's frame, m
  Eigen::Vector3d axis_B = Eigen::Vector3d::UnitZ();      // unit, in the child's frame
};

struct ReplayThruster {
  std::string name;  // as in /thrusters/<name>/
  int body = 0;
  Eigen::Vector3d p_B = Eigen::Vector3d::Zero();
  Eigen::Vector3d axis_B = Eigen::Vector3d::UnitX();  // positive thrust pushes the body along it
};

struct ReplayConnector {
  std::string name;
  int first = 0, second = -1;                             // second −1: the world
  Eigen::Vector3d p_first = Eigen::Vector3d::Zero();      // connection point in the first body's frame
  Eigen::Vector3d p_second = Eigen::Vector3d::Zero();     // the same point in the second's (or NED)
};

struct ReplayScene {
  std::vector<ReplayBody> bodies;
  std::vector<ReplayJoint> joints;
  std::vector<ReplayThruster> thrusters;
  std::vector<ReplayConnector> connectors;
};

// The scene of a resolved scenario, read as stored data (scenario::load_stored_scenario): no
// file it names is opened, CSV channels read as 0 (the replay needs no channel values). Throws
// scenario::ScenarioError if the text does not load (a file of an older sim, or one with an
// `include`, whose files are not opened).
ReplayScene scene_from_scenario(const std::string& resolved_yaml);

// The uniform box with this mass and inertia about its CG (kg, kg m², body axes): edges from
// I₁ = m(b² + c²)/12 and its two siblings, along the principal axes.
ReplaySolid box_of_inertia(double mass, const Eigen::Matrix3d& inertia_Bcm_B, const Eigen::Vector3d& p_BoBcm_B);

}  // namespace uwsim::app
