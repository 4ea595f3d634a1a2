// Geometry of a ball-screw actuator pushing a lever: joint angle q → actuator length L and its
// derivatives, and the lever arm l2·sin α of [Leborne2018] eq. 4.
// References: [Leborne2018] eq. 3–4, Fig. 2, Table II (l1, l2 of the Ariane arm).
//
// The triangle O–A–B: O on the joint axis, A the actuator's pivot on the parent link at l1
// from O, B its attachment on the moving link at l2 from O; θ = θ0 + q is the angle AOB.
//   L²  = l1² + l2² − 2 l1 l2 cos θ                    (law of cosines)               (1)
//   L'  = dL/dq  = l1 l2 sin θ / L                                                    (2)
//   L'' = d²L/dq² = (l1 l2 cos θ − L'²) / L                                           (3)
//   sin α = l1 sin θ / L                               (law of sines, α = angle OBA)  (4)
// so l2 sin α = L': the conversion factor of eq. 4, τ_l = l2 sin α · F_BS, is the virtual-work
// ratio dL/dq of the force F_BS along the actuator (pushing, i.e. lengthening L, turns the joint
// towards larger θ). With a screw of pitch p (m per revolution), the screw shaft turns
// 2π/p rad per metre of travel ([Leborne2018] eq. 3's factor 2π/p):
//   dφ_screw/dq = (2π/p)·L'                                                           (5)
// θ0 (the angle AOB at q = 0) is not in the paper; a mechanism turning the other way is a joint
// with the opposite axis. Valid for 0 < θ < π (the lever never passes through A–O–B aligned).
#pragma once

#include <cmath>
#include <numbers>

namespace uwsim::actuation {

struct BallScrewLever {
  double l1 = 0.0;            // m, |OA|, pivot on the parent
  double l2 = 0.0;            // m, |OB|, attachment on the moving link
  double angle_offset = 0.0;  // θ0, rad
  double pitch = 0.0;         // p, m of travel per screw revolution
};

struct LeverState {
  double length = 0.0;     // L, m
  double dlength = 0.0;    // L' = l2 sin α, m/rad
  double d2length = 0.0;   // L'', m/rad²
  double sin_alpha = 0.0;  // sin α
};

// (1)–(4) at joint angle q.
inline LeverState lever_state(const BallScrewLever& g, double q) {
  const double theta = g.angle_offset + q;
  const double c = std::cos(theta), s = std::sin(theta);
  LeverState st;
  st.length = std::sqrt(g.l1 * g.l1 + g.l2 * g.l2 - 2.0 * g.l1 * g.l2 * c);  // (1)
  st.dlength = g.l1 * g.l2 * s / st.length;                                   // (2)
  st.d2length = (g.l1 * g.l2 * c - st.dlength * st.dlength) / st.length;      // (3)
  st.sin_alpha = g.l1 * s / st.length;                                        // (4)
  return st;
}

// (5): screw shaft radians per joint radian.
inline double screw_ratio(const BallScrewLever& g, const LeverState& st) {
  return 2.0 * std::numbers::pi / g.pitch * st.dlength;
}

}  // namespace uwsim::actuation
