// A URDF robot as read from its file, in the URDF's own frames (z up, REP 103), each value
// with the place in the file it was written at. urdfdom (liburdfdom) parses and checks the
// robot; it keeps no positions, so the same text is also read with TinyXML, the XML parser
// urdfdom itself uses, which records the line and column of every element and attribute.
// The conversion into the scenario's frames is in urdf_part.h.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "scenario/load_scenario.h"

namespace uwsim::scenario::urdf {

// 1-based line and column in the URDF file; 0 when unknown.
struct Position {
  int line = 0;
  int column = 0;
};

// A joint's or an inertial's <origin>: translation, then roll-pitch-yaw about the fixed
// axes x, y, z (URDF: R = Rz(yaw)·Ry(pitch)·Rx(roll)). `rpy` holds the attribute's own
// numbers: urdfdom keeps only a quaternion, whose round trip would change last digits.
struct Origin {
  Eigen::Vector3d xyz = Eigen::Vector3d::Zero();
  Eigen::Vector3d rpy = Eigen::Vector3d::Zero();
  Position at;  // the <origin> element, or its owner when there is none
};

struct Inertial {
  double mass = 0.0;
  Origin origin;                                     // the CG and the inertia's axes
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  // about the CG, in `origin`'s axes
  Position mass_at, inertia_at;
};

// A <visual>: what a link looks like (drawn by sim replay, never part of the model).
struct Visual {
  enum class Kind { box, cylinder, sphere, mesh };
  Kind kind = Kind::box;
  Eigen::Vector3d size = Eigen::Vector3d::Zero();   // box: edges; cylinder: radius, length (along z); sphere: radius
  std::string mesh;                                 // mesh: the filename as written
  Eigen::Vector3d scale = Eigen::Vector3d::Ones();  // mesh
  std::optional<Eigen::Vector4d> rgba;              // its material's colour, if it has one
  Origin origin;                                    // the solid's frame in the link's
  Position at, mesh_at;                             // the <visual>; the filename attribute
};

struct Link {
  std::string name;
  std::optional<Inertial> inertial;  // none: a frame with no mass
  bool zero_mass = false;            // its <inertial> gives mass 0 (a frame, as without one)
  std::vector<Visual> visuals;
  Position at;                       // its name attribute
};

enum class JointKind { revolute, continuous, prismatic, fixed };

struct Limits {
  double lower = 0.0, upper = 0.0, effort = 0.0, velocity = 0.0;
  Position at, lower_at, upper_at, effort_at, velocity_at;
};

struct Joint {
  std::string name;
  JointKind kind = JointKind::fixed;
  std::string parent, child;
  Origin origin;
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();  // URDF's default
  std::optional<Limits> limits;
  double damping = 0.0, friction = 0.0;
  Position at, kind_at, parent_at, child_at, axis_at, dynamics_at;
};

struct Tree {
  std::string robot;
  std::string root;          // the root link
  std::vector<Link> links;   // in file order
  std::vector<Joint> joints; // in file order
  Position robot_at;         // the <robot> element
};

// The first tag of an XML text nested deeper than `max_depth` or holding more than
// `max_attributes` attributes, found by one linear scan of the tags (comments, processing
// instructions, CDATA and declarations skipped, quoted '>' and '=' inside tags ignored) before
// TinyXML sees it: its parser recurses once per level and checks each new attribute against
// the element's earlier ones (quadratic). nullopt if there is none.
struct XmlShapeProblem {
  Position at;
  bool too_deep;   // else: too many attributes
  int attributes;  // the tag's attribute count
};
std::optional<XmlShapeProblem> xml_shape_problem(const std::string& text, int max_depth, int max_attributes);

// Reads the URDF text of `file`. Every problem is appended to `out` (file:line:column; the
// line and column of the element urdfdom names, where it names one); nullopt if there was any.
std::optional<Tree> read_tree(const std::string& file, const std::string& text,
                              std::vector<Diagnostic>& out);

}  // namespace uwsim::scenario::urdf
