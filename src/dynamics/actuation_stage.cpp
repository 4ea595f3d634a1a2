// References: [Nielsen2018] eq. 9 (thrust wrench about the body origin), eq. 12 (advance speed).
#include "dynamics/actuation_stage.h"

namespace uwsim::dynamics {

void sample_inputs(const dynamics::Model& model, double t, double schedule_time, Workspace& ws) {
  model.inputs.sample(t, schedule_time, ws.inputs.data());
}

void add_thruster_wrenches(const dynamics::Model& model, const double* x, Workspace& ws) {
  for (std::size_t i = 0; i < model.thrusters.size(); ++i) {
    const actuation::Thruster& thruster = model.thrusters[i];
    BodyState& body = ws.bodies[static_cast<std::size_t>(thruster.body)];
    // u_a: velocity of the thruster point relative to the water, along the axis.
    const Vec6& V_rel = body.motion.V_rel_B;
    const Vec3 v_rel_T_B = spatial::linear(V_rel) + spatial::angular(V_rel).cross(thruster.p_BoT_B);
    const double advance_speed = thruster.axis_B.dot(v_rel_T_B);
    const double lagged = thruster.state_index >= 0 ? x[thruster.state_index] : 0.0;
    const double command = thruster.command.value(ws.inputs.data());
    const actuation::ThrusterState s = actuation::evaluate_thruster(thruster, command, advance_speed, lagged);
    ws.thrusters[i] = s;
    const Vec3 force_B = s.thrust * thruster.axis_B;
    body.F_Bo_B += spatial::force_at_point(thruster.p_BoT_B, force_B) +
                   spatial::make_spatial(Vec3(thruster.reaction_torque * force_B), Vec3::Zero());
  }
}

void add_controller_wrenches(const dynamics::Model& model, Workspace& ws) {
  for (std::size_t i = 0; i < model.controllers.size(); ++i) {
    const dynamics::Controller& c = model.controllers[i];
    const bool wrench = c.kind == dynamics::ControllerKind::pose_pd || c.kind == dynamics::ControllerKind::base_control;
    if (!wrench || !c.applies_wrench) continue;
    const Vec6 tau_B = ws.controllers[i].output.head<6>();
    ws.bodies[static_cast<std::size_t>(c.body)].F_Bo_B += spatial::from_fossen_order(tau_B);
  }
}

void write_actuator_rates(const dynamics::Model& model, const Workspace& ws, double* xdot) {
  for (std::size_t i = 0; i < model.thrusters.size(); ++i) {
    const int k = model.thrusters[i].state_index;
    if (k >= 0) xdot[k] = ws.thrusters[i].lag_rate;
  }
}

}  // namespace uwsim::dynamics
