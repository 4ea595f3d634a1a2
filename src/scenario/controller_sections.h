// Reader of the `controllers` section (read_controllers.cpp).
#pragma once

#include <string>
#include <vector>

#include "scenario/sections.h"

namespace uwsim::scenario {

// Reads the controllers of a scenario whose bodies, joints and thrusters are read; `channels`
// are the names its inputs define.
std::vector<ControllerSpec> read_controllers(Reader& reader, const Field& field, const Scenario& scenario,
                                             const std::vector<std::string>& channels);

}  // namespace uwsim::scenario
