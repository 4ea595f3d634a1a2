// Transport-mode control of a swimming manipulator: line-of-sight guidance along straight path
// segments in the horizontal plane, joint angles from the heading error, and the commanded base
// accelerations for surge speed and heading.
// References: [SverdrupThygeson2018] eq. 38 (joint references), eq. 39 (LOS guidance), eq. 40–41
// (surge and yaw accelerations), Table III (gains); [Fossen2011] Sec. 10.3 (LOS for a path
// between waypoints).
//
// Horizontal NED coordinates (north, east). The USM's heading ψ is the yaw of its front link;
// the guided point P is the front end (the end effector). On a segment from a to b with path
// angle ψ_p = atan2(b_e − a_e, b_n − a_n):
//   e_y = −sin ψ_p (p_n − a_n) + cos ψ_p (p_e − a_e)     cross-track error, + to starboard   (1)
//   ψ_r = ψ_p − atan(e_y / Δ)                              LOS heading, eq. 39               (2)
//   ψ̇_r = −Δ ė_y / (Δ² + e_y²),  ė_y = −sin ψ_p ṗ_n + cos ψ_p ṗ_e                            (3)
// For ψ_p = 0 (a path parallel to the north axis, the paper's case) (1)–(2) are eq. 39 exactly.
// The active segment moves on when P's along-track distance passes the segment's end,
//   s = cos ψ_p (p_n − a_n) + sin ψ_p (p_e − a_e) ≥ |b − a|;                              (4)
// the last segment extends beyond its end. With ψ̃ = wrap(ψ − ψ_r) ∈ (−π, π]:
//   q_r = −k_ψ ψ̃,   q̇_r = −k_ψ (ψ̇ − ψ̇_r)      every listed (yaw) joint, eq. 38          (5)
//   a_1 = −k_1P (u − u_c) − k_1I ∫(u − u_c)      eq. 40, the integral summed at the samples (6)
//   a_6 = −k_6D (ψ̇ − ψ̇_r) − k_6P ψ̃              eq. 41                                    (7)
//   a_b = [a_1, 0, 0, 0, 0, a_6]                  Fossen order, the base's body frame        (8)
// The sign of (5): in this project a positive yaw-joint angle turns the head side of the joint
// to starboard (child relative to parent about z down), so the front heading is the base's plus
// the sum of the yaw angles. Eq. 38 writes q_r = +k_ψ(ψ − ψ_r) for the joint angle of the
// snake-robot papers it cites ([6]: φ_i = θ_i − θ_(i+1), tail-side link minus head-side link),
// which is the negative of ours; (5) is eq. 38 in our sign. Taken literally with our sign it
// bends the head away from the path (see the scenario folder's README).
// u is the surge of P (Method 1 of Table III, "end_effector") or of the base origin (Method 2,
// "base"). Not done: ocean-current compensation (integral LOS), depth control (the paper's
// transport mode is planar: a_2..a_5 = 0).
#pragma once

#include <vector>

#include "spatial/spatial.h"

namespace uwsim::control {

struct PathSegment {
  Eigen::Vector2d from = Eigen::Vector2d::Zero();  // m, [north, east]
  Eigen::Vector2d to = Eigen::Vector2d::UnitX();
};

struct LosGuidance {
  int segment = 0;            // the active segment after (4)
  double cross_track = 0.0;   // e_y, m (1)
  double heading = 0.0;       // ψ_r, rad (2)
  double heading_rate = 0.0;  // ψ̇_r, rad/s (3)
};

// (4) then (1)–(3) for the point at p_N moving at v_N (both [north, east]), starting from segment
// `current`. Segments must have from ≠ to.
LosGuidance line_of_sight(const std::vector<PathSegment>& path, int current, const Eigen::Vector2d& p_N,
                          const Eigen::Vector2d& v_N, double look_ahead);

// An angle wrapped into (−π, π].
double wrap_angle(double angle);

struct TransportSettings {
  double look_ahead = 2.0;      // Δ, m
  double heading_gain = 0.45;   // k_ψ, rad/rad
  double speed = 0.5;           // u_c, m/s
  bool surge_of_end_effector = false;  // Method 1 (true) or 2 (false)
  double surge_kp = 0.0, surge_ki = 0.0;  // k_1P (1/s), k_1I (1/s²)
  double yaw_kd = 0.0, yaw_kp = 0.0;      // k_6D (1/s), k_6P (1/s²)
  double sample_period = 0.02;  // s
};

// The measured quantities of one sample.
struct TransportMeasurement {
  Eigen::Vector2d p_N = Eigen::Vector2d::Zero();  // P, [north, east]
  Eigen::Vector2d v_N = Eigen::Vector2d::Zero();  // its velocity
  double heading = 0.0;       // ψ, rad: the front link's yaw
  double heading_rate = 0.0;  // ψ̇, rad/s
  double surge = 0.0;         // u, m/s (of P or of the base, per the settings)
};

// (1)–(8) with the discrete state: the active segment and the surge integral.
class TransportControl {
 public:
  explicit TransportControl(const TransportSettings& settings) : settings_(settings) {}

  void update(const std::vector<PathSegment>& path, const TransportMeasurement& m);

  const LosGuidance& guidance() const { return guidance_; }
  const spatial::Vec6& acceleration() const { return a_b_; }  // (8), [u̇ v̇ ẇ ṗ q̇ ṙ]
  double heading_error() const { return heading_error_; }     // ψ̃, rad
  double surge_error() const { return surge_error_; }         // u − u_c, m/s
  double joint_reference() const { return q_r_; }              // (5)
  double joint_reference_rate() const { return q_r_rate_; }

 private:
  TransportSettings settings_;
  LosGuidance guidance_;
  spatial::Vec6 a_b_ = spatial::Vec6::Zero();
  double integral_ = 0.0;  // ∫(u − u_c), m
  double heading_error_ = 0.0, surge_error_ = 0.0, q_r_ = 0.0, q_r_rate_ = 0.0;
};

}  // namespace uwsim::control
