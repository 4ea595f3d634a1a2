// ArduSub's MANUAL mode as a law on plain numbers: six RC channels (µs) → motor PWM (µs), for
// the BlueROV2 (frame VECTORED, 6 motors) and the BlueROV2 Heavy (VECTORED_6DOF, 8 motors).
// Written from ArduPilot's published source (ArduPilot/ardupilot, ArduSub 4.x); each step
// names the file and function it follows.
//
// 1. RC channels, in ArduSub's order (ArduSub/radio.cpp, Sub::init_rc_in(): RC1 pitch, RC2
//    roll, RC3 throttle, RC4 yaw, RC5 forward, RC6 lateral), each normalised as
//    RC_Channel::norm_input() does (libraries/RC_Channel/RC_Channel.cpp):
//      x = (pwm − trim)/(max − trim) above trim, (pwm − trim)/(trim − min) below, clamped to ±1,
//    with RCn_MIN/TRIM/MAX = 1100/1500/1900 (±400 µs of travel). MANUAL uses norm_input(), which
//    has no dead zone (the RCn_DZ defaults of 30–40 µs act in the other modes); a `dead_zone`
//    d > 0 applies norm_input_dz() instead: 0 within trim ± d, else (pwm − (trim ± d)) over the
//    remaining travel.
// 2. ModeManual::run() (ArduSub/mode_manual.cpp) hands them to the motors unchanged, except
//    yaw × ACRO_YAW_P/4.5 (`yaw_scale`, 1 at the default) and throttle as (x + 1)/2, which
//    AP_Motors::get_throttle_bidirectional() maps back to x (libraries/AP_Motors/
//    AP_Motors_Class.h: 2·(throttle − 0.5)). No throttle filter acts (PILOT_THR_FILT = 0), no
//    current limit (MOT_BAT_CURR_MAX = 0), no slew limit.
// 3. The factor tables (roll, pitch, yaw, throttle, forward, lateral) per motor:
//    libraries/AP_Motors/AP_Motors6DOF.cpp, AP_Motors6DOF::setup_motors(), cases
//    SUB_FRAME_VECTORED and SUB_FRAME_VECTORED_6DOF (kept in ardusub_mixer.cpp).
// 4. The mix, per frame (AP_Motors6DOF.cpp):
//    VECTORED, output_armed_stabilizing_vectored(): for motor i
//        rpy_i = roll·R_i + pitch·P_i + yaw·Y_i,
//        lin_i = throttle·T_i + f_i·F_i + lateral·L_i,
//        out_i = clamp(d_i·(rpy_i + lin_i), −1, 1),
//      where f_i is the forward input, except that the "rear" pair for the direction of travel
//      (motors 3–4 going forward, 1–2 going backward) gets it clamped to ±(1 − K·|throttle|)
//      (K = MOT_FV_CPLNG_K, default 1.0, floor 0): forward/vertical decoupling. No
//      normalisation: a motor's sum beyond ±1 is clipped.
//    VECTORED_6DOF, output_armed_stabilizing_vectored_6dof(): two groups, each normalised on
//      its own when some motor's share exceeds 1:
//        rpt_i = roll·R_i + pitch·P_i + throttle·T_i,   m_rpt = max(1, max_i |rpt_i|),
//        yfl_i = yaw·Y_i + forward·F_i + lateral·L_i,   m_yfl = max(1, max_i |yfl_i|),
//        out_i = clamp(d_i·(rpt_i/m_rpt + yfl_i/m_yfl), −1, 1);
//      so a saturating yaw + forward demand is scaled down as a whole (its ratio kept) and
//      never eats into roll, pitch and throttle, which the Heavy's vertical motors carry.
//    d_i = MOTk_DIRECTION (±1): a motor wired the other way round.
// 5. PWM, AP_Motors6DOF::calc_thrust_to_pwm(): 1500 + out·(MOT_PWM_MAX − 1500) for out > 0,
//    1500 + out·(1500 − MOT_PWM_MIN) otherwise (1100–1900 µs), converted to a whole µs as the
//    int16 result does (toward zero; a 1e-6 µs allowance keeps rounding from dropping a whole
//    value that is exact in ArduSub's arithmetic).
// Not modelled: the arming and spool states (the motors are armed, THROTTLE_UNLIMITED), the
// surface throttle limit, the thrust linearisation and output slew of newer ArduPilot builds
// (off by default).
#pragma once

#include <array>

namespace uwsim::control {

enum class SubFrame { vectored, vectored_6dof };

constexpr int kMaxSubMotors = 8;

// A motor's factors in AP_Motors6DOF::setup_motors()'s order.
struct MotorFactors {
  double roll, pitch, yaw, throttle, forward, lateral;
};

int motor_count(SubFrame frame);  // 6 or 8
const MotorFactors& motor_factors(SubFrame frame, int motor);  // motor = 0 … count − 1

struct SubMixerSettings {
  SubFrame frame = SubFrame::vectored_6dof;
  double rc_min = 1100.0, rc_trim = 1500.0, rc_max = 1900.0;  // µs, RCn_MIN/TRIM/MAX
  double dead_zone = 0.0;                                      // µs; 0: norm_input() as in MANUAL
  double yaw_scale = 1.0;                                      // ACRO_YAW_P / 4.5
  double forward_vertical_coupling = 1.0;                      // MOT_FV_CPLNG_K (VECTORED)
  double pwm_min = 1100.0, pwm_max = 1900.0;                   // µs, MOT_PWM_MIN/MAX
  std::array<double, kMaxSubMotors> direction{1, 1, 1, 1, 1, 1, 1, 1};  // MOTk_DIRECTION
};

// The pilot's inputs after step 2, each in [−1, 1].
struct PilotInput {
  double roll = 0, pitch = 0, yaw = 0, throttle = 0, forward = 0, lateral = 0;
};

// Step 1 for one channel.
double normalised_rc(double pwm, const SubMixerSettings& s);
// Steps 1–2: rc[0..5] = RC1…RC6 (µs).
PilotInput pilot_input(const double* rc, const SubMixerSettings& s);

struct MixResult {
  std::array<double, kMaxSubMotors> thrust{};  // out_i in [−1, 1]
  std::array<double, kMaxSubMotors> demand{};  // d_i·(rpy_i + lin_i) (VECTORED) or d_i·(rpt_i + yfl_i): before scaling and clipping
};
// Step 4.
MixResult mix(const PilotInput& in, const SubMixerSettings& s);
// Step 5.
double motor_pwm(double thrust, const SubMixerSettings& s);

}  // namespace uwsim::control
