#include "app/rk4_stiffness.h"

#include <cmath>

#include <spdlog/fmt/fmt.h>

namespace uwsim::app {

std::vector<std::string> rk4_stiffness_warnings(const dynamics::Model& model, const integrate::Settings& settings) {
  std::vector<std::string> warnings;
  if (settings.method != integrate::Method::rk4) return warnings;
  for (const std::string& joint : model.joints_with_stiff_damping(settings.step))
    warnings.push_back(fmt::format("joint '{}': its damping is too stiff for a {} s step on this light a link and may "
                                   "make rk4 unstable (damping·step > 2·inertia); use a smaller step or dopri5",
                                   joint, settings.step));
  // The stops and connectors are critically damped at ω (double eigenvalue −ω): rk4 is stable
  // for ω·step up to about 2.8 (its real stability interval); warn with some margin.
  bool has_stops = false;
  for (const dynamics::Body& body : model.bodies)
    has_stops = has_stops || std::isfinite(body.joint.lower) || std::isfinite(body.joint.upper) || body.joint.friction > 0.0;
  if (has_stops && model.limit_frequency * settings.step > 2.0)
    warnings.push_back(fmt::format("compliance.limit_frequency ({:.4g} Hz) is too stiff for a {} s rk4 step (ω·step > 2): "
                                   "joint stops may go unstable; use a smaller step, dopri5 or a lower frequency",
                                   model.limit_frequency / (2.0 * M_PI), settings.step));
  if (!model.connectors.empty() && model.constraint_frequency * settings.step > 2.0)
    warnings.push_back(fmt::format("compliance.constraint_frequency ({:.4g} Hz) is too stiff for a {} s rk4 step (ω·step > 2): "
                                   "connectors may drift apart; use a smaller step, dopri5 or a lower frequency",
                                   model.constraint_frequency / (2.0 * M_PI), settings.step));
  return warnings;
}

}  // namespace uwsim::app
