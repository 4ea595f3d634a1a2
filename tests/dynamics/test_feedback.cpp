// Controllers on measurements (a pose_pd's `feedback`, dynamics/controller_set.h, sensors sampled
// in the loop by dynamics/sensor_set.h): ideal sensors reproduce the true-state loop; a latency
// in the depth sensor gives exactly the delayed discrete loop; the closed loop on a noisy depth
// stays within the band its noise explains. The references are independent recursions of the
// sampled loop, not the simulator's code.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "control/attitude_error.h"
#include "support/recording.h"

using namespace uwsim;
using test::Run;
using test::run_text;

namespace {

// The BlueROV2 under pose_pd + allocation toward a pose 0.3 m, 0.2 m, 0.1 m and 0.4 rad away;
// ideal sensors at its origin at the controller's rate; `feedback` the pose_pd's feedback
// mapping (empty: the true state).
std::string bluerov2_hold(const std::string& feedback) {
  return R"(name: hold
simulation: {duration: 4.0, step: 0.001, output_rate: 100.0}
include:
  - {file: vehicles/bluerov2.yaml, name: v, position: [0.0, 0.0, 5.0]}
sensors:
  - {name: mocap, type: pose, body: v/rov, rate: 100.0}
  - {name: imu, type: imu, body: v/rov, rate: 100.0}
  - {name: dvl, type: dvl, body: v/rov, rate: 100.0}
  - {name: depth, type: pressure, body: v/rov, rate: 100.0}
controllers:
  - name: pose
    type: pose_pd
    body: v/rov
    rate: 100.0
    position: [0.3, -0.2, 5.1]
    rpy: [0.0, 0.0, 0.4]
    kp: [40.0, 40.0, 40.0, 10.0, 10.0, 10.0]
    kd: [30.0, 30.0, 30.0, 3.0, 3.0, 3.0]
)" + feedback + R"(
  - name: alloc
    type: thrust_allocation
    rate: 100.0
    input: pose
    thrusters: [v/front_right, v/front_left, v/rear_right, v/rear_left,
                v/vertical_front_right, v/vertical_front_left, v/vertical_rear_right, v/vertical_rear_left]
)";
}

struct Difference {
  double position = 0.0, attitude = 0.0;
};

Difference largest_difference(const Run& a, const Run& b) {
  REQUIRE(a.rec.t.size() == b.rec.t.size());
  Difference d;
  for (std::size_t k = 0; k < a.rec.t.size(); ++k) {
    const spatial::Pose& pa = a.rec.X_WB[k][0];
    const spatial::Pose& pb = b.rec.X_WB[k][0];
    d.position = std::max(d.position, (pa.p - pb.p).cwiseAbs().maxCoeff());
    d.attitude = std::max(d.attitude, spatial::rotation_angle(pa.R.transpose() * pb.R));
  }
  return d;
}

// A neutrally buoyant 11.5 kg body with no damping: in heave a double integrator z̈ = Z/m. A
// pose_pd on depth alone (K_P, K_D on z; every other gain 0) at 100 Hz; its depth from a pressure
// sensor at the origin with `latency` and noise density `noise` (Pa/√Hz).
std::string heave_loop(double latency, double noise, double duration, double start, double seed = 1) {
  return R"(name: heave
simulation: {duration: )" + std::to_string(duration) + R"(, step: 0.001, output_rate: 100.0}
bodies:
  - {name: ball, mass: 11.5, inertia: [0.16, 0.16, 0.16], volume: 0.0115, initial: {position: [0.0, 0.0, )" +
         std::to_string(start) + R"(]}}
sensors:
  - {name: depth, type: pressure, body: ball, rate: 100.0, latency: )" + std::to_string(latency) +
         ", seed: " + std::to_string(static_cast<int>(seed)) + ", pressure: {noise_density: " + std::to_string(noise) + R"(}}
controllers:
  - name: hold
    type: pose_pd
    body: ball
    rate: 100.0
    position: [0.0, 0.0, 6.0]
    kp: [0.0, 0.0, 46.0, 0.0, 0.0, 0.0]
    kd: [0.0, 0.0, 32.2, 0.0, 0.0, 0.0]
    feedback: {depth: depth}
)";
}

constexpr double kMass = 11.5, kKp = 46.0, kKd = 32.2, kT = 0.01, kSetpoint = 6.0;

// The sampled loop written out: u_k = K_P (r − z_{k−n}) − K_D w_k held over [kT, (k+1)T], with
// z_{j<0} = z_0 (the controller holds the first reading until it is out), and the exact step of
// the double integrator under a constant force (rk4 integrates it exactly: it is a quadratic).
std::vector<double> delayed_loop(double z0, int n, int samples) {
  std::vector<double> z{z0};
  double w = 0.0;
  for (int k = 0; k < samples; ++k) {
    const double measured = z[static_cast<std::size_t>(std::max(0, k - n))];
    const double u = kKp * (kSetpoint - measured) - kKd * w;
    z.push_back(z.back() + kT * w + 0.5 * kT * kT * u / kMass);
    w += kT * u / kMass;
  }
  return z;
}

}  // namespace

TEST_CASE("feedback: ideal sensors at the origin reproduce the true-state loop of the BlueROV2") {
  // Zero noise and latency, the controller's rate, mounted at the body origin with the body's
  // axes: each reading is the true value to rounding (a quaternion through its rotation matrix
  // and back, 1e-16; a depth through p_atm + ρgz and back, |p_atm|·2⁻⁵²/(ρg) ≈ 2e-12 m), and
  // the loop, which converges, carries them without growth: within 1e-9 m and rad of the
  // true-state loop over the 4 s. (Bit for bit is not possible: those round trips round.)
  const Run truth = run_text(bluerov2_hold(""));
  const Run pose = run_text(bluerov2_hold("    feedback: {position: mocap, attitude: mocap, angular_rate: imu, velocity: dvl}"));
  const Run depth = run_text(bluerov2_hold("    feedback: {depth: depth, attitude: mocap, angular_rate: imu, velocity: dvl}"));
  const Difference dp = largest_difference(truth, pose), dd = largest_difference(truth, depth);
  CHECK(dp.position < 1e-9);
  CHECK(dp.attitude < 1e-9);
  CHECK(dd.position < 1e-9);
  CHECK(dd.attitude < 1e-9);
  // And the loop did move: the vehicle went most of the way to its setpoint (in depth a PD
  // leaves its 2 N of buoyancy over K_P = 40 N/m, 0.05 m, short).
  const spatial::Pose& end = truth.rec.X_WB.back()[0];
  CHECK(std::abs(end.p.x() - 0.3) < 0.02);
  CHECK(std::abs(end.p.y() + 0.2) < 0.02);
  CHECK(std::abs(end.p.z() - 5.1) < 0.06);
  // The sensors the controller flew on are written as measured: the DVL reads the true velocity.
  const std::size_t last = truth.rec.t.size() - 1;
  CHECK(std::abs(pose.rec.sensors[last][2][0] - pose.rec.V_WB_B[last][0][0]) < 1e-12);
}

TEST_CASE("feedback: a latency in the depth sensor gives the delayed sampled loop exactly") {
  // The loop on a depth 0.1 s (n = 10 samples) late against the recursion above with n = 10,
  // and without latency against n = 0: within the pressure round trip's rounding (2e-12 m per
  // reading, through a loop that damps it). The delay then does what a delay does to this loop
  // (ω_n = 2 rad/s, ζ = 0.7): 0.2 rad of phase at ω_n, so more overshoot of the 1 m step.
  for (int n : {0, 10}) {
    const Run run = run_text(heave_loop(n * kT, 0.0, 6.0, 5.0));
    const std::vector<double> z = delayed_loop(5.0, n, 600);
    double worst = 0.0;
    for (std::size_t k = 0; k < run.rec.t.size(); ++k) worst = std::max(worst, std::abs(run.rec.X_WB[k][0].p.z() - z[k]));
    CHECK(worst < 1e-9);
  }
  const auto overshoot = [](const std::vector<double>& z) { return *std::max_element(z.begin(), z.end()) - kSetpoint; };
  const double without = overshoot(delayed_loop(5.0, 0, 600)), with = overshoot(delayed_loop(5.0, 10, 600));
  CHECK(without < 0.06);    // ζ = 0.7: about 4.6 % (e^{−πζ/√(1−ζ²)})
  CHECK(with > without + 0.05);
}

TEST_CASE("feedback: the closed loop on a noisy depth stays within the band its noise explains") {
  // White pressure noise N = 9.81 Pa/√Hz at 100 Hz: σ_p = N√100 = 98.1 Pa, a depth noise
  // σ_n = σ_p/(ρg) = 1 cm per reading. The loop is linear: its depth error is the noise through
  // the loop's impulse response h from the measurement to z (the recursion above, driven by one
  // unit of noise), so its variance is σ_n² Σh² and the autocorrelation ρ_l = Σ h_j h_{j+l}/Σh².
  // Over N samples the sample standard deviation scatters by √(Σ_l ρ_l² / 2N) relative and the
  // mean by σ_z √(Σ_l ρ_l / N): the bands are four of those.
  const double duration = 200.0;
  const Run run = run_text(heave_loop(0.0, 9.81, duration, kSetpoint));
  // The impulse response: u_k = −K_P (z_k + n_k) − K_D w_k with n_0 = 1.
  std::vector<double> h;
  double z = 0.0, w = 0.0;
  for (int k = 0; k < 2000; ++k) {
    const double u = -kKp * (z + (k == 0 ? 1.0 : 0.0)) - kKd * w;
    z += kT * w + 0.5 * kT * kT * u / kMass;
    w += kT * u / kMass;
    h.push_back(z);
  }
  double sum_h2 = 0.0;
  for (double v : h) sum_h2 += v * v;
  double sum_rho = 0.0, sum_rho2 = 0.0;
  for (std::size_t l = 0; l < h.size(); ++l) {
    double c = 0.0;
    for (std::size_t j = 0; j + l < h.size(); ++j) c += h[j] * h[j + l];
    const double rho = c / sum_h2;
    sum_rho += (l == 0 ? 1.0 : 2.0) * rho;
    sum_rho2 += (l == 0 ? 1.0 : 2.0) * rho * rho;
  }
  const double sigma_n = 9.81 * 10.0 / (1000.0 * 9.81);
  const double sigma_z = sigma_n * std::sqrt(sum_h2);
  double mean = 0.0, square = 0.0, largest = 0.0;
  const std::size_t N = run.rec.t.size();
  for (std::size_t k = 0; k < N; ++k) {
    const double e = run.rec.X_WB[k][0].p.z() - kSetpoint;
    mean += e;
    square += e * e;
    largest = std::max(largest, std::abs(e));
  }
  mean /= static_cast<double>(N);
  const double sd = std::sqrt(square / static_cast<double>(N) - mean * mean);
  CHECK(std::abs(sd / sigma_z - 1.0) < 4.0 * std::sqrt(sum_rho2 / (2.0 * static_cast<double>(N))));
  CHECK(std::abs(mean) < 4.0 * sigma_z * std::sqrt(sum_rho / static_cast<double>(N)));
  CHECK(largest < 5.0 * sigma_z);
  // The noise reaches the vehicle: the loop passes 1 cm of reading noise as 0.85 mm of depth.
  CHECK(sigma_z == doctest::Approx(8.5e-4).epsilon(0.01));
  // The measured depth is the truth plus that 1 cm noise (the recorder writes what it flew on).
  double noise_square = 0.0;
  for (std::size_t k = 0; k < N; ++k) {
    const double n = run.rec.sensors[k][0][1] - run.rec.X_WB[k][0].p.z();
    noise_square += n * n;
  }
  CHECK(std::sqrt(noise_square / static_cast<double>(N)) == doctest::Approx(sigma_n).epsilon(4.0 / std::sqrt(2.0 * static_cast<double>(N))));
}
