// One reader per section of a scenario file. Each reports its problems to the Reader and
// returns what it could read; the caller throws if anything was reported.
#pragma once

#include <Eigen/Geometry>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "scenario/spec.h"
#include "scenario/yaml_reader.h"

namespace uwsim::scenario {

// The readers fill the model's spec (model/spec.h) and the trim block (analysis/trim_spec.h).
using analysis::TrimSpec;
using analysis::VariableKind;
using analysis::VariableRef;
using model::BodyInitialSpec;
using model::BodySpec;
using model::CommandSpec;
using model::ComplianceSpec;
using model::ConnectorSpec;
using model::ConnectorType;
using model::ControllerSpec;
using model::ControllerType;
using model::EnvironmentSpec;
using model::ForceFrame;
using model::ForceSpec;
using model::InputSpec;
using model::JointActuatorSpec;
using model::JointLimitsSpec;
using model::JointPlacementSpec;
using model::JointSpec;
using model::JointType;
using model::Matrix3;
using model::Matrix6;
using model::ShapeSpec;
using model::ThrusterSpec;
using model::Vector3;
using model::Vector6;

// Where a body's or joint's name was written, for the checks across all names. For a name a
// manipulator expands to ("<arm>/<link>"), `at` is the link's (or joint's) own `name` when
// given, else the manipulator's `name`, and `owner` is the manipulator's `name`, whose text
// takes the first `owner_length` characters of the full name.
struct NameSource {
  Field at;
  Field owner;
  std::size_t owner_length = 0;
};

// Where a body was written, for the checks that need more than one section.
struct BodySource {
  Field item;      // the body's mapping (a body in `bodies`, or a manipulator link)
  Field initial;   // its `initial` key; not present when absent
  NameSource name;
};

// Where a joint was written. For a joint a manipulator expands to, `parent` is the
// manipulator's `base` (first joint) or the previous link, `child` the link.
struct JointSource {
  Field item;
  Field parent;
  Field child;
  Field blame;          // where a self-loop or a cycle this joint closes is reported
  std::string section;  // "joints" or the manipulator's path: prefixes cycle messages
  int order = 0;        // graph checks visit joints by increasing order, then file order
  NameSource name;
};

// The bodies and joints read so far, with their sources (parallel vectors) and the names
// taken: name → path of the item that has it.
struct Assembly {
  std::vector<BodySpec> bodies;
  std::vector<BodySource> body_sources;
  std::map<std::string, std::string> body_names;
  std::vector<JointSpec> joints;
  std::vector<JointSource> joint_sources;
  std::map<std::string, std::string> joint_names;
};

// The name the fixed world frame goes by as a joint parent; no body may take it.
inline constexpr const char* kWorld = "world";

EnvironmentSpec read_environment(Reader& reader, const Field& field);
SimulationSpec read_simulation(Reader& reader, const Field& field);
ComplianceSpec read_compliance(Reader& reader, const Field& field);
std::vector<ForceSpec> read_forces(Reader& reader, const Field& field,
                                   const std::vector<BodySpec>& bodies);

// read_bodies.cpp
// The keys of a body mapping (`name` included).
const std::vector<std::string>& body_keys();
// Reads every body key but `name` from `m` (opened on `item` with body_keys() and maybe
// more); derives what a `shape` implies and writes the derived values into the YAML tree
// under the body's `derived` key (replacing what a resolved scenario had there), which is
// never read: a scenario read back derives them again from its shape and mass.
void read_body_properties(Reader& reader, Mapping& m, const Field& item,
                          const EnvironmentSpec& env, BodySpec& body, BodySource& source);
// An absent or empty `bodies` is fine here: manipulators may provide all the bodies.
void read_bodies(Reader& reader, const Field& field, const EnvironmentSpec& env, Assembly& out);

// A unit quaternion [w, x, y, z] (norm 1 within 1e-6, not silently normalised).
std::optional<Eigen::Quaterniond> read_quaternion(Reader& r, const Field& f);

// read_visuals.cpp
// A body's `visual` list (what sim replay draws), a named outline expanded into its solids;
// mesh files are named, not read (visual_meshes.h reads them).
std::vector<model::VisualSpec> read_visuals(Reader& reader, const Field& field);

// read_joints.cpp
// Which placement keys a joint mapping may use: top-level joints take origin/axis, dh or
// mdh; a manipulator's joints only the row of its convention (dh or mdh).
enum class PlacementRule { any, dh_only, mdh_only, unknown };
// The keys of a top-level joint mapping.
const std::vector<std::string>& joint_keys();
// Reads type, placement, initial, limits, damping, friction and effort from `m`.
void read_joint_properties(Reader& reader, Mapping& m, const Field& item, PlacementRule rule,
                           JointSpec& joint);
void read_joints(Reader& reader, const Field& field, Assembly& out);
// Checks that the joints form a forest over the bodies (parents and children known, no body
// the child of two joints, no cycles), that no joint child has an `initial` state, and
// orders the bodies depth-first (see load_scenario.h) and the joints as their children.
void connect(Reader& reader, Assembly& assembly);

// "no body named 'x'; did you mean 'y'? (bodies: 'a', 'b'; or 'world')"
std::string unknown_body(const std::string& name, const std::vector<std::string>& known,
                         bool world_allowed);

// read_connectors.cpp
// Reads the connectors between the bodies read so far; with no problem reported before it,
// also checks that a connector's relative_pose agrees with the bodies' initial poses.
std::vector<ConnectorSpec> read_connectors(Reader& reader, const Field& field, const Scenario& scenario);

// read_sensors.cpp
// Reads the sensors on the bodies, joints, thrusters and connectors read so far; with no problem
// reported before it, also reports what model::sensor_spec_problems finds, and warns of a rate
// that does not divide simulation.output_rate.
std::vector<model::SensorSpec> read_sensors(Reader& reader, const Field& field, const Scenario& scenario);
// The seed of a sensor that gives none: FNV-1a of its name.
std::uint64_t default_sensor_seed(const std::string& name);

// read_manipulators.cpp
// Expands each manipulator into bodies `<name>/<link>` and joints `<name>/<joint>`.
void read_manipulators(Reader& reader, const Field& field, const EnvironmentSpec& env,
                       Assembly& out);

// read_sections.cpp: names, the one place of their rules.
// What a name names decides what it may hold:
//   group_path: a group in the output file (/bodies/<name>/, /joints/<name>/, …; a '/' in the
//     name nests groups), also an include's name, which prefixes its part's names as NAME/:
//     not empty, no control character, no leading or trailing '/', no empty part ("a//b"),
//     no part "." or "..";
//   file_name: the scenario's name, which names the output file (results/<name>.h5): letters,
//     digits, '_', '.' and '-' only.
enum class NameUse { group_path, file_name };
// Why `name` cannot be used so, as a message ("expected …, got '…'"), or "" if it can.
std::string name_problem(const std::string& name, NameUse use = NameUse::group_path);
// Reports name_problem at `f`; true if the name is usable.
bool check_name_text(Reader& reader, const Field& f, const std::string& name, NameUse use = NameUse::group_path);
// Reports every body name that continues another body name with '/' ("rov" and
// "rov/position", "arm" and "arm/link1"): in the output the longer one would be written
// inside the other's group. Likewise for joint names.
void check_nested_names(Reader& reader, const Assembly& assembly);

// Shared helpers.
// Optional sections may be written as an empty key ("forces:") to mean "none".
inline bool absent(const Field& f) { return !f.present() || f.value.IsNull(); }
// True if mark a comes after mark b in the file.
bool after(const YAML::Mark& a, const YAML::Mark& b);
// "'a', 'b', 'c'"
std::string quoted_names(const std::vector<std::string>& names);
// A number, list or matrix as a YAML node that reads back to exactly the same doubles.
YAML::Node yaml_number(double x);
YAML::Node yaml_list(const Eigen::VectorXd& v);
YAML::Node yaml_rows(const Eigen::MatrixXd& m);

}  // namespace uwsim::scenario
