#include "analysis/evaluator.h"

#include "dynamics/pipeline.h"

namespace uwsim::analysis {

HeldControls held_controls_of(const dynamics::Model& model, const dynamics::Workspace& ws) {
  HeldControls held;
  held.slots.assign(ws.inputs.begin() + static_cast<std::ptrdiff_t>(model.inputs.channels.size()), ws.inputs.end());
  held.signals = ws.controllers;
  return held;
}

Evaluator::Evaluator(const dynamics::Model& model, double time, HeldControls held)
    : original_(model), model_(model), ws_(model_), time_(time), held_(std::move(held)) {
  std::vector<double> values(model.inputs.channels.size());
  model.inputs.sample(time, time, values.data());
  nominal_ = Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
  applied_ = nominal_;
  if (held_.slots.empty()) held_.slots.assign(static_cast<std::size_t>(model.control_slots), 0.0);
  if (held_.signals.empty()) held_.signals = ws_.controllers;
}

void Evaluator::set_channels(const Eigen::VectorXd& u) {
  for (Eigen::Index k = 0; k < u.size(); ++k) {
    if (u[k] == applied_[k]) continue;
    inputs::Channel& channel = model_.inputs.channels[static_cast<std::size_t>(k)];
    if (u[k] == nominal_[k]) {
      channel = original_.inputs.channels[static_cast<std::size_t>(k)];
    } else {
      // A constant has no operands: the evaluation order stays valid.
      channel.kind = inputs::ChannelKind::constant;
      channel.value = u[k];
    }
    applied_[k] = u[k];
  }
}

void Evaluator::sample_controllers(const double* x, const Eigen::VectorXd& u,
                                   const std::vector<dynamics::MemoryComponent>& layout, const double* z, double* z_next) {
  set_channels(u);
  dynamics::Workspace ws(model_);
  dynamics::ControllerSet controllers(model_);  // fresh: every controller is due at `time_`
  controllers.set_memory(layout, z);
  controllers.update(time_, x, ws);
  held_ = held_controls_of(model_, ws);
  controllers.memory(layout, z_next);
}

void Evaluator::derivative(const double* x, const Eigen::VectorXd& u, double* xdot) {
  set_channels(u);
  std::copy(held_.slots.begin(), held_.slots.end(),
            ws_.inputs.begin() + static_cast<std::ptrdiff_t>(model_.inputs.channels.size()));
  ws_.controllers = held_.signals;
  dynamics::evaluate(model_, time_, x, xdot, ws_);
}

}  // namespace uwsim::analysis
