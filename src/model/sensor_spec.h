// The validated `sensors` of a scenario: each sensor's parameters (sensors/sensor.h) and what it
// is attached to, by name; the model builder resolves the names (model/build_sensors.h).
#pragma once

#include <string>

#include "sensors/sensor.h"

namespace uwsim::model {

struct SensorSpec {
  sensors::SensorParameters parameters;
  std::string body;    // the body carrying it; for encoder, thruster_speed and wrench it may be
                       // empty: the joint's child body, the thruster's body, the connector's first body
  std::string target;  // encoder: a joint; thruster_speed: a thruster; wrench: a connector; else empty
};

}  // namespace uwsim::model
