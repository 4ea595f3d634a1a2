// scenarios/bluerov2_heavy_rc.yaml tells the truth: its CSV's header against the CSV's rows,
// the PWM ArduSub's mixer sends for each stick (from the published factor table, worked here),
// when it arrives (the 0.3 s delay), and each steady speed the header names, from the balance of
// the T200 thrust at those PWMs against von Benzon et al.'s drag. In the simulator: RC forward
// on a Heavy gives a pure surge force, RC yaw a pure yaw moment.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "actuation/t200.h"
#include "support/recording.h"

using namespace uwsim;

namespace {

const std::string kScenario = "scenarios/bluerov2_heavy_rc.yaml";
constexpr double kC = 0.70710678118654752;  // cos 45°

std::size_t sample_at(const test::Run& run, double t) {
  return static_cast<std::size_t>(std::lower_bound(run.rec.t.begin(), run.rec.t.end(), t - 1e-9) - run.rec.t.begin());
}
double command(const test::Run& run, double t, int motor) {
  return run.rec.thrusters[sample_at(run, t)][static_cast<std::size_t>(motor - 1)].command;
}
// The 16 V sheet's thrust (N) at a PWM.
double t200(double pwm) { return actuation::t200_thrust_table(16.0).linear(pwm); }
// x > 0 with a·x² + b·x = F.
double steady(double a, double b, double F) { return (-b + std::sqrt(b * b + 4 * a * F)) / (2 * a); }

}  // namespace

TEST_CASE("bluerov2_heavy_rc.csv: its header says what its rows hold") {
  std::ifstream in(std::string(UWSIM_SOURCE_DIR) + "/scenarios/bluerov2_heavy_rc.csv");
  REQUIRE(in);
  std::string line, header;
  while (std::getline(in, line) && line.rfind('#', 0) == 0) header += line + "\n";
  CHECK(line == "time,rc1 [us],rc2 [us],rc3 [us],rc4 [us],rc5 [us],rc6 [us]");
  CHECK(header.find("rc5) 1650 us from 1 s to 5 s") != std::string::npos);
  CHECK(header.find("rc4) 1550 us from 6 s to 9 s") != std::string::npos);
  CHECK(header.find("rc3) 1600 us from 10 s to 13 s") != std::string::npos);
  CHECK(header.find("rc6) 1400 us from 14 s to 17 s") != std::string::npos);
  CHECK(header.find("sampled\n# at 10 Hz") != std::string::npos);
  CHECK(header.find("ends at 20 s") != std::string::npos);
  struct Segment {
    int channel;
    double value, from, to;
  };
  const Segment segments[] = {{5, 1650, 1, 5}, {4, 1550, 6, 9}, {3, 1600, 10, 13}, {6, 1400, 14, 17}};
  int rows = 0;
  double last = -1;
  while (std::getline(in, line)) {
    std::istringstream cells(line);
    std::string cell;
    std::getline(cells, cell, ',');
    const double t = std::stod(cell);
    CHECK(t == doctest::Approx(0.1 * rows).epsilon(1e-12));  // 10 Hz
    for (int ch = 1; ch <= 6; ++ch) {
      std::getline(cells, cell, ',');
      double expected = 1500;
      for (const Segment& s : segments)
        if (s.channel == ch && t >= s.from - 1e-9 && t < s.to - 1e-9) expected = s.value;
      CAPTURE(t);
      CAPTURE(ch);
      CHECK(std::stod(cell) == expected);
    }
    last = t;
    ++rows;
  }
  CHECK(rows == 201);
  CHECK(last == 20.0);
}

TEST_CASE("bluerov2_heavy_rc: the mixer's PWM per stick, 0.3 s late, and the steady speeds of the header") {
  const test::Run run = test::run_file(kScenario);
  const auto& nu = run.rec.V_WB_B;
  // Forward 1650 us (0.375): F = −1, −1, +1, +1 → 1500 ∓ 400·0.375 on motors 1–4, from 1.3 s.
  for (int m = 1; m <= 8; ++m) {
    CAPTURE(m);
    CHECK(command(run, 1.28, m) == 1500);
    const double expected = m <= 2 ? 1350 : m <= 4 ? 1650 : 1500;
    CHECK(command(run, 1.3, m) == expected);
    CHECK(command(run, 5.28, m) == expected);
    CHECK(command(run, 5.3, m) == 1500);
  }
  const double X = 2 * kC * (-t200(1350) + t200(1650));
  const double u = steady(141.0, 13.7, X);
  CHECK(u == doctest::Approx(0.41).epsilon(0.012));  // the header's figure, rounded
  const std::size_t k5 = sample_at(run, 5.0);
  CHECK(nu[k5][0][0] == doctest::Approx(u).epsilon(0.015));  // the slow sinking pitches it a little (Munk)
  CHECK(std::abs(nu[k5][0][1]) < 1e-9);  // no sway,
  CHECK(std::abs(nu[k5][0][5]) < 1e-9);  // no turn
  // Yaw 1550 (0.125): Y = +1, −1, −1, +1 → 1550, 1450, 1450, 1550, from 6.3 s.
  for (int m = 1; m <= 8; ++m) {
    CAPTURE(m);
    const double expected = (m == 1 || m == 4) ? 1550 : (m == 2 || m == 3) ? 1450 : 1500;
    CHECK(command(run, 6.3, m) == expected);
    CHECK(command(run, 6.28, m) == 1500);
  }
  // Each horizontal thruster's arm about z is (0.156 + 0.111)·cos 45°.
  const double N = 2 * (0.156 + 0.111) * kC * (t200(1550) - t200(1450));
  const double r = std::sqrt(N / 1.5);
  CHECK(r == doctest::Approx(0.85).epsilon(0.006));
  CHECK(nu[sample_at(run, 9.0)][0][5] == doctest::Approx(r).epsilon(0.02));  // still coasting a little forward
  // Throttle 1600 (0.25 up): T = −1 on motors 5–8 → 1400 each, from 10.3 s; up = −w.
  for (int m = 5; m <= 8; ++m) CHECK(command(run, 10.3, m) == 1400);
  const double weight_in_water = (13.5 - 1000.0 * 0.0134) * 9.81;
  CHECK(weight_in_water == doctest::Approx(0.98).epsilon(0.005));
  const double w = steady(190.0, 33.0, -4 * t200(1400) - weight_in_water);
  CHECK(w == doctest::Approx(0.24).epsilon(0.015));
  CHECK(-nu[sample_at(run, 13.0)][0][2] == doctest::Approx(w).epsilon(0.02));
  // Lateral 1400 (−0.25): L = +1, −1, +1, −1 → 1400, 1600, 1400, 1600, from 14.3 s; port = −v.
  const double lateral[4] = {1400, 1600, 1400, 1600};
  for (int m = 1; m <= 4; ++m) CHECK(command(run, 14.3, m) == lateral[m - 1]);
  const double Y = 2 * kC * (-t200(1400) + t200(1600));
  const double v = std::sqrt(Y / 217.0);
  CHECK(v == doctest::Approx(0.27).epsilon(0.02));
  CHECK(-nu[sample_at(run, 17.0)][0][1] == doctest::Approx(v).epsilon(0.02));
}

TEST_CASE("bluerov2_heavy_rc: why its horizontal thrusters sit in the CG plane (its header)") {
  // Half forward stick: motors 1–2 at 1300 us, 3–4 at 1700 us; the surge force 8.5 cm below the CG
  // against the largest righting moment, B·BG with BG = 1 cm.
  const double X = 2 * kC * (-t200(1300) + t200(1700));
  const double lever_moment = 0.085 * X, righting = 1000.0 * 0.0134 * 9.81 * 0.01;
  CHECK(lever_moment == doctest::Approx(3.8).epsilon(0.015));
  CHECK(righting == doctest::Approx(1.3).epsilon(0.015));
  CHECK(lever_moment / righting == doctest::Approx(3.0).epsilon(0.05));
}

TEST_CASE("ardusub mixer in the simulator: RC forward on a Heavy is a pure surge force, RC yaw a pure yaw moment") {
  // The scenario's Heavy with constant sticks and no delay; the wrench about the body origin is
  // summed here from each thruster's thrust, axis and position.
  const auto wrench_for = [](const std::string& rc) {
    const test::Run run = test::run_file(kScenario, {"controllers.ardusub.rc=" + rc, "controllers.ardusub.delay=0",
                                                     "simulation.duration=0.02"});
    Eigen::Matrix<double, 6, 1> tau = Eigen::Matrix<double, 6, 1>::Zero();
    for (std::size_t k = 0; k < run.model.thrusters.size(); ++k) {
      const actuation::Thruster& th = run.model.thrusters[k];
      const Eigen::Vector3d F = run.rec.thrusters[0][k].thrust * th.axis_B;
      tau.head<3>() += F;
      tau.tail<3>() += th.p_BoT_B.cross(F);
    }
    return tau;
  };
  const Eigen::Matrix<double, 6, 1> surge = wrench_for("[1500, 1500, 1500, 1500, 1700, 1500]");
  CHECK(surge[0] == doctest::Approx(2 * kC * (-t200(1300) + t200(1700))).epsilon(1e-12));
  for (int k = 1; k < 6; ++k) CHECK(std::abs(surge[k]) < 1e-12);
  const Eigen::Matrix<double, 6, 1> yaw = wrench_for("[1500, 1500, 1500, 1600, 1500, 1500]");
  CHECK(yaw[5] == doctest::Approx(2 * (0.156 + 0.111) * kC * (t200(1600) - t200(1400))).epsilon(1e-12));
  CHECK(yaw[5] > 0.0);  // to starboard
  for (int k = 0; k < 5; ++k) CHECK(std::abs(yaw[k]) < 1e-12);
}

TEST_CASE("bluerov2_heavy_rc: repeated runs are bit-identical (delayed commands, held CSV channels)") {
  const test::Run a = test::run_file(kScenario, {"simulation.duration=7"});
  const test::Run b = test::run_file(kScenario, {"simulation.duration=7"});
  REQUIRE(a.rec.x.size() == b.rec.x.size());
  for (std::size_t k = 0; k < a.rec.x.size(); ++k) CHECK(a.rec.x[k] == b.rec.x[k]);
}
