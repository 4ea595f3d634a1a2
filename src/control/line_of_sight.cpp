// References: [SverdrupThygeson2018] eq. 38–41. Equation numbers (1)–(8): line_of_sight.h.
#include "control/line_of_sight.h"

#include <cmath>

namespace uwsim::control {

double wrap_angle(double angle) {
  const double wrapped = std::remainder(angle, 2.0 * M_PI);  // [−π, π]
  return wrapped <= -M_PI ? wrapped + 2.0 * M_PI : wrapped;
}

LosGuidance line_of_sight(const std::vector<PathSegment>& path, int current, const Eigen::Vector2d& p_N,
                          const Eigen::Vector2d& v_N, double look_ahead) {
  LosGuidance g;
  g.segment = current;
  const auto last = static_cast<int>(path.size()) - 1;
  for (;;) {  // (4)
    const PathSegment& s = path[static_cast<std::size_t>(g.segment)];
    const Eigen::Vector2d along = s.to - s.from;
    if (g.segment == last || along.dot(p_N - s.from) < along.squaredNorm()) break;
    ++g.segment;
  }
  const PathSegment& s = path[static_cast<std::size_t>(g.segment)];
  const double path_angle = std::atan2(s.to.y() - s.from.y(), s.to.x() - s.from.x());
  const double c = std::cos(path_angle), sn = std::sin(path_angle);
  g.cross_track = -sn * (p_N.x() - s.from.x()) + c * (p_N.y() - s.from.y());  // (1)
  g.heading = path_angle - std::atan(g.cross_track / look_ahead);              // (2)
  const double cross_track_rate = -sn * v_N.x() + c * v_N.y();                 // (3)
  g.heading_rate = -look_ahead * cross_track_rate / (look_ahead * look_ahead + g.cross_track * g.cross_track);
  return g;
}

void TransportControl::update(const std::vector<PathSegment>& path, const TransportMeasurement& m) {
  const TransportSettings& k = settings_;
  guidance_ = line_of_sight(path, guidance_.segment, m.p_N, m.v_N, k.look_ahead);
  heading_error_ = wrap_angle(m.heading - guidance_.heading);
  const double heading_rate_error = m.heading_rate - guidance_.heading_rate;
  q_r_ = -k.heading_gain * heading_error_;  // (5)
  q_r_rate_ = -k.heading_gain * heading_rate_error;
  surge_error_ = m.surge - k.speed;
  integral_ += k.sample_period * surge_error_;
  a_b_.setZero();  // (8)
  a_b_[0] = -k.surge_kp * surge_error_ - k.surge_ki * integral_;        // (6)
  a_b_[5] = -k.yaw_kd * heading_rate_error - k.yaw_kp * heading_error_;  // (7)
}

}  // namespace uwsim::control
