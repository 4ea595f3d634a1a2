// The `sensors` section as read from a scenario file (malformed ones: tests/data/malformed).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "model/build_model.h"
#include "scenario/load_scenario.h"
#include "scenario/sections.h"

using namespace uwsim;

namespace {

const std::string kBase = R"(name: sensors_case
simulation:
  duration: 0.1
  output_rate: 100.0
bodies:
  - name: rov
    mass: 10.0
    inertia: [0.1, 0.2, 0.3]
    volume: 0.01
    initial: {position: [0.0, 0.0, 2.0]}
  - name: arm
    mass: 1.0
    inertia: [0.01, 0.01, 0.01]
joints:
  - {name: shoulder, type: revolute, parent: rov, child: arm, origin: {xyz: [0.2, 0.0, 0.0]}, axis: [0.0, 0.0, 1.0]}
)";

scenario::Scenario load(const std::string& sensors, const std::vector<std::string>& overrides = {}) {
  return scenario::load_scenario_text(kBase + "sensors:\n" + sensors, "sensors_case.yaml", overrides);
}

}  // namespace

TEST_CASE("sensors: an IMU's keys fill its parameters, its pose and its error models") {
  const scenario::Scenario s = load(R"(  - name: imu
    type: imu
    body: rov
    position: [0.1, -0.2, 0.3]
    rpy: [0.0, 0.0, 1.5707963267948966]
    rate: 50.0
    latency: 0.03
    seed: 18446744073709551615
    accelerometer: {noise_density: 0.002, bias: 0.05, bias_random_walk: 0.0003, scale_factor_error: 0.001, range: 160.0, resolution: 0.01}
    gyroscope: {noise_density: 0.0001}
)");
  REQUIRE(s.sensors.size() == 1);
  const model::SensorSpec& spec = s.sensors[0];
  const sensors::SensorParameters& p = spec.parameters;
  CHECK(p.name == "imu");
  CHECK(p.kind == sensors::SensorKind::imu);
  CHECK(spec.body == "rov");
  CHECK(spec.target.empty());
  CHECK(p.p_BoS_B == Eigen::Vector3d(0.1, -0.2, 0.3));
  // A yaw of +90°: the sensor's x axis is the body's y axis (column 0 of R_BS).
  CHECK((p.R_BS.col(0) - Eigen::Vector3d(0.0, 1.0, 0.0)).norm() < 1e-15);
  CHECK((p.R_BS.col(2) - Eigen::Vector3d(0.0, 0.0, 1.0)).norm() < 1e-15);
  CHECK(p.rate == 50.0);
  CHECK(p.latency == 0.03);
  CHECK(p.seed == 18446744073709551615ULL);  // all 64 bits, not rounded through a double
  CHECK(p.imu.accelerometer.noise_density == 0.002);
  CHECK(p.imu.accelerometer.bias == 0.05);
  CHECK(p.imu.accelerometer.bias_random_walk == 0.0003);
  CHECK(p.imu.accelerometer.scale_factor_error == 0.001);
  CHECK(p.imu.accelerometer.range == 160.0);
  CHECK(p.imu.accelerometer.resolution == 0.01);
  CHECK(p.imu.gyroscope.noise_density == 0.0001);
  CHECK(std::isinf(p.imu.gyroscope.range));  // absent: no saturation
  CHECK(s.warnings.empty());
  // The model builds it on the body it names.
  const dynamics::Model m = model::build_model(s);
  REQUIRE(m.sensors.size() == 1);
  CHECK(m.bodies[static_cast<std::size_t>(m.sensors[0].body)].name == "rov");
}

TEST_CASE("sensors: a quaternion mount, and the defaults of a pressure sensor") {
  const scenario::Scenario s = load(R"(  - {name: depth, type: pressure, body: rov, quaternion: [0.0, 1.0, 0.0, 0.0]}
)", {"simulation.output_rate=40"});
  const sensors::SensorParameters& p = s.sensors.at(0).parameters;
  // 180° about x: y and z reversed.
  CHECK((p.R_BS - Eigen::Vector3d(1.0, -1.0, -1.0).asDiagonal().toDenseMatrix()).norm() < 1e-15);
  CHECK(p.rate == 40.0);  // absent: simulation.output_rate, a reading at every output sample
  CHECK(s.warnings.empty());
  CHECK(p.latency == 0.0);
  CHECK(p.pressure.atmospheric_pressure == 101325.0);
  CHECK(p.pressure.water_density == 0.0);  // the environment's, resolved by the model
  const dynamics::Model m = model::build_model(s);
  CHECK(m.sensors.at(0).parameters.pressure.water_density == m.environment.water_density);
}

TEST_CASE("sensors: an absent seed is FNV-1a of the name") {
  // The published FNV-1a 64-bit values: "" is the offset basis, "a" is 0xaf63dc4c8601ec8c.
  CHECK(scenario::default_sensor_seed("") == 0xcbf29ce484222325ULL);
  CHECK(scenario::default_sensor_seed("a") == 0xaf63dc4c8601ec8cULL);
  const scenario::Scenario s = load(R"(  - {name: a, type: imu, body: rov}
  - {name: b, type: imu, body: rov}
)");
  CHECK(s.sensors[0].parameters.seed == 0xaf63dc4c8601ec8cULL);
  CHECK(s.sensors[1].parameters.seed != s.sensors[0].parameters.seed);
}

TEST_CASE("sensors: targets name a joint, and --set reaches a sensor by name") {
  const scenario::Scenario s = load(R"(  - {name: counts, type: encoder, joint: shoulder, counts_per_turn: 4096}
)", {"sensors.counts.counts_per_turn=1024", "sensors.counts.latency=0.01"});
  const model::SensorSpec& spec = s.sensors.at(0);
  CHECK(spec.target == "shoulder");
  CHECK(spec.body.empty());
  CHECK(spec.parameters.encoder.counts_per_turn == 1024.0);
  CHECK(spec.parameters.latency == 0.01);
  const dynamics::Model m = model::build_model(s);
  CHECK(m.bodies[static_cast<std::size_t>(m.sensors.at(0).body)].name == "arm");
}

TEST_CASE("sensors: a rate that does not divide the output rate is a warning") {
  // dynamics::rate_divides: 100 Hz / 25 Hz = 4 samples per tick, on its own clock.
  CHECK(load("  - {name: imu, type: imu, body: rov, rate: 25.0}\n").warnings.empty());
  const scenario::Scenario slow = load("  - {name: imu, type: imu, body: rov, rate: 30.0}\n");
  REQUIRE(slow.warnings.size() == 1);
  CAPTURE(slow.warnings[0]);
  CHECK(slow.warnings[0].find("sensors_case.yaml:17:45: warning: sensors[0].rate: 30 Hz does not divide simulation.output_rate (100 Hz)") !=
        std::string::npos);
  const scenario::Scenario fast = load("  - {name: imu, type: imu, body: rov, rate: 400.0}\n");
  REQUIRE(fast.warnings.size() == 1);
  CHECK(fast.warnings[0].find("400 Hz is faster than simulation.output_rate (100 Hz)") != std::string::npos);
}

TEST_CASE("sensors: the resolved scenario reads back to the same sensors") {
  const scenario::Scenario s = load(R"(  - name: imu
    type: imu
    body: rov
    position: [0.1, 0.0, 0.0]
    rpy: [0.1, 0.2, 0.3]
    rate: 50.0
    latency: 0.02
    accelerometer: {noise_density: 0.002, bias_random_walk: 0.0003}
  - {name: dvl, type: dvl, body: rov, seed: 7, velocity: {noise_density: 0.001}, seabed_depth: 10.0, max_altitude: 30.0}
)", {"sensors.imu.accelerometer.noise_density=0.004"});
  const scenario::Scenario again = scenario::load_stored_scenario(s.resolved_yaml, "stored.yaml");
  REQUIRE(again.sensors.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    const sensors::SensorParameters& a = s.sensors[i].parameters;
    const sensors::SensorParameters& b = again.sensors[i].parameters;
    CHECK(a.name == b.name);
    CHECK(a.kind == b.kind);
    CHECK(a.seed == b.seed);
    CHECK(a.p_BoS_B == b.p_BoS_B);
    CHECK(a.R_BS == b.R_BS);
    CHECK(a.rate == b.rate);
    CHECK(a.latency == b.latency);
    CHECK(a.imu.accelerometer.noise_density == b.imu.accelerometer.noise_density);
    CHECK(a.imu.accelerometer.bias_random_walk == b.imu.accelerometer.bias_random_walk);
    CHECK(a.imu.gyroscope.noise_density == b.imu.gyroscope.noise_density);
    CHECK(a.dvl.velocity.noise_density == b.dvl.velocity.noise_density);
    CHECK((a.dvl.seabed_depth == b.dvl.seabed_depth || (std::isnan(a.dvl.seabed_depth) && std::isnan(b.dvl.seabed_depth))));
    CHECK(a.dvl.max_altitude == b.dvl.max_altitude);
  }
  CHECK(again.sensors[0].parameters.imu.accelerometer.noise_density == 0.004);  // the override is in it
  CHECK(again.sensors[1].parameters.seed == 7);
}
