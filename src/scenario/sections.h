// One reader per section of a scenario file. Each reports its problems to the Reader and
// returns what it could read; the caller throws if anything was reported.
#pragma once

#include <string>
#include <vector>

#include "scenario/spec.h"
#include "scenario/yaml_reader.h"

namespace uwsim::scenario {

EnvironmentSpec read_environment(Reader& reader, const Field& field);
SimulationSpec read_simulation(Reader& reader, const Field& field);
std::vector<BodySpec> read_bodies(Reader& reader, const Field& field);
std::vector<ForceSpec> read_forces(Reader& reader, const Field& field,
                                   const std::vector<BodySpec>& bodies);

}  // namespace uwsim::scenario
