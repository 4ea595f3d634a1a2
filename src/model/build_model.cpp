// References: [Fossen2011] eq. 3.44 (M_RB about CO), eq. 4.6 (restoring forces);
// [Nielsen2018] eq. 7 (the per-vehicle model).
#include "model/build_model.h"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace uwsim::model {

namespace {

Body build_body(const scenario::BodySpec& spec, const Environment& env) {
  Body body;
  body.name = spec.name;
  body.M_RB_B = spatial::rigid_body_inertia(spec.mass, spec.p_BoBcm_B, spec.inertia_Bcm_B);
  body.M_A_B = spatial::from_fossen_order(spec.added_mass_B);
  // M = M_RB + M_A is constant in body axes for a free body [Fossen2011 Sec. 6.5]:
  // invert it once here instead of factoring every step.
  body.M_inv_B = (body.M_RB_B + body.M_A_B).inverse();
  body.linear_damping = spatial::from_fossen_order(spec.linear_damping);
  body.quadratic_damping = spatial::from_fossen_order(spec.quadratic_damping);
  body.weight = spec.mass * env.gravity;
  body.buoyancy = env.water_density * env.gravity * spec.volume;
  body.p_BoBcm_B = spec.p_BoBcm_B;
  body.p_BoBcb_B = spec.p_BoBcb_B;
  return body;
}

int find_body(const std::vector<Body>& bodies, const std::string& name) {
  const auto it = std::find_if(bodies.begin(), bodies.end(),
                               [&](const Body& b) { return b.name == name; });
  if (it == bodies.end()) throw std::invalid_argument("build_model: no body named " + name);
  return static_cast<int>(it - bodies.begin());
}

}  // namespace

std::vector<double> Model::discontinuities() const {
  std::vector<double> times;
  for (const AppliedForce& f : forces) {
    if (f.start > 0.0) times.push_back(f.start);
    if (std::isfinite(f.stop)) times.push_back(f.stop);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

Model build_model(const scenario::Scenario& scenario) {
  Model model;
  model.environment.gravity = scenario.environment.gravity;
  model.environment.water_density = scenario.environment.water_density;
  model.environment.current_W = scenario.environment.current_W;

  const int n = static_cast<int>(scenario.bodies.size());
  model.nq = 7 * n;
  model.nv = 6 * n;
  model.x0.assign(static_cast<std::size_t>(model.state_size()), 0.0);
  for (int i = 0; i < n; ++i) {
    const scenario::BodySpec& spec = scenario.bodies[static_cast<std::size_t>(i)];
    Body body = build_body(spec, model.environment);
    body.q_offset = 7 * i;
    body.v_offset = model.nq + 6 * i;

    double* q = model.x0.data() + body.q_offset;
    const Eigen::Quaterniond q_WB = spec.initial.q_WB.normalized();
    Eigen::Map<Vec3> p_WBo_W(q);
    p_WBo_W = spec.initial.p_WB_W;
    q[3] = q_WB.w(), q[4] = q_WB.x(), q[5] = q_WB.y(), q[6] = q_WB.z();
    Eigen::Map<Vec6>(model.x0.data() + body.v_offset) = spatial::from_fossen_order(spec.initial.nu_B);
    model.bodies.push_back(std::move(body));
  }

  for (const scenario::ForceSpec& spec : scenario.forces) {
    AppliedForce force;
    force.name = spec.name;
    force.body = find_body(model.bodies, spec.body);
    force.in_world_frame = spec.frame == scenario::ForceFrame::world;
    force.p_BoP_B = spec.point_B;
    force.force = spec.force;
    force.moment = spec.moment;
    force.start = spec.start;
    force.stop = spec.stop;
    model.forces.push_back(force);
  }
  return model;
}

}  // namespace uwsim::model
