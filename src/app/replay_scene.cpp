#include "app/replay_scene.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "model/build_model.h"
#include "scenario/load_scenario.h"

namespace uwsim::app {

ReplaySolid box_of_inertia(double mass, const Eigen::Matrix3d& inertia_Bcm_B, const Eigen::Vector3d& p_BoBcm_B) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(inertia_Bcm_B);
  const Eigen::Vector3d I = eigen.eigenvalues();
  Eigen::Matrix3d R = eigen.eigenvectors();
  if (R.determinant() < 0.0) R.col(2) = -R.col(2);
  // I₁ = m(b² + c²)/12 … ⇒ a² = 6(I₂ + I₃ − I₁)/m; the triangle inequality keeps it ≥ 0, and a
  // thin rod (a² → 0) is drawn with a tenth of its longest edge so it stays visible.
  Eigen::Vector3d edges;
  for (int k = 0; k < 3; ++k)
    edges[k] = std::sqrt(std::max(0.0, 6.0 * (I.sum() - 2.0 * I[k]) / mass));
  const double floor = 0.1 * std::max(edges.maxCoeff(), 1e-3);
  ReplaySolid solid;
  solid.kind = ReplaySolid::Kind::box;
  solid.size = edges.cwiseMax(floor);
  solid.center_B = p_BoBcm_B;
  solid.R_BS = R;
  solid.source = "inertia";
  return solid;
}

ReplayScene scene_from_scenario(const std::string& resolved_yaml) {
  // Data, not a program: no file it names is opened (its CSV channels read as 0; the replay
  // needs no channel values, thrust is in the result file).
  const scenario::Scenario spec = scenario::load_stored_scenario(resolved_yaml, "scenario (stored in the result file)");
  const dynamics::Model model = model::build_model(spec);

  ReplayScene scene;
  for (const dynamics::Body& body : model.bodies) {
    ReplayBody b;
    b.name = body.name;
    b.free = body.joint.type == dynamics::JointType::free;
    const auto found = std::find_if(spec.bodies.begin(), spec.bodies.end(),
                                    [&](const model::BodySpec& s) { return s.name == body.name; });
    const model::ShapeSpec* shape = found != spec.bodies.end() ? &found->shape : nullptr;
    if (shape != nullptr && shape->kind == model::ShapeSpec::Kind::box) {
      b.solid.kind = ReplaySolid::Kind::box;
      b.solid.size = shape->size;
      b.solid.center_B = shape->center_B;
    } else if (shape != nullptr && shape->kind == model::ShapeSpec::Kind::cylinder) {
      b.solid.kind = ReplaySolid::Kind::cylinder;
      b.solid.size = Eigen::Vector3d(shape->radius, shape->length, 0.0);
      b.solid.center_B = shape->center_B;
      // The solid's x is the cylinder's axis: body x, y or z.
      if (shape->axis == 1) b.solid.R_BS << 0, -1, 0, 1, 0, 0, 0, 0, 1;
      if (shape->axis == 2) b.solid.R_BS << 0, 0, -1, 0, 1, 0, 1, 0, 0;
    } else if (found != spec.bodies.end()) {
      b.solid = box_of_inertia(found->mass, found->inertia_Bcm_B, found->p_BoBcm_B);
    }
    scene.bodies.push_back(b);
  }
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const dynamics::Joint& joint = model.bodies[i].joint;
    if (joint.type != dynamics::JointType::revolute && joint.type != dynamics::JointType::prismatic) continue;
    // The child frame C is X_JC after the joint frame J: J's origin and axis seen from C.
    const spatial::Pose X_CJ = joint.X_JC.inverse();
    scene.joints.push_back({joint.name, static_cast<int>(i), joint.type == dynamics::JointType::prismatic, X_CJ.p,
                            (X_CJ.R * joint.axis_J).normalized()});
  }
  for (const actuation::Thruster& t : model.thrusters)
    scene.thrusters.push_back({t.name, t.body, t.p_BoT_B, t.axis_B});
  for (const dynamics::Connector& c : model.connectors) {
    scene.connectors.push_back({c.name, c.body_a, c.body_b, c.p_AK_A, c.X_BK.p});
  }
  return scene;
}

}  // namespace uwsim::app
