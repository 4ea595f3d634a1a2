// References: [Mahony2008] eq. (32). The step (5a), (1)–(4), (5b) is complementary_filter.h's: the
// gyro first, then the correction compares the measurements with the estimate at the same
// instant (evaluated at R̂_{k−1} it would lead a steady turn by one gyro step). A gyro bias's
// fixed point is then sin(θ + Tb) = bτ.
#include "control/complementary_filter.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace uwsim::control {

using spatial::Mat3;
using spatial::Quat;
using spatial::Vec3;

namespace {

double wrapped(double a) {
  const double w = std::remainder(a, 2.0 * M_PI);
  return w <= -M_PI ? w + 2.0 * M_PI : w;
}

// e_ψ of (3) at the estimate R̂.
double heading_error(const Mat3& R_WB, const HeadingMeasurement& h) {
  switch (h.kind) {
    case HeadingMeasurement::Kind::none: return 0.0;
    case HeadingMeasurement::Kind::yaw: return wrapped(h.yaw - spatial::euler_zyx_from_rotation(R_WB).z());
    case HeadingMeasurement::Kind::field: {
      const Vec3 m_W = R_WB * h.field_B;  // the measured field in NED by the estimate
      // The turn about e_z from the horizontal part of m_W to that of the reference field.
      return std::atan2(m_W.x() * h.field_W.y() - m_W.y() * h.field_W.x(), m_W.x() * h.field_W.x() + m_W.y() * h.field_W.y());
    }
  }
  return 0.0;
}

}  // namespace

ComplementaryFilter::ComplementaryFilter(const ComplementaryFilterSettings& settings) : settings_(settings) {
  if (!(settings.time_constant > 0.0) || !std::isfinite(settings.time_constant) ||
      !(settings.heading_time_constant > 0.0) || !std::isfinite(settings.heading_time_constant))
    throw std::invalid_argument("ComplementaryFilter: time constants must be finite and > 0");
}

void ComplementaryFilter::start(const Quat& q_WB) {
  q_WB_ = q_WB.normalized();
  started_ = true;
}

void ComplementaryFilter::update(double dt, const Vec3& w_B, const Vec3& f_B, const HeadingMeasurement& heading,
                                 double held_yaw) {
  const Vec3 v_B = -f_B.normalized();  // (1)
  if (!started_) {
    // Roll and pitch from gravity alone (v_B = R_WBᵀ e_z = [−sin θ, cos θ sin φ, cos θ cos φ]),
    // yaw from the heading source: its error (3) at yaw 0 is the yaw itself.
    const double roll = std::atan2(v_B.y(), v_B.z()), pitch = -std::asin(std::clamp(v_B.x(), -1.0, 1.0));
    const Mat3 level = spatial::rotation_from_euler_zyx(Vec3(roll, pitch, 0.0));
    const double yaw = heading.kind == HeadingMeasurement::Kind::none ? held_yaw : heading_error(level, heading);
    start(spatial::quaternion_from_euler_zyx(roll, pitch, yaw));
    return;
  }
  const Quat q_predicted = spatial::quaternion_product(q_WB_, spatial::quaternion_from_rotation_vector(dt * w_B));  // (5a)
  const Mat3 R_WB = spatial::rotation_from_quaternion(q_predicted.normalized());
  const Vec3 up_B = R_WB.transpose() * Vec3::UnitZ();                                     // (2)
  const Vec3 w_c = v_B.cross(up_B) / settings_.time_constant +
                   heading_error(R_WB, heading) / settings_.heading_time_constant * up_B;  // (4)
  q_WB_ = spatial::quaternion_product(q_predicted, spatial::quaternion_from_rotation_vector(dt * w_c)).normalized();  // (5b)
}

}  // namespace uwsim::control
