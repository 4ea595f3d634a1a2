// References: [Fossen2011] eq. 3.44 (M_RB about CO), eq. 4.6 (restoring forces);
// [Nielsen2018] eq. 7 (the per-vehicle model); [RBDA] Sec. 4.4 (joint models, motion subspace).
#include "model/build_model.h"

#include "model/build_actuation.h"
#include "model/build_controllers.h"
#include "model/build_sensors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "dynamics/kinematics.h"
#include "spatial/rotation.h"

namespace uwsim::model {

using dynamics::AppliedForce;
using dynamics::Body;
using dynamics::Connector;
using dynamics::Environment;
using dynamics::Joint;
using dynamics::Model;
using spatial::Mat3;
using spatial::Vec3;
using spatial::Vec6;

using spatial::Pose;

namespace {

Pose rotation(const Mat3& R) { return {R, Vec3::Zero()}; }
Pose translation(const Vec3& p) { return {Mat3::Identity(), p}; }

Body build_body(const BodySpec& spec, const Environment& env) {
  Body body;
  body.name = spec.name;
  body.M_RB_B = spatial::rigid_body_inertia(spec.mass, spec.p_BoBcm_B, spec.inertia_Bcm_B);
  body.M_A_B = spatial::from_fossen_order(spec.added_mass_B);
  body.M_B = body.M_RB_B + body.M_A_B;
  body.M_inv_B = body.M_B.inverse();
  body.linear_damping = spatial::from_fossen_order(spec.linear_damping);
  body.quadratic_damping = spatial::from_fossen_order(spec.quadratic_damping);
  body.weight = spec.mass * env.gravity;
  body.buoyancy = env.water_density * env.gravity * spec.volume;
  body.p_BoBcm_B = spec.p_BoBcm_B;
  body.p_BoBcb_B = spec.p_BoBcb_B;
  body.p_BoBcd_B = spec.p_BoBcd_B;
  return body;
}

// The three ways to place a joint (see JointPlacementSpec) as X_PJ, axis, X_JC.
void place_joint(const JointPlacementSpec& p, Joint& joint) {
  using Kind = JointPlacementSpec::Kind;
  const Vec3 z = Vec3::UnitZ(), x = Vec3::UnitX();
  switch (p.kind) {
    case Kind::origin:
      joint.X_PJ = Pose{spatial::rotation_from_euler_zyx(p.rpy), p.xyz};
      joint.axis_J = p.axis.normalized();
      break;
    case Kind::dh:  // Rz(θ+q) Tz(d) Tx(a) Rx(α): the joint turns about the parent's z
      joint.axis_J = z;
      joint.X_JC = rotation(spatial::rotation_about(z, p.theta)) * translation(p.d * z) *
                   translation(p.a * x) * rotation(spatial::rotation_about(x, p.alpha));
      break;
    case Kind::mdh:  // Rx(α) Tx(d) Rz(θ+q) Tz(r): the joint turns about the child's z
      joint.X_PJ = rotation(spatial::rotation_about(x, p.alpha)) * translation(p.d * x);
      joint.axis_J = z;
      joint.X_JC = rotation(spatial::rotation_about(z, p.theta)) * translation(p.r * z);
      break;
  }
  joint.X_PJ = Pose{spatial::rotation_from_euler_zyx(p.mount_rpy), p.mount_xyz} * joint.X_PJ;
}

Joint build_joint(const JointSpec& spec) {
  Joint joint;
  joint.name = spec.name;
  joint.type = spec.type == JointType::revolute    ? dynamics::JointType::revolute
               : spec.type == JointType::prismatic ? dynamics::JointType::prismatic
                                                              : dynamics::JointType::fixed;
  place_joint(spec.placement, joint);
  // The joint's unit twist in J, carried rigidly to C: constant in C for these joints.
  const Vec6 S_J = joint.type == dynamics::JointType::revolute ? spatial::make_spatial(joint.axis_J, Vec3::Zero())
                                                     : spatial::make_spatial(Vec3::Zero(), joint.axis_J);
  joint.S_C = joint.type == dynamics::JointType::fixed ? Vec6::Zero() : spatial::motion_to_child(joint.X_JC, S_J);
  for (int k = 0; k < 6; ++k) {
    if (joint.S_C[k] == 1.0 && (joint.S_C - Vec6::Unit(k)).isZero(0.0)) joint.S_index = k;
  }
  joint.expand_pose();
  joint.lower = spec.limits.lower;
  joint.upper = spec.limits.upper;
  joint.max_effort = spec.limits.effort;
  joint.damping = spec.damping;
  joint.friction = spec.friction;
  joint.effort = spec.effort;
  return joint;
}

// Body indices in an order where every parent comes before its children: roots in file order,
// each followed depth-first by its subtree (children in file order).
std::vector<std::size_t> tree_order(const Spec& scenario,
                                    const std::map<std::string, const JointSpec*>& joint_of_child) {
  std::multimap<std::string, std::size_t> children;  // parent name → child body index
  std::map<std::string, std::size_t> index_of;
  for (std::size_t i = 0; i < scenario.bodies.size(); ++i) index_of[scenario.bodies[i].name] = i;
  std::vector<std::size_t> roots;
  for (std::size_t i = 0; i < scenario.bodies.size(); ++i) {
    const auto it = joint_of_child.find(scenario.bodies[i].name);
    if (it == joint_of_child.end() || it->second->parent == "world") roots.push_back(i);
    else children.emplace(it->second->parent, i);
  }
  std::vector<std::size_t> order;
  std::vector<std::size_t> stack(roots.rbegin(), roots.rend());
  while (!stack.empty()) {
    const std::size_t i = stack.back();
    stack.pop_back();
    order.push_back(i);
    const auto [first, last] = children.equal_range(scenario.bodies[i].name);
    std::vector<std::size_t> kids;
    for (auto it = first; it != last; ++it) kids.push_back(it->second);
    stack.insert(stack.end(), kids.rbegin(), kids.rend());
  }
  if (order.size() != scenario.bodies.size())
    throw std::invalid_argument("build_model: the joints do not form a forest (a cycle or an unknown parent)");
  return order;
}

// The connector's two bodies as indices (the second −1 for the world) and the pose of the
// second in the first at the start, from the world poses X_WB of the initial state.
struct ConnectorEnds {
  int first = -1, second = -1;
  Pose X_AB_start;
};

ConnectorEnds connector_ends(const ConnectorSpec& spec, const Model& model, const std::vector<Pose>& X_WB) {
  ConnectorEnds ends;
  ends.first = model.body_index(spec.first);
  ends.second = spec.second == "world" ? -1 : model.body_index(spec.second);
  if (ends.first < 0 || (ends.second < 0 && spec.second != "world"))
    throw std::invalid_argument(std::string("build_model: a connector names an unknown body: ") + spec.first + ", " + spec.second);
  const Pose& X_WA = X_WB[static_cast<std::size_t>(ends.first)];
  const Pose X_WBody = ends.second >= 0 ? X_WB[static_cast<std::size_t>(ends.second)] : Pose{};
  ends.X_AB_start = X_WA.inverse() * X_WBody;
  return ends;
}

Pose asked_relative_pose(const ConnectorSpec& spec) {
  return Pose{spatial::rotation_from_euler_zyx(spec.relative_rpy), spec.relative_xyz};
}

Connector build_connector(const ConnectorSpec& spec, const Model& model, const std::vector<Pose>& X_WB) {
  const ConnectorEnds ends = connector_ends(spec, model, X_WB);
  Connector c;
  c.name = spec.name;
  c.type = spec.type == ConnectorType::ball ? dynamics::ConnectorType::ball : dynamics::ConnectorType::rigid;
  c.body_a = ends.first;
  c.body_b = ends.second;
  c.p_AK_A = spec.point_B;
  const Pose X_AK{Mat3::Identity(), spec.point_B};
  const Pose X_AB = spec.has_relative_pose ? asked_relative_pose(spec) : ends.X_AB_start;
  c.X_BK = X_AB.inverse() * X_AK;
  return c;
}

// The bodies, their joints and coordinates and the initial state: all the forward kinematics of
// the initial state needs.
Model build_tree(const Spec& scenario) {
  Model model;
  model.environment.gravity = scenario.environment.gravity;
  model.environment.water_density = scenario.environment.water_density;
  model.environment.current_W = scenario.environment.current_W;
  // Model parameters, not functions of the step (spec.h ComplianceSpec): Hz → rad/s.
  model.limit_frequency = 2.0 * M_PI * scenario.compliance.limit_frequency;
  model.constraint_frequency = 2.0 * M_PI * scenario.compliance.constraint_frequency;

  std::map<std::string, const JointSpec*> joint_of_child;
  for (const JointSpec& j : scenario.joints) joint_of_child[j.child] = &j;

  // Lay out bodies, then coordinates: all q first, then all v.
  std::vector<const BodySpec*> specs;
  for (std::size_t i : tree_order(scenario, joint_of_child)) {
    const BodySpec& spec = scenario.bodies[i];
    Body body = build_body(spec, model.environment);
    const auto it = joint_of_child.find(spec.name);
    if (it != joint_of_child.end()) {
      body.joint = build_joint(*it->second);
      body.parent = it->second->parent == "world" ? -1 : model.body_index(it->second->parent);
    }
    const int nq = body.joint.type == dynamics::JointType::free ? 7 : body.joint.dof();
    if (nq > 0) body.q_offset = model.nq;
    model.nq += nq;
    model.bodies.push_back(std::move(body));
    specs.push_back(&spec);
  }
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {  // parents come first
    Body& body = model.bodies[b];
    if (body.parent >= 0) model.bodies[static_cast<std::size_t>(body.parent)].has_children = true;
    body.root = body.parent >= 0 ? model.bodies[static_cast<std::size_t>(body.parent)].root : static_cast<int>(b);
    model.bodies[static_cast<std::size_t>(body.root)].tree_end = static_cast<int>(b) + 1;
  }
  for (Body& body : model.bodies) {
    if (body.joint.dof() == 0) continue;
    body.v_offset = model.nq + model.nv;
    model.nv += body.joint.dof();
  }

  model.x0.assign(static_cast<std::size_t>(model.state_size()), 0.0);
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    if (body.joint.type == dynamics::JointType::free) {
      const BodyInitialSpec& initial = specs[b]->initial;
      double* q = model.x0.data() + body.q_offset;
      const Eigen::Quaterniond q_WB = initial.q_WB.normalized();
      Eigen::Map<Vec3> p_WBo_W(q);
      p_WBo_W = initial.p_WB_W;
      q[3] = q_WB.w(), q[4] = q_WB.x(), q[5] = q_WB.y(), q[6] = q_WB.z();
      Eigen::Map<Vec6>(model.x0.data() + body.v_offset) = spatial::from_fossen_order(initial.nu_B);
    } else if (body.joint.dof() == 1) {
      const JointSpec& joint = *joint_of_child.at(body.name);
      model.x0[static_cast<std::size_t>(body.q_offset)] = joint.initial_position;
      model.x0[static_cast<std::size_t>(body.v_offset)] = joint.initial_velocity;
    }
  }

  return model;
}

}  // namespace

Model build_model(const Spec& scenario) {
  Model model = build_tree(scenario);
  for (const ForceSpec& spec : scenario.forces) {
    AppliedForce force;
    force.name = spec.name;
    force.body = model.body_index(spec.body);
    if (force.body < 0) throw std::invalid_argument("build_model: no body named " + spec.body);
    force.in_world_frame = spec.frame == ForceFrame::world;
    force.p_BoP_B = spec.point_B;
    force.force = spec.force;
    force.moment = spec.moment;
    force.start = spec.start;
    force.stop = spec.stop;
    model.forces.push_back(force);
  }
  build_actuation(scenario, model);
  build_controllers(scenario, model);

  // Connectors hold the relative pose of the start (or the one asked for).
  const std::vector<Pose> X_WB = dynamics::world_poses(model, model.x0);
  for (const ConnectorSpec& spec : scenario.connectors) model.connectors.push_back(build_connector(spec, model, X_WB));
  build_sensors(scenario, model);
  build_feedback(scenario, model);
  return model;
}

std::vector<ConnectorProblem> connector_pose_problems(const Spec& scenario, const std::vector<ConnectorSpec>& connectors) {
  constexpr double kTolerance = 1e-6;  // m and rad
  std::vector<ConnectorProblem> problems;
  if (std::none_of(connectors.begin(), connectors.end(), [](const ConnectorSpec& c) { return c.has_relative_pose; }))
    return problems;
  const Model tree = build_tree(scenario);
  const std::vector<Pose> X_WB = dynamics::world_poses(tree, tree.x0);
  for (std::size_t i = 0; i < connectors.size(); ++i) {
    const ConnectorSpec& c = connectors[i];
    if (!c.has_relative_pose) continue;
    const Pose X_AB_start = connector_ends(c, tree, X_WB).X_AB_start;
    const Pose X_AB_asked = asked_relative_pose(c);
    const double distance = (X_AB_start.p - X_AB_asked.p).norm();
    const double angle = spatial::rotation_angle(X_AB_start.R.transpose() * X_AB_asked.R);
    if (distance <= kTolerance && angle <= kTolerance) continue;
    char off[96];
    std::snprintf(off, sizeof off, "%.3g m and %.3g rad", distance, angle);
    problems.push_back({i, "the initial poses put '" + c.second + "' " + off + " away from this relative pose in '" + c.first +
                               "'; expected them to agree within 1e-6 (place the bodies so, or leave relative_pose out to hold the initial relative pose)"});
  }
  return problems;
}

}  // namespace uwsim::model
