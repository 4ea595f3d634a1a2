// References: [Nielsen2018] eq. 2–7 (kinematics and the vehicle model); [Fossen2011] Ch. 6;
// [RBDA] Table 7.1; [Kolano] eq. 1–3 (added mass inside the inertia, not as a lagged force).
#include "dynamics/pipeline.h"

#include "dynamics/actuation_stage.h"
#include "dynamics/articulated_body.h"
#include "dynamics/kinematics.h"
#include "spatial/rotation.h"

namespace uwsim::dynamics {

using spatial::Quat;

namespace {

void accumulate_body_forces(const dynamics::Model& model, double schedule_time, Workspace& ws) {
  const bool still_water = model.environment.still_water();
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const dynamics::Body& body = model.bodies[b];
    const BodyMotion& m = ws.bodies[b].motion;
    ws.bodies[b].F_Bo_B = coriolis(body, m, still_water) + damping(body, m) + restoring(body, m.R_WB);
  }
  for (const dynamics::AppliedForce& f : model.forces) {
    if (!f.active_at(schedule_time)) continue;
    BodyState& s = ws.bodies[static_cast<std::size_t>(f.body)];
    const Mat3& R_WB = s.motion.R_WB;
    const double scale = f.input >= 0 ? ws.inputs[static_cast<std::size_t>(f.input)] : 1.0;
    const Vec3 force_B = scale * (f.in_world_frame ? Vec3(R_WB.transpose() * f.force) : f.force);
    const Vec3 moment_B = scale * (f.in_world_frame ? Vec3(R_WB.transpose() * f.moment) : f.moment);
    s.F_Bo_B += spatial::force_at_point(f.p_BoP_B, force_B) + spatial::make_spatial(moment_B, Vec3::Zero());
  }
}

void write_derivatives(const dynamics::Model& model, const double* x, const Workspace& ws, double* xdot) {
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const dynamics::Body& body = model.bodies[b];
    const BodyState& s = ws.bodies[b];
    if (body.joint.type == JointType::free) {
      const Vec6& V = s.motion.V_WB_B;
      Eigen::Map<Vec3>(xdot + body.q_offset) = s.motion.R_WB * spatial::linear(V);
      Eigen::Map<Quat>(xdot + body.q_offset + 3) = spatial::quaternion_rate(s.q_WB_unit, spatial::angular(V));
      Eigen::Map<Vec6>(xdot + body.v_offset) = s.A_WB_B;
    } else if (body.joint.dof() == 1) {
      xdot[body.q_offset] = x[body.v_offset];
      xdot[body.v_offset] = s.qdd;
    }
  }
}

}  // namespace

void compute_kinematics_and_forces(const dynamics::Model& model, double t, double schedule_time,
                                   const double* x, Workspace& ws) {
  compute_kinematics(model, x, ws);
  sample_inputs(model, t, schedule_time, ws);
  accumulate_body_forces(model, schedule_time, ws);
  add_thruster_wrenches(model, x, ws);
  add_controller_wrenches(model, ws);
}

void compute_kinematics_and_forces(const dynamics::Model& model, double schedule_time, const double* x,
                                   Workspace& ws) {
  compute_kinematics_and_forces(model, schedule_time, schedule_time, x, ws);
}

void evaluate(const dynamics::Model& model, double t, double schedule_time, const double* x,
              double* xdot, Workspace& ws) {
  compute_kinematics_and_forces(model, t, schedule_time, x, ws);
  articulated_body_accelerations(model, x, ws);
  ws.connectors.correct_accelerations(model, ws);
  write_derivatives(model, x, ws, xdot);
  write_actuator_rates(model, ws, xdot);
}

void evaluate(const dynamics::Model& model, double schedule_time, const double* x, double* xdot,
              Workspace& ws) {
  evaluate(model, schedule_time, schedule_time, x, xdot, ws);
}

void normalize_quaternions(const dynamics::Model& model, double* x) {
  for (const dynamics::Body& body : model.bodies) {
    if (body.joint.type != JointType::free) continue;
    Eigen::Map<Quat> q(x + body.q_offset + 3);
    q /= q.norm();
  }
}

}  // namespace uwsim::dynamics
