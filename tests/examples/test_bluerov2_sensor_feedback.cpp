// scenarios/bluerov2_sensor_feedback.yaml tells the truth: each sentence of its comments about the
// run, checked against the true motion (the recorded poses) and what the autopilot held. The
// filter's estimate q̂ is read back from the autopilot's attitude error: every attitude axis is
// held at level (rpy 0), so e_θ = log(q̂* ⊗ 1) = −log(q̂) (control/attitude_error.h).
#include <doctest/doctest.h>

#include <cmath>

#include "control/attitude_error.h"
#include "support/recording.h"

using namespace uwsim;
using spatial::Vec3;

namespace {

const test::Run& run() {
  static const test::Run r = test::run_file("scenarios/bluerov2_sensor_feedback.yaml");
  return r;
}

const test::Run& on_truth() {
  static const test::Run r = test::run_file("scenarios/bluerov2_sensors.yaml");
  return r;
}

std::size_t index_of(const test::Run& r, const std::string& sensor) {
  for (std::size_t i = 0; i < r.model.sensors.size(); ++i)
    if (r.model.sensors[i].parameters.name == sensor) return i;
  FAIL("no sensor " << sensor);
  return 0;
}

std::size_t vehicle(const test::Run& r) { return static_cast<std::size_t>(r.model.body_index("bluerov2/rov")); }

// The estimate's attitude q̂ = exp(−e_θ) at sample k.
spatial::Quat estimate(const test::Run& r, std::size_t k) {
  const Eigen::VectorXd& e = r.rec.signals[k][0].error;
  return spatial::quaternion_from_rotation_vector(-Vec3(e[3], e[4], e[5]));
}

Vec3 rpy(const spatial::Mat3& R) { return spatial::euler_zyx_from_rotation(R); }

}  // namespace

TEST_CASE("bluerov2_sensor_feedback: the autopilot flies on the pressure sensor, the IMU through the filter and the compass") {
  const test::Run& r = run();
  CHECK(r.scenario.warnings.empty());
  REQUIRE(r.model.controllers[0].name == "autopilot");
  const dynamics::Feedback& f = r.model.controllers[0].feedback;
  CHECK(f.depth == static_cast<int>(index_of(r, "depth")));
  CHECK(f.imu == static_cast<int>(index_of(r, "imu")));
  CHECK(f.heading == static_cast<int>(index_of(r, "compass")));
  CHECK(f.angular_rate == static_cast<int>(index_of(r, "imu")));
  CHECK(f.velocity == -1);  // "Its heave and surge velocities are the true ones"
  CHECK(f.filter.time_constant == 1.0);
  CHECK(f.filter.heading_time_constant == 2.0);
}

TEST_CASE("bluerov2_sensor_feedback: the filter's attitude before the surge, the heading, and the tilt the surge's acceleration reads") {
  const test::Run& r = run();
  const std::size_t b = vehicle(r);
  double before = 0.0, heading = 0.0, pitch_up = 0.0, estimate_level = 0.0, steady = 0.0;
  for (std::size_t k = 0; k < r.rec.t.size(); ++k) {
    const double t = r.rec.t[k];
    const spatial::Mat3& R = r.rec.X_WB[k][b].R;
    const Vec3 truth = rpy(R), est = rpy(spatial::rotation_from_quaternion(estimate(r, k)));
    if (t < 2.0) before = std::max(before, (est - truth).cwiseAbs().maxCoeff());
    heading = std::max(heading, std::abs(truth.z()));
    pitch_up = std::max(pitch_up, -truth.y());
    estimate_level = std::max(estimate_level, est.head<2>().cwiseAbs().maxCoeff());
    if (t >= 6.0) steady = std::max(steady, (est - truth).cwiseAbs().maxCoeff());
  }
  CHECK(before < 0.003);
  CHECK(heading < 0.001);
  CHECK(pitch_up < 0.1);
  CHECK(pitch_up > 0.08);  // "up to 0.1 rad": it does pitch that far
  CHECK(estimate_level < 0.02);
  CHECK(steady < 0.005);
  // The surge's acceleration, 3.1 m/s² at 2 s, and the steady 1.57 m/s.
  double surge = 0.0;
  for (std::size_t k = 0; k < r.rec.t.size(); ++k) surge = std::max(surge, r.rec.xdot[k][static_cast<std::size_t>(r.model.bodies[b].v_offset) + 3]);
  CHECK(surge == doctest::Approx(3.1).epsilon(0.02));
  CHECK(r.rec.V_WB_B.back()[b][0] == doctest::Approx(1.57).epsilon(0.005));
  // On the true state it stays within 0.01 rad.
  const test::Run& truth_run = on_truth();
  double truth_pitch = 0.0;
  for (std::size_t k = 0; k < truth_run.rec.t.size(); ++k)
    truth_pitch = std::max(truth_pitch, std::abs(rpy(truth_run.rec.X_WB[k][vehicle(truth_run)].R).y()));
  CHECK(truth_pitch < 0.01);
}

TEST_CASE("bluerov2_sensor_feedback: the true depth within 0.1 m of 5 m, and the pressure sensor's depth within its noise") {
  const test::Run& r = run();
  const std::size_t b = vehicle(r), depth = index_of(r, "depth");
  const sensors::SensorParameters& p = r.model.sensors[depth].parameters;
  const double rho_g = r.model.environment.water_density * r.model.environment.gravity;
  const double band = (5.0 * p.pressure.pressure.noise_density * std::sqrt(p.rate) + 0.5 * p.pressure.pressure.resolution) / rho_g;
  double worst_depth = 0.0, worst_reading = 0.0;
  for (std::size_t k = 0; k < r.rec.t.size(); ++k) {
    const spatial::Pose& X = r.rec.X_WB[k][b];
    worst_depth = std::max(worst_depth, std::abs(X.p.z() - 5.0));
    // Only on its ticks (50 Hz: every other row) is the reading of this row's state.
    if (k % 2 != 0) continue;
    worst_reading = std::max(worst_reading, std::abs(r.rec.sensors[k][depth][1] - (X.p + X.R * p.p_BoS_B).z()) / band);
  }
  CHECK(worst_depth < 0.1);
  CHECK(worst_depth > 0.05);
  CHECK(worst_reading <= 1.0);
  const test::Run& truth_run = on_truth();
  double truth_depth = 0.0;
  for (std::size_t k = 0; k < truth_run.rec.t.size(); ++k)
    truth_depth = std::max(truth_depth, std::abs(truth_run.rec.X_WB[k][vehicle(truth_run)].p.z() - 5.0));
  CHECK(truth_depth < 0.02);
}
