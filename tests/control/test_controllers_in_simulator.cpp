// Controllers run inside the simulator, written as scenarios: a joint PID against the analytic
// second-order step response and against the exact zero-order-hold recursion at 100 Hz, and
// a pose PD whose wrench a thrust allocation reproduces exactly through the BlueROV2's eight
// table-driven thrusters.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "control/thruster_configuration.h"
#include "support/recording.h"

using namespace uwsim;
using test::run_text;
using test::Run;

namespace {

// One link on a vertical revolute joint from the world, I_zz = 0.5 kg m² about the axis (CG on
// the axis, no fluid terms), driven by a PD toward 1 rad.
std::string single_joint(double rate, double kp, double kd, double output_rate) {
  return "name: pid_step\n"
         "simulation: {duration: 3.0, step: 0.001, output_rate: " + std::to_string(output_rate) + "}\n"
         "bodies:\n"
         "  - {name: link, mass: 2.0, inertia: [0.3, 0.3, 0.5]}\n"
         "joints:\n"
         "  - {name: j, type: revolute, parent: world, child: link}\n"
         "controllers:\n"
         "  - {name: c, type: pid, joint: j, rate: " + std::to_string(rate) +
         ", setpoint: 1.0, kp: " + std::to_string(kp) + ", kd: " + std::to_string(kd) + "}\n";
}

}  // namespace

TEST_CASE("pid in the simulator: a joint of known inertia follows the analytic second-order step response") {
  // I q̈ = K_P (1 − q) − K_D q̇ with ω_n = 4 rad/s, ζ = 0.7:
  // q(t) = 1 − e^(−ζω_n t) (cos ω_d t + ζ/√(1−ζ²) sin ω_d t).
  const double I = 0.5, wn = 4.0, zeta = 0.7;
  const Run run = run_text(single_joint(1000.0, I * wn * wn, 2.0 * zeta * wn * I, 100.0));
  const double wd = wn * std::sqrt(1.0 - zeta * zeta);
  double worst = 0.0;
  for (std::size_t k = 0; k < run.rec.t.size(); ++k) {
    const double t = run.rec.t[k];
    const double q = 1.0 - std::exp(-zeta * wn * t) * (std::cos(wd * t) + zeta / std::sqrt(1.0 - zeta * zeta) * std::sin(wd * t));
    worst = std::max(worst, std::abs(run.rec.x[k][0] - q));
  }
  // Sampling at 1 kHz with zero-order hold delays the loop by about T/2 = 0.5 ms: with
  // |q̇| ≤ 2 rad/s that is ~1e-3 rad. A 10 % error in the inertia would give ~3e-2 rad.
  CHECK(worst < 2e-3);
  CHECK(std::abs(run.rec.x.back()[0] - 1.0) < 1e-3);
}

TEST_CASE("pid in the simulator: at 100 Hz the torque is held between samples (exact ZOH recursion)") {
  const double I = 0.5, kp = 8.0, kd = 2.8, T = 0.01;
  const Run run = run_text(single_joint(100.0, kp, kd, 1000.0));
  // The exact sampled system: with τ_k held on [kT, (k+1)T), q̈ = τ_k / I, so
  //   q_{k+1} = q_k + T q̇_k + T²/(2I) τ_k,  q̇_{k+1} = q̇_k + T/I τ_k,  τ_k = K_P (1 − q_k) − K_D q̇_k.
  // RK4 integrates a constant acceleration exactly, so the simulator must agree to rounding.
  double q = 0.0, qd = 0.0, worst = 0.0, worst_continuous = 0.0;
  long at = 0;  // the recursion holds (q, q̇) at sample `at`
  for (std::size_t k = 0; k < run.rec.t.size(); ++k) {
    const double t = run.rec.t[k];
    const long sample = std::lround(std::floor(t / T + 1e-9));
    // Advance the recursion to the sample at or before t, then within the held interval.
    while (at < sample) {
      const double tau = kp * (1.0 - q) - kd * qd;
      q += T * qd + T * T / (2.0 * I) * tau;
      qd += T / I * tau;
      ++at;
    }
    const double tau = kp * (1.0 - q) - kd * qd;
    const double dt = t - static_cast<double>(sample) * T;
    const double q_t = q + dt * qd + dt * dt / (2.0 * I) * tau;
    worst = std::max(worst, std::abs(run.rec.x[k][0] - q_t));
    // The held output is τ_k, and the joint's acceleration is exactly τ_k / I.
    CHECK(run.rec.signals[k][0].output[0] == doctest::Approx(tau).epsilon(1e-9));
    CHECK(run.rec.xdot[k][1] == doctest::Approx(tau / I).epsilon(1e-9));
    // A continuous PD would track differently by the held delay:
    const double wn = std::sqrt(kp / I), zeta = kd / (2.0 * std::sqrt(kp * I)), wd = wn * std::sqrt(1 - zeta * zeta);
    const double q_c = 1.0 - std::exp(-zeta * wn * t) * (std::cos(wd * t) + zeta / std::sqrt(1 - zeta * zeta) * std::sin(wd * t));
    worst_continuous = std::max(worst_continuous, std::abs(run.rec.x[k][0] - q_c));
  }
  CHECK(worst < 1e-11);
  CHECK(worst_continuous > 1e-3);  // the hold is visible: this test would see a continuous PD
}

TEST_CASE("thrust allocation in the simulator: the eight BlueROV2 thrusters deliver the pose PD's wrench exactly") {
  const std::string yaml = R"(name: hold
simulation: {duration: 4.0, step: 0.001, output_rate: 50.0}
include:
  - {file: vehicles/bluerov2.yaml, name: v, position: [0.0, 0.0, 5.0]}
controllers:
  - name: pose
    type: pose_pd
    body: v/rov
    rate: 100.0
    position: [0.3, -0.2, 5.1]
    rpy: [0.0, 0.0, 0.4]
    kp: [40.0, 40.0, 40.0, 10.0, 10.0, 10.0]
    kd: [30.0, 30.0, 30.0, 3.0, 3.0, 3.0]
  - name: alloc
    type: thrust_allocation
    rate: 100.0
    input: pose
    thrusters: [v/front_right, v/front_left, v/rear_right, v/rear_left,
                v/vertical_front_right, v/vertical_front_left, v/vertical_rear_right, v/vertical_rear_left]
)";
  const Run run = run_text(yaml);
  const dynamics::Model& m = run.model;
  REQUIRE(m.controllers.size() == 2);
  REQUIRE(m.controllers[0].kind == dynamics::ControllerKind::pose_pd);
  double largest = 0.0;
  for (std::size_t k = 0; k < run.rec.t.size(); ++k) {
    // The wrench the thrusters actually apply, from their thrusts and their geometry.
    spatial::Vec6 applied = spatial::Vec6::Zero();
    for (std::size_t j = 0; j < m.thrusters.size(); ++j) {
      const actuation::Thruster& th = m.thrusters[j];
      applied += run.rec.thrusters[k][j].thrust * control::thruster_column(th.p_BoT_B, th.axis_B);
    }
    const spatial::Vec6 wanted = run.rec.signals[k][0].output.head<6>();
    largest = std::max(largest, wanted.norm());
    CHECK((applied - wanted).norm() < 1e-9 * std::max(1.0, wanted.norm()));
    CHECK(run.rec.signals[k][1].error.norm() < 1e-9 * std::max(1.0, wanted.norm()));
  }
  CHECK(largest > 5.0);  // the check above is not about a zero wrench
  // And the vehicle heads for the setpoint.
  const dynamics::Body& rov = m.bodies[0];
  const Eigen::Vector3d p0(0.0, 0.0, 5.0), p_end = Eigen::Map<const Eigen::Vector3d>(run.rec.x.back().data() + rov.q_offset);
  const Eigen::Vector3d goal(0.3, -0.2, 5.1);
  CHECK((p_end - goal).norm() < 0.5 * (p0 - goal).norm());
}

TEST_CASE("inverse kinematics in the simulator: a planar two-link arm traces a circle, through joint PIDs") {
  // Links of 0.4 m and 0.3 m turning about vertical axes from the world; the end effector point
  // follows x = 0.45 + 0.1 cos ωt, y = 0.1 + 0.1 sin ωt (ω = 2π·0.2) from q = (0.2, 0.8), about
  // 0.23 m away. IK at 100 Hz (Λ = 10/s), joint PIDs at 1 kHz following its q_d and q̇_d.
  const std::string yaml = R"(name: ik_circle
simulation: {duration: 6.0, step: 0.001, output_rate: 50.0}
inputs:
  - {name: x_path, type: sine, amplitude: 0.1, frequency: 0.2, phase: 1.5707963267948966, offset: 0.45}
  - {name: y_path, type: sine, amplitude: 0.1, frequency: 0.2, offset: 0.1}
bodies:
  - {name: upper, mass: 1.0, inertia: [0.001, 0.014, 0.014], center_of_gravity: [0.2, 0.0, 0.0]}
  - {name: fore, mass: 0.5, inertia: [0.0005, 0.004, 0.004], center_of_gravity: [0.15, 0.0, 0.0]}
joints:
  - {name: shoulder, type: revolute, parent: world, child: upper, initial: {position: 0.2}}
  - {name: elbow, type: revolute, parent: upper, child: fore, origin: {xyz: [0.4, 0.0, 0.0]}, initial: {position: 0.8}}
controllers:
  - {name: reach, type: inverse_kinematics, rate: 100.0, end_effector: fore, point: [0.3, 0.0, 0.0],
     position: [x_path, y_path, 0.0], gain: 10.0, damping: 0.0}
  - {name: shoulder_pid, type: pid, joint: shoulder, rate: 1000.0, setpoint: reach, kp: 50.0, kd: 5.0}
  - {name: elbow_pid, type: pid, joint: elbow, rate: 1000.0, setpoint: reach, kp: 50.0, kd: 5.0}
)";
  const Run run = run_text(yaml);
  const double w = 2.0 * M_PI * 0.2;
  auto fk = [](double q1, double q2) {
    return Eigen::Vector2d(0.4 * std::cos(q1) + 0.3 * std::cos(q1 + q2), 0.4 * std::sin(q1) + 0.3 * std::sin(q1 + q2));
  };
  std::size_t ik = 0;
  while (run.model.controllers[ik].kind != dynamics::ControllerKind::inverse_kinematics) ++ik;
  double worst_ik = 0.0, worst_arm = 0.0;
  for (std::size_t k = 0; k < run.rec.t.size(); ++k) {
    const double t = run.rec.t[k];
    const Eigen::Vector2d x_d(0.45 + 0.1 * std::cos(w * t), 0.1 + 0.1 * std::sin(w * t));
    const control::ColumnVector& q_d = run.rec.signals[k][ik].output;
    if (t < 1.0) continue;  // converging from the start pose (e^(−Λt))
    // Independent planar forward kinematics of the IK's setpoints, and of the arm itself.
    worst_ik = std::max(worst_ik, (fk(q_d[0], q_d[1]) - x_d).norm());
    worst_arm = std::max(worst_arm, (fk(run.rec.x[k][0], run.rec.x[k][1]) - x_d).norm());
  }
  CHECK(worst_ik < 1e-3);
  CHECK(worst_arm < 5e-3);
  // At the start the point was 0.23 m off the path: the loop did the work.
  CHECK((fk(0.2, 0.8) - Eigen::Vector2d(0.55, 0.1)).norm() > 0.2);
}

TEST_CASE("thrust allocation in the simulator: a thruster on a moving link enters through its current pose") {
  // The BlueROV2's eight thrusters plus a ninth on a link that swings on a vertical joint under
  // a sine torque. At every sample the thrusts, placed where the thrusters are at that instant,
  // must give the pose PD's wrench about the vehicle origin; with the link's pose frozen at
  // q = 0 they would not (checked too).
  const std::string yaml = R"(name: moving_thruster
simulation: {duration: 3.0, step: 0.001, output_rate: 50.0}
include:
  - {file: vehicles/bluerov2.yaml, name: v, position: [0.0, 0.0, 5.0]}
inputs:
  - {name: swing, type: sine, amplitude: 0.05, frequency: 0.5}
bodies:
  - {name: boom, mass: 0.5, inertia: [0.0005, 0.004, 0.004], center_of_gravity: [0.15, 0.0, 0.0], volume: 0.0005,
     center_of_buoyancy: [0.15, 0.0, 0.0]}
joints:
  - {name: hinge, type: revolute, parent: v/rov, child: boom, origin: {xyz: [0.2, 0.0, 0.1]},
     initial: {position: 0.4}, actuator: {type: effort, input: swing}}
thrusters:
  - {name: boom_thruster, body: boom, position: [0.3, 0.0, 0.0], direction: [0.0, 1.0, 0.0], input: 0.0,
     model: linear, gain: 1.0, command_limits: [-20.0, 20.0]}
controllers:
  - {name: pose, type: pose_pd, body: v/rov, rate: 100.0, position: [0.3, -0.2, 5.1], rpy: [0.0, 0.0, 0.4],
     kp: [40.0, 40.0, 40.0, 10.0, 10.0, 10.0], kd: [30.0, 30.0, 30.0, 3.0, 3.0, 3.0]}
  - name: alloc
    type: thrust_allocation
    rate: 100.0
    input: pose
    thrusters: [v/front_right, v/front_left, v/rear_right, v/rear_left, v/vertical_front_right,
                v/vertical_front_left, v/vertical_rear_right, v/vertical_rear_left, boom_thruster]
)";
  const Run run = run_text(yaml);
  const dynamics::Model& m = run.model;
  const std::size_t vehicle = static_cast<std::size_t>(m.body_index("v/rov"));
  const std::size_t boom = static_cast<std::size_t>(m.body_index("boom"));
  double frozen_miss = 0.0, boom_thrust = 0.0;
  for (std::size_t k = 0; k < run.rec.t.size(); ++k) {
    const spatial::Pose X_BW = run.rec.X_WB[k][vehicle].inverse();
    spatial::Vec6 applied = spatial::Vec6::Zero(), frozen = spatial::Vec6::Zero();
    for (std::size_t j = 0; j < m.thrusters.size(); ++j) {
      const actuation::Thruster& th = m.thrusters[j];
      const spatial::Pose X_BL = X_BW * run.rec.X_WB[k][static_cast<std::size_t>(th.body)];
      const spatial::Vec3 p_B = X_BL.p + X_BL.R * th.p_BoT_B, d_B = X_BL.R * th.axis_B;
      applied += run.rec.thrusters[k][j].thrust * control::thruster_column(p_B, d_B);
      const spatial::Pose X_BL0 = static_cast<std::size_t>(th.body) == boom ? m.bodies[boom].joint.pose_in_parent(0.0) : X_BL;
      frozen += run.rec.thrusters[k][j].thrust *
                control::thruster_column(X_BL0.p + X_BL0.R * th.p_BoT_B, X_BL0.R * th.axis_B);
      if (static_cast<std::size_t>(th.body) == boom) boom_thrust = std::max(boom_thrust, std::abs(run.rec.thrusters[k][j].thrust));
    }
    const spatial::Vec6 wanted = run.rec.signals[k][0].output.head<6>();
    CHECK((applied - wanted).norm() < 1e-9 * std::max(1.0, wanted.norm()));
    frozen_miss = std::max(frozen_miss, (frozen - wanted).norm());
  }
  CHECK(boom_thrust > 0.1);    // the link's thruster takes part
  CHECK(frozen_miss > 1e-2);   // and where it sits matters
}
