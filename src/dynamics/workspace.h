// Per-evaluation scratch for a model, sized once: the step path never allocates.
#pragma once

#include <limits>
#include <vector>

#include "dynamics/connector_solver.h"
#include "dynamics/body_state.h"
#include "dynamics/model.h"
#include "sensors/delay.h"

namespace uwsim::dynamics {

struct Workspace {
  explicit Workspace(const dynamics::Model& model)
      : bodies(model.bodies.size()),
        inputs(model.inputs.channels.size() + static_cast<std::size_t>(model.control_slots), 0.0),
        thrusters(model.thrusters.size()), controllers(model.controllers.size()), connectors(model),
        sensors(model.sensors.size(), nan_reading()), sensor_feedback(model.sensors.size(), nan_reading()) {
    for (std::size_t i = 0; i < controllers.size(); ++i) {
      const dynamics::Controller::SignalSizes sizes = model.controllers[i].signal_sizes();
      controllers[i].setpoint.setZero(sizes.setpoint);
      controllers[i].error.setZero(sizes.error);
      controllers[i].output.setZero(sizes.output);
    }
  }
  std::vector<BodyState> bodies;
  // The value of each channel (model order), then the held controller commands
  // (dynamics/controller.h): written by the driver at controller samples, read by every evaluation.
  std::vector<double> inputs;
  std::vector<actuation::ThrusterState> thrusters;    // command, shaft speed, thrust
  std::vector<dynamics::ControllerSignals> controllers;  // held between samples (controller.h)
  dynamics::ConnectorSolver connectors;
  // Each sensor's output (dynamics/sensor_set.h, written by the driver's sensor stage): what the
  // result file's /sensors/<name>/ holds, NaN before its first reading is out.
  std::vector<sensors::Reading> sensors;
  // What a controller flying on it reads: the output, or before the first reading is out the
  // first one measured (as a fresh delay line holds its first sample, control/delay_line.h).
  std::vector<sensors::Reading> sensor_feedback;

 private:
  static sensors::Reading nan_reading() {
    sensors::Reading r;
    r.fill(std::numeric_limits<double>::quiet_NaN());
    return r;
  }
};

}  // namespace uwsim::dynamics
