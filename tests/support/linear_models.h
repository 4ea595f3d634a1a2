// Test helpers for sim trim / sim linearize: scenarios from YAML text, their linear model at
// the initial state, and the modes picked by the states that take part in them.
#pragma once

#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "analysis/linearize.h"
#include "analysis/modes.h"
#include "model/build_model.h"
#include "scenario/load_scenario.h"

namespace uwsim::test {

inline scenario::Scenario scenario_from(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  return scenario::load_scenario_text(yaml, "test.yaml", overrides);
}

struct Linearized {
  dynamics::Model model;
  analysis::LinearModel linear;
  analysis::ModalAnalysis modes;
};

// The linear model at the model's initial state (t = 0), or at `x` if given.
inline Linearized linearize_model(const dynamics::Model& model, std::vector<double> x = {}) {
  Linearized out;
  out.model = model;
  analysis::OperatingPoint point;
  point.x = x.empty() ? analysis::initial_state(out.model) : std::move(x);
  out.linear = analysis::linearize(out.model, point);
  out.modes = analysis::modal_analysis(out.linear.system_matrix(), out.linear.constrained ? &out.linear.basis : nullptr);
  return out;
}

inline Linearized linearize_at(const scenario::Scenario& s, std::vector<double> x = {}) {
  return linearize_model(model::build_model(s), std::move(x));
}

inline int state_index(const analysis::LinearModel& l, const std::string& name) {
  for (std::size_t i = 0; i < l.state_names.size(); ++i)
    if (l.state_names[i] == name) return static_cast<int>(i);
  return -1;
}

// The participation of the named states in a mode, summed.
inline double share(const Linearized& l, const analysis::Mode& mode, const std::vector<std::string>& names) {
  double sum = 0.0;
  for (const std::string& n : names) {
    const int i = state_index(l.linear, n);
    if (i >= 0) sum += mode.participation[i];
  }
  return sum;
}

// The mode (with Im λ ≥ 0; > 0 if `oscillatory`) in which the named states take the largest part.
inline const analysis::Mode& mode_of(const Linearized& l, const std::vector<std::string>& names,
                                     bool oscillatory = false) {
  std::size_t best = 0;
  double most = -1.0;
  for (std::size_t i = 0; i < l.modes.modes.size(); ++i) {
    const analysis::Mode& m = l.modes.modes[i];
    if (m.eigenvalue.imag() < 0.0 || (oscillatory && m.eigenvalue.imag() == 0.0)) continue;
    const double s = share(l, m, names);
    if (s > most) {
      most = s;
      best = i;
    }
  }
  REQUIRE(most >= 0.0);
  return l.modes.modes[best];
}

// "%.17g", for --set values.
inline std::string exact(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

}  // namespace uwsim::test
