// The ControllerSet's samples of the swimming manipulator's motion-control framework
// ([SverdrupThygeson2018] Fig. 5, Sec. IV–V): kinematic control (task_priority: work mode,
// eq. 42; line_of_sight: transport mode, eq. 38–41), dynamic control of the base (base_control,
// eq. 33–35), whose wrench a thrust_allocation distributes (eq. 36–37, controller_set.cpp).
// Everything is read from the accepted state of the sample (poses and velocities in the
// Workspace, after compute_kinematics_and_forces): the paper's kinematic control closes its loop
// on the measured end-effector and base poses, unlike the inverse_kinematics controller, which
// integrates its own setpoints.
#include <algorithm>

#include "control/attitude_error.h"
#include "dynamics/controller_set.h"
#include "control/task_priority.h"
#include "dynamics/crba.h"
#include "dynamics/hydrodynamics.h"
#include "spatial/rotation.h"

namespace uwsim::dynamics {

using dynamics::ControllerKind;
using spatial::Pose;
using spatial::Quat;
using spatial::Vec3;
using spatial::Vec6;

void ControllerSet::update_task_priority(std::size_t i, const double* x, dynamics::Workspace& ws) {
  const dynamics::Controller& c = model_.controllers[i];
  const std::size_t n = c.joints.size();
  const auto body_of_joint = [&](std::size_t j) { return static_cast<std::size_t>(c.chain[static_cast<std::size_t>(c.joints[j])]); };
  std::vector<double>& q_r = ik_q_[i];
  if (!ik_started_[i]) {  // the joint references start at the measured angles, the home where the base is
    for (std::size_t j = 0; j < n; ++j) q_r[j] = x[model_.bodies[body_of_joint(j)].q_offset];
    base_home_[i] = ws.bodies[static_cast<std::size_t>(c.base)].X_WB.p;
    ik_started_[i] = true;
  }
  // Measured frames: the base B, the end effector E (the point of the last link, its axes).
  const Pose& X_WB = ws.bodies[static_cast<std::size_t>(c.base)].X_WB;
  const Pose X_BW = X_WB.inverse();
  const Pose& X_WL = ws.bodies[static_cast<std::size_t>(c.body)].X_WB;
  const Pose X_WE{X_WL.R, X_WL.p + X_WL.R * c.p_EP_E};
  for (std::size_t j = 0; j < n; ++j) {
    chain_poses_[j] = X_BW * ws.bodies[body_of_joint(j)].X_WB;
    chain_axes_[j] = model_.bodies[body_of_joint(j)].joint.S_C;
  }
  const control::TaskJacobian J = control::end_effector_jacobian(X_BW * X_WE, chain_poses_.data(), chain_axes_.data(), static_cast<int>(n));

  // The setpoint of E in NED, its rate (V_d, in E) and the base's home.
  const double* values = ws.inputs.data();
  Vec3 p_d, v_d, rpy_d, rpy_rate_d;
  for (int k = 0; k < 3; ++k) {
    p_d[k] = c.position[k].value(values);
    v_d[k] = rate_of(c.position[k]);
    rpy_d[k] = c.rpy[k].value(values);
    rpy_rate_d[k] = rate_of(c.rpy[k]);
    if (c.base_home_given) base_home_[i][k] = c.base_position[k].value(values);
  }
  const Quat q_d = spatial::quaternion_from_euler_zyx(rpy_d[0], rpy_d[1], rpy_d[2]);
  Vec6 V_d;
  V_d << X_WE.R.transpose() * v_d, X_WE.R.transpose() * spatial::angular_velocity_from_euler_zyx_rates(rpy_d, rpy_rate_d);
  const Vec6 primary = V_d + c.task_gain.cwiseProduct(control::end_effector_error(X_WE, p_d, q_d));
  const Vec3 base_error_W = base_home_[i] - X_WB.p;
  const Vec3 base_velocity_B = X_WB.R.transpose() * c.base_gain.cwiseProduct(base_error_W);
  const control::ColumnVector zeta_r = control::task_priority_velocity(J, primary, base_velocity_B, c.weights, c.damping);

  dynamics::ControllerSignals& s = ws.controllers[i];
  s.setpoint << p_d, rpy_d;
  s.error << p_d - X_WE.p, control::attitude_error(spatial::quaternion_from_rotation(X_WE.R), q_d), base_error_W;
  s.output = zeta_r;
  const std::size_t first = model_.inputs.channels.size() + static_cast<std::size_t>(c.output_slot);
  for (std::size_t j = 0; j < n; ++j) {
    const double q_dot = zeta_r[6 + static_cast<Eigen::Index>(j)];
    ws.inputs[first + j] = q_r[j];
    ws.inputs[first + n + j] = q_dot;
    const dynamics::Joint& joint = model_.bodies[body_of_joint(j)].joint;
    q_r[j] = std::clamp(q_r[j] + c.period * q_dot, joint.lower, joint.upper);  // integrated, as in Sec. VI-C
  }
}

void ControllerSet::update_line_of_sight(std::size_t i, dynamics::Workspace& ws) {
  const dynamics::Controller& c = model_.controllers[i];
  const dynamics::BodyState& head = ws.bodies[static_cast<std::size_t>(c.body)];
  const spatial::Mat3& R_WH = head.X_WB.R;
  const Vec6& V_H = head.motion.V_WB_B;  // [ω; v] in the front link's frame
  const Vec3 v_P_H = spatial::linear(V_H) + spatial::angular(V_H).cross(c.p_EP_E);
  const Vec3 p_P_W = head.X_WB.p + R_WH * c.p_EP_E, v_P_W = R_WH * v_P_H;
  const Vec3 rpy = spatial::euler_zyx_from_rotation(R_WH);
  control::TransportMeasurement m;
  m.p_N = p_P_W.head<2>();
  m.v_N = v_P_W.head<2>();
  m.heading = rpy[2];
  m.heading_rate = spatial::euler_zyx_rates(rpy, R_WH * spatial::angular(V_H))[2];
  m.surge = c.transport.surge_of_end_effector
                ? v_P_H.x()
                : spatial::linear(ws.bodies[static_cast<std::size_t>(c.base)].motion.V_WB_B).x();
  control::TransportControl& control = transports_[i];
  control.update(c.path, m);

  const std::size_t n = c.joints.size();
  const std::size_t first = model_.inputs.channels.size() + static_cast<std::size_t>(c.output_slot);
  for (std::size_t j = 0; j < n; ++j) {
    const dynamics::Joint& joint = model_.bodies[static_cast<std::size_t>(c.chain[j])].joint;
    ws.inputs[first + j] = std::clamp(control.joint_reference(), joint.lower, joint.upper);
    ws.inputs[first + n + j] = control.joint_reference_rate();
  }
  dynamics::ControllerSignals& s = ws.controllers[i];
  s.setpoint << control.guidance().heading, c.transport.speed, static_cast<double>(control.guidance().segment);
  s.error << control.guidance().cross_track, control.heading_error(), control.surge_error();
  s.output = control.acceleration();
}

void ControllerSet::update_base_control(std::size_t i, dynamics::Workspace& ws) {
  const dynamics::Controller& c = model_.controllers[i];
  const auto source = static_cast<std::size_t>(c.source);
  const Vec6 V = spatial::to_fossen_order(ws.bodies[static_cast<std::size_t>(c.body)].motion.V_WB_B);
  dynamics::ControllerSignals& s = ws.controllers[i];
  // Eq. 34 on the task_priority's reference; under a line_of_sight on a zero reference, with the
  // surge and yaw entries replaced by the line_of_sight's eq. 40–41.
  const bool transport = model_.controllers[source].kind == ControllerKind::line_of_sight;
  const Vec6 V_r = transport ? Vec6::Zero() : Vec6(ws.controllers[source].output.head<6>());
  Vec6 a_b = base_controls_[i].acceleration(V, V_r);
  if (transport) {
    a_b[0] = ws.controllers[source].output[0];
    a_b[5] = ws.controllers[source].output[5];
  }
  s.error = V - V_r;
  const spatial::Mat6 M11 = dynamics::composite_inertia(model_, ws, c.body);
  const Vec6 n = base_bias(i, ws);
  s.setpoint = a_b;
  s.output = control::feedback_linearising_wrench(M11, a_b, n);  // eq. 33
}

// n of eq. 35 (Fossen order), the terms the controller cancels (base_control.h). The inverse
// dynamics' bias with every acceleration zero is linear in the body wrenches F_b of the sample:
//   h = h_c − Σ_b ᴮX_bᵀ F_b,   F_b = coriolis_b + damping_b + restoring_b + (applied, thrust, held wrenches)
// with h_c the velocity products of the joints' motion. So, with ᴮX_bᵀ F = force_to_parent(X_Bb, F):
//   n_coriolis  = h + Σ_b ᴮX_bᵀ (F_b − coriolis_b) = h_c − Σ_b ᴮX_bᵀ coriolis_b
//   n_damping   = −Σ_b ᴮX_bᵀ damping_b,   n_restoring = −Σ_b ᴮX_bᵀ restoring_b
// (dynamics/hydrodynamics.h gives coriolis_b, damping_b and restoring_b). The thrust, the held
// controller wrenches and the scenario's applied forces are in none of them: n is the model's.
Vec6 ControllerSet::base_bias(std::size_t i, dynamics::Workspace& ws) {
  const dynamics::Controller& c = model_.controllers[i];
  const dynamics::Body& base = model_.bodies[static_cast<std::size_t>(c.body)];
  const Pose X_BW = ws.bodies[static_cast<std::size_t>(c.body)].X_WB.inverse();
  Vec6 n = Vec6::Zero();  // [angular; linear]
  if (!c.cancel_coriolis && !c.cancel_damping && !c.cancel_restoring) return n;
  if (c.cancel_coriolis) n = Eigen::Map<const Vec6>(bias(ws) + (base.v_offset - model_.nq));
  for (auto b = static_cast<std::size_t>(c.body); b < static_cast<std::size_t>(base.tree_end); ++b) {
    const dynamics::Body& body = model_.bodies[b];
    const dynamics::BodyState& s = ws.bodies[b];
    const Pose X_Bb = X_BW * s.X_WB;
    if (c.cancel_coriolis) {
      const Vec6 coriolis = dynamics::coriolis(body, s.motion, model_.environment.still_water());
      n += spatial::force_to_parent(X_Bb, s.F_Bo_B - coriolis);
    }
    if (c.cancel_damping) n -= spatial::force_to_parent(X_Bb, dynamics::damping(body, s.motion));
    if (c.cancel_restoring) n -= spatial::force_to_parent(X_Bb, dynamics::restoring(body, s.motion.R_WB));
  }
  return spatial::to_fossen_order(n);
}

}  // namespace uwsim::dynamics
