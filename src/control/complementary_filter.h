// A complementary attitude filter: the gyroscope's rate integrated, corrected towards the
// direction of gravity the accelerometer reads and towards a heading (a heading sensor's yaw or
// a magnetometer's field), or with the heading held on the gyroscope alone.
// Reference: [Mahony2008] R. Mahony, T. Hamel, J.-M. Pflimlin, "Nonlinear complementary filters
// on the special orthogonal group", IEEE Trans. Automatic Control 53(5), 2008, eq. (32), the
// explicit complementary filter, with its integral (gyro bias) gain k_I = 0.
//
// At each sample k, T after the previous one, with the gyroscope's ω_B and the accelerometer's
// specific force f_B (both in body axes), the gyroscope's step first (a split step: a steady
// turn is then followed exactly, not one gyro step ahead) and the estimate R̂ it gives (body → NED):
//   R̂    = R̂_{k−1} exp(T ω_B)                                                          (5a)
//   v_B  = −f_B / ‖f_B‖     the measured direction of gravity (NED down, e_z) in B     (1)
//   v̂_B  = R̂ᵀ e_z           the same direction by the estimate                        (2)
//   e_ψ  = wrap(ψ_m − ψ(R̂))                         heading sensor: its yaw ψ_m (ZYX)
//        = ∠(h(R̂ m_B) → h(m_W)) about e_z           magnetometer: h the horizontal part  (3)
//   ω_c  = (1/τ) v_B × v̂_B + (1/τ_ψ) e_ψ R̂ᵀ e_z      the correction ([Mahony2008] ω_mes)  (4)
//   R̂_k  = R̂ exp(T ω_c)                                                                (5b)
// The tilt term of (4) lies in the plane orthogonal to v̂ (it tilts, never turns about the
// vertical), the heading term turns about the vertical only: R̂ exp(T e_ψ R̂ᵀe_z /τ_ψ) =
// R_z(T e_ψ/τ_ψ) R̂. For a tilt error θ between v and v̂ and an exact gyroscope, (5b) gives
// θ_k = θ_{k−1} − (T/τ) sin θ_{k−1}: Euler's step of θ̇ = −sin θ / τ, whose solution is
//   tan(θ/2) = tan(θ₀/2) e^{−t/τ}      (≈ θ₀ e^{−t/τ}: a first-order decay of time constant τ) (6)
// A constant gyroscope bias b (orthogonal to v) leaves a tilt error whose sine is bτ, reached
// as the same first-order response: θ(t) ≈ bτ (1 − e^{−t/τ}).                            (7)
// Likewise a heading error decays with τ_ψ (e_ψ is exact in yaw: ψ(R_z(δ)R) = ψ(R) + δ).
// Choices: (1) assumes the accelerometer reads gravity only (a vehicle that accelerates for
// long compared with τ tilts its estimate by atan(a/g)); with no heading source the heading
// is held: the gyroscope's integral from the start, drifting with its bias. The first sample
// starts the estimate: roll and pitch from (1) (φ = atan2(v_y, v_z), θ = −asin(v_x)), yaw from
// the heading source, or, held, the vehicle's true initial heading (aligned at launch).
// Nothing allocates.
#pragma once

#include "spatial/rotation.h"
#include "spatial/spatial.h"

namespace uwsim::control {

struct ComplementaryFilterSettings {
  double time_constant = 1.0;          // τ (s), > 0: the tilt correction's gain is 1/τ
  double heading_time_constant = 1.0;  // τ_ψ (s), > 0
};

// What the filter has for heading at a sample.
struct HeadingMeasurement {
  enum class Kind { none, yaw, field } kind = Kind::none;
  double yaw = 0.0;                                  // rad, ZYX yaw of the body (heading sensor)
  spatial::Vec3 field_B = spatial::Vec3::Zero();     // magnetometer reading in B
  spatial::Vec3 field_W = spatial::Vec3::Zero();     // the Earth's field in NED it is compared with
};

class ComplementaryFilter {
 public:
  // Throws std::invalid_argument unless both time constants are finite and > 0.
  explicit ComplementaryFilter(const ComplementaryFilterSettings& settings);

  bool started() const { return started_; }
  // Starts the estimate at q_WB (tests; the first update() starts it from its measurements).
  void start(const spatial::Quat& q_WB);
  // The first call starts the estimate (`held_yaw` is the yaw it takes without a heading
  // source); each later one is the step (5a), (1)–(4), (5b) over T = dt.
  void update(double dt, const spatial::Vec3& w_B, const spatial::Vec3& f_B, const HeadingMeasurement& heading,
              double held_yaw = 0.0);

  const spatial::Quat& attitude() const { return q_WB_; }  // q̂_WB, unit, [w x y z]

 private:
  ComplementaryFilterSettings settings_;
  spatial::Quat q_WB_ = spatial::Quat(1.0, 0.0, 0.0, 0.0);
  bool started_ = false;
};

}  // namespace uwsim::control
