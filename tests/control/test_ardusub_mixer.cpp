// ArduSub's MANUAL-mode mixer (control/ardusub_mixer.h) on cases worked by hand from the
// published factor tables (ArduPilot libraries/AP_Motors/AP_Motors6DOF.cpp, setup_motors():
// SUB_FRAME_VECTORED_6DOF and SUB_FRAME_VECTORED, typed again below) and the documented steps:
// RC → ±1 over ±400 µs, the frame's mix and normalisation, 1500 + 400·out µs cut to a whole µs.
#include <doctest/doctest.h>

#include <array>
#include <cmath>

#include "control/ardusub_mixer.h"

using namespace uwsim::control;

namespace {

// Columns roll, pitch, yaw, throttle, forward, lateral, as published.
constexpr double kHeavy[8][6] = {{0, 0, 1, 0, -1, 1},   {0, 0, -1, 0, -1, -1}, {0, 0, -1, 0, 1, 1},
                                 {0, 0, 1, 0, 1, -1},   {1, -1, 0, -1, 0, 0},  {-1, -1, 0, -1, 0, 0},
                                 {1, 1, 0, -1, 0, 0},   {-1, 1, 0, -1, 0, 0}};
constexpr double kVectored[6][6] = {{0, 0, 1, 0, -1, 1}, {0, 0, -1, 0, -1, -1}, {0, 0, -1, 0, 1, 1},
                                    {0, 0, 1, 0, 1, -1}, {1, 0, 0, -1, 0, 0},   {-1, 0, 0, -1, 0, 0}};

// RC1…RC6: pitch, roll, throttle, yaw, forward, lateral; neutral 1500 unless set.
struct Sticks {
  double pitch = 1500, roll = 1500, throttle = 1500, yaw = 1500, forward = 1500, lateral = 1500;
};

std::array<double, 8> pwm(const Sticks& s, const SubMixerSettings& settings) {
  const double rc[6] = {s.pitch, s.roll, s.throttle, s.yaw, s.forward, s.lateral};
  const MixResult m = mix(pilot_input(rc, settings), settings);
  std::array<double, 8> out{};
  for (int i = 0; i < motor_count(settings.frame); ++i) out[static_cast<std::size_t>(i)] = motor_pwm(m.thrust[static_cast<std::size_t>(i)], settings);
  return out;
}

SubMixerSettings heavy() {
  SubMixerSettings s;
  s.frame = SubFrame::vectored_6dof;
  return s;
}

SubMixerSettings bluerov2() {
  SubMixerSettings s;
  s.frame = SubFrame::vectored;
  return s;
}

void check_pwm(const std::array<double, 8>& got, const std::array<double, 8>& expected, int motors) {
  for (int i = 0; i < motors; ++i) {
    CAPTURE(i + 1);
    CHECK(got[static_cast<std::size_t>(i)] == expected[static_cast<std::size_t>(i)]);
  }
}

}  // namespace

TEST_CASE("ardusub mixer: the factor tables are the published ones") {
  CHECK(motor_count(SubFrame::vectored_6dof) == 8);
  CHECK(motor_count(SubFrame::vectored) == 6);
  for (int i = 0; i < 8; ++i) {
    const MotorFactors& f = motor_factors(SubFrame::vectored_6dof, i);
    const double got[6] = {f.roll, f.pitch, f.yaw, f.throttle, f.forward, f.lateral};
    for (int k = 0; k < 6; ++k) CHECK(got[k] == kHeavy[i][k]);
  }
  for (int i = 0; i < 6; ++i) {
    const MotorFactors& f = motor_factors(SubFrame::vectored, i);
    const double got[6] = {f.roll, f.pitch, f.yaw, f.throttle, f.forward, f.lateral};
    for (int k = 0; k < 6; ++k) CHECK(got[k] == kVectored[i][k]);
  }
}

TEST_CASE("ardusub mixer: RC to the pilot's inputs, ±400 µs of travel, no dead zone in MANUAL") {
  const SubMixerSettings s = heavy();
  CHECK(normalised_rc(1500, s) == 0.0);
  CHECK(normalised_rc(1700, s) == 0.5);    // 200 / 400
  CHECK(normalised_rc(1400, s) == -0.25);  // −100 / 400
  CHECK(normalised_rc(1510, s) == 0.025);  // MANUAL's norm_input(): no dead zone
  CHECK(normalised_rc(1950, s) == 1.0);    // clamped
  CHECK(normalised_rc(1000, s) == -1.0);
  SubMixerSettings dz = s;
  dz.dead_zone = 30;  // norm_input_dz(): 0 within 1470…1530, then over the 370 µs left
  CHECK(normalised_rc(1520, dz) == 0.0);
  CHECK(normalised_rc(1630, dz) == doctest::Approx(100.0 / 370.0).epsilon(1e-15));
  CHECK(normalised_rc(1370, dz) == doctest::Approx(-100.0 / 370.0).epsilon(1e-15));
  // RCn_MIN/TRIM/MAX of 1000/1500/1900: each side over its own travel.
  SubMixerSettings wide = s;
  wide.rc_min = 1000;
  CHECK(normalised_rc(1250, wide) == -0.5);  // −250 / 500
  CHECK(normalised_rc(1700, wide) == 0.5);   // 200 / 400
  // RC1 pitch, RC2 roll, RC3 throttle, RC4 yaw, RC5 forward, RC6 lateral; yaw × ACRO_YAW_P/4.5.
  SubMixerSettings yaw = s;
  yaw.yaw_scale = 0.5;
  const double rc[6] = {1540, 1580, 1620, 1660, 1700, 1740};
  const PilotInput in = pilot_input(rc, yaw);
  CHECK(in.pitch == 0.1);
  CHECK(in.roll == 0.2);
  CHECK(in.throttle == 0.3);
  CHECK(in.yaw == 0.2);  // 0.4 × 0.5
  CHECK(in.forward == 0.5);
  CHECK(in.lateral == 0.6);
}

TEST_CASE("ardusub mixer, Heavy: pure forward, pure yaw, throttle, lateral") {
  // Forward 1700 µs → 0.5; motor i: 1500 + 400·(0.5·F_i): F = −1, −1, +1, +1, 0 … 0.
  std::array<double, 8> expected{};
  for (int i = 0; i < 8; ++i) expected[static_cast<std::size_t>(i)] = 1500 + 400 * 0.5 * kHeavy[i][4];
  check_pwm(pwm({.forward = 1700}, heavy()), expected, 8);
  check_pwm(pwm({.forward = 1700}, heavy()), {1300, 1300, 1700, 1700, 1500, 1500, 1500, 1500}, 8);
  // Yaw 1600 µs → 0.25: Y = +1, −1, −1, +1 → ±100 µs.
  check_pwm(pwm({.yaw = 1600}, heavy()), {1600, 1400, 1400, 1600, 1500, 1500, 1500, 1500}, 8);
  // Throttle 1700 µs → 0.5 (up): T = −1 on motors 5–8 → 1300; the horizontals stay neutral.
  check_pwm(pwm({.throttle = 1700}, heavy()), {1500, 1500, 1500, 1500, 1300, 1300, 1300, 1300}, 8);
  // Lateral 1400 µs → −0.25: L = +1, −1, +1, −1.
  check_pwm(pwm({.lateral = 1400}, heavy()), {1400, 1600, 1400, 1600, 1500, 1500, 1500, 1500}, 8);
  // Roll 1600 (0.25) and pitch 1450 (−0.125) on the verticals: R·0.25 + P·(−0.125).
  check_pwm(pwm({.pitch = 1450, .roll = 1600}, heavy()),
            {1500, 1500, 1500, 1500, 1500 + 400 * (0.25 + 0.125), 1500 + 400 * (-0.25 + 0.125),
             1500 + 400 * (0.25 - 0.125), 1500 + 400 * (-0.25 - 0.125)}, 8);
}

TEST_CASE("ardusub mixer, Heavy: forward + yaw beyond full scale is normalised as a group") {
  // Forward 1900 (1) + yaw 1700 (0.5): yfl_i = 0.5·Y_i + 1·F_i = −0.5, −1.5, 0.5, 1.5; the largest
  // |yfl| is 1.5, so each is divided by 1.5: −1/3, −1, 1/3, 1 → 1366.67, 1100, 1633.33, 1900,
  // cut to a whole µs: 1366, 1100, 1633, 1900. Yaw and forward keep their ratio.
  check_pwm(pwm({.yaw = 1700, .forward = 1900}, heavy()), {1366, 1100, 1633, 1900, 1500, 1500, 1500, 1500}, 8);
  // Throttle 1900 (1) + roll 1700 (0.5): rpt = R·0.5 + T·1 = −0.5, −1.5, −0.5, −1.5 on motors 5–8,
  // ÷ 1.5 → −1/3, −1, −1/3, −1.
  check_pwm(pwm({.roll = 1700, .throttle = 1900}, heavy()), {1500, 1500, 1500, 1500, 1366, 1100, 1366, 1100}, 8);
  // Both groups saturated at once: each normalised on its own; neither takes from the other.
  check_pwm(pwm({.roll = 1700, .throttle = 1900, .yaw = 1700, .forward = 1900}, heavy()),
            {1366, 1100, 1633, 1900, 1366, 1100, 1366, 1100}, 8);
  // Under full scale nothing is scaled: forward 0.5 + yaw 0.25 → yfl = −0.25, −0.75, 0.25, 0.75.
  check_pwm(pwm({.yaw = 1600, .forward = 1700}, heavy()), {1400, 1200, 1600, 1800, 1500, 1500, 1500, 1500}, 8);
  // What the normalisation took shows in the demand: motor 2 asked −1.5, got −1.
  const double rc[6] = {1500, 1500, 1500, 1700, 1900, 1500};
  const MixResult m = mix(pilot_input(rc, heavy()), heavy());
  CHECK(m.demand[1] == -1.5);
  CHECK(m.thrust[1] == -1.0);
  CHECK(m.thrust[0] == doctest::Approx(-1.0 / 3.0).epsilon(1e-15));
}

TEST_CASE("ardusub mixer: motor directions, PWM limits") {
  SubMixerSettings s = heavy();
  s.direction[1] = -1;  // MOT_2_DIRECTION = -1: motor 2's output sign flips
  check_pwm(pwm({.forward = 1700}, s), {1300, 1700, 1700, 1700, 1500, 1500, 1500, 1500}, 8);
  s = heavy();
  s.pwm_min = 1200, s.pwm_max = 1800;  // MOT_PWM_MIN/MAX: 1500 ± 300 at full scale
  check_pwm(pwm({.forward = 1900}, s), {1200, 1200, 1800, 1800, 1500, 1500, 1500, 1500}, 8);
  check_pwm(pwm({.forward = 1700}, s), {1350, 1350, 1650, 1650, 1500, 1500, 1500, 1500}, 8);
  s.pwm_min = 1100, s.pwm_max = 1800;  // unequal travel: each side scales by its own
  check_pwm(pwm({.forward = 1700}, s), {1300, 1300, 1650, 1650, 1500, 1500, 1500, 1500}, 8);
  // A whole µs toward zero, as ArduSub's int16 result: 1500 + 400/3 = 1633.3 → 1633.
  CHECK(motor_pwm(1.0 / 3.0, heavy()) == 1633);
  CHECK(motor_pwm(-1.0 / 3.0, heavy()) == 1366);
  CHECK(motor_pwm(0.0925, heavy()) == 1537);  // 400·0.0925 = 37 exactly in decimal, 36.999… in binary
}

TEST_CASE("ardusub mixer, BlueROV2 (vectored): forward, roll, the forward/vertical coupling and clipping") {
  // Forward 1700 (0.5), no throttle: 1 − K·0 = 1 limits nothing: F = −1, −1, 1, 1, 0, 0.
  check_pwm(pwm({.forward = 1700}, bluerov2()), {1300, 1300, 1700, 1700, 1500, 1500, 0, 0}, 6);
  // Roll 1700 (0.5) on the two verticals: R = +1, −1.
  check_pwm(pwm({.roll = 1700}, bluerov2()), {1500, 1500, 1500, 1500, 1700, 1300, 0, 0}, 6);
  // Forward 1800 (0.75) with throttle 1700 (0.5), K = 1: going forward, motors 3–4 get the
  // forward input clamped to 1 − 0.5 = 0.5 → 1700; motors 1–2 keep 0.75 → 1200; the verticals
  // carry the throttle, T = −1 → 1300.
  check_pwm(pwm({.throttle = 1700, .forward = 1800}, bluerov2()), {1200, 1200, 1700, 1700, 1300, 1300, 0, 0}, 6);
  // Backward: motors 1–2 are the rear pair. Forward 1200 (−0.75), throttle 1300 (−0.5).
  check_pwm(pwm({.throttle = 1300, .forward = 1200}, bluerov2()), {1700, 1700, 1200, 1200, 1700, 1700, 0, 0}, 6);
  SubMixerSettings off = bluerov2();
  off.forward_vertical_coupling = 0.0;  // K = 0: no decoupling
  check_pwm(pwm({.throttle = 1700, .forward = 1800}, off), {1200, 1200, 1800, 1800, 1300, 1300, 0, 0}, 6);
  // No normalisation on this frame: forward 1 + yaw 0.5 → −0.5, −1.5, 0.5, 1.5, each clipped to ±1.
  check_pwm(pwm({.yaw = 1700, .forward = 1900}, bluerov2()), {1300, 1100, 1700, 1900, 1500, 1500, 0, 0}, 6);
}
