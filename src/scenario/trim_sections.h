// Reader of the `trim` block (read_trim.cpp; analysis/trim_spec.h).
#pragma once

#include "scenario/sections.h"

namespace uwsim::scenario {

// Reads the trim block of a scenario whose bodies, joints, thrusters and inputs are read, and
// checks that every variable names something that has it: a free body, a revolute or prismatic
// joint, a thruster with a time_constant, a channel (which cannot be `steady`).
TrimSpec read_trim(Reader& reader, const Field& field, const Scenario& scenario);

}  // namespace uwsim::scenario
