// A URDF file as an included part: its links become bodies and its joints joints, in the
// scenario's frames, written as the YAML text of a part (bodies and joints) that the include
// then treats like any part file. Each line of that text records the line and column of the
// URDF element or attribute it comes from, so that every problem found later (by the reader
// or `set`) is reported in the URDF file.
//
// Frames (URDF: REP 103, x forward, y left, z up; here: NED world, SNAME body axes x forward,
// y starboard, z down). Every link frame L of the URDF becomes the body frame L' = L turned
// by π about its own x axis: D = Rx(π) = diag(1, −1, −1). Since D is applied to every frame
// alike, the robot's kinematics are unchanged and every joint position q means what it means
// in the URDF; a robot standing upright (z up) in a URDF world stands upright in NED.
// With v' = D v for every vector written in a link or joint frame:
//   joint origin xyz' = D xyz, rotation R' = D R D, i.e. rpy (r, p, y) → (r, −p, −y);
//   joint axis' = D axis (revolute: the same rotation, prismatic: the same slide);
//   CG c' = D c; inertia about the CG I' = D I D (products Ixy, Ixz change sign, Iyz not);
//   mass, limits, damping and friction unchanged.
//
// Links without mass (no <inertial>, or mass 0) are frames: a scenario's bodies need mass.
// A massless link fixed to its parent is merged into the parent (its child joints move to
// the parent, their origins composed); a massless root, or one a moving joint carries, takes
// in the links fixed to it (their inertias composed into its frame, their child joints moved
// to it). Either way the merged body keeps the name and frame of the upper link. A massless
// root named `world` is the world: joints from it become joints to `world`.
//
// Joints: revolute, prismatic and fixed as such; continuous as revolute without position
// limits. An <limit> effort or velocity of 0 is read as not given. Each moving joint starts at
// q = 0, or at the limit nearest to 0 when 0 is outside its range (`initial.position`, which
// `set` can change). floating and planar joints, and <mimic>, are errors.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenario/urdf_tree.h"

namespace uwsim::scenario {

struct UrdfPart {
  std::string yaml;                      // the part: `bodies` and `joints`
  std::vector<urdf::Position> lines;     // per line of `yaml` (0-based): its place in the URDF
};

// Reads the URDF text of `file` into a part. Problems are appended to `out`, at their line
// and column in the URDF file; nullopt if there was any.
std::optional<UrdfPart> read_urdf_part(const std::string& file, const std::string& text,
                                       std::vector<Diagnostic>& out);

}  // namespace uwsim::scenario
