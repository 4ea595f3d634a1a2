// Dynamic control of a floating base: feedback linearisation with the whole system's inertia
// seen at the base, tracking a body-fixed velocity reference or a commanded acceleration.
// References: [SverdrupThygeson2018] eq. 22 (M₁₁, the upper-left block of the system inertia),
// eq. 33–35; [Fossen2011] Sec. 13.4 (feedback linearisation).
//
// In Fossen's order [u v w p q r] and [X Y Z K M N], the base's body frame, about its origin:
//   τ_c = M₁₁(q) a_b + n                                                     eq. 33   (1)
//   a_b = V̇_r − K_P ∘ Ṽ − K_I ∘ ∫Ṽ,  Ṽ = V − V_r                              eq. 34   (2)
// M₁₁ is the inertia of the whole tree as one rigid body at the base, added mass included
// (dynamics/crba.h: composite_inertia). n = C₁₁ζ + D₁₁ζ + N₁₁ (eq. 35) is read as the base rows
// of the bias h(q, ζ) of inverse dynamics with every acceleration zero (the product C₁₁ζ of a
// 6×6 block with the (6 + n)-vector ζ only makes sense that way), split into its Coriolis,
// damping and restoring parts so that a scenario chooses which ones the controller cancels
// (all three: eq. 33 as written; none: τ_c = M₁₁ a_b, as the paper does in work mode). The
// thrust and the scenario's applied forces are not part of n. In (2), V̇_r is the backward
// difference of the reference between this controller's samples (0 at the first), and the
// integral is summed at the samples, I_k = I_(k−1) + T Ṽ_k.
// Under a transport-mode input (line_of_sight.h) the reference is V_r = 0 and the surge and yaw
// entries of a_b are replaced by eq. 40–41; the paper sets the other four to zero ("the remaining
// acceleration components are set to zero"), which K_P = K_I = 0 reproduces. The joints' coupling
// M₁₂ q̈ is not compensated, as in the paper.
#pragma once

#include "spatial/spatial.h"

namespace uwsim::control {

struct BaseVelocitySettings {
  spatial::Vec6 kp = spatial::Vec6::Zero();  // K_P, 1/s, [u v w p q r]
  spatial::Vec6 ki = spatial::Vec6::Zero();  // K_I, 1/s²
  double sample_period = 0.02;               // s
};

// (2) with its discrete state.
class BaseVelocityControl {
 public:
  explicit BaseVelocityControl(const BaseVelocitySettings& settings) : settings_(settings) {}

  // The acceleration a_b at a sample, from the measured V and the reference V_r (Fossen order).
  spatial::Vec6 acceleration(const spatial::Vec6& V, const spatial::Vec6& V_r);

 private:
  BaseVelocitySettings settings_;
  spatial::Vec6 integral_ = spatial::Vec6::Zero();
  spatial::Vec6 previous_reference_ = spatial::Vec6::Zero();
  bool started_ = false;
};

// (1): M11 in spatial order [angular; linear] (as dynamics/crba.h gives it), a_b and n in Fossen order.
inline spatial::Vec6 feedback_linearising_wrench(const spatial::Mat6& M11, const spatial::Vec6& a_b,
                                                 const spatial::Vec6& n) {
  return spatial::to_fossen_order(M11 * spatial::from_fossen_order(a_b)) + n;
}

}  // namespace uwsim::control
