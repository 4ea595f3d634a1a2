// Paper 004 (Kolano, Palmer & Davidson) as shipped in scenarios/kolano2024/: what its README
// says each run does. (tools/random_trajectories: tests/tools/test_random_trajectories.py.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "spatial/rotation.h"
#include "support/recording.h"

using namespace uwsim;

namespace {

const std::string kDir = std::string(UWSIM_SOURCE_DIR) + "/scenarios/kolano2024/";

double degrees(double rad) { return rad * 180.0 / M_PI; }

Eigen::Vector3d rpy(const Eigen::Matrix3d& R) { return spatial::euler_zyx_from_rotation(R); }

double joint_excursion(const test::Recording& r, const std::string& body, double from_value) {
  const auto b = static_cast<std::size_t>(r.body(body));
  double m = 0.0;
  for (const auto& q : r.q) m = std::max(m, std::abs(q[b] - from_value));
  return m;
}

}  // namespace

TEST_CASE("paper 004: with the arm held at home the vehicle settles at the pool's rest attitude and rises 1.2 m in 40 s") {
  const test::Recording r = test::record(kDir + "alpha5_rest.yaml");
  REQUIRE(r.result.outcome == integrate::Outcome::completed);
  const auto rov = static_cast<std::size_t>(r.body("uvms/rov"));
  // Released level: from 20 s on, every sample within 0.3° of roll 3.8°, pitch -1.5°.
  double worst_roll = 0.0, worst_pitch = 0.0;
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    if (r.t[k] < 20.0) continue;
    const Eigen::Vector3d a = rpy(r.bodies[k][rov].R_WB);
    worst_roll = std::max(worst_roll, std::abs(degrees(a[0]) - 3.8));
    worst_pitch = std::max(worst_pitch, std::abs(degrees(a[1]) + 1.5));
  }
  CHECK(worst_roll < 0.3);
  CHECK(worst_pitch < 0.3);
  // Slightly buoyant: up through the pool's 1.2 m of water in about 40 s.
  const double rise = r.bodies.front()[rov].p_WB.z() - r.bodies.back()[rov].p_WB.z();
  CHECK(r.t.back() == doctest::Approx(40.0));
  CHECK(rise > 1.1);
  CHECK(rise < 1.3);
  // The joints stay at home (E = 3.14, D = C = B = 0) within 0.01 rad.
  CHECK(joint_excursion(r, "uvms/alpha/m2_1_1_link", 3.14) < 0.01);
  for (const char* link : {"uvms/alpha/m2_joint_link", "uvms/alpha/m2_1_2_link", "uvms/alpha/m1_link"})
    CHECK(joint_excursion(r, link, 0.0) < 0.01);
}

TEST_CASE("paper 004 read literally: Table I's controllers as printed do not hold the arm") {
  const test::Recording r = test::record(kDir + "alpha5_rest_table1.yaml");
  REQUIRE(r.result.outcome == integrate::Outcome::completed);
  // README: joint E swings between its stops (0 and 6.1 rad), and the vehicle yaws round.
  const auto e = static_cast<std::size_t>(r.body("uvms/alpha/m2_1_1_link"));
  double lowest = 10.0, highest = -10.0;
  for (const auto& q : r.q) {
    lowest = std::min(lowest, q[e]);
    highest = std::max(highest, q[e]);
  }
  CHECK(lowest < 0.1);
  CHECK(highest > 6.0);
  // ... and the other joints fold and unfold: C and B leave home (0) by more than 0.5 rad.
  CHECK(joint_excursion(r, "uvms/alpha/m2_1_2_link", 0.0) > 0.5);
  CHECK(joint_excursion(r, "uvms/alpha/m1_link", 0.0) > 0.5);
  const auto rov = static_cast<std::size_t>(r.body("uvms/rov"));
  double yaw = 0.0;
  for (const auto& b : r.bodies) yaw = std::max(yaw, std::abs(degrees(rpy(b[rov].R_WB)[2])));
  CHECK(yaw > 90.0);
}

TEST_CASE("paper 004: the arm follows its quintic trial within its speed limits while the vehicle reacts") {
  const test::Recording r = test::record(kDir + "alpha5_trajectory.yaml");
  REQUIRE(r.result.outcome == integrate::Outcome::completed);
  const std::pair<const char*, const char*> joints[] = {
      {"q_axis_e", "m2_1_1_link"}, {"q_axis_d", "m2_joint_link"}, {"q_axis_c", "m2_1_2_link"}, {"q_axis_b", "m1_link"}};
  for (const auto& [channel, link] : joints) {
    CAPTURE(channel);
    const inputs::ChannelParameters* c = nullptr;
    for (const auto& in : r.scenario.inputs)
      if (in.channel.name == channel) c = &in.channel;
    REQUIRE(c != nullptr);
    const auto b = static_cast<std::size_t>(r.body(std::string("uvms/alpha/") + link));
    double error = 0.0, speed = 0.0;
    for (std::size_t k = 0; k < r.t.size(); ++k) {
      // The quintic rest-to-rest path, written out here: from + Δ(10s³ − 15s⁴ + 6s⁵).
      const double s = std::clamp((r.t[k] - c->start) / (c->stop - c->start), 0.0, 1.0);
      const double path = c->from + (c->to - c->from) * s * s * s * (10.0 - 15.0 * s + 6.0 * s * s);
      error = std::max(error, std::abs(r.q[k][b] - path));
      speed = std::max(speed, std::abs(r.qd[k][b]));
    }
    // README: within 0.05 rad of its path, below the URDF's 0.5 rad/s.
    CHECK(error < 0.05);
    CHECK(speed < 0.5);
  }
  // README: the vehicle, settled at roll 13-15°, pitch 8° with the arm out at the start pose,
  // ends near roll -5°, pitch 7°, yawed by about 40°.
  const auto rov = static_cast<std::size_t>(r.body("uvms/rov"));
  const Eigen::Vector3d settled = rpy(r.bodies[static_cast<std::size_t>(10.0 * 50)][rov].R_WB);
  const Eigen::Vector3d end = rpy(r.bodies.back()[rov].R_WB);
  CHECK(degrees(settled[0]) > 13.0);
  CHECK(degrees(settled[0]) < 15.0);
  CHECK(degrees(settled[1]) == doctest::Approx(8.0).epsilon(0.1));
  CHECK(degrees(end[0]) == doctest::Approx(-5.0).epsilon(0.1));
  CHECK(degrees(end[1]) == doctest::Approx(7.0).epsilon(0.1));
  // README: it yaws by 43° in all: 5° while it settles (0–10 s), 36.7° as the arm moves
  // (10–35.7 s) and 1.6° in the 10 s after; each to the digits stated.
  double stop = 0.0;
  for (const auto& in : r.scenario.inputs)
    if (in.channel.name == "q_axis_e") stop = in.channel.stop;
  REQUIRE(stop == doctest::Approx(35.7).epsilon(0.01));
  std::vector<double> yaw;  // unwrapped, degrees
  for (const auto& b : r.bodies) {
    const double y = degrees(rpy(b[rov].R_WB)[2]);
    yaw.push_back(yaw.empty() ? y : yaw.back() + std::remainder(y - yaw.back(), 360.0));
  }
  const auto at = [&](double t) {
    return yaw[static_cast<std::size_t>(std::lower_bound(r.t.begin(), r.t.end(), t - 1e-9) - r.t.begin())];
  };
  CHECK(std::abs(at(10.0) - yaw.front() - 5.0) < 0.5);
  CHECK(std::abs(at(stop) - at(10.0) - 36.7) < 0.05);
  CHECK(std::abs(yaw.back() - at(stop) - 1.6) < 0.05);
  CHECK(std::abs(yaw.back() - yaw.front() - 43.0) < 0.5);
  CHECK(r.t.back() == doctest::Approx(stop + 10.0));
}
