// A sensor's parameters as text attributes for the result file (/sensors/<name>: each parameter
// by name, its value with units), so a file says how its measurements were made.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sensors/sensor.h"

namespace uwsim::sensors {

// Name → "value units" for every parameter of the sensor's kind, the common ones first
// (kind, rate, latency, seed, mount).
std::vector<std::pair<std::string, std::string>> parameter_attributes(const SensorParameters& p);

}  // namespace uwsim::sensors
