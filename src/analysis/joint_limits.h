// Joints sitting on a position limit at an operating point (`sim linearize`).
//
// Past a limit a joint's stop is a stiff, critically damped spring (dynamics/joint_forces.h:
// τ = D(−ω²Δ − 2ωq̇), ω = compliance.limit_frequency, 50 Hz by default) that switches on at the
// limit and never pulls. A joint exactly on its limit, or within the finite-difference step h of
// it, has its central differences straddle that switch: one side sees the spring, the other
// none, so A holds about half its stiffness and little of its damping — a stiff, nearly undamped
// mode near ω/√2 (224 rad/s, 36 Hz, at 50 Hz) that the system has on neither side (the Reach
// Alpha 5 at home, three joints on their lower limits, shows three). A joint pressed into its
// stop (beyond it by more than h) gets the stop's full spring: a real mode of the model, but
// one of the stop, not of the arm. Both are flagged, with the modes they dominate; `--inside-
// limits` moves each such joint inside its range by `margin` before linearising.
#pragma once

#include <string>
#include <vector>

#include "analysis/modes.h"
#include "dynamics/model.h"

namespace uwsim::analysis {

struct LimitContact {
  std::string joint;
  int x_index = -1;                                 // q of the joint in the full state x
  int position_state = -1, velocity_state = -1;     // its components of z (state_chart.h)
  bool upper = false;                               // which limit
  bool beyond = false;                              // past the limit by more than the tolerance
  double position = 0.0, limit = 0.0;               // rad or m
};

// Every revolute or prismatic joint whose position in x is within `tolerance` of a limit or
// beyond it, in model order.
std::vector<LimitContact> joints_at_limits(const dynamics::Model& model, const std::vector<double>& x, double tolerance);

// Sets each contact's joint `margin` inside its range (a range narrower than 2·margin: its
// middle). Velocities are left as they are.
void move_inside_limits(const dynamics::Model& model, std::vector<double>& x, const std::vector<LimitContact>& contacts,
                        double margin);

// The indices of the modes in which the contact's joint (its position and velocity together)
// has at least half of the participation.
std::vector<std::size_t> modes_dominated_by(const LimitContact& contact, const ModalAnalysis& modes);

}  // namespace uwsim::analysis
