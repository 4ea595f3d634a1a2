// Thruster configuration matrix and allocation: paper 001's BlueROV2 Heavy (eq. 38) rebuilt from
// its geometry, exact reproduction of feasible wrenches (checked against Eigen's SVD), the
// damped pseudo-inverse near a singular configuration (paper 002 eq. 36–37), and saturation.
#include <doctest/doctest.h>

#include <Eigen/SVD>
#include <cmath>
#include <numbers>
#include <random>

#include "control/thrust_allocation.h"
#include "control/thruster_configuration.h"
#include "spatial/transform.h"

using namespace uwsim;
using control::ColumnVector;
using control::ConfigurationMatrix;
using spatial::Vec3;
using spatial::Vec6;

namespace {

// León-González et al. 2024 Sec. 6.1 (reference/parameters.md §3): four horizontal thrusters
// at (±0.156, ±0.111, 0.085) m at ±45°, four vertical ones at (±0.120, ±0.218, 0) m.
ConfigurationMatrix bluerov2_heavy() {
  const double c = std::sqrt(0.5);
  const Vec3 positions[8] = {{0.156, 0.111, 0.085},  {0.156, -0.111, 0.085},
                             {-0.156, 0.111, 0.085}, {-0.156, -0.111, 0.085},
                             {0.120, 0.218, 0.0},    {0.120, -0.218, 0.0},
                             {-0.120, 0.218, 0.0},   {-0.120, -0.218, 0.0}};
  const Vec3 directions[8] = {{c, -c, 0}, {c, c, 0}, {c, c, 0}, {c, -c, 0},
                              {0, 0, 1},  {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  ConfigurationMatrix T(6, 8);
  for (int j = 0; j < 8; ++j) T.col(j) = control::thruster_column(positions[j], directions[j]);
  return T;
}

// Minimum-norm least-squares solution by SVD: an independent pseudo-inverse.
Eigen::VectorXd svd_solve(const ConfigurationMatrix& T, const Vec6& w) {
  const Eigen::MatrixXd A = T;
  return A.jacobiSvd(Eigen::ComputeThinU | Eigen::ComputeThinV).solve(w);
}

Vec6 random_wrench(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-20.0, 20.0);
  return Vec6(u(rng), u(rng), u(rng), 0.2 * u(rng), 0.2 * u(rng), 0.2 * u(rng));
}

}  // namespace

TEST_CASE("thruster configuration: the BlueROV2 Heavy geometry gives paper 001's eq. 38") {
  // Eq. 38 as printed (signs lost in extraction; moment rows in mm): compare magnitudes.
  Eigen::Matrix<double, 6, 8> printed;
  printed << 0.7071, 0.7071, 0.7071, 0.7071, 0, 0, 0, 0,  //
      0.7071, 0.7071, 0.7071, 0.7071, 0, 0, 0, 0,         //
      0, 0, 0, 0, 1, 1, 1, 1,                             //
      60, 60, 60, 60, 218, 218, 218, 218,                 //
      60, 60, 60, 60, 120, 120, 120, 120,                 //
      188.8, 188.8, 188.8, 188.8, 0, 0, 0, 0;
  printed.bottomRows<3>() /= 1000.0;
  const Eigen::Matrix<double, 6, 8> T = bluerov2_heavy();
  CHECK((T.cwiseAbs() - printed).cwiseAbs().maxCoeff() < 2e-4);
  // Each column's moment is r × f of a unit force at the thruster (spatial force_at_point,
  // [moment; force]), here in Fossen's [force; moment] order.
  const Vec6 F = spatial::force_at_point(Vec3(0.156, 0.111, 0.085), Vec3(1, -1, 0).normalized());
  CHECK((T.col(0).head<3>() - F.tail<3>()).norm() < 1e-15);
  CHECK((T.col(0).tail<3>() - F.head<3>()).norm() < 1e-15);
  // All four horizontal thrusters forward: surge, the sway and yaw parts cancelling, and a
  // nose-up pitch moment from acting 0.085 m below the origin.
  const Vec6 surge = T.leftCols<4>().rowwise().sum();
  CHECK(surge[0] == doctest::Approx(4 * std::sqrt(0.5)));
  CHECK(surge[4] == doctest::Approx(4 * 0.085 * std::sqrt(0.5)));
  CHECK(std::abs(surge[1]) + std::abs(surge[2]) + std::abs(surge[3]) + std::abs(surge[5]) < 1e-15);
}

TEST_CASE("thrust allocation: reproduces any feasible wrench exactly with the minimum-norm thrusts") {
  std::mt19937 rng(3);
  const ConfigurationMatrix T = bluerov2_heavy();  // rank 6: every wrench is feasible
  for (int i = 0; i < 50; ++i) {
    const Vec6 w = random_wrench(rng);
    const ColumnVector u = control::allocate_unsaturated(T, w, 0.0);
    CHECK((T * u - w).norm() < 1e-12 * w.norm());
    CHECK((u - svd_solve(T, w)).norm() < 1e-10 * u.norm());
  }
  // Rank-deficient: the four horizontal thrusters alone (no heave). A wrench they can produce
  // is reproduced exactly; any other gets the least-squares (SVD) answer.
  const ConfigurationMatrix H = T.leftCols(4);
  std::uniform_real_distribution<double> thrust(-10, 10);
  for (int i = 0; i < 20; ++i) {
    ColumnVector u0(4);
    for (int j = 0; j < 4; ++j) u0[j] = thrust(rng);
    const Vec6 feasible = H * u0;
    const ColumnVector u = control::allocate_unsaturated(H, feasible, 0.0);
    CHECK((H * u - feasible).norm() < 1e-10 * feasible.norm());
    const Vec6 w = random_wrench(rng);
    CHECK((control::allocate_unsaturated(H, w, 0.0) - svd_solve(H, w)).norm() < 1e-9 * w.norm());
  }
}

TEST_CASE("thruster configuration: a thruster on a moving link is placed through the link's pose") {
  // A link turned by q about the base z axis at p_BL; its thruster at p_LT_L pushes along d_L.
  const Vec3 p_LT_L(0.3, 0.05, -0.02), d_L(0.6, 0.0, 0.8);
  for (const double q : {0.0, 0.7, -2.0}) {
    spatial::Pose X_BL{spatial::rotation_about(Vec3::UnitZ(), q), Vec3(0.5, 0.0, 0.1)};
    const Vec6 column = control::thruster_column_on_link(X_BL, p_LT_L, d_L);
    // Independently: the unit force at the thruster point, moved to the base origin by the
    // spatial force transform of the link pose.
    const Vec6 F_L = spatial::force_at_point(p_LT_L, d_L.normalized());  // [n; f] about Lo in L
    const Vec6 F_B = spatial::force_to_parent(X_BL, F_L);
    CHECK((column.head<3>() - F_B.tail<3>()).norm() < 1e-15);
    CHECK((column.tail<3>() - F_B.head<3>()).norm() < 1e-15);
  }
}

namespace {

// Five fixed thrusters give surge, sway, heave, roll and pitch; the sixth sits on a link turned
// by q about z at 0.5 m ahead, pushing along the link: its yaw moment is 0.5·sin q, so T(q)
// is singular at q = 0 (the straight configuration, as for paper 002's USM).
ConfigurationMatrix link_thruster_matrix(double q) {
  ConfigurationMatrix T(6, 6);
  T.col(0) = control::thruster_column(Vec3::Zero(), Vec3::UnitX());
  T.col(1) = control::thruster_column(Vec3::Zero(), Vec3::UnitY());
  T.col(2) = control::thruster_column(Vec3(0, 0.2, 0), Vec3::UnitZ());
  T.col(3) = control::thruster_column(Vec3(0, -0.2, 0), Vec3::UnitZ());
  T.col(4) = control::thruster_column(Vec3(0.2, 0, 0), Vec3::UnitZ());
  const spatial::Pose X_BL{spatial::rotation_about(Vec3::UnitZ(), q), Vec3(0.5, 0, 0)};
  T.col(5) = control::thruster_column_on_link(X_BL, Vec3(0.3, 0, 0), Vec3::UnitX());
  return T;
}

}  // namespace

TEST_CASE("thrust allocation: the damped pseudo-inverse bounds thrust near a singular configuration") {
  const Vec6 yaw(0, 0, 0, 0, 0, 1.0);  // 1 N m of yaw
  const double lambda = 0.1;           // paper 002's value
  for (const double q : {0.3, 1e-2, 1e-4, 1e-6}) {
    const ConfigurationMatrix T = link_thruster_matrix(q);
    CHECK(T(5, 5) == doctest::Approx(0.5 * std::sin(q)));
    // Undamped: exact, but the link thruster must give 1 / (0.5 sin q).
    const ColumnVector u_exact = control::allocate_unsaturated(T, yaw, 0.0);
    CHECK((T * u_exact - yaw).norm() < 1e-12 * u_exact.norm());
    CHECK(std::abs(u_exact[5]) == doctest::Approx(1.0 / (0.5 * std::sin(q))).epsilon(1e-6));
    // Damped: ‖u‖ ≤ ‖τ‖ / (2λ) whatever q, and u solves eq. 36's normal equations
    // Tᵀ(T u − τ) + λ² u = 0.
    const ColumnVector u = control::allocate_unsaturated(T, yaw, lambda);
    CHECK(u.norm() <= yaw.norm() / (2 * lambda));
    CHECK((T.transpose() * (T * u - yaw) + lambda * lambda * u).norm() < 1e-12);
  }
  // Away from the singularity the damped solution stays close to the exact one.
  const ConfigurationMatrix T = link_thruster_matrix(std::numbers::pi / 2);
  const Vec6 w(10, -5, 8, 1, -1, 2);
  const ColumnVector u = control::allocate_unsaturated(T, w, 0.01);
  CHECK((T * u - w).norm() < 1e-3 * w.norm());
}

TEST_CASE("thrust allocation: saturation scales all thrusts uniformly and keeps the wrench direction") {
  const ConfigurationMatrix T = bluerov2_heavy();
  // T200-like asymmetric limits: 40 N forward, 30 N reverse.
  const ColumnVector upper = ColumnVector::Constant(8, 40.0), lower = ColumnVector::Constant(8, -30.0);
  const Vec6 w(150, 40, -60, 2, -3, 8);
  const ColumnVector u_free = control::allocate_unsaturated(T, w, 0.0);
  const control::AllocationResult r = control::allocate_thrust(T, w, 0.0, lower, upper);
  REQUIRE(r.scale < 1.0);
  double tightest = 0.0;
  for (int j = 0; j < 8; ++j) {
    CHECK(r.thrust[j] <= upper[j] + 1e-12);
    CHECK(r.thrust[j] >= lower[j] - 1e-12);
    tightest = std::max(tightest, r.thrust[j] > 0 ? r.thrust[j] / upper[j] : r.thrust[j] / lower[j]);
  }
  CHECK(tightest == doctest::Approx(1.0));  // the worst thruster sits exactly on its limit
  CHECK((r.thrust - r.scale * u_free).norm() < 1e-12);
  CHECK((T * r.thrust - r.scale * w).norm() < 1e-10);  // same direction, shorter
  // Within the limits nothing changes.
  const control::AllocationResult small = control::allocate_thrust(T, 0.05 * w, 0.0, lower, upper);
  CHECK(small.scale == 1.0);
  CHECK((T * small.thrust - 0.05 * w).norm() < 1e-12);
}
