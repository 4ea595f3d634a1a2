// Builds the model's sensors (sensors/sensor.h) from a scenario's `sensors`: resolves the body
// and the target (joint, thruster, connector) names to indices, and a pressure sensor's density
// left to the environment. Called by build_model after the bodies, thrusters and connectors.
#pragma once

#include <string>
#include <vector>

#include "dynamics/model.h"
#include "model/spec.h"

namespace uwsim::model {

// What the scenario's validation reports for sensor `spec` (empty: none): names that resolve to
// nothing or to the wrong thing, and parameters outside their ranges. Needs `model`'s bodies,
// thrusters and connectors built. Each message names the field.
std::vector<std::string> sensor_problems(const SensorSpec& spec, const dynamics::Model& model);

// sensor_problems for each of `scenario.sensors`, on the model of the rest of `scenario` (which
// must have passed validation but for its sensors), for the scenario loader to report where
// the file wrote it: by index, each message "field: what is wrong".
struct SensorProblem {
  std::size_t sensor = 0;
  std::string message;
};
std::vector<SensorProblem> sensor_spec_problems(const Spec& scenario);

// Throws std::invalid_argument with the first problem of the first sensor that has one, or
// when two sensors share a name.
void build_sensors(const Spec& scenario, dynamics::Model& model);

}  // namespace uwsim::model
