// References: [Nielsen2018] eq. 2–7 (kinematics and the vehicle model); [Fossen2011] Ch. 6;
// [Kolano] eq. 1–3 (added mass inside the inertia, not as a lagged force).
#include "dynamics/pipeline.h"

#include <cmath>

#include "spatial/rotation.h"

namespace uwsim::dynamics {

using spatial::Quat;

namespace {

Quat unit_quaternion(const double* q) {
  const Quat quat(q[0], q[1], q[2], q[3]);
  return quat / quat.norm();
}

void compute_kinematics(const model::Model& model, const double* x, Workspace& ws) {
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const model::Body& body = model.bodies[b];
    const Mat3 R_WB = spatial::rotation_from_quaternion(unit_quaternion(x + body.q_offset + 3));
    const Vec6 V_WB_B = Eigen::Map<const Vec6>(x + body.v_offset);
    ws.motion[b] = body_motion(R_WB, V_WB_B, model.environment.current_W);
  }
}

void accumulate_forces(const model::Model& model, double schedule_time, Workspace& ws) {
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const model::Body& body = model.bodies[b];
    const BodyMotion& m = ws.motion[b];
    ws.F_Bo_B[b] = rigid_body_coriolis(body, m) + added_mass_coriolis(body, m) + damping(body, m) +
                   restoring(body, m.R_WB);
  }
  for (const model::AppliedForce& f : model.forces) {
    if (!f.active_at(schedule_time)) continue;
    const Mat3& R_WB = ws.motion[static_cast<std::size_t>(f.body)].R_WB;
    const Vec3 force_B = f.in_world_frame ? Vec3(R_WB.transpose() * f.force) : f.force;
    const Vec3 moment_B = f.in_world_frame ? Vec3(R_WB.transpose() * f.moment) : f.moment;
    ws.F_Bo_B[static_cast<std::size_t>(f.body)] +=
        spatial::force_at_point(f.p_BoP_B, force_B) + spatial::make_spatial(moment_B, Vec3::Zero());
  }
}

void compute_accelerations(const model::Model& model, Workspace& ws) {
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    ws.A_WB_B[b] = model.bodies[b].M_inv_B * ws.F_Bo_B[b];
  }
}

void write_derivatives(const model::Model& model, const double* x, const Workspace& ws,
                       double* xdot) {
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const model::Body& body = model.bodies[b];
    const BodyMotion& m = ws.motion[b];
    Eigen::Map<Vec3>(xdot + body.q_offset) = m.R_WB * spatial::linear(m.V_WB_B);
    Eigen::Map<Quat>(xdot + body.q_offset + 3) =
        spatial::quaternion_rate(unit_quaternion(x + body.q_offset + 3), spatial::angular(m.V_WB_B));
    Eigen::Map<Vec6>(xdot + body.v_offset) = ws.A_WB_B[b];
  }
}

}  // namespace

Workspace::Workspace(const model::Model& model)
    : motion(model.bodies.size()), F_Bo_B(model.bodies.size()), A_WB_B(model.bodies.size()) {}

void evaluate(const model::Model& model, double schedule_time, const double* x, double* xdot,
              Workspace& ws) {
  compute_kinematics(model, x, ws);
  accumulate_forces(model, schedule_time, ws);
  compute_accelerations(model, ws);
  write_derivatives(model, x, ws, xdot);
}

void normalize_quaternions(const model::Model& model, double* x) {
  for (const model::Body& body : model.bodies) {
    Eigen::Map<Quat> q(x + body.q_offset + 3);
    q /= q.norm();
  }
}

}  // namespace uwsim::dynamics
