// The controllers and the allocation run in the step path: they must not allocate. This file
// counts calls to malloc (which Eigen and operator new both end in) while the counter is armed,
// by interposing malloc for the test program and forwarding to glibc's own __libc_malloc.
#include <doctest/doctest.h>

#include <atomic>
#include <cstddef>
#include <random>

#include "actuation/linear_actuator.h"
#include "control/damped_least_squares.h"
#include "control/pid.h"
#include "control/pose_pd.h"
#include "control/thrust_allocation.h"
#include "dynamics/joint_forces.h"
#include "spatial/rotation.h"

extern "C" void* __libc_malloc(std::size_t size);

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

extern "C" void* malloc(std::size_t size) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}

using namespace uwsim;

TEST_CASE("control and actuation: no heap allocation per call") {
  // The counter itself works: a dynamic-size Eigen matrix allocates.
  std::mt19937 rng(1);
  counting = true;
  const Eigen::MatrixXd probe = Eigen::MatrixXd::Constant(static_cast<Eigen::Index>(rng() % 5 + 3), 3, 1.0);
  counting = false;
  REQUIRE(allocations.load() > 0);
  REQUIRE(probe.sum() > 0);

  std::normal_distribution<double> n;
  control::ConfigurationMatrix T(6, 8);
  for (int j = 0; j < 8; ++j)
    T.col(j) = control::thruster_column(spatial::Vec3(n(rng), n(rng), n(rng)),
                                        spatial::Vec3(n(rng), n(rng), n(rng)));
  const control::ColumnVector lower = control::ColumnVector::Constant(8, -1.0);
  const control::ColumnVector upper = control::ColumnVector::Constant(8, 1.0);
  control::WideMatrix<3> J3(3, 7);
  J3.setRandom();
  control::WideMatrix<6> J6(6, 10);
  J6.setRandom();
  const control::JointVector w_inv = control::JointVector::Constant(10, 0.5);
  control::Pid pid({.kp = 1, .ki = 1, .kd = 1, .sample_period = 0.01, .output_limit = 2});
  control::PosePd pose_pd({});
  actuation::LinearActuator actuator;
  actuator.motor = {.torque_constant = 0.1, .gear_ratio = 50, .rotor_inertia = 1e-5};
  actuator.lever = {.l1 = 0.073, .l2 = 0.537, .angle_offset = 0.2, .pitch = 0.002};
  const spatial::Vec6 w(1, 2, 3, 0.1, 0.2, 0.3);

  double sink = 0.0;
  allocations = 0;
  counting = true;
  for (int k = 0; k < 3; ++k) {
    const control::AllocationResult r = control::allocate_thrust(T, w, 0.1 * k, lower, upper);
    sink += r.thrust.sum() + control::allocate_unsaturated(T, w, 0.0).sum();
    sink += control::damped_least_squares_step(J3, spatial::Vec3(1, 2, 3), 0.01 * k).sum();
    sink += control::damped_least_squares_step(J6, w, 0.01 * k, w_inv).sum();
    pid.update(0.01 * k, {.setpoint = 1.0, .position = 0.1 * k});
    control::VehicleState x;
    x.q_WB = spatial::quaternion_from_euler_zyx(0.1, 0.2, 0.3 * k);
    pose_pd.update(0.01 * k, {}, x);
    sink += pid.output() + pose_pd.output().sum();
    const actuation::JointActuation a = actuation::linear_actuator_actuation(actuator, 1.0, 0.1 * k, 0.2);
    sink += a.drive - a.bias + dynamics::actuator_passive_force(a, 0.2, 1.0, 100.0);
  }
  counting = false;
  CHECK(allocations.load() == 0);
  CHECK(std::isfinite(sink));
}

#include "dynamics/controller_set.h"
#include "dynamics/pipeline.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"

TEST_CASE("controllers in the simulator: samples and evaluations do not allocate") {
  // Pose PD, eight-thruster allocation and four joint PIDs with feed-forward.
  const scenario::Scenario s = scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_hold_pose_arm.yaml");
  const dynamics::Model model = model::build_model(s);
  dynamics::Workspace ws(model);
  dynamics::ControllerSet controllers(model);
  std::vector<double> x = model.x0, xdot(x.size());
  REQUIRE(controllers.update(0.0, x.data(), ws));
  allocations = 0;
  counting = true;
  for (int k = 1; k <= 50; ++k) {
    const double t = k * 0.002;
    dynamics::evaluate(model, t, x.data(), xdot.data(), ws);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += 0.002 * xdot[i];
    controllers.update(t, x.data(), ws);
  }
  counting = false;
  CHECK(allocations.load() == 0);
}

TEST_CASE("paper 002's controllers in the simulator: task priority, line of sight, base control and allocation do not allocate") {
  // The swimming manipulator's work and transport modes: every controller type of the framework.
  for (const char* file : {"work_mode.yaml", "transport_method2.yaml"}) {
    CAPTURE(file);
    const scenario::Scenario s =
        scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/scenarios/sverdrup-thygeson2018/" + file);
    const dynamics::Model model = model::build_model(s);
    dynamics::Workspace ws(model);
    dynamics::ControllerSet controllers(model);
    std::vector<double> x = model.x0, xdot(x.size());
    REQUIRE(controllers.update(0.0, x.data(), ws));
    allocations = 0;
    counting = true;
    for (int k = 1; k <= 60; ++k) {
      const double t = k * 0.001;
      dynamics::evaluate(model, t, x.data(), xdot.data(), ws);
      for (std::size_t i = 0; i < x.size(); ++i) x[i] += 0.001 * xdot[i];
      controllers.update(t, x.data(), ws);
    }
    counting = false;
    CHECK(allocations.load() == 0);
  }
}

TEST_CASE("ArduSub's mixer with delayed commands in the simulator: samples, releases and evaluations do not allocate") {
  const scenario::Scenario s = scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_heavy_rc.yaml");
  const dynamics::Model model = model::build_model(s);
  REQUIRE(model.controllers.size() == 1);
  REQUIRE(model.controllers[0].delay > 0.0);
  dynamics::Workspace ws(model);
  dynamics::ControllerSet controllers(model);
  std::vector<double> x = model.x0, xdot(x.size());
  REQUIRE(controllers.update(0.0, x.data(), ws));
  allocations = 0;
  counting = true;
  int updates = 0;
  double t = 0.0;
  while (t < 1.6) {  // across the forward stick at 1 s and its arrival at 1.3 s
    t = std::min(t + 0.005, controllers.next_sample_time());
    dynamics::evaluate(model, t, x.data(), xdot.data(), ws);
    updates += controllers.update(t, x.data(), ws) ? 1 : 0;
  }
  counting = false;
  CHECK(allocations.load() == 0);
  CHECK(updates >= 80);
  CHECK(ws.thrusters[0].command == 1350.0);  // the delayed forward command has arrived
}

#include "dynamics/sensor_set.h"

TEST_CASE("sensors in the simulator: measuring, delaying and releasing do not allocate") {
  const scenario::Scenario s = scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_hold_pose_arm.yaml");
  model::Spec spec = s;
  // One sensor of each kind the scenario can carry, each with noise and a latency of 25 samples.
  const sensors::SensorKind kinds[] = {sensors::SensorKind::imu, sensors::SensorKind::pressure, sensors::SensorKind::dvl,
                                       sensors::SensorKind::pose, sensors::SensorKind::magnetometer, sensors::SensorKind::heading};
  for (sensors::SensorKind kind : kinds) {
    model::SensorSpec sensor;
    sensor.parameters.name = std::string("s") + sensors::kind_name(kind);
    sensor.parameters.kind = kind;
    sensor.parameters.rate = 500.0;
    sensor.parameters.latency = 0.05;
    sensor.parameters.imu.accelerometer.noise_density = 0.01;
    sensor.parameters.imu.gyroscope.bias_random_walk = 0.01;
    sensor.parameters.dvl.seabed_depth = 30.0;
    sensor.parameters.pose.attitude.noise_density = 0.01;
    sensor.body = s.bodies.front().name;
    spec.sensors.push_back(sensor);
  }
  const dynamics::Model model = model::build_model(spec);
  dynamics::Workspace ws(model);
  dynamics::SensorSet sensors(model);
  std::vector<double> x = model.x0, xdot(x.size());
  dynamics::evaluate(model, 0.0, x.data(), xdot.data(), ws);
  sensors.sample(0.0, x.data(), ws);
  allocations = 0;
  counting = true;
  for (int k = 1; k <= 100; ++k) {
    const double t = k * 0.002;
    dynamics::evaluate(model, t, x.data(), xdot.data(), ws);
    sensors.sample(t, x.data(), ws);
  }
  counting = false;
  CHECK(allocations.load() == 0);
  CHECK(std::isfinite(sensors.reading(0)[0]));  // released after 25 samples
}

TEST_CASE("controllers on sensors in the simulator: the fed sensors, the filter and the pose_pd do not allocate") {
  // The BlueROV2 example flying on its IMU (complementary filter), compass and pressure sensor.
  const scenario::Scenario s = scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_sensor_feedback.yaml");
  const dynamics::Model model = model::build_model(s);
  dynamics::Workspace ws(model);
  dynamics::ControllerSet controllers(model);
  dynamics::SensorSet sensors(model);
  std::vector<double> x = model.x0, xdot(x.size());
  dynamics::evaluate(model, 0.0, x.data(), xdot.data(), ws);
  sensors.sample_feedback(0.0, x.data(), ws);
  REQUIRE(controllers.update(0.0, x.data(), ws));
  allocations = 0;
  counting = true;
  for (int k = 1; k <= 50; ++k) {
    const double t = k * 0.01;
    dynamics::evaluate(model, t, x.data(), xdot.data(), ws);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += 0.01 * xdot[i];
    dynamics::evaluate(model, t, x.data(), xdot.data(), ws);
    sensors.sample_feedback(t, x.data(), ws);
    controllers.update(t, x.data(), ws);
    sensors.sample_outputs(t, x.data(), ws);
  }
  counting = false;
  CHECK(allocations.load() == 0);
  CHECK(std::isfinite(ws.sensors[0][0]));
}
