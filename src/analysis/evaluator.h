// The model's right-hand side as the analyses see it (linearize.h, trim.h):
//   ẋ = f(t, x, u)
// at one fixed time t, with u the values of the scenario's input channels. The pipeline
// (dynamics/pipeline.h) computes every derivative; this class only fixes the time and lets
// channels be overridden.
//
// Overriding a channel: channel k with a value u_k different from its own value at t is
// replaced, in a private copy of the model, by a constant channel of value u_k. Channels that
// use it (sum, scale) are evaluated from it as usual, so ∂f/∂u_k is the response to a change
// of that channel with everything downstream of it following. A channel left at its own value
// keeps its schedule; nothing in the step path changes.
//
// Controllers: their outputs are sampled signals held between samples (control/sample_clock.h)
// and read by every evaluation from the workspace. Here they stay held at what `held` gives
// (the sample at the operating point), or at what sample_controllers() last took: f is the
// plant with the controllers' commands frozen, not the closed loop.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "dynamics/controller_set.h"
#include "dynamics/workspace.h"
#include "dynamics/model.h"

namespace uwsim::analysis {

// What the controllers hold between samples: the command slots after the channels in
// Workspace::inputs, and each controller's signals (a pose_pd's wrench is read from there).
struct HeldControls {
  std::vector<double> slots;
  std::vector<dynamics::ControllerSignals> signals;
};

// The held outputs of a workspace the driver has been running.
HeldControls held_controls_of(const dynamics::Model& model, const dynamics::Workspace& ws);

class Evaluator {
 public:
  Evaluator(const dynamics::Model& model, double time, HeldControls held = {});

  const dynamics::Model& model() const { return model_; }
  double time() const { return time_; }
  int channel_count() const { return static_cast<int>(nominal_.size()); }
  // Every channel's own value at `time`.
  const Eigen::VectorXd& nominal_inputs() const { return nominal_; }

  // xdot = f(time, x, u), u holding a value for every channel.
  void derivative(const double* x, const Eigen::VectorXd& u, double* xdot);

  // The closed loop's discrete part (sim trim, trim.h): samples every controller at (time, x)
  // with the channels u, each starting from the memory z (dynamics::ControllerSet's, in the
  // order of `layout`), as a run's sample does; the outputs it takes are held for the following
  // derivative() calls, and the memory the sample leaves is written to z_next.
  void sample_controllers(const double* x, const Eigen::VectorXd& u, const std::vector<dynamics::MemoryComponent>& layout,
                          const double* z, double* z_next);
  const HeldControls& held() const { return held_; }
  // xdot = f(time, x, nominal_inputs()).
  void derivative(const double* x, double* xdot) { derivative(x, nominal_, xdot); }

  // The workspace of the last evaluation: poses, forces, connector rows.
  const dynamics::Workspace& workspace() const { return ws_; }

 private:
  void set_channels(const Eigen::VectorXd& u);

  const dynamics::Model& original_;
  dynamics::Model model_;             // a copy whose channels may be overridden
  dynamics::Workspace ws_;
  double time_;
  Eigen::VectorXd nominal_, applied_;
  HeldControls held_;
};

}  // namespace uwsim::analysis
