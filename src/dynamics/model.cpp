// References: [RBDA] Sec. 4.4 (joint models); see model.h.
#include "dynamics/model.h"

#include <algorithm>
#include <cmath>

namespace uwsim::dynamics {

void Joint::expand_pose() {
  const Mat3 K = spatial::skew(axis_J), K2 = K * K;
  const Mat3& R_PJ = X_PJ.R;
  C0 = R_PJ * X_JC.R;
  d0 = R_PJ * X_JC.p;
  C1.setZero(), C2.setZero(), d1.setZero(), d2.setZero(), slide.setZero();
  if (type == JointType::revolute) {
    C1 = R_PJ * K * X_JC.R, C2 = R_PJ * K2 * X_JC.R;
    d1 = R_PJ * K * X_JC.p, d2 = R_PJ * K2 * X_JC.p;
  } else if (type == JointType::prismatic) {
    slide = R_PJ * axis_J;
  }
  // Row and column k of C are those of diagonal·1, and its (i, j) plane has a rotation's form.
  const auto keeps_axis = [](const Mat3& C, int k, double diagonal) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    return C(k, k) == diagonal && C(k, i) == 0.0 && C(k, j) == 0.0 && C(i, k) == 0.0 && C(j, k) == 0.0 &&
           C(i, i) == C(j, j) && C(i, j) == -C(j, i);
  };
  rotation_axis = -1;
  for (int k = 2; k >= 0 && rotation_axis < 0; --k)
    if (keeps_axis(C0, k, 1.0) && keeps_axis(C1, k, 0.0) && keeps_axis(C2, k, 0.0)) rotation_axis = k;
}

std::vector<double> Model::discontinuities() const {
  std::vector<double> times;
  for (const AppliedForce& f : forces) {
    if (f.start > 0.0) times.push_back(f.start);
    if (std::isfinite(f.stop)) times.push_back(f.stop);
  }
  const std::vector<double> input_times = inputs.discontinuities();
  times.insert(times.end(), input_times.begin(), input_times.end());
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

int Model::body_index(const std::string& name) const {
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i].name == name) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> Model::joints_with_stiff_damping(double step) const {
  std::vector<std::string> names;
  for (const Body& body : bodies) {
    if (body.joint.dof() != 1 || body.joint.damping == 0.0) continue;
    const double own_inertia = body.joint.S_C.dot(body.M_B * body.joint.S_C);
    if (body.joint.damping * step > 2.0 * own_inertia) names.push_back(body.joint.name);
  }
  return names;
}

}  // namespace uwsim::dynamics
