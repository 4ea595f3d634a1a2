// The `trim:` block of a scenario (README "Equilibria and linear models"): which variables the
// equilibrium solver of `sim trim` may vary and which rates must vanish at the equilibrium.
// Variables are named like --set paths, by kind, item and component:
//   bodies.<free body>.{north, east, down}     m, the body origin in NED
//   bodies.<free body>.{roll, pitch, yaw}      rad, ZYX Euler angles
//   bodies.<free body>.{u, v, w, p, q, r}      m/s, rad/s, body-frame velocity
//   joints.<joint>.{position, velocity}        rad or m, rad/s or m/s (revolute, prismatic)
//   thrusters.<thruster>.state                 the spin-up state of a thruster with a time_constant
//   inputs.<channel>                           the channel's value (unknowns only: it has no rate)
// Item names may hold '.' and '/': the kind ends at the first '.', the component starts after
// the last one.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace uwsim::analysis {

enum class VariableKind { body, joint, thruster, input };

struct VariableRef {
  VariableKind kind = VariableKind::body;
  std::string item;       // body, joint, thruster or channel name
  std::string component;  // "pitch", "position", "state"; empty for an input

  std::string text() const;  // the name as written: "bodies.rov.pitch"
  bool operator==(const VariableRef& other) const {
    return kind == other.kind && item == other.item && component == other.component;
  }
};

// The components of a free body's variables, in this order: north east down roll pitch yaw
// u v w p q r; and of a joint's: position velocity.
const std::vector<std::string>& body_components();
const std::vector<std::string>& joint_components();

// Splits a variable name into its parts. Returns nothing, with the reason in `why`, if the text
// cannot name a variable (unknown kind or component); does not check that the item exists.
std::optional<VariableRef> parse_variable(const std::string& text, std::string& why);

struct TrimSpec {
  bool given = false;                 // the scenario has a trim block
  std::vector<VariableRef> unknowns;  // varied by the solver, from the scenario's initial values
  std::vector<VariableRef> steady;    // whose rates must vanish; empty: the default set
  double time = 0.0;                  // s: force schedules and channels are evaluated at this time
};

}  // namespace uwsim::analysis
