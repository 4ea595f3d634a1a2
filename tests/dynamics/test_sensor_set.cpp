// The sensor stage (dynamics/sensor_set.h) through the running simulator, against closed forms:
// an IMU at rest, spinning and pushed by a constant force; latency as an exact delay; seeds;
// pressure against ρ g z + p_atm; a DVL's dropout above its range; a marker's pose, heading,
// magnetometer, encoder and a connector's wrench.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "dynamics/sensor_set.h"
#include "sensors/measurement.h"
#include "spatial/rotation.h"
#include "support/simulate.h"

using namespace uwsim;
using spatial::Mat3;
using spatial::Vec3;
using sensors::SensorKind;

namespace {

// Every sample's time, state, and each sensor's output and true reading.
struct SensorRun {
  dynamics::Model model;
  std::vector<double> t;
  std::vector<std::vector<double>> x;
  std::vector<std::vector<sensors::Reading>> out, truth;  // [sample][sensor]

  Mat3 R_WB(std::size_t k, std::size_t b = 0) const {
    const auto& q_offset = model.bodies[b].q_offset;
    spatial::Quat q(x[k][q_offset + 3], x[k][q_offset + 4], x[k][q_offset + 5], x[k][q_offset + 6]);
    return spatial::rotation_from_quaternion(q / q.norm());
  }
  Vec3 p_WB(std::size_t k, std::size_t b = 0) const { return Eigen::Map<const Vec3>(x[k].data() + model.bodies[b].q_offset); }
  Vec3 w_B(std::size_t k, std::size_t b = 0) const { return Eigen::Map<const Vec3>(x[k].data() + model.bodies[b].v_offset); }
  Vec3 v_B(std::size_t k, std::size_t b = 0) const { return Eigen::Map<const Vec3>(x[k].data() + model.bodies[b].v_offset + 3); }
};

class SensorSink : public integrate::SampleSink {
 public:
  explicit SensorSink(SensorRun& run) : run_(run), sensors_(run.model) {}
  void on_sample(double t, const double* x, const double*, const dynamics::Workspace& ws) override {
    sensors_.sample(t, x, ws);
    run_.t.push_back(t);
    run_.x.emplace_back(x, x + run_.model.state_size());
    run_.out.emplace_back();
    run_.truth.emplace_back();
    for (std::size_t i = 0; i < sensors_.size(); ++i) {
      run_.out.back().push_back(sensors_.reading(i));
      run_.truth.back().push_back(dynamics::true_reading(run_.model, run_.model.sensors[i], x, ws));
    }
  }

 private:
  SensorRun& run_;
  dynamics::SensorSet sensors_;
};

SensorRun run_sensors(const scenario::Scenario& s) {
  SensorRun run;
  run.model = model::build_model(s);
  SensorSink sink(run);
  const integrate::RunResult result = integrate::run(run.model, scenario::integration_settings(s.simulation), sink);
  REQUIRE(result.outcome == integrate::Outcome::completed);
  return run;
}

model::SensorSpec sensor(const std::string& name, SensorKind kind, const std::string& body, const Vec3& p_BoS_B = Vec3::Zero(),
                         const Mat3& R_BS = Mat3::Identity(), double rate = 50.0) {
  model::SensorSpec s;
  s.parameters.name = name;
  s.parameters.kind = kind;
  s.parameters.p_BoS_B = p_BoS_B;
  s.parameters.R_BS = R_BS;
  s.parameters.rate = rate;
  s.body = body;
  return s;
}

Vec3 column(const sensors::Reading& r, int offset) { return Vec3(r[offset], r[offset + 1], r[offset + 2]); }

const Mat3 kMount = spatial::rotation_from_euler_zyx(Vec3(0.1, 0.5, -0.3));
const Vec3 kOffset(0.2, -0.1, 0.05);

}  // namespace

TEST_CASE("imu: a body at rest reads minus g rotated into its frame and zero rate") {
  model::BodySpec body = test::plain_body("rov");
  body.initial.p_WB_W = Vec3(0, 0, 5);
  body.initial.q_WB = Eigen::Quaterniond(Eigen::AngleAxisd(1.0, Vec3::UnitZ()) * Eigen::AngleAxisd(-0.2, Vec3::UnitY()) *
                                         Eigen::AngleAxisd(0.3, Vec3::UnitX()));
  scenario::Scenario s = test::scenario_with({body}, 1.0);
  s.sensors.push_back(sensor("tilted", SensorKind::imu, "rov", kOffset, kMount));
  body.initial.q_WB = Eigen::Quaterniond::Identity();
  scenario::Scenario level = test::scenario_with({body}, 1.0);
  level.sensors.push_back(sensor("level", SensorKind::imu, "rov"));
  const SensorRun run = run_sensors(s), flat = run_sensors(level);
  const double g = run.model.environment.gravity;
  REQUIRE(run.t.size() == 51);
  for (std::size_t k = 0; k < run.t.size(); ++k) {
    // f = −R_BSᵀ R_WBᵀ g e_z with R_WB from the initial attitude (the body does not move).
    const Mat3 R_WB = s.bodies[0].initial.q_WB.toRotationMatrix();
    const Vec3 expected = -(kMount.transpose() * R_WB.transpose() * Vec3(0, 0, g));
    CHECK((column(run.out[k][0], 0) - expected).norm() < 1e-9);
    CHECK(column(run.out[k][0], 3).norm() < 1e-12);
    CHECK((column(flat.out[k][0], 0) - Vec3(0, 0, -g)).norm() < 1e-12);
    CHECK(column(flat.out[k][0], 3).norm() == 0.0);
  }
}

TEST_CASE("imu: a body spinning at omega reads omega and the centripetal term at an offset point") {
  // A spherical inertia about the CG at the origin: torque-free rotation keeps ω constant
  // (Euler's equations, Iω̇ = −ω × Iω = 0), and the origin drifts on a straight line: its
  // body-frame velocity turns (v̇ = −ω × v), its acceleration is zero.
  model::BodySpec body = test::plain_body("rov");
  body.initial.p_WB_W = Vec3(0, 0, 5);
  const Vec3 w(0.4, -0.7, 1.1);
  body.initial.nu_B << 0.3, -0.2, 0.1, w.x(), w.y(), w.z();
  scenario::Scenario s = test::scenario_with({body}, 2.0);
  s.sensors.push_back(sensor("imu", SensorKind::imu, "rov", kOffset, kMount));
  const SensorRun run = run_sensors(s);
  const double g = run.model.environment.gravity;
  for (std::size_t k = 0; k < run.t.size(); ++k) {
    CHECK((run.w_B(k) - w).norm() < 1e-12);
    // ω × (ω × r) = ω(ω·r) − r|ω|² (the vector triple product), toward the axis.
    const Vec3 centripetal = w * w.dot(kOffset) - kOffset * w.squaredNorm();
    const Vec3 expected = kMount.transpose() * (centripetal - run.R_WB(k).transpose() * Vec3(0, 0, g));
    CHECK((column(run.out[k][0], 0) - expected).norm() < 1e-9);
    CHECK((column(run.out[k][0], 3) - kMount.transpose() * w).norm() < 1e-12);
  }
}

TEST_CASE("imu: on an arm link turning at a constant rate it reads the centripetal acceleration of its circle") {
  // A link whose origin sits a = 0.5 m from a vertical joint axis (DH: x of the link points
  // away from the axis), turning at Ω with nothing to slow it: the origin runs on a circle of
  // radius a, accelerating Ω²a towards the axis, −x of the link; gravity lies along the axis.
  model::BodySpec link = test::plain_body("link");
  scenario::Scenario s = test::scenario_with({link}, 2.0);
  model::JointSpec joint;
  joint.name = "turn";
  joint.parent = "world";
  joint.child = "link";
  joint.placement.kind = model::JointPlacementSpec::Kind::dh;
  joint.placement.a = 0.5;
  joint.initial_velocity = 0.9;
  s.joints.push_back(joint);
  s.sensors.push_back(sensor("imu", SensorKind::imu, "link"));
  const SensorRun run = run_sensors(s);
  const double g = run.model.environment.gravity, W = 0.9;
  for (std::size_t k = 0; k < run.t.size(); ++k) {
    CHECK(run.x[k][static_cast<std::size_t>(run.model.bodies[0].v_offset)] == doctest::Approx(W).epsilon(1e-12));
    CHECK((column(run.out[k][0], 0) - Vec3(-W * W * 0.5, 0, -g)).norm() < 1e-9);
    CHECK((column(run.out[k][0], 3) - Vec3(0, 0, W)).norm() < 1e-12);
  }
}

TEST_CASE("imu: a free body under a constant force reads F over m less gravity") {
  // Neutrally buoyant, no damping or added mass, the force at the CG (the origin): a = F/m.
  model::BodySpec body = test::plain_body("rov");
  body.initial.p_WB_W = Vec3(0, 0, 5);
  scenario::Scenario s = test::scenario_with({body}, 1.0);
  model::ForceSpec push;
  push.name = "push";
  push.body = "rov";
  push.force = Vec3(23.0, -7.0, 4.0);
  s.forces.push_back(push);
  s.sensors.push_back(sensor("imu", SensorKind::imu, "rov", kOffset));
  const SensorRun run = run_sensors(s);
  const double g = run.model.environment.gravity;
  for (std::size_t k = 0; k < run.t.size(); ++k) {
    CHECK((column(run.out[k][0], 0) - (push.force / body.mass + Vec3(0, 0, -g))).norm() < 1e-9);
    CHECK(column(run.out[k][0], 3).norm() < 1e-12);
  }
  // and the body did accelerate so: u(1 s) = F_x/m.
  CHECK(run.v_B(run.t.size() - 1).x() == doctest::Approx(23.0 / body.mass).epsilon(1e-9));
}

namespace {

// A spinning body carrying IMUs with white noise: its readings change from sample to sample.
scenario::Scenario spinning_with_imus(const std::vector<std::pair<double, double>>& latency_and_rate, std::uint64_t seed,
                                      double output_rate = 100.0) {
  model::BodySpec body = test::plain_body("rov");
  body.initial.p_WB_W = Vec3(0, 0, 5);
  body.initial.nu_B << 0, 0, 0, 0.4, -0.7, 1.1;
  scenario::Scenario s = test::scenario_with({body}, 1.0, 1e-3, output_rate);
  for (std::size_t i = 0; i < latency_and_rate.size(); ++i) {
    model::SensorSpec imu = sensor("imu" + std::to_string(i), SensorKind::imu, "rov", kOffset, kMount, latency_and_rate[i].second);
    imu.parameters.latency = latency_and_rate[i].first;
    imu.parameters.seed = seed;
    imu.parameters.imu.accelerometer.noise_density = 0.002;
    imu.parameters.imu.accelerometer.bias_random_walk = 1e-4;
    imu.parameters.imu.gyroscope.noise_density = 1e-4;
    s.sensors.push_back(imu);
  }
  return s;
}

bool same_bits(const sensors::Reading& a, const sensors::Reading& b) { return std::memcmp(a.data(), b.data(), sizeof a) == 0; }

}  // namespace

TEST_CASE("sensor latency delays the measured series by exactly its value") {
  // 100 Hz output and sensors: latency 0.03 s is three rows; 0.025 s lets out at t the reading
  // measured at or before t − 0.025, the one of three rows before too (zero-order hold).
  const SensorRun run = run_sensors(spinning_with_imus({{0.0, 100.0}, {0.03, 100.0}, {0.025, 100.0}, {0.0, 50.0}}, 3));
  REQUIRE(run.t.size() == 101);
  for (std::size_t k = 0; k < run.t.size(); ++k) {
    for (std::size_t i : {1, 2}) {
      if (k < 3) CHECK(std::isnan(run.out[k][i][0]));
      else CHECK(same_bits(run.out[k][i], run.out[k - 3][0]));
    }
    // 50 Hz on a 100 Hz grid: measured on even rows, held on odd ones.
    if (k % 2 == 1) CHECK(same_bits(run.out[k][3], run.out[k - 1][3]));
    else if (k > 0) CHECK(run.out[k][3][0] != run.out[k - 2][3][0]);
  }
}

TEST_CASE("sensor noise: the same seed reproduces the readings bit for bit and another seed does not") {
  const SensorRun a = run_sensors(spinning_with_imus({{0.0, 100.0}}, 7));
  const SensorRun b = run_sensors(spinning_with_imus({{0.0, 100.0}}, 7));
  const SensorRun c = run_sensors(spinning_with_imus({{0.0, 100.0}}, 8));
  std::size_t different = 0;
  for (std::size_t k = 0; k < a.t.size(); ++k) {
    CHECK(same_bits(a.out[k][0], b.out[k][0]));
    for (int j = 0; j < 6; ++j) different += a.out[k][0][j] != c.out[k][0][j];
    CHECK(same_bits(a.truth[k][0], c.truth[k][0]));  // the truth is the same
  }
  CHECK(different == 6 * a.t.size());
}

TEST_CASE("pressure sensor reads rho g z plus the atmosphere and infers depth with its own density") {
  model::BodySpec body = test::plain_body("rov");
  body.initial.p_WB_W = Vec3(0, 0, 12.5);
  body.initial.q_WB = Eigen::Quaterniond(Eigen::AngleAxisd(0.4, Vec3::UnitZ()) * Eigen::AngleAxisd(0.1, Vec3::UnitY()) *
                                         Eigen::AngleAxisd(0.2, Vec3::UnitX()));
  scenario::Scenario s = test::scenario_with({body}, 0.5);
  model::SensorSpec seawater = sensor("seawater", SensorKind::pressure, "rov", Vec3(0.3, 0, 0.2));
  seawater.parameters.pressure.water_density = 1025.0;
  model::SensorSpec stepped = sensor("stepped", SensorKind::pressure, "rov", Vec3(0.3, 0, 0.2));
  stepped.parameters.pressure.pressure.resolution = 10.0;  // Pa; density: the environment's
  s.sensors = {seawater, stepped};
  const SensorRun run = run_sensors(s);
  const double g = run.model.environment.gravity, rho = run.model.environment.water_density, p_atm = 101325.0;
  for (std::size_t k = 0; k < run.t.size(); ++k) {
    const double z = (run.p_WB(k) + run.R_WB(k) * Vec3(0.3, 0, 0.2)).z();
    const double p = p_atm + rho * g * z;
    CHECK(run.out[k][0][0] == doctest::Approx(p).epsilon(1e-12));
    CHECK(run.out[k][0][1] == doctest::Approx(z * rho / 1025.0).epsilon(1e-12));
    CHECK(std::abs(run.out[k][1][0] - p) <= 5.0 + 1e-9);
    CHECK(std::fmod(run.out[k][1][0], 10.0) == 0.0);
    CHECK(run.out[k][1][1] == doctest::Approx((run.out[k][1][0] - p_atm) / (rho * g)).epsilon(1e-12));
  }
  CHECK(sensors::hydrostatic_pressure(-1.0, rho, g, p_atm) == p_atm);  // in air: the atmosphere
}

TEST_CASE("dvl: velocity over ground in its frame, and no lock above its altitude range") {
  // Sinking at 0.8 m/s from 2 m towards a seabed at 20 m: the altitude falls through 12 m.
  model::BodySpec body = test::plain_body("rov");
  body.initial.p_WB_W = Vec3(0, 0, 2);
  body.initial.nu_B << 1.0, 0.5, 0.8, 0, 0, 0;
  scenario::Scenario s = test::scenario_with({body}, 20.0, 1e-2, 10.0);
  model::SensorSpec ranged = sensor("ranged", SensorKind::dvl, "rov", kOffset, kMount, 10.0);
  ranged.parameters.dvl.seabed_depth = 20.0;
  ranged.parameters.dvl.min_altitude = 0.5;
  ranged.parameters.dvl.max_altitude = 12.0;
  s.sensors = {ranged, sensor("no_seabed", SensorKind::dvl, "rov", kOffset, kMount, 10.0)};
  const SensorRun run = run_sensors(s);
  std::size_t locked = 0;
  for (std::size_t k = 0; k < run.t.size(); ++k) {
    const double altitude = 20.0 - (run.p_WB(k) + run.R_WB(k) * kOffset).z();
    const Vec3 v_S = kMount.transpose() * (run.v_B(k) + run.w_B(k).cross(kOffset));
    const sensors::Reading& r = run.out[k][0];
    if (altitude <= 12.0) {
      ++locked;
      CHECK(r[4] == 1.0);
      CHECK(r[3] == doctest::Approx(altitude).epsilon(1e-12));
      CHECK((column(r, 0) - v_S).norm() < 1e-12);
    } else {
      CHECK(r[4] == 0.0);
      CHECK(std::isnan(r[0]));
      CHECK(std::isnan(r[3]));
    }
    CHECK(run.out[k][1][4] == 1.0);
    CHECK(std::isnan(run.out[k][1][3]));
    CHECK((column(run.out[k][1], 0) - v_S).norm() < 1e-12);
  }
  // 2 + 0.8 t ≥ 8 − 0.05-ish: locked for about the last 12.5 of 20 s.
  CHECK(locked > 100);
  CHECK(locked < run.t.size() - 50);
}

TEST_CASE("pose, heading and magnetometer sensors read the marker's pose and the field in their frame") {
  model::BodySpec body = test::plain_body("rov");
  body.initial.p_WB_W = Vec3(1, -2, 5);
  body.initial.nu_B << 0.3, 0, 0, 0.2, -0.1, 0.9;
  scenario::Scenario s = test::scenario_with({body}, 8.0);  // turns through more than 2π
  model::SensorSpec magnetometer = sensor("mag", SensorKind::magnetometer, "rov", kOffset, kMount);
  magnetometer.parameters.magnetometer.field_W = Vec3(19.5e-6, -0.4e-6, 45.1e-6);
  s.sensors = {sensor("marker", SensorKind::pose, "rov", kOffset, kMount), sensor("compass", SensorKind::heading, "rov", kOffset, kMount),
               magnetometer};
  const SensorRun run = run_sensors(s);
  for (std::size_t k = 0; k < run.t.size(); ++k) {
    const Mat3 R_WS = run.R_WB(k) * kMount;
    CHECK((column(run.out[k][0], 0) - (run.p_WB(k) + run.R_WB(k) * kOffset)).norm() < 1e-12);
    const spatial::Quat q(run.out[k][0][3], run.out[k][0][4], run.out[k][0][5], run.out[k][0][6]);
    CHECK((spatial::rotation_from_quaternion(q) - R_WS).norm() < 1e-12);
    if (k > 0) {  // continuous: never the far sign
      const spatial::Quat before(run.out[k - 1][0][3], run.out[k - 1][0][4], run.out[k - 1][0][5], run.out[k - 1][0][6]);
      CHECK(q.dot(before) > 0.0);
    }
    CHECK(run.out[k][1][0] == doctest::Approx(std::atan2(R_WS(1, 0), R_WS(0, 0))).epsilon(1e-12));
    CHECK((column(run.out[k][2], 0) - R_WS.transpose() * magnetometer.parameters.magnetometer.field_W).norm() < 1e-18);
  }
}

TEST_CASE("encoder: a revolute joint's position in whole counts") {
  // A link on a vertical axis through its CG and CB: nothing turns it, q = q0 + q̇0·t.
  model::BodySpec link = test::plain_body("link");
  scenario::Scenario s = test::scenario_with({link}, 2.0);
  model::JointSpec joint;
  joint.name = "spin";
  joint.parent = "world";
  joint.child = "link";
  joint.initial_position = 0.05;
  joint.initial_velocity = 0.9;
  s.joints.push_back(joint);
  model::SensorSpec encoder = sensor("enc", SensorKind::encoder, "");
  encoder.target = "spin";
  encoder.parameters.encoder.counts_per_turn = 1024;
  s.sensors.push_back(encoder);
  const SensorRun run = run_sensors(s);
  const double step = 2.0 * M_PI / 1024.0;
  for (std::size_t k = 0; k < run.t.size(); ++k) {
    const double q = run.x[k][static_cast<std::size_t>(run.model.bodies[0].q_offset)];
    CHECK(q == doctest::Approx(0.05 + 0.9 * run.t[k]).epsilon(1e-9));
    const double count = run.out[k][0][1];
    CHECK(count == std::floor(q / step));
    CHECK(run.out[k][0][0] <= q);
    CHECK(q - run.out[k][0][0] < step * (1.0 + 1e-12));
  }
}

TEST_CASE("wrench sensor: a connector holding a heavy body reads its net weight at the sensor point") {
  model::BodySpec body = test::plain_body("held");
  body.volume = 0.9 * body.mass / 1000.0;
  body.initial.p_WB_W = Vec3(0, 0, 5);
  scenario::Scenario s = test::scenario_with({body}, 1.0);
  model::ConnectorSpec hold;
  hold.name = "hold";
  hold.first = "held";
  hold.second = "world";
  s.connectors.push_back(hold);
  model::SensorSpec ft = sensor("ft", SensorKind::wrench, "", Vec3(0.1, 0, 0));
  ft.target = "hold";
  s.sensors.push_back(ft);
  // An IMU on it reads the accelerations after the connectors' correction: held still, −g e_z
  // (uncorrected, it would read the sinking body's (W − B)/m less).
  s.sensors.push_back(sensor("imu", SensorKind::imu, "held"));
  const SensorRun run = run_sensors(s);
  // W − B = 0.1 m g down, held by an upward force; about a point 0.1 m forward of the CG the
  // force −F e_z at the CG has the moment (−0.1 e_x) × (−F e_z) = −0.1 F e_y.
  const double F = body.mass * run.model.environment.gravity - 1000.0 * run.model.environment.gravity * body.volume;
  for (std::size_t k = 0; k < run.t.size(); ++k) {
    CHECK((column(run.out[k][0], 0) - Vec3(0, 0, -F)).norm() < 1e-6);
    CHECK((column(run.out[k][0], 3) - Vec3(0, -0.1 * F, 0)).norm() < 1e-6);
    CHECK((column(run.out[k][1], 0) - Vec3(0, 0, -run.model.environment.gravity)).norm() < 1e-6);
  }
}

TEST_CASE("sensor specs: unknown names and bad parameters are refused with the field named") {
  scenario::Scenario s = test::scenario_with({test::plain_body("rov")}, 1.0);
  model::SensorSpec bad = sensor("imu", SensorKind::imu, "nobody");
  s.sensors.push_back(bad);
  CHECK_THROWS_WITH_AS(model::build_model(s), doctest::Contains("sensor 'imu': body: no body named 'nobody'"), std::invalid_argument);
  s.sensors[0].body = "rov";
  s.sensors[0].parameters.rate = 0.0;
  CHECK_THROWS_WITH_AS(model::build_model(s), doctest::Contains("rate: expected"), std::invalid_argument);
  s.sensors[0].parameters.rate = 100.0;
  s.sensors[0].parameters.imu.gyroscope.noise_density = -1.0;
  CHECK_THROWS_WITH_AS(model::build_model(s), doctest::Contains("gyroscope.noise_density"), std::invalid_argument);
  s.sensors[0].parameters.imu.gyroscope.noise_density = 0.0;
  s.sensors.push_back(s.sensors[0]);
  CHECK_THROWS_WITH_AS(model::build_model(s), doctest::Contains("two sensors are named 'imu'"), std::invalid_argument);
  CHECK(dynamics::rate_divides(100.0, 50.0));
  CHECK(dynamics::rate_divides(100.0, 100.0));
  CHECK_FALSE(dynamics::rate_divides(100.0, 30.0));
  CHECK_FALSE(dynamics::rate_divides(100.0, 200.0));
}

TEST_CASE("thruster speed sensor: a propeller's shaft speed in rpm") {
  // Command 0.5 on a speed table 0 → 0, 1 → 200 rad/s and no lag: ω = 100 rad/s at once.
  scenario::Scenario s = test::scenario_with({test::plain_body("rov")}, 0.5);
  inputs::Channel u;
  u.name = "u";
  u.kind = inputs::ChannelKind::constant;
  u.value = 0.5;
  s.inputs.push_back({u, {}});
  model::ThrusterSpec t;
  t.body = "rov";
  t.input.channel = "u";
  t.thruster.name = "prop";
  t.thruster.model = actuation::ThrusterModel::propeller;
  t.thruster.speed_from_table = true;
  t.thruster.speed_table = inputs::Table{{0.0, 1.0}, {0.0, 200.0}};
  t.thruster.thrust_coefficient = 1e-4;
  s.thrusters.push_back(t);
  model::SensorSpec rpm = sensor("rpm", SensorKind::thruster_speed, "");
  rpm.target = "prop";
  rpm.parameters.thruster_speed.speed.resolution = 1.0;
  s.sensors.push_back(rpm);
  const SensorRun run = run_sensors(s);
  for (std::size_t k = 0; k < run.t.size(); ++k) CHECK(run.out[k][0][0] == std::round(100.0 * 60.0 / (2.0 * M_PI)));
  s.thrusters[0].thruster.model = actuation::ThrusterModel::linear;
  CHECK_THROWS_WITH_AS(model::build_model(s), doctest::Contains("has no shaft speed"), std::invalid_argument);
}

TEST_CASE("a sensor whose rate does not divide the output rate measures at the first sample after each tick") {
  // 30 Hz on a 100 Hz grid: ticks at j/30 s, taken at rows ⌈100 j/30⌉ (0, 4, 7, 10, 14, 17, …);
  // 1000 Hz: faster than the output, it measures at every row.
  const SensorRun run = run_sensors(spinning_with_imus({{0.0, 30.0}, {0.0, 1000.0}}, 4));
  for (std::size_t k = 1; k < run.t.size(); ++k) {
    bool tick = false;
    for (long j = 0; j <= 30; ++j)
      tick = tick || static_cast<long>(k) == static_cast<long>(std::ceil(100.0 * static_cast<double>(j) / 30.0 - 1e-9));
    CHECK((run.out[k][0][0] != run.out[k - 1][0][0]) == tick);
    CHECK(run.out[k][1][0] != run.out[k - 1][1][0]);
  }
}
