#include "model/build_sensors.h"

#include <cmath>
#include <stdexcept>

#include "model/build_model.h"

namespace uwsim::model {

namespace {

int thruster_index(const dynamics::Model& model, const std::string& name) {
  for (std::size_t i = 0; i < model.thrusters.size(); ++i)
    if (model.thrusters[i].name == name) return static_cast<int>(i);
  return -1;
}

int connector_index(const dynamics::Model& model, const std::string& name) {
  for (std::size_t i = 0; i < model.connectors.size(); ++i)
    if (model.connectors[i].name == name) return static_cast<int>(i);
  return -1;
}

int joint_body(const dynamics::Model& model, const std::string& name) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i)
    if (model.bodies[i].joint.type != dynamics::JointType::free && model.bodies[i].joint.name == name)
      return static_cast<int>(i);
  return -1;
}

void check_noise(const sensors::NoiseParameters& n, const std::string& field, std::vector<std::string>& problems) {
  const auto finite_at_least_zero = [&](double x, const char* name) {
    if (!std::isfinite(x) || x < 0.0) problems.push_back(field + "." + name + ": expected a finite number ≥ 0");
  };
  finite_at_least_zero(n.noise_density, "noise_density");
  finite_at_least_zero(n.bias_random_walk, "bias_random_walk");
  finite_at_least_zero(n.resolution, "resolution");
  if (!std::isfinite(n.bias)) problems.push_back(field + ".bias: expected a finite number");
  if (!std::isfinite(n.scale_factor_error) || n.scale_factor_error <= -1.0)
    problems.push_back(field + ".scale_factor_error: expected a finite number > -1");
  if (std::isnan(n.range) || n.range <= 0.0) problems.push_back(field + ".range: expected a number > 0");
}

// The body and target of a spec, as indices (−1: none).
struct Attachment {
  int body = -1, target = -1;
};

Attachment attachment(const SensorSpec& spec, const dynamics::Model& model, std::vector<std::string>& problems) {
  Attachment a;
  const sensors::SensorKind kind = spec.parameters.kind;
  using sensors::SensorKind;
  if (kind == SensorKind::encoder) {
    a.target = joint_body(model, spec.target);
    if (a.target < 0) problems.push_back("joint: no joint named '" + spec.target + "'");
    else a.body = a.target;
  } else if (kind == SensorKind::thruster_speed) {
    a.target = thruster_index(model, spec.target);
    if (a.target < 0) problems.push_back("thruster: no thruster named '" + spec.target + "'");
    else a.body = model.thrusters[static_cast<std::size_t>(a.target)].body;
  } else if (kind == SensorKind::wrench) {
    a.target = connector_index(model, spec.target);
    if (a.target < 0) problems.push_back("connector: no connector named '" + spec.target + "'");
    else a.body = model.connectors[static_cast<std::size_t>(a.target)].body_a;
  }
  if (!spec.body.empty()) {
    const int named = model.body_index(spec.body);
    if (named < 0) problems.push_back("body: no body named '" + spec.body + "'");
    else if (a.target >= 0 && named != a.body)
      problems.push_back("body: '" + spec.body + "' is not the body the " +
                         (kind == SensorKind::encoder ? "joint moves" : kind == SensorKind::wrench ? "connector's first body" : "thruster's body"));
    else a.body = named;
  } else if (a.target < 0 && problems.empty()) {
    problems.push_back("body: expected the body that carries the sensor");
  }
  return a;
}

}  // namespace

std::vector<std::string> sensor_problems(const SensorSpec& spec, const dynamics::Model& model) {
  std::vector<std::string> problems;
  const sensors::SensorParameters& p = spec.parameters;
  using sensors::SensorKind;
  if (p.name.empty() || p.name.find('/') != std::string::npos)
    problems.push_back("name: expected a name without '/' (it names the group /sensors/<name>)");
  const Attachment a = attachment(spec, model, problems);
  if (!std::isfinite(p.rate) || p.rate <= 0.0) problems.push_back("rate: expected a finite number > 0 (Hz)");
  if (!std::isfinite(p.latency) || p.latency < 0.0) problems.push_back("latency: expected a finite number ≥ 0 (s)");
  else if (std::isfinite(p.rate) && p.rate > 0.0 && p.latency * p.rate > 1e6)
    problems.push_back("latency: more than 10^6 readings in flight (latency × rate)");
  if (!p.p_BoS_B.allFinite()) problems.push_back("position: expected finite numbers (m)");
  const spatial::Mat3& R = p.R_BS;
  if (!R.allFinite() || !(R.transpose() * R).isIdentity(1e-9) || R.determinant() < 0.0)
    problems.push_back("orientation: expected a rotation");
  switch (p.kind) {
    case SensorKind::imu:
      check_noise(p.imu.accelerometer, "accelerometer", problems);
      check_noise(p.imu.gyroscope, "gyroscope", problems);
      break;
    case SensorKind::pressure:
      check_noise(p.pressure.pressure, "pressure", problems);
      if (!std::isfinite(p.pressure.atmospheric_pressure) || p.pressure.atmospheric_pressure < 0.0)
        problems.push_back("atmospheric_pressure: expected a finite number ≥ 0 (Pa)");
      if (!std::isfinite(p.pressure.water_density) || p.pressure.water_density < 0.0)
        problems.push_back("water_density: expected a finite number > 0 (kg/m^3), or none for the environment's");
      break;
    case SensorKind::dvl:
      check_noise(p.dvl.velocity, "velocity", problems);
      if (std::isinf(p.dvl.seabed_depth)) problems.push_back("seabed_depth: expected a finite depth (m, NED)");
      if (!std::isfinite(p.dvl.min_altitude) || p.dvl.min_altitude < 0.0)
        problems.push_back("min_altitude: expected a finite number ≥ 0 (m)");
      if (std::isnan(p.dvl.max_altitude) || p.dvl.max_altitude < p.dvl.min_altitude)
        problems.push_back("max_altitude: expected a number ≥ min_altitude (m)");
      break;
    case SensorKind::pose:
      check_noise(p.pose.position, "position_noise", problems);
      check_noise(p.pose.attitude, "attitude_noise", problems);
      break;
    case SensorKind::magnetometer:
      check_noise(p.magnetometer.field, "field", problems);
      if (!p.magnetometer.field_W.allFinite()) problems.push_back("field_W: expected finite numbers (T, NED)");
      break;
    case SensorKind::heading:
      check_noise(p.heading.heading, "heading", problems);
      break;
    case SensorKind::encoder:
      if (a.target >= 0) {
        const dynamics::JointType type = model.bodies[static_cast<std::size_t>(a.target)].joint.type;
        if (type == dynamics::JointType::fixed) problems.push_back("joint: '" + spec.target + "' is fixed: an encoder needs a moving joint");
        const bool revolute = type == dynamics::JointType::revolute;
        const double counts = revolute ? p.encoder.counts_per_turn : p.encoder.counts_per_metre;
        if (type != dynamics::JointType::fixed && (!std::isfinite(counts) || counts <= 0.0))
          problems.push_back(revolute ? "counts_per_turn: expected a finite number > 0 for a revolute joint"
                                      : "counts_per_metre: expected a finite number > 0 for a prismatic joint");
      }
      break;
    case SensorKind::thruster_speed:
      check_noise(p.thruster_speed.speed, "speed", problems);
      if (a.target >= 0 && !model.thrusters[static_cast<std::size_t>(a.target)].has_shaft_speed())
        problems.push_back("thruster: '" + spec.target + "' has no shaft speed (only propeller thrusters do)");
      break;
    case SensorKind::wrench:
      check_noise(p.wrench.force, "force", problems);
      check_noise(p.wrench.torque, "torque", problems);
      break;
  }
  return problems;
}

std::vector<SensorProblem> sensor_spec_problems(const Spec& scenario) {
  std::vector<SensorProblem> out;
  if (scenario.sensors.empty()) return out;
  Spec rest = scenario;
  rest.sensors.clear();
  const dynamics::Model model = build_model(rest);
  for (std::size_t i = 0; i < scenario.sensors.size(); ++i)
    for (std::string& message : sensor_problems(scenario.sensors[i], model)) out.push_back({i, std::move(message)});
  return out;
}

void build_sensors(const Spec& scenario, dynamics::Model& model) {
  for (std::size_t i = 0; i < scenario.sensors.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (scenario.sensors[i].parameters.name == scenario.sensors[j].parameters.name)
        throw std::invalid_argument("build_model: two sensors are named '" + scenario.sensors[i].parameters.name + "'");
  for (const SensorSpec& spec : scenario.sensors) {
    const std::vector<std::string> problems = sensor_problems(spec, model);
    if (!problems.empty())
      throw std::invalid_argument("build_model: sensor '" + spec.parameters.name + "': " + problems.front());
    std::vector<std::string> unused;
    const Attachment a = attachment(spec, model, unused);
    sensors::Sensor sensor{spec.parameters, a.body, a.target};
    if (sensor.parameters.kind == sensors::SensorKind::pressure && sensor.parameters.pressure.water_density <= 0.0)
      sensor.parameters.pressure.water_density = model.environment.water_density;
    model.sensors.push_back(sensor);
  }
}

}  // namespace uwsim::model
