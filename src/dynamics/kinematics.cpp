// References: see kinematics.h.
#include "dynamics/kinematics.h"

#include "spatial/rotation.h"

namespace uwsim::dynamics {


void compute_kinematics(const dynamics::Model& model, const double* x, Workspace& ws) {
  const Vec3& current_W = model.environment.current_W;
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const dynamics::Body& body = model.bodies[b];
    BodyState& s = ws.bodies[b];
    Vec6 V_WB_B;
    if (body.joint.type == JointType::free) {
      const double* q = x + body.q_offset;
      const spatial::Quat q_WB(q[3], q[4], q[5], q[6]);
      s.q_WB_unit = q_WB / q_WB.norm();
      s.X_WB = Pose{spatial::rotation_from_quaternion(s.q_WB_unit), Vec3(q[0], q[1], q[2])};
      s.X_PB = s.X_WB;
      V_WB_B = Eigen::Map<const Vec6>(x + body.v_offset);
      s.c.setZero();
    } else {
      const double q = body.joint.dof() == 1 ? x[body.q_offset] : 0.0;
      const double qd = body.joint.dof() == 1 ? x[body.v_offset] : 0.0;
      body.joint.write_pose_in_parent(q, s.X_PB);
      const Vec6 joint_velocity = body.joint.motion(qd);
      if (body.parent >= 0) {
        const BodyState& parent = ws.bodies[static_cast<std::size_t>(body.parent)];
        const int k = body.joint.rotation_axis;
        s.X_WB = spatial::compose_about_axis(k, parent.X_WB, s.X_PB);
        V_WB_B = spatial::motion_to_child(k, s.X_PB, parent.motion.V_WB_B) + joint_velocity;
      } else {
        s.X_WB = s.X_PB;
        V_WB_B = joint_velocity;
      }
      s.c = spatial::cross_motion(V_WB_B, joint_velocity);
      s.armature = s.actuator_bias = 0.0;
      if (body.joint.actuator.has_motor()) {
        const actuation::JointActuation transmission = body.joint.actuator.actuation(0.0, q, qd);
        s.armature = transmission.armature;
        s.actuator_bias = transmission.bias;
      }
    }
    s.motion = body_motion(s.X_WB.R, V_WB_B, current_W);
  }
}

std::vector<Pose> world_poses(const dynamics::Model& model, const std::vector<double>& x) {
  Workspace ws(model);
  compute_kinematics(model, x.data(), ws);
  std::vector<Pose> X_WB(model.bodies.size());
  for (std::size_t b = 0; b < X_WB.size(); ++b) X_WB[b] = ws.bodies[b].X_WB;
  return X_WB;
}

}  // namespace uwsim::dynamics
