// scenarios/bluerov2_sensors.yaml (and the encoders of bluerov2_heavy_alpha5_hold.yaml) tell the truth: each sentence of its comments about the run,
// checked against the true motion of the run. The truth at each sensor's point is computed here
// from the body's recorded pose, velocity and acceleration by the textbook formulas ([Fossen2011]
// Ch. 2: velocity and acceleration of a point of a rigid body; specific force a − g), not by the
// sensor stage's code; the bands are the sensors' own noise parameters (sensors/noise.h).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "dynamics/sensor_set.h"
#include "integrate/driver.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"
#include "spatial/rotation.h"

using namespace uwsim;
using spatial::Mat3;
using spatial::Vec3;
using spatial::Vec6;

namespace {

struct Sample {
  double t = 0.0;
  spatial::Pose X_WB;
  Vec6 nu, nu_dot;  // Fossen order [u v w p q r] and its time derivative
  std::vector<sensors::Reading> readings;
  std::vector<double> x;  // the whole state
};

// The run's samples with every sensor's output beside them, as the recorder writes them
// (the driver holds the same SensorSet, dynamics/sensor_set.h, and samples these sensors, on
// which no controller flies, the same way; the recorder writes what it holds).
class Collect : public integrate::SampleSink {
 public:
  Collect(const dynamics::Model& model, std::size_t body) : model_(model), body_(body), sensors_(model) {}
  void on_sample(double t, const double* x, const double* xdot, const dynamics::Workspace& ws) override {
    sensors_.sample(t, x, ws);
    Sample s;
    s.t = t;
    const dynamics::Body& b = model_.bodies[body_];
    s.X_WB = ws.bodies[body_].X_WB;
    s.nu = spatial::to_fossen_order(Eigen::Map<const Vec6>(x + b.v_offset));
    s.nu_dot = spatial::to_fossen_order(Eigen::Map<const Vec6>(xdot + b.v_offset));
    for (std::size_t i = 0; i < sensors_.size(); ++i) s.readings.push_back(sensors_.reading(i));
    s.x.assign(x, x + model_.state_size());
    samples.push_back(std::move(s));
  }
  std::vector<Sample> samples;

 private:
  const dynamics::Model& model_;
  std::size_t body_;
  dynamics::SensorSet sensors_;
};

struct Run {
  scenario::Scenario scenario;
  dynamics::Model model;
  std::vector<Sample> samples;
  std::size_t sensor(const std::string& name) const {
    for (std::size_t i = 0; i < model.sensors.size(); ++i)
      if (model.sensors[i].parameters.name == name) return i;
    FAIL("no sensor " << name);
    return 0;
  }
  const sensors::SensorParameters& parameters(const std::string& name) const { return model.sensors[sensor(name)].parameters; }
};

Run run_file(const std::string& file, const std::string& body_name, const std::vector<std::string>& overrides = {}) {
    Run out;
    out.scenario = scenario::load_scenario(std::string(UWSIM_SOURCE_DIR) + "/scenarios/" + file, overrides);
    out.model = model::build_model(out.scenario);
    const int body = out.model.body_index(body_name);
    REQUIRE(body >= 0);
    Collect sink(out.model, static_cast<std::size_t>(body));
    const integrate::RunResult result =
        integrate::run(out.model, scenario::integration_settings(out.scenario.simulation), sink);
    REQUIRE(result.outcome == integrate::Outcome::completed);
    out.samples = std::move(sink.samples);
    return out;
}

const Run& run() {
  static const Run r = run_file("bluerov2_sensors.yaml", "bluerov2/rov");
  return r;
}

// White noise per sample (noise.h (3)) and the bias walk's standard deviation after t (its
// steps, (4), add up to K·√t).
double white(const sensors::NoiseParameters& n, double rate) { return n.noise_density * std::sqrt(rate); }
double walk(const sensors::NoiseParameters& n, double t) { return n.bias_random_walk * std::sqrt(t); }

// Whether sample k is one of a sensor's ticks j/rate (every `output_rate / rate`-th row).
bool on_tick(std::size_t k, double output_rate, double rate) {
  const auto every = static_cast<std::size_t>(std::lround(output_rate / rate));
  return k % every == 0;
}

}  // namespace

TEST_CASE("bluerov2_sensors: the scenario loads without warnings and every rate divides the output rate") {
  const Run& r = run();
  CHECK(r.scenario.warnings.empty());
  REQUIRE(r.model.sensors.size() == 4);
  CHECK(r.samples.size() == 801);
  for (const sensors::Sensor& s : r.model.sensors) CHECK(dynamics::rate_divides(r.scenario.simulation.output_rate, s.parameters.rate));
}

TEST_CASE("bluerov2_sensors: the IMU reads the specific force at its point and the body's rate, within its noise") {
  const Run& r = run();
  const std::size_t imu = r.sensor("imu");
  const sensors::SensorParameters& p = r.parameters("imu");
  const double g = r.model.environment.gravity;
  const Vec3 rS = p.p_BoS_B;
  REQUIRE(p.R_BS.isIdentity(0.0));
  const sensors::NoiseParameters& acc = p.imu.accelerometer;
  const sensors::NoiseParameters& gyr = p.imu.gyroscope;
  double worst_f = 0.0, worst_w = 0.0;
  for (const Sample& s : r.samples) {
    const Vec3 v = s.nu.head<3>(), w = s.nu.tail<3>(), v_dot = s.nu_dot.head<3>(), w_dot = s.nu_dot.tail<3>();
    // [Fossen2011] eq. 2.x: a point fixed in a rotating body; minus gravity [0, 0, g] in NED.
    const Vec3 a_S = v_dot + w.cross(v) + w_dot.cross(rS) + w.cross(w.cross(rS));
    const Vec3 f_true = a_S - s.X_WB.R.transpose() * Vec3(0.0, 0.0, g);
    const Eigen::Map<const Vec3> f(s.readings[imu].data());
    const Eigen::Map<const Vec3> omega(s.readings[imu].data() + 3);
    const double band_f = 5.0 * (white(acc, p.rate) + walk(acc, s.t)) + 0.5 * acc.resolution;
    const double band_w = 5.0 * (white(gyr, p.rate) + walk(gyr, s.t));
    worst_f = std::max(worst_f, (f - f_true).cwiseAbs().maxCoeff() / band_f);
    worst_w = std::max(worst_w, (omega - w).cwiseAbs().maxCoeff() / band_w);
    if (s.t < 2.0) CHECK((f_true - Vec3(0.0, 0.0, -g)).norm() < 0.1);  // "before the surge, within 0.1 m/s² of [0, 0, −9.81]"
  }
  CHECK(worst_f <= 1.0);
  CHECK(worst_w <= 1.0);
  // The readings are noisy, not the truth: the white noise is seen (a band of 5σ is not
  // mostly empty).
  CHECK(worst_f > 0.3);
  CHECK(worst_w > 0.3);
}

TEST_CASE("bluerov2_sensors: the pressure sensor's depth is its point's true depth within 5σ and half a step") {
  const Run& r = run();
  const std::size_t depth = r.sensor("depth");
  const sensors::SensorParameters& p = r.parameters("depth");
  const double rho_g = r.model.environment.water_density * r.model.environment.gravity;
  const double band_pa = 5.0 * white(p.pressure.pressure, p.rate) + 0.5 * p.pressure.pressure.resolution;
  CHECK(band_pa / rho_g == doctest::Approx(0.0061).epsilon(0.01));  // "(6.1 mm)"
  double worst = 0.0;
  for (std::size_t k = 0; k < r.samples.size(); ++k) {
    if (!on_tick(k, r.scenario.simulation.output_rate, p.rate)) continue;
    const Sample& s = r.samples[k];
    const double z_true = (s.X_WB.p + s.X_WB.R * p.p_BoS_B).z();
    worst = std::max(worst, std::abs(s.readings[depth][1] - z_true) * rho_g / band_pa);
  }
  CHECK(worst <= 1.0);
  CHECK(worst > 0.1);
}

TEST_CASE("bluerov2_sensors: depth_late is depth ten rows later, bit for bit, NaN for its first 0.1 s") {
  const Run& r = run();
  const std::size_t now = r.sensor("depth"), late = r.sensor("depth_late");
  const double latency = r.parameters("depth_late").latency;
  const auto shift = static_cast<std::size_t>(std::lround(latency * r.scenario.simulation.output_rate));
  CHECK(shift == 10);
  for (std::size_t k = 0; k < r.samples.size(); ++k) {
    CAPTURE(k);
    for (int c = 0; c < 2; ++c) {
      if (k < shift) CHECK(std::isnan(r.samples[k].readings[late][c]));
      else CHECK(r.samples[k].readings[late][c] == r.samples[k - shift].readings[now][c]);
    }
  }
}

TEST_CASE("bluerov2_sensors: the DVL reads its point's velocity over ground within 5σ, 1.57 m/s at the steady surge") {
  const Run& r = run();
  const std::size_t dvl = r.sensor("dvl");
  const sensors::SensorParameters& p = r.parameters("dvl");
  REQUIRE(p.R_BS.isIdentity(0.0));
  const double band = 5.0 * white(p.dvl.velocity, p.rate);
  double worst = 0.0, surge = 0.0;
  int steady = 0;
  for (std::size_t k = 0; k < r.samples.size(); ++k) {
    if (!on_tick(k, r.scenario.simulation.output_rate, p.rate)) continue;
    const Sample& s = r.samples[k];
    const Vec3 v_true = s.nu.head<3>() + s.nu.tail<3>().cross(p.p_BoS_B);  // no current: over ground = through water
    const Eigen::Map<const Vec3> v(s.readings[dvl].data());
    CHECK(s.readings[dvl][4] == 1.0);  // bottom lock: about 25 m above the seabed at 30 m
    worst = std::max(worst, (v - v_true).cwiseAbs().maxCoeff() / band);
    if (s.t >= 6.0) {
      surge += v.x();
      ++steady;
    }
  }
  CHECK(worst <= 1.0);
  CHECK(worst > 0.1);
  // The surge of bluerov2_surge_steps.yaml's second step: thrust = drag 4.03u + 18.18u² at
  // 51.4 N (tests/examples/test_bluerov2_examples.cpp checks the balance); the mean of 21
  // readings over the last 2 s, within 5σ/√21 of noise and the vehicle's 0.5 % of settling.
  REQUIRE(steady == 21);
  CHECK(surge / steady == doctest::Approx(1.57).epsilon(0.005));
}

TEST_CASE("bluerov2_heavy_alpha5_hold: the arm's encoders read each joint's angle rounded down to a whole count") {
  // The quintics run from 2 to 8 s: 9 s of the run cover the whole motion.
  const Run r = run_file("bluerov2_heavy_alpha5_hold.yaml", "uvms/heavy/rov", {"simulation.duration=9"});
  const double step = 2.0 * M_PI / 4096.0;
  CHECK(step == doctest::Approx(1.53e-3).epsilon(0.002));  // "2π/4096 = 1.53 mrad"
  for (const char* joint : {"axis_e", "axis_d", "axis_c", "axis_b"}) {
    CAPTURE(joint);
    const std::string name = std::string(joint) + "_encoder";
    const std::size_t e = r.sensor(name);
    const sensors::Sensor& sensor = r.model.sensors[e];
    CHECK(sensor.parameters.encoder.counts_per_turn == 4096.0);
    CHECK(r.model.bodies[static_cast<std::size_t>(sensor.target)].joint.name == "uvms/alpha/" + std::string(joint));
    const int q_offset = r.model.bodies[static_cast<std::size_t>(sensor.target)].q_offset;
    double lowest = 1.0, highest = -1.0, moved = 0.0;
    for (const Sample& s : r.samples) {
      const double q = s.x[static_cast<std::size_t>(q_offset)];
      const double reading = s.readings[e][0], count = s.readings[e][1];
      CHECK(count == std::floor(q * (4096.0 / (2.0 * M_PI))));  // whole counts, rounded down
      CHECK(reading == doctest::Approx(count * step).epsilon(1e-15));
      lowest = std::min(lowest, (q - reading) / step);
      highest = std::max(highest, (q - reading) / step);
      moved = std::max(moved, std::abs(q - r.samples.front().x[static_cast<std::size_t>(q_offset)]));
    }
    CHECK(lowest >= 0.0);   // never above the truth
    CHECK(highest < 1.0);   // never a whole count below it
    CHECK(moved > 0.3);     // the joint did move through hundreds of counts
  }
}
