// References: see shape_hydrodynamics.h.
#include "model/shape_hydrodynamics.h"

#include <cmath>

#include "spatial/transform.h"

namespace uwsim::model {


namespace {

// ∫ s²·|s| ds over [−L/2, L/2] = L⁴/32: the strip-theory lever for the quadratic drag moment of
// a plate of length L turning about its middle.
double strip_moment_integral(double L) { return std::pow(L, 4) / 32.0; }

}  // namespace

double shape_volume(const ShapeSpec& shape) {
  switch (shape.kind) {
    case ShapeSpec::Kind::cylinder: return M_PI * shape.radius * shape.radius * shape.length;
    case ShapeSpec::Kind::box: return shape.size.prod();
    case ShapeSpec::Kind::none: return 0.0;
  }
  return 0.0;
}

Matrix6 move_inertia_to_origin(const Matrix6& M_c, const Vector3& p_BoC_B) {
  // Hᵀ(c)·M·H(c) in Fossen order is, in spatial order, the shift of RBDA eq. 2.66 by the pure
  // translation to c: the one implementation (spatial/transform.h).
  const spatial::Pose X_BoC{spatial::Mat3::Identity(), p_BoC_B};
  return spatial::from_fossen_order(spatial::inertia_to_parent(X_BoC, spatial::from_fossen_order(M_c)));
}

// Diagonal 6-vector values of a cylinder along x, moved to the cylinder's own axis: index i
// (translation) and 3 + i (rotation) of the x-cylinder go to (i + axis) mod 3.
Vector6 along_axis(const Vector6& along_x, int axis) {
  Vector6 out;
  for (int i = 0; i < 3; ++i) {
    out[(i + axis) % 3] = along_x[i];
    out[3 + (i + axis) % 3] = along_x[3 + i];
  }
  return out;
}

Matrix6 shape_added_mass(const ShapeSpec& shape, double mass, double water_density) {
  Matrix6 M_A = Matrix6::Zero();
  if (shape.kind == ShapeSpec::Kind::cylinder) {
    const double r = shape.radius, l = shape.length;
    const double cross_flow = M_PI * water_density * r * r * l;  // [SverdrupThygeson2018] Sec. VI
    Vector6 along_x;
    along_x << 0.1 * mass, cross_flow, cross_flow, 0.0, cross_flow * l * l / 12.0,
        cross_flow * l * l / 12.0;
    M_A.diagonal() = along_axis(along_x, shape.axis);
  }
  return move_inertia_to_origin(M_A, shape.center_B);
}

Vector6 shape_quadratic_drag(const ShapeSpec& shape, double water_density) {
  const double half_rho = 0.5 * water_density;
  const Vector3& C = shape.drag_coefficients;
  Vector6 D = Vector6::Zero();
  if (shape.kind == ShapeSpec::Kind::cylinder) {
    const double r = shape.radius, l = shape.length;
    // The coefficients as the x-cylinder's: axial, then the two cross-flow directions.
    const int a = shape.axis;
    const double c_axial = C[a], c_1 = C[(a + 1) % 3], c_2 = C[(a + 2) % 3];
    Vector6 along_x;
    along_x << half_rho * c_axial * M_PI * r * r, half_rho * c_1 * 2.0 * r * l,
        half_rho * c_2 * 2.0 * r * l, 0.0, half_rho * c_2 * 2.0 * r * strip_moment_integral(l),
        half_rho * c_1 * 2.0 * r * strip_moment_integral(l);
    D = along_axis(along_x, a);
  } else if (shape.kind == ShapeSpec::Kind::box) {
    const double lx = shape.size.x(), ly = shape.size.y(), lz = shape.size.z();
    D << half_rho * C.x() * ly * lz, half_rho * C.y() * lx * lz, half_rho * C.z() * lx * ly,
        // roll: faces normal to y swept along z, faces normal to z swept along y
        half_rho * (C.y() * lx * strip_moment_integral(lz) + C.z() * lx * strip_moment_integral(ly)),
        half_rho * (C.z() * ly * strip_moment_integral(lx) + C.x() * ly * strip_moment_integral(lz)),
        half_rho * (C.y() * lz * strip_moment_integral(lx) + C.x() * lz * strip_moment_integral(ly));
  }
  return D;
}

Matrix3 homogeneous_inertia(const ShapeSpec& shape, double mass) {
  Matrix3 I = Matrix3::Zero();
  if (shape.kind == ShapeSpec::Kind::cylinder) {
    const double r = shape.radius, l = shape.length;
    const double transverse = mass * (3 * r * r + l * l) / 12.0;
    I.diagonal().setConstant(transverse);
    I(shape.axis, shape.axis) = 0.5 * mass * r * r;
  } else if (shape.kind == ShapeSpec::Kind::box) {
    const Vector3 s2 = shape.size.cwiseProduct(shape.size);
    I.diagonal() << mass * (s2.y() + s2.z()) / 12.0, mass * (s2.x() + s2.z()) / 12.0,
        mass * (s2.x() + s2.y()) / 12.0;
  }
  return I;
}

}  // namespace uwsim::model
