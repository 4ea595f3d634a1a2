// References: see joint_limits.h.
#include "analysis/joint_limits.h"

#include <algorithm>
#include <cmath>

#include "analysis/state_chart.h"

namespace uwsim::analysis {

namespace {

int index_of(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

}  // namespace

std::vector<LimitContact> joints_at_limits(const dynamics::Model& model, const std::vector<double>& x, double tolerance) {
  const StateChart chart(model);
  std::vector<LimitContact> out;
  for (const dynamics::Body& body : model.bodies) {
    const dynamics::Joint& joint = body.joint;
    if (joint.dof() != 1) continue;
    const double q = x[static_cast<std::size_t>(body.q_offset)];
    LimitContact c;
    if (q >= joint.upper - tolerance) {
      c.upper = true;
      c.limit = joint.upper;
      c.beyond = q > joint.upper + tolerance;
    } else if (q <= joint.lower + tolerance) {
      c.limit = joint.lower;
      c.beyond = q < joint.lower - tolerance;
    } else {
      continue;  // inside, or without limits (±∞)
    }
    c.joint = joint.name;
    c.x_index = body.q_offset;
    c.position = q;
    c.position_state = index_of(chart.names(), "joints." + joint.name + ".position");
    c.velocity_state = index_of(chart.names(), "joints." + joint.name + ".velocity");
    out.push_back(c);
  }
  return out;
}

void move_inside_limits(const dynamics::Model& model, std::vector<double>& x, const std::vector<LimitContact>& contacts,
                        double margin) {
  for (const LimitContact& c : contacts) {
    for (const dynamics::Body& body : model.bodies) {
      if (body.q_offset != c.x_index || body.joint.dof() != 1) continue;
      const double lower = body.joint.lower, upper = body.joint.upper;
      double& q = x[static_cast<std::size_t>(c.x_index)];
      if (upper - lower < 2.0 * margin) q = 0.5 * (lower + upper);
      else q = c.upper ? upper - margin : lower + margin;
    }
  }
}

std::vector<std::size_t> modes_dominated_by(const LimitContact& contact, const ModalAnalysis& modes) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < modes.modes.size(); ++k) {
    const Eigen::VectorXd& p = modes.modes[k].participation;
    double share = 0.0;
    for (int i : {contact.position_state, contact.velocity_state})
      if (i >= 0 && i < p.size()) share += p[i];
    if (share >= 0.5) out.push_back(k);
  }
  return out;
}

}  // namespace uwsim::analysis
