// What the model builder builds from (model/build_model.h): the bodies, joints, forces, inputs,
// actuators, connectors and controllers of a scenario as plain data, in the units and frames the
// file uses (SI, NED world frame W, SNAME body frame B, Fossen ordering [u v w p q r] for
// 6-vectors and 6×6 hydrodynamic matrices); names not yet resolved to indices. The scenario
// loader (scenario/load_scenario.h) fills it from YAML, tests and tools may fill it directly.
// The model builder converts to the spatial ordering used by the dynamics; nothing in here is
// ever read in the step path.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <limits>
#include <string>
#include <vector>

#include "model/actuation_spec.h"
#include "model/controller_spec.h"
#include "model/sensor_spec.h"

namespace uwsim::model {

using Vector3 = Eigen::Vector3d;
using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix3 = Eigen::Matrix3d;
using Matrix6 = Eigen::Matrix<double, 6, 6>;

struct EnvironmentSpec {
  double gravity = 9.81;                  // m/s², acts along +z of NED
  double water_density = 1000.0;          // kg/m³
  Vector3 current_W = Vector3::Zero();    // m/s, constant, in NED
};

// The stiffness of what the model holds softly: joint stops, connectors and the stick region
// of Coulomb friction. Physical parameters of the model, never functions of the integrator's
// step (a convergence study halves the step and must see the same model).
struct ComplianceSpec {
  double limit_frequency = 50.0;       // Hz: natural frequency of a joint stop (critically damped)
  double constraint_frequency = 50.0;  // Hz: Baumgarte rate pulling connector drift back
};

struct BodyInitialSpec {
  Vector3 p_WB_W = Vector3::Zero();                        // m, NED
  Eigen::Quaterniond q_WB = Eigen::Quaterniond::Identity(); // unit, body → NED
  Vector6 nu_B = Vector6::Zero();                          // [u v w p q r], body frame
};

// A simple solid the simulator derives hydrodynamic coefficients from (model/shape_hydrodynamics.h).
// A cylinder's axis is the body x axis; both are centred at center_B.
struct ShapeSpec {
  enum class Kind { none, cylinder, box };
  Kind kind = Kind::none;
  double radius = 0.0;                              // m, cylinder
  double length = 0.0;                              // m, cylinder
  int axis = 0;                                     // cylinder: along body x (0), y (1) or z (2)
  Vector3 size = Vector3::Zero();                   // m, box edge lengths along x, y, z
  Vector3 center_B = Vector3::Zero();               // m, in the body frame
  Vector3 drag_coefficients = Vector3::Ones();      // C_d for flow along x, y, z
};

// One solid `sim replay` draws for a body (a `visual` item, a URDF link's <visual>, or a piece
// of a named outline); the model never reads it. Its frame V sits at p_BV_B with axes R_BV in
// the body frame. The kinds are numbered as the result file stores them (/visuals, README
// "Output file").
struct VisualSpec {
  enum class Kind { box = 1, cylinder = 2, sphere = 3, mesh = 4 };
  Kind kind = Kind::box;
  // box: edges along V's x, y, z; cylinder: [radius, length, 0] along V's z; sphere:
  // [radius, 0, 0]; mesh: zero (its size is its vertices').
  Vector3 size = Vector3::Zero();
  Vector3 p_BV_B = Vector3::Zero();
  Matrix3 R_BV = Matrix3::Identity();
  Eigen::Vector4d rgba = Eigen::Vector4d::Constant(-1.0);  // 0..1; red < 0: the body's colour
  // mesh: the file as the scenario names it (absolute, or relative to the scenario's folder),
  // the scale along V's axes, and where `file` is written (line and column of the loader's
  // text, for its messages). The triangles, in metres in V after scaling, are read only by a
  // load of the scenario from its own file (scenario/visual_meshes.h); otherwise empty.
  std::string mesh_file;
  Vector3 scale = Vector3::Ones();
  int line = 0, column = 0;
  std::vector<Eigen::Vector3d> vertices;
  std::vector<Eigen::Vector3i> triangles;  // indices into vertices, counter-clockwise seen from outside
};

struct BodySpec {
  std::string name;
  double mass = 0.0;                                   // kg
  Matrix3 inertia_Bcm_B = Matrix3::Zero();             // kg m², about the CG, body axes
  Vector3 p_BoBcm_B = Vector3::Zero();                 // m, CG from body origin
  Vector3 p_BoBcb_B = Vector3::Zero();                 // m, CB from body origin
  double volume = 0.0;                                 // m³ displaced
  Matrix6 added_mass_B = Matrix6::Zero();              // Fossen order, at the body origin, symmetric
  Vector6 linear_damping = Vector6::Zero();            // Fossen order, ≥ 0 magnitudes
  Vector6 quadratic_damping = Vector6::Zero();         // Fossen order, ≥ 0 magnitudes
  Vector3 p_BoBcd_B = Vector3::Zero();                 // m, centre of drag: where damping acts
  ShapeSpec shape;                                     // kind none: coefficients as given
  BodyInitialSpec initial;                             // ignored for bodies with a parent joint
  std::vector<VisualSpec> visuals;                     // drawn by sim replay only
};

enum class JointType { revolute, prismatic, fixed };

// Where the joint sits and how it moves. The pose of the child frame C in the parent frame P is
//   T_PC(q) = T_PJ · T_J(q) · T_JC
// with T_J(q) a rotation by q about `axis` (revolute) or a translation by q along it
// (prismatic), `axis` a unit vector in the joint frame J. The three ways to write it:
//   origin: T_PJ = origin (xyz, rpy), axis as given, T_JC = identity (C = J)
//   dh:     classic Denavit–Hartenberg, T_PC = Rz(θ+q) Tz(d) Tx(a) Rx(α) (prismatic: d+q):
//           T_PJ = identity, axis = z, T_JC = Rz(θ) Tz(d) Tx(a) Rx(α)
//   mdh:    modified DH (Khalil–Kleinfinger), T_PC = Rx(α) Tx(d) Rz(θ+q) Tz(r) (prismatic: r+q):
//           T_PJ = Rx(α) Tx(d), axis = z, T_JC = Rz(θ) Tz(r)  (C = J up to the fixed offsets)
struct JointPlacementSpec {
  enum class Kind { origin, dh, mdh };
  Kind kind = Kind::origin;
  Vector3 xyz = Vector3::Zero();           // origin: m, in P
  Vector3 rpy = Vector3::Zero();           // origin: rad, ZYX
  Vector3 axis = Vector3::UnitZ();         // origin: unit, in J
  double theta = 0.0, d = 0.0, a = 0.0, alpha = 0.0;  // dh (rad, m, m, rad)
  double r = 0.0;                                    // mdh uses alpha, d, theta, r
  // Pre-transform applied before the placement (T_PJ = T(mount) · T_PJ), used by manipulators
  // to put their first joint on the base body.
  Vector3 mount_xyz = Vector3::Zero();
  Vector3 mount_rpy = Vector3::Zero();
};

struct JointLimitsSpec {
  double lower = -std::numeric_limits<double>::infinity();     // rad or m
  double upper = std::numeric_limits<double>::infinity();
  double effort = std::numeric_limits<double>::infinity();     // N m or N, |applied effort| ≤
  double velocity = std::numeric_limits<double>::infinity();   // rad/s or m/s: checked and kept as written
                                                               // (URDF limits carry it); nothing in sim uses it
};

struct JointSpec {
  std::string name;
  JointType type = JointType::revolute;
  std::string parent;        // a body name, or "world"
  std::string child;         // a body name; each body is the child of at most one joint
  JointPlacementSpec placement;
  double initial_position = 0.0;   // rad or m
  double initial_velocity = 0.0;   // rad/s or m/s
  JointLimitsSpec limits;
  double damping = 0.0;      // viscous: N m s/rad or N s/m, ≥ 0
  double friction = 0.0;     // Coulomb: N m or N, ≥ 0
  double effort = 0.0;       // constant applied torque or force
  JointActuatorSpec actuator;  // adds its command to `effort`
  std::string key_path;      // its mapping as a --set path: "joints.2", "manipulators.0.links.1.joint"
};

enum class ForceFrame { body, world };

// A constant wrench on a body: `force` acts at `point` (body frame); `force` and `moment`
// are expressed in `frame`. Active for start ≤ t < stop.
struct ForceSpec {
  std::string name;
  std::string body;
  ForceFrame frame = ForceFrame::body;
  Vector3 point_B = Vector3::Zero();
  Vector3 force = Vector3::Zero();   // N
  Vector3 moment = Vector3::Zero();  // N m
  double start = 0.0;
  double stop = std::numeric_limits<double>::infinity();
  std::string input;                 // channel scaling force and moment; empty: none
};

enum class ConnectorType { rigid, ball };

// A constraint between two bodies, or a body and the world (dynamics/connector.h): `rigid` locks
// all six relative degrees of freedom, `ball` holds the connection point together.
struct ConnectorSpec {
  std::string name;
  ConnectorType type = ConnectorType::rigid;
  std::string first;                   // a body name
  std::string second;                  // a body name, or "world"
  Vector3 point_B = Vector3::Zero();   // m, connection point in the first body's frame
  // The relative pose to hold: the second body's frame in the first's (xyz m, rpy rad ZYX).
  // Absent: the relative pose the bodies have at the start.
  bool has_relative_pose = false;
  Vector3 relative_xyz = Vector3::Zero();
  Vector3 relative_rpy = Vector3::Zero();
};

struct Spec {
  EnvironmentSpec environment;
  ComplianceSpec compliance;
  std::vector<BodySpec> bodies;     // including the links `manipulators` expand to
  std::vector<JointSpec> joints;    // including the joints `manipulators` expand to
  std::vector<ForceSpec> forces;
  std::vector<InputSpec> inputs;
  std::vector<ThrusterSpec> thrusters;
  std::vector<ConnectorSpec> connectors;
  std::vector<ControllerSpec> controllers;
  std::vector<SensorSpec> sensors;  // read by the dynamics' sensor stage only (dynamics/sensor_set.h)
};

}  // namespace uwsim::model
