// Line-of-sight guidance (control/line_of_sight.h (1)–(3)) on paths in every direction, built
// from plane geometry rather than the formulas: a point placed at along-track distance s and
// signed offset d from a segment — d along the starboard normal n = (−sin ψ_p, cos ψ_p), the
// path direction turned +90° about NED's down axis — has cross-track error d, and the LOS
// heading points at the path point Δ ahead of its foot: ψ_r = atan2 of (foot + Δ t − p).
// The shipped transport scenarios follow paths along north (ψ_p = 0), where the sine terms vanish.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "control/line_of_sight.h"

using namespace uwsim;
using Eigen::Vector2d;

TEST_CASE("line of sight: on a path in any direction the cross-track error is the signed distance to starboard and ψ_r aims Δ ahead") {
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    const double path_angle = M_PI * u(rng);
    const Vector2d t(std::cos(path_angle), std::sin(path_angle)), n(-std::sin(path_angle), std::cos(path_angle));
    control::PathSegment segment;
    segment.from = Vector2d(5.0 * u(rng), 5.0 * u(rng));
    segment.to = segment.from + 20.0 * t;
    const double s = 8.0 + 5.0 * u(rng), d = 3.0 * u(rng), look_ahead = 2.0 + u(rng);
    const Vector2d p = segment.from + s * t + d * n;
    // Moving at v: ė_y is v's starboard component.
    const Vector2d v(u(rng), u(rng));
    const control::LosGuidance g = control::line_of_sight({segment}, 0, p, v, look_ahead);
    CHECK(std::abs(g.cross_track - d) < 1e-12);
    const Vector2d aim = segment.from + (s + look_ahead) * t - p;
    CHECK(std::abs(control::wrap_angle(g.heading - std::atan2(aim.y(), aim.x()))) < 1e-12);
    // ψ̇_r = d/dt of −atan(e_y/Δ) with ė_y = n·v.
    const double e_dot = n.dot(v);
    CHECK(std::abs(g.heading_rate - (-look_ahead * e_dot / (look_ahead * look_ahead + d * d))) < 1e-12);
  }
}
