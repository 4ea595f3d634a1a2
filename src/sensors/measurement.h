// What an ideal sensor measures, from the motion of the body that carries it (before any noise,
// sensors/noise.h). B is the body frame, Bo its origin, S the sensor's frame at p_BoS_B = r.
// The body's motion comes in the dynamics' body coordinates: ω and v = the velocity of Bo, both
// in B, and their time derivatives ω̇, v̇ of those B components (the spatial acceleration in body
// coordinates, dynamics/body_state.h A_WB_B; for a free body ν̇).
//
// References: [Fossen2011] Ch. 2 (velocity and acceleration of a point of a rigid body in a
// rotating frame); [RBDA] Ch. 2 (spatial against classical acceleration: a_classical = v̇ + ω×v);
// [Groves2013] P. D. Groves, "Principles of GNSS, Inertial, and Multisensor Integrated Navigation
// Systems", 2nd ed., Ch. 2 and 4 (specific force f = a − g, what an accelerometer measures).
#pragma once

#include <algorithm>
#include <cmath>

#include "spatial/spatial.h"

namespace uwsim::sensors {

using spatial::Mat3;
using spatial::Vec3;

// Velocity of the body point r, in B:  v_S = v + ω × r                                         (1)
inline Vec3 point_velocity(const Vec3& w, const Vec3& v, const Vec3& r) { return v + w.cross(r); }

// Classical acceleration (relative to the world) of the body point r, in B:
//   a_S = v̇ + ω × v + ω̇ × r + ω × (ω × r)                                                    (2)
// (the first two terms are the classical acceleration of Bo from the body-coordinate
// derivative v̇; the last two the tangential and centripetal terms of a point fixed in B).
inline Vec3 point_acceleration(const Vec3& w, const Vec3& v, const Vec3& w_dot, const Vec3& v_dot, const Vec3& r) {
  return v_dot + w.cross(v) + w_dot.cross(r) + w.cross(w.cross(r));
}

// Specific force an accelerometer at S reads, in S: what its proof mass feels besides gravity,
//   f_S = R_BSᵀ (a_S − R_WBᵀ g_W),  g_W = [0, 0, g] in NED.                                   (3)
// At rest and level it reads [0, 0, −g]: the support pushes the proof mass up.
inline Vec3 specific_force(const Mat3& R_WB, const Mat3& R_BS, const Vec3& a_S_B, double gravity) {
  return R_BS.transpose() * (a_S_B - R_WB.transpose() * Vec3(0.0, 0.0, gravity));
}

// Absolute pressure at depth z (NED, m) under water of density rho:  p = p_atm + ρ g max(z, 0)
// (hydrostatic; above the surface the sensor is in air and reads the atmosphere).             (4)
inline double hydrostatic_pressure(double z, double rho, double gravity, double p_atm) {
  return p_atm + rho * gravity * std::max(z, 0.0);
}

// The depth a pressure sensor infers with its own density setting:  z = (p − p_atm)/(ρ_s g)   (5)
inline double depth_from_pressure(double p, double rho_sensor, double gravity, double p_atm) {
  return (p - p_atm) / (rho_sensor * gravity);
}

// An angle wrapped to (−π, π].
inline double wrap_angle(double a) {
  const double w = std::remainder(a, 2.0 * M_PI);
  return w <= -M_PI ? w + 2.0 * M_PI : w;
}

// An incremental encoder's count of a position q with `counts_per_unit` counts per radian or
// metre: the count changes as q crosses each line, n = ⌊q·c⌋, and reads back n / c.            (6)
inline double encoder_count(double q, double counts_per_unit) { return std::floor(q * counts_per_unit); }

}  // namespace uwsim::sensors
