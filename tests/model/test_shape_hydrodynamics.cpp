// Shape-derived coefficients against paper 002's formulas and against numerical strip integrals.
#include <doctest/doctest.h>

#include <cmath>

#include "model/shape_hydrodynamics.h"
#include "spatial/spatial.h"

using namespace uwsim;

namespace {

// Quadratic drag moment of a strip-theory body turning at unit rate, integrated numerically:
// Σ ½ρ·C·width·|s|·s·s·ds over its length.
double numerical_strip_moment(double rho, double C, double width, double length) {
  const int n = 200000;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double s = -length / 2 + (i + 0.5) * length / n;
    sum += 0.5 * rho * C * width * std::abs(s) * s * s * (length / n);
  }
  return sum;
}

}  // namespace

TEST_CASE("shapes: a cylinder's volume, added mass (paper 002 Sec. VI) and drag at its centre") {
  model::ShapeSpec cylinder;
  cylinder.kind = model::ShapeSpec::Kind::cylinder;
  cylinder.radius = 0.085, cylinder.length = 0.62;
  cylinder.drag_coefficients = Eigen::Vector3d(0.8, 1.0, 1.1);
  const double rho = 1026.0, mass = 14.3, r = 0.085, l = 0.62;
  CHECK(model::shape_volume(cylinder) == doctest::Approx(M_PI * r * r * l));
  const auto A = model::shape_added_mass(cylinder, mass, rho);
  CHECK(A(0, 0) == doctest::Approx(0.1 * mass));
  CHECK(A(1, 1) == doctest::Approx(M_PI * rho * r * r * l));
  CHECK(A(2, 2) == doctest::Approx(M_PI * rho * r * r * l));
  CHECK(A(3, 3) == 0.0);
  CHECK(A(4, 4) == doctest::Approx(M_PI * rho * r * r * l * l * l / 12.0));
  CHECK((A - A.transpose()).norm() == 0.0);
  const auto D = model::shape_quadratic_drag(cylinder, rho);
  CHECK(D[0] == doctest::Approx(0.5 * rho * 0.8 * M_PI * r * r));
  CHECK(D[1] == doctest::Approx(0.5 * rho * 1.0 * 2 * r * l));
  CHECK(D[4] == doctest::Approx(numerical_strip_moment(rho, 1.1, 2 * r, l)).epsilon(1e-6));  // pitch: z-flow
  CHECK(D[5] == doctest::Approx(numerical_strip_moment(rho, 1.0, 2 * r, l)).epsilon(1e-6));  // yaw: y-flow
}

TEST_CASE("shapes: a box's rotational drag sums the strip moments of the faces it sweeps") {
  model::ShapeSpec box;
  box.kind = model::ShapeSpec::Kind::box;
  box.size = Eigen::Vector3d(0.4, 0.3, 0.2);
  box.drag_coefficients = Eigen::Vector3d(1.1, 1.2, 1.3);
  const double rho = 1000.0;
  const auto D = model::shape_quadratic_drag(box, rho);
  const auto& L = box.size;
  const auto& C = box.drag_coefficients;
  CHECK(D[0] == doctest::Approx(0.5 * rho * C.x() * L.y() * L.z()));
  CHECK(D[3] == doctest::Approx(numerical_strip_moment(rho, C.y(), L.x(), L.z()) +
                                numerical_strip_moment(rho, C.z(), L.x(), L.y())).epsilon(1e-6));
  CHECK(D[4] == doctest::Approx(numerical_strip_moment(rho, C.z(), L.y(), L.x()) +
                                numerical_strip_moment(rho, C.x(), L.y(), L.z())).epsilon(1e-6));
  CHECK(D[5] == doctest::Approx(numerical_strip_moment(rho, C.y(), L.z(), L.x()) +
                                numerical_strip_moment(rho, C.x(), L.z(), L.y())).epsilon(1e-6));
}

TEST_CASE("shapes: added mass moved off-centre keeps the kinetic energy of the same motion") {
  model::ShapeSpec cylinder;
  cylinder.kind = model::ShapeSpec::Kind::cylinder;
  cylinder.radius = 0.02, cylinder.length = 0.15;
  const auto A_c = model::shape_added_mass(cylinder, 0.3, 1000.0);
  cylinder.center_B = Eigen::Vector3d(0.075, 0.01, -0.02);
  const auto A_o = model::shape_added_mass(cylinder, 0.3, 1000.0);
  // A body-origin velocity ν_o moves the centre at ν_c = [v + ω × c; ω]: ½ν_oᵀA_oν_o = ½ν_cᵀA_cν_c.
  spatial::Vec6 nu_o;
  nu_o << 0.3, -0.2, 0.5, 1.0, -0.7, 0.4;
  spatial::Vec6 nu_c = nu_o;
  nu_c.head<3>() += nu_o.tail<3>().cross(cylinder.center_B);
  CHECK(nu_o.dot(A_o * nu_o) == doctest::Approx(nu_c.dot(A_c * nu_c)).epsilon(1e-12));
}

TEST_CASE("shapes: a cylinder along z is the cylinder along x turned onto z") {
  // R maps the x-cylinder's frame onto the body: x → z, y → x, z → y (a proper rotation).
  Eigen::Matrix3d R;
  R.col(0) = Eigen::Vector3d::UnitZ();
  R.col(1) = Eigen::Vector3d::UnitX();
  R.col(2) = Eigen::Vector3d::UnitY();
  REQUIRE(R.determinant() == doctest::Approx(1.0));
  model::Matrix6 R6 = model::Matrix6::Zero();
  R6.topLeftCorner<3, 3>() = R;
  R6.bottomRightCorner<3, 3>() = R;

  model::ShapeSpec along_z;
  along_z.kind = model::ShapeSpec::Kind::cylinder;
  along_z.radius = 0.02, along_z.length = 0.145, along_z.axis = 2;
  along_z.drag_coefficients = Eigen::Vector3d(0.7, 0.9, 1.3);  // flow along body x, y, z
  model::ShapeSpec along_x = along_z;
  along_x.axis = 0;
  along_x.drag_coefficients = R.transpose() * along_z.drag_coefficients;  // the same flows, its axes
  const double rho = 1000.0, mass = 0.429;

  const model::Matrix6 turned = R6 * model::shape_added_mass(along_x, mass, rho) * R6.transpose();
  CHECK((model::shape_added_mass(along_z, mass, rho) - turned).norm() < 1e-15);
  const model::Matrix3 inertia = R * model::homogeneous_inertia(along_x, mass) * R.transpose();
  CHECK((model::homogeneous_inertia(along_z, mass) - inertia).norm() < 1e-18);
  const model::Vector6 drag_x = model::shape_quadratic_drag(along_x, rho);
  const model::Matrix6 drag_turned = R6 * drag_x.asDiagonal() * R6.transpose();
  CHECK((model::shape_quadratic_drag(along_z, rho) - drag_turned.diagonal()).norm() < 1e-15);
  // Cross-flow along body x drags a z-cylinder with its x coefficient; pitch sweeps it along x.
  const double r = 0.02, l = 0.145;
  const model::Vector6 D = model::shape_quadratic_drag(along_z, rho);
  CHECK(D[0] == doctest::Approx(0.5 * rho * 0.7 * 2 * r * l));
  CHECK(D[2] == doctest::Approx(0.5 * rho * 1.3 * M_PI * r * r));
  CHECK(D[4] == doctest::Approx(numerical_strip_moment(rho, 0.7, 2 * r, l)).epsilon(1e-6));
  CHECK(D[5] == 0.0);
}
