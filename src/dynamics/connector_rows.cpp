// References: see connector_rows.h.
#include "dynamics/connector_rows.h"

#include <cmath>

#include "spatial/rotation.h"

namespace uwsim::dynamics {

using spatial::Mat3;
using spatial::skew;

void connector_rows(const dynamics::Connector& connector, double frequency, const BodyState& A,
                    const BodyState* B, ConnectorRows& out) {
  const Mat3& R_WA = A.X_WB.R;
  const Vec3 w_A = spatial::angular(A.motion.V_WB_B), v_A = spatial::linear(A.motion.V_WB_B);
  const Mat3 R_AB = B ? Mat3(R_WA.transpose() * B->X_WB.R) : Mat3(R_WA.transpose());
  const Vec3 d = B ? Vec3(R_WA.transpose() * (B->X_WB.p - A.X_WB.p)) : Vec3(-(R_WA.transpose() * A.X_WB.p));
  const Vec3 w_B = B ? Vec3(R_AB * spatial::angular(B->motion.V_WB_B)) : Vec3::Zero();  // ω_B' in K
  const Vec3 v_B = B ? Vec3(R_AB * spatial::linear(B->motion.V_WB_B)) : Vec3::Zero();   // R_AB v_B
  const Vec3 r = R_AB * connector.X_BK.p;
  const Vec3 p = d + r;
  const Vec3 w_rel = w_B - w_A;

  // (1), (3) and κ_p of (4)
  const Vec3 e_p = p - connector.p_AK_A;
  const Vec3 d_dot = -w_A.cross(d) + v_B - v_A;
  const Vec3 e_p_dot = d_dot + w_rel.cross(r);
  const Vec3 kappa_p = -w_A.cross(d_dot) + w_rel.cross(v_B) + w_rel.cross(w_B).cross(r) + w_rel.cross(w_rel.cross(r));
  const double w2 = frequency * frequency, two_w = 2.0 * frequency;
  out.distance = e_p.norm();
  out.R_AB = R_AB;
  out.p = p;
  out.r = r;

  const bool rigid = connector.type == dynamics::ConnectorType::rigid;
  out.rows = connector.rows();
  const int t = rigid ? 3 : 0;  // first translation row
  out.G_A.setZero();
  out.G_B.setZero();
  out.G_A.block<3, 3>(t, 0) = skew(p);
  out.G_A.block<3, 3>(t, 3) = -Mat3::Identity();
  out.G_B.block<3, 3>(t, 0) = -skew(r) * R_AB;
  out.G_B.block<3, 3>(t, 3) = R_AB;
  out.position_error.segment<3>(t) = e_p;
  out.velocity_error.segment<3>(t) = e_p_dot;
  out.b.segment<3>(t) = -kappa_p - two_w * e_p_dot - w2 * e_p;
  if (!rigid) {
    out.angle = 0.0;
    return;
  }
  // (2) and the rotation rows
  const Mat3 R_e = R_AB * connector.X_BK.R;
  const Vec3 e_theta = spatial::rotation_sine_vector(R_e);
  out.angle = spatial::rotation_angle(R_e);
  out.G_A.block<3, 3>(0, 0) = -Mat3::Identity();
  out.G_B.block<3, 3>(0, 0) = R_AB;
  out.position_error.head<3>() = e_theta;
  out.velocity_error.head<3>() = w_rel;
  out.b.head<3>() = -w_rel.cross(w_B) - two_w * w_rel - w2 * e_theta;
}

void multiply_rows(const ConnectorRows& rows, bool second, const Mat6& U, Mat6& out) {
  const int t = rows.rows == 6 ? 3 : 0;  // first translation row
  using Rows3 = Eigen::Matrix<double, 3, 6>;
  if (rows.rows != 6) out.bottomRows<3>().setZero();
  if (!second) {  // G_A = [−1, 0; S(p), −1] (rotation rows for rigid only)
    if (t == 3) out.topRows<3>() = -U.topRows<3>();
    out.middleRows<3>(t) = spatial::skew(rows.p) * U.topRows<3>() - U.bottomRows<3>();
    return;
  }
  // G_B = [R, 0; −S(r) R, R]
  const Rows3 R_w = rows.R_AB * U.topRows<3>();
  out.middleRows<3>(t) = rows.R_AB * U.bottomRows<3>() - spatial::skew(rows.r) * R_w;
  if (t == 3) out.topRows<3>() = R_w;
}

}  // namespace uwsim::dynamics
