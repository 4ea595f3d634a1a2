// The BlueROV2-with-arm examples tell the truth: the trim of vehicles/bluerov2_arm.yaml from
// its own numbers (hydrostatics of every body at the initial pose), and each figure the
// scenarios' comments claim.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "inputs/channel.h"
#include "spatial/rotation.h"
#include "support/hydrostatics.h"
#include "support/recording.h"

using namespace uwsim;
using test::Hydrostatics;
using test::hydrostatics;
using spatial::Vec3;

namespace {

constexpr double kDeg = 180.0 / std::numbers::pi;

std::size_t body_index(const test::Run& run, const std::string& name) {
  const int b = run.model.body_index(name);
  REQUIRE(b >= 0);
  return static_cast<std::size_t>(b);
}
double joint_position(const test::Run& run, std::size_t k, const std::string& body) {
  return run.rec.x[k][static_cast<std::size_t>(run.model.bodies[body_index(run, body)].q_offset)];
}
Vec3 euler(const test::Run& run, std::size_t k, std::size_t b) { return spatial::euler_zyx_from_rotation(run.rec.X_WB[k][b].R); }
std::size_t sample_at(const test::Run& run, double t) {
  return static_cast<std::size_t>(std::lower_bound(run.rec.t.begin(), run.rec.t.end(), t - 1e-9) - run.rec.t.begin());
}

const char* kHeld = R"(name: trim_check
simulation: {duration: 20.0, step: 0.001, output_rate: 10.0}
include:
  - {file: vehicles/bluerov2_arm.yaml, name: uvms, position: [0.0, 0.0, 5.0]}
controllers:
  - {name: j1, type: pid, joint: uvms/arm/joint1, rate: 100.0, setpoint: 0.0, kp: 2.0, ki: 0.5, kd: 0.05, feed_forward: true}
  - {name: j2, type: pid, joint: uvms/arm/joint2, rate: 100.0, setpoint: 0.0, kp: 2.0, ki: 0.5, kd: 0.05, feed_forward: true}
  - {name: j3, type: pid, joint: uvms/arm/joint3, rate: 100.0, setpoint: 0.0, kp: 2.0, ki: 0.5, kd: 0.05, feed_forward: true}
  - {name: j4, type: pid, joint: uvms/arm/joint4, rate: 100.0, setpoint: 0.0, kp: 2.0, ki: 0.5, kd: 0.05, feed_forward: true}
)";

}  // namespace

TEST_CASE("bluerov2_arm part: with the arm at q = 0 the trimmed vehicle is 0.5 N buoyant, level, and stays level") {
  const test::Run run = test::run_text(kHeld);
  const std::size_t rov = body_index(run, "uvms/bluerov2/rov");
  // The trim the part states, from every body's weight and buoyancy at the start: net 0.5 N up,
  // and no moment about the vehicle's origin (to the rounding of the part's 4–5 digits).
  const Hydrostatics h = hydrostatics(run, 0, run.rec.X_WB[0][rov].p);
  CHECK(h.net_up == doctest::Approx(0.5).epsilon(0.01));
  CHECK(std::abs(h.moment_W.x()) < 2e-3);
  CHECK(std::abs(h.moment_W.y()) < 2e-3);
  // Held at q = 0, it stays level while it rises.
  double tilt = 0;
  for (std::size_t k = 0; k < run.rec.t.size(); ++k)
    tilt = std::max({tilt, std::abs(euler(run, k, rov)[0]), std::abs(euler(run, k, rov)[1])});
  // The climb's drag on the arm's links, 0.3 m ahead of the origin, tilts it slightly:
  // ½ρ·C_d·(2r·Σl)·w² ≈ 0.04 N at w ≈ 0.06 m/s, 0.01 N m against W·BG = 2.3 N m/rad: 0.3°.
  CHECK(tilt * kDeg < 0.5);
  CHECK(run.rec.X_WB.back()[rov].p.z() < 5.0 - 0.5);
}

TEST_CASE("bluerov2_arm_swing: joints 1-3 end at their limits, the wrist hangs, and the vehicle settles tilted where its hydrostatics balance") {
  const test::Run run = test::run_file("scenarios/bluerov2_arm_swing.yaml");
  const std::size_t rov = body_index(run, "uvms/bluerov2/rov"), end = run.rec.t.size() - 1;
  // The limits their efforts push them to; the stop lets a joint in by τ / (D ω²), under 1 mrad.
  CHECK(joint_position(run, end, "uvms/arm/base_link") == doctest::Approx(1.5).epsilon(0.001));
  CHECK(joint_position(run, end, "uvms/arm/upper_arm") == doctest::Approx(-1.2).epsilon(0.001));
  CHECK(joint_position(run, end, "uvms/arm/forearm") == doctest::Approx(2.0).epsilon(0.001));
  const double wrist = joint_position(run, end, "uvms/arm/wrist");
  CHECK(std::abs(wrist) < 2.9);  // between its ±3 rad limits
  CHECK(std::abs(wrist - joint_position(run, sample_at(run, 15.0), "uvms/arm/wrist")) < 0.01);
  // The vehicle yaws against the arm's yaw joint.
  CHECK(euler(run, end, rov)[2] * kDeg < -5.0);
  // Roll and pitch settle, tilted, where the weight and buoyancy of all bodies have no moment
  // about the vehicle's origin (the slow climb's drag adds a little).
  const Vec3 a = euler(run, sample_at(run, 10.0), rov), b = euler(run, end, rov);
  CHECK((a.head<2>() - b.head<2>()).cwiseAbs().maxCoeff() * kDeg < 0.3);
  CHECK(b.head<2>().cwiseAbs().maxCoeff() * kDeg > 2.0);
  const Hydrostatics h = hydrostatics(run, end, run.rec.X_WB[end][rov].p);
  CHECK(std::hypot(h.moment_W.x(), h.moment_W.y()) < 0.05);
}

TEST_CASE("arm_quintic_pid: the joints track within 0.02 rad while the unactuated vehicle turns against the arm") {
  const test::Run run = test::run_file("scenarios/arm_quintic_pid.yaml");
  const std::size_t rov = body_index(run, "uvms/bluerov2/rov");
  double error = 0, yaw_min = 0, tilt = 0;
  for (std::size_t k = 0; k < run.rec.t.size(); ++k) {
    for (std::size_t c = 0; c < run.model.controllers.size(); ++c) error = std::max(error, std::abs(run.rec.signals[k][c].error[0]));
    const Vec3 e = euler(run, k, rov);
    yaw_min = std::min(yaw_min, e[2]);
    tilt = std::max({tilt, std::abs(e[0]), std::abs(e[1])});
  }
  CHECK(error < 0.02);
  CHECK(yaw_min * kDeg < -5.0);  // joint 1 turns to +0.8 rad, the vehicle the other way
  CHECK(tilt * kDeg < 10.0);
  CHECK(run.rec.X_WB.back()[rov].p.z() < 5.0);  // 0.5 N buoyant: it rises
}

TEST_CASE("bluerov2_hold_pose_arm: the vehicle holds 5 mrad and 1 cm while its arm swings — buoyancy over K_P is its depth offset") {
  const test::Run run = test::run_file("scenarios/bluerov2_hold_pose_arm.yaml");
  const std::size_t rov = body_index(run, "uvms/bluerov2/rov");
  double tilt = 0, offset = 0;
  for (std::size_t k = 0; k < run.rec.t.size(); ++k) {
    tilt = std::max(tilt, euler(run, k, rov).cwiseAbs().maxCoeff());
    offset = std::max(offset, (run.rec.X_WB[k][rov].p - Vec3(0, 0, 5)).norm());
  }
  CHECK(tilt < 5e-3);
  CHECK(offset < 0.01);
  // Once the arm is still, the PD's depth error balances the net buoyancy: Δz = −(B − W)/K_P.
  const double k_p = run.scenario.controllers.at(0).pose.kp[2];
  const double predicted = -hydrostatics(run, 0, Vec3::Zero()).net_up / k_p;
  CHECK(run.rec.X_WB.back()[rov].p.z() - 5.0 == doctest::Approx(predicted).epsilon(0.05));
}

TEST_CASE("uvms_ik_reach: the arm's tip follows its path within 3 mm and ends within 0.5 mm of it") {
  const test::Run run = test::run_file("scenarios/uvms_ik_reach.yaml");
  const std::size_t rov = body_index(run, "uvms/bluerov2/rov"), wrist = body_index(run, "uvms/arm/wrist");
  const auto channel = [&](const std::string& name) {
    for (std::size_t c = 0; c < run.model.inputs.channels.size(); ++c)
      if (run.model.inputs.channels[c].name == name) return c;
    FAIL("no channel " << name);
    return std::size_t{0};
  };
  const std::size_t cx = channel("reach_x"), cy = channel("reach_y"), cz = channel("reach_z");
  double worst = 0, last = 0, vehicle = 0;
  for (std::size_t k = 0; k < run.rec.t.size(); ++k) {
    const spatial::Pose& V = run.rec.X_WB[k][rov];
    const spatial::Pose& W = run.rec.X_WB[k][wrist];
    const Vec3 tip_B = V.R.transpose() * (W.p + W.R * Vec3(0.12, 0, 0) - V.p);  // the wrist's tip, vehicle frame
    const double t = run.rec.t[k];
    const auto& ch = run.model.inputs.channels;
    const Vec3 path(inputs::evaluate(ch[cx], t, t, nullptr), inputs::evaluate(ch[cy], t, t, nullptr),
                    inputs::evaluate(ch[cz], t, t, nullptr));
    last = (tip_B - path).norm();
    worst = std::max(worst, last);
    vehicle = std::max({vehicle, (V.p - Vec3(0, 0, 5)).norm(), euler(run, k, rov).cwiseAbs().maxCoeff()});
  }
  CHECK(worst < 3e-3);
  CHECK(last < 5e-4);
  CHECK(vehicle < 5e-3);
}

TEST_CASE("uvms_ik_reach: with K_D = 0.2 the distal joints chatter at the 100 Hz controller's Nyquist frequency") {
  std::vector<std::string> stiffer;
  for (int j = 1; j <= 4; ++j) stiffer.push_back("controllers.joint" + std::to_string(j) + ".kd=0.2");
  const test::Run run = test::run_file("scenarios/uvms_ik_reach.yaml", stiffer);
  // At 100 Hz output a 50 Hz oscillation shows as joint rates far larger than the positions'
  // change between samples would give.
  const dynamics::Body& forearm = run.model.bodies[body_index(run, "uvms/arm/forearm")];
  double mismatch = 0;
  for (std::size_t k = 1; k + 1 < run.rec.t.size(); ++k) {
    const double dq = (run.rec.x[k + 1][static_cast<std::size_t>(forearm.q_offset)] -
                       run.rec.x[k - 1][static_cast<std::size_t>(forearm.q_offset)]) /
                      (run.rec.t[k + 1] - run.rec.t[k - 1]);
    mismatch = std::max(mismatch, std::abs(run.rec.x[k][static_cast<std::size_t>(forearm.v_offset)] - dq));
  }
  CHECK(mismatch > 1.0);  // rad/s; the shipped gains give under 0.01
}
