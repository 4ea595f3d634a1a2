#include "integrate/state_check.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace uwsim::integrate {

namespace {

struct Component {
  int offset;       // from the body's q or v offset
  bool in_v;        // velocity block (else position block)
  const char* what;
  double DivergenceLimits::*limit;
};

// A free body's velocity is stored [p q r u v w] (spatial order), reported by SNAME names.
constexpr Component kFreeBody[] = {
    {0, false, "position north", &DivergenceLimits::position},
    {1, false, "position east", &DivergenceLimits::position},
    {2, false, "position down", &DivergenceLimits::position},
    {3, false, "quaternion w", nullptr},
    {4, false, "quaternion x", nullptr},
    {5, false, "quaternion y", nullptr},
    {6, false, "quaternion z", nullptr},
    {0, true, "angular velocity p", &DivergenceLimits::angular_velocity},
    {1, true, "angular velocity q", &DivergenceLimits::angular_velocity},
    {2, true, "angular velocity r", &DivergenceLimits::angular_velocity},
    {3, true, "velocity u", &DivergenceLimits::linear_velocity},
    {4, true, "velocity v", &DivergenceLimits::linear_velocity},
    {5, true, "velocity w", &DivergenceLimits::linear_velocity},
};

constexpr Component kRevoluteJoint[] = {
    {0, false, "joint position", &DivergenceLimits::position},
    {0, true, "joint velocity", &DivergenceLimits::angular_velocity},
};
constexpr Component kPrismaticJoint[] = {
    {0, false, "joint position", &DivergenceLimits::position},
    {0, true, "joint velocity", &DivergenceLimits::linear_velocity},
};

template <std::size_t N>
void add_checks(const dynamics::Body& body, const Component (&components)[N], const DivergenceLimits& limits,
                std::vector<DivergenceWatch::Check>& checks) {
  for (const Component& c : components) {
    // |x| ≤ bound is false for NaN and ±∞ too; a component without a limit gets the largest
    // finite bound, so only a non-finite value trips it.
    const double bound = c.limit ? limits.*c.limit : std::numeric_limits<double>::max();
    checks.push_back({(c.in_v ? body.v_offset : body.q_offset) + c.offset, bound, &body, c.what});
  }
}

}  // namespace

DivergenceWatch::DivergenceWatch(const dynamics::Model& model, const DivergenceLimits& limits) {
  for (const dynamics::Body& body : model.bodies) {
    if (body.joint.type == dynamics::JointType::free) add_checks(body, kFreeBody, limits, checks_);
    else if (body.joint.type == dynamics::JointType::revolute) add_checks(body, kRevoluteJoint, limits, checks_);
    else if (body.joint.type == dynamics::JointType::prismatic) add_checks(body, kPrismaticJoint, limits, checks_);
  }
}

std::optional<std::string> DivergenceWatch::find(const double* x) const {
  for (const Check& c : checks_) {
    const double value = x[c.index];
    if (std::abs(value) <= c.bound) continue;
    std::ostringstream out;
    if (c.body->joint.type == dynamics::JointType::free) out << "body '" << c.body->name << "': ";
    else out << "joint '" << c.body->joint.name << "' (body '" << c.body->name << "'): ";
    out << c.what << " = " << value;
    if (std::isfinite(value)) out << " exceeds " << c.bound;
    return out.str();
  }
  return std::nullopt;
}

std::optional<std::string> find_violated_connector(const dynamics::Model& model, const dynamics::Workspace& ws,
                                                   const DivergenceLimits& limits) {
  for (std::size_t c = 0; c < model.connectors.size(); ++c) {
    const dynamics::ConnectorRows& rows = ws.connectors.rows(c);
    const bool apart = !(rows.distance <= limits.connector_distance);
    const bool twisted = !(rows.angle <= limits.connector_angle);
    if (!apart && !twisted) continue;
    const dynamics::Connector& con = model.connectors[c];
    std::ostringstream out;
    out << "connector '" << con.name << "' (bodies '" << model.bodies[static_cast<std::size_t>(con.body_a)].name << "' and '"
        << (con.body_b >= 0 ? model.bodies[static_cast<std::size_t>(con.body_b)].name : std::string("world")) << "'): ";
    if (apart) out << "the connection points are " << rows.distance << " m apart (limit " << limits.connector_distance << ")";
    else out << "the relative attitude is off by " << rows.angle << " rad (limit " << limits.connector_angle << ")";
    return out.str();
  }
  return std::nullopt;
}

std::string SurfaceWatch::message(const dynamics::Model& model, std::size_t root) const {
  std::size_t tree_size = 0, above = 0;
  std::ostringstream bodies;
  bodies.precision(4);
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    if (static_cast<std::size_t>(model.bodies[b].root) != root) continue;
    ++tree_size;
    if (!seen_[b]) continue;
    bodies << (above++ ? ", '" : "'") << model.bodies[b].name << "' at t = " << first_time_[b] << " s (z = " << first_z_[b]
           << " m)";
  }
  std::ostringstream out;
  out << "'" << model.bodies[root].name << "'" << (tree_size > 1 ? " and the bodies joined to it" : "")
      << " rose above the surface (the model has no free surface: what is above still feels its whole buoyancy): "
      << above << " of " << tree_size << " bod" << (tree_size > 1 ? "ies" : "y") << ", " << bodies.str();
  return out.str();
}

void SurfaceWatch::check(const dynamics::Model& model, const dynamics::Workspace& ws, double t,
                         std::vector<std::string>& warnings) {
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const double z = ws.bodies[b].X_WB.p.z();
    if (seen_[b] || !(z < 0.0)) continue;
    seen_[b] = true;
    first_time_[b] = t;
    first_z_[b] = z;
    const auto root = static_cast<std::size_t>(model.bodies[b].root);
    if (warning_[root] < 0) {
      warning_[root] = static_cast<int>(warnings.size());
      warnings.emplace_back();
    }
    // Bodies of one tree surfacing at one sample rewrite its line once per body: rare, and short.
    warnings[static_cast<std::size_t>(warning_[root])] = message(model, root);
  }
}

}  // namespace uwsim::integrate
