// A connector: a constraint that holds two bodies (or a body and the world) together,
// between vehicles of separate trees or closing a loop inside one [Nielsen2018] Sec. 2.3–2.4.
//   rigid: all six relative degrees of freedom locked (Nielsen2018 Def. 2.1)
//   ball:  the connection point of both bodies held together, rotation free
// The connector frame K sits at the connection point with the first body's axes. It is
// attached to the first body A at p_AK_A and to the second body B with the pose X_BK that
// made the two coincide at the start (or the relative pose the scenario asks for).
#pragma once

#include <string>

#include "spatial/transform.h"

namespace uwsim::dynamics {

enum class ConnectorType { rigid, ball };

struct Connector {
  std::string name;
  ConnectorType type = ConnectorType::rigid;
  int body_a = 0;                 // the first body (index into Model::bodies)
  int body_b = -1;                // the second body, −1: the world
  spatial::Vec3 p_AK_A = spatial::Vec3::Zero();  // connection point in A
  spatial::Pose X_BK;             // K in B (in W for the world): R_BK = R_BA at the start

  // Constraint rows: rigid [angular; linear], ball [linear].
  int rows() const { return type == ConnectorType::rigid ? 6 : 3; }
};

}  // namespace uwsim::dynamics
