// The controllers of a run, stepped by the integrator driver (contract: control/sample_clock.h).
//
// At an accepted step end t, update(t, x, ws) takes the sample of every controller that is due,
// in the model's order (pose_pd, line_of_sight, task_priority, base_control, thrust_allocation,
// ardusub_mixer, inverse_kinematics, pid, so an allocation reads the wrench its pose or base controller computed
// at the same instant, a base_control the reference of its kinematic controller, and a pid the
// q_d its IK, task_priority or line_of_sight computed), and writes what they hold until
// their next sample into the Workspace: the command slots after the channels and the
// ControllerSignals (dynamics/controller.h). Derivative evaluations only read those; they never
// advance a controller, so the result does not depend on the integrator's stage times.
//
// What a sample reads, all at the accepted state x and time t:
//   - kinematics, channels and body forces (dynamics::compute_kinematics_and_forces);
//   - setpoint rates q̇_d, v_d, ω_d as central differences of the setpoint channels over
//     t ± 1e-6 s, each channel on the branch it has at t (a step has rate 0, a quintic its
//     derivative to ~1e-10 relative);
//   - for a pid with feed_forward: τ_ff = h(q, v), the joint torque of inverse dynamics with
//     v̇ = 0 (dynamics/rnea.h) — Coriolis, fluid, weight and buoyancy, and the applied forces,
//     so the joint is held against everything but inertia ([Kolano] eq. 4's bias term). On a
//     floating base this takes the base acceleration as zero.
//   - thrust_allocation: the configuration matrix from the thrusters' current poses in the
//     vehicle frame ([SverdrupThygeson2018] eq. 25–26: rebuilt at every sample, so thrusters
//     on moving links are allowed), u by control/thrust_allocation.h, commands by the inverse
//     of each thruster's map (actuation/thrust_inverse.h).
//   - inverse_kinematics, closed-loop on its own joint setpoints q_d ([SverdrupThygeson2018]
//     eq. 28 with eq. 31's damped solution; [LeonGonzalez2024] Sec. 6.6): with x(q_d) and the
//     point Jacobian J(q_d) (3 × n, position only) from forward kinematics along the chain in
//     the base body's frame,
//       q̇_d = Jᵀ(JJᵀ + λ²I)⁻¹ (ẋ_d + Λ (x_d − x(q_d))),   q_d ← q_d + T q̇_d (clamped to limits)
//     q_d starts at the measured joint positions. It holds q_d and q̇_d, which the pids that
//     name it as `setpoint` track. A setpoint in NED is brought into the base frame with the
//     base's measured pose at the sample (its velocity is not fed forward).
//   - task_priority, line_of_sight and base_control ([SverdrupThygeson2018] Sec. IV–V):
//     controller_set_motion.cpp, from the measured poses and velocities of the sample; M₁₁ by
//     dynamics::composite_inertia, n from the inverse dynamics' bias as for the pid above.
//   - ardusub_mixer: its RC channels at t, through control/ardusub_mixer.h, one PWM per motor.
// A pose_pd with `feedback` (dynamics/controller.h Feedback, README "Sensors") flies on its
// sensors' outputs (Workspace::sensor_feedback, measured at t before the controllers,
// dynamics/sensor_set.h) instead of the true state, part by part, each brought to Bo and B:
//   ω_B  = R_BS ω_S (an IMU's gyroscope);
//   q_WB = q_WS ⊗ q_BS* (a pose sensor), or the complementary filter's estimate
//          (control/complementary_filter.h), stepped at the pose_pd's samples over its period on
//          its IMU's ω_B = R_BS ω_S and f_B = R_BS f_S (the lever arm's terms taken as part of
//          the accelerations the filter ignores), with a heading sensor's yaw less its mount's
//          yaw, or a magnetometer's R_BS m_S, or the heading held (the true initial one);
//   p_WBo = p_WS − R_WB p_BoS_B (a pose sensor) and z_Bo = z_S − (R_WB p_BoS_B)_z (a pressure
//          sensor's depth; north and east stay true), with the attitude q_WB above;
//   v_B  = R_BS v_S − ω_B × p_BoS_B (a DVL; without bottom lock its last locked value, 0
//          before the first).
// Before a delayed sensor's first reading is out it reads its first measurement, so a
// measurement latency d gives the loop a controller `delay` d would (both hold their first
// sample until then).
// A controller with a `delay` d (control/delay_line.h) keeps its samples in a delay line: its
// command slots take each sample at t_k + d, a breakpoint of next_sample_time() like a sample
// time; releases due at t come before the samples at t, so a controller sampled at t reads the
// other controllers' delayed commands as its actuators would.
// After the constructor nothing allocates.
//
// Memory (for sim trim's closed-loop equilibrium, analysis/trim.h): the part of the controllers'
// discrete state that a sample carries to the next and that can change there, component by
// component in model order —
//   pid                 integral I (if K_I > 0), previous output τ_{k−1} (if a torque filter
//                       a > 0), previous error e_{k−1} (velocity mode with K_D > 0);
//   pose_pd             the integral of each axis with K_I > 0;
//   inverse_kinematics  q_d of each of its joints;
//   thrust_allocation   none (a function of its input and the state);
//   ardusub_mixer       none (a function of its RC channels).
// A `delay`'s pending samples are no unknowns: at the fixed point every sample is the one held,
// and a fresh delay line holds its first sample (control/delay_line.h), so a run started there stays.
// task_priority, line_of_sight and base_control keep path, transport and reference states that
// are not exposed: memory_supported() is false for them.
#pragma once

#include <limits>
#include <vector>

#include "control/base_control.h"
#include "control/complementary_filter.h"
#include "control/delay_line.h"
#include "control/line_of_sight.h"
#include "control/pid.h"
#include "control/pose_pd.h"
#include "control/sample_clock.h"
#include "dynamics/workspace.h"
#include "dynamics/model.h"

namespace uwsim::dynamics {

struct MemoryComponent {
  enum class Kind { integral, previous_output, previous_error, joint_setpoint };
  int controller = 0;
  Kind kind = Kind::integral;
  int axis = 0;  // pose_pd: [x y z roll pitch yaw]; inverse_kinematics: the index into its joints
};

class ControllerSet {
 public:
  static bool memory_supported(const dynamics::Controller& controller);
  // The components above, for every controller of the model (those not supported have none).
  static std::vector<MemoryComponent> memory_layout(const dynamics::Model& model);
  // The memory a fresh run starts from at state x: integrals and previous values 0, an IK's q_d
  // at the measured joint positions.
  void start_memory(const std::vector<MemoryComponent>& layout, const double* x, double* z) const;
  void memory(const std::vector<MemoryComponent>& layout, double* z) const;
  // Sets the memory as if a sample had just been taken (every controller is still due at once).
  void set_memory(const std::vector<MemoryComponent>& layout, const double* z);

  explicit ControllerSet(const dynamics::Model& model);

  bool empty() const { return clocks_.empty(); }
  // The earliest next sample time of any controller (+∞ without controllers).
  double next_sample_time() const;
  // Takes every sample due at t (see above). Returns true if any was taken.
  bool update(double t, const double* x, dynamics::Workspace& ws);

 private:
  void update_pose(std::size_t i, double t, const double* x, dynamics::Workspace& ws);
  void measured_state(std::size_t i, control::VehicleState& state, const dynamics::Workspace& ws);
  void update_allocation(std::size_t i, dynamics::Workspace& ws);
  void update_pid(std::size_t i, double t, const double* x, dynamics::Workspace& ws);
  void update_inverse_kinematics(std::size_t i, const double* x, dynamics::Workspace& ws);
  // controller_set_motion.cpp
  void update_task_priority(std::size_t i, const double* x, dynamics::Workspace& ws);
  void update_line_of_sight(std::size_t i, dynamics::Workspace& ws);
  void update_base_control(std::size_t i, dynamics::Workspace& ws);
  void update_mixer(std::size_t i, dynamics::Workspace& ws);
  bool release_delayed(double t, dynamics::Workspace& ws);
  void delay_outputs(std::size_t i, double t, dynamics::Workspace& ws);
  spatial::Vec6 base_bias(std::size_t i, dynamics::Workspace& ws);
  double rate_of(const inputs::CommandSource& source) const;
  const double* bias(dynamics::Workspace& ws);

  const dynamics::Model& model_;
  std::vector<control::SampleClock> clocks_;  // allocations' own; pid and pose_pd keep theirs
  std::vector<control::Pid> pids_;            // one per controller (unused for other kinds)
  std::vector<control::PosePd> poses_;
  std::vector<control::ComplementaryFilter> filters_;  // per controller (used by a pose_pd's attitude feedback)
  std::vector<spatial::Vec3> last_velocity_;           // per controller: its DVL's last locked v_Bo_B
  std::vector<double> plus_, minus_; // channels at t ± δ
  std::vector<spatial::Vec6> rnea_f_;
  std::vector<double> bias_;         // h(q, v), nv entries
  std::vector<std::vector<double>> ik_q_;  // per IK or task_priority: q_d for its next sample
  std::vector<bool> ik_started_;
  std::vector<spatial::Pose> chain_poses_;  // X_base,k at q_d along an IK chain (task_priority: measured)
  std::vector<spatial::Vec6> chain_axes_;   // S of each joint of a task_priority chain
  std::vector<control::TransportControl> transports_;       // per line_of_sight (unused for other kinds)
  std::vector<control::BaseVelocityControl> base_controls_; // per base_control
  std::vector<spatial::Vec3> base_home_;           // per task_priority: p_bd, NED
  std::vector<control::DelayLine> delays_;         // per controller (inactive without a delay)
  std::vector<double> delayed_;                    // scratch: one controller's held slots
  bool bias_valid_ = false;
};

}  // namespace uwsim::dynamics
