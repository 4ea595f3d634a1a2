// The identification model Φ(q, q̇, q̈)·θ + τ_known against inverse dynamics by the recursive
// Newton–Euler algorithm (dynamics/rnea.h) on random fixed-base trees with motors, and its
// base parameters.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>

#include "analysis/base_parameters.h"
#include "analysis/identification.h"
#include "analysis/regressor.h"
#include "dynamics/pipeline.h"
#include "dynamics/rnea.h"
#include "model/build_model.h"
#include "support/fixed_trees.h"

using namespace uwsim;
using JT = model::JointType;
using spatial::Vec6;

TEST_CASE("regressor: Y(V, A)·π is the body's I·A + V ×* (I·V) for a random body") {
  test::RandomBodies rnd(3);
  for (int trial = 0; trial < 20; ++trial) {
    const model::BodySpec b = rnd.body("b", rnd.uniform(0.2, 5.0));
    const spatial::Mat6 I = spatial::rigid_body_inertia(b.mass, b.p_BoBcm_B, b.inertia_Bcm_B);
    const Vec6 V = spatial::make_spatial(rnd.vec3(2.0), rnd.vec3(2.0)), A = spatial::make_spatial(rnd.vec3(5.0), rnd.vec3(5.0));
    Eigen::Matrix<double, 10, 1> pi;
    pi << I(3, 3), I(2, 4), I(0, 5), I(1, 3), I(0, 0), I(0, 1), I(0, 2), I(1, 1), I(1, 2), I(2, 2);
    const Vec6 expected = I * A + spatial::cross_force(V, I * V);
    CHECK((analysis::body_regressor(V, A) * pi - expected).norm() < 1e-12 * (1.0 + expected.norm()));
  }
}

TEST_CASE("regressor: Φθ + τ_known equals RNEA plus friction on random trees with motors, in air and in water") {
  test::RandomBodies rnd(17);
  for (bool fluid : {false, true}) {
    for (int trial = 0; trial < 5; ++trial) {
      const dynamics::Model model = model::build_model(test::random_fixed_forest(rnd, fluid));
      analysis::Regressor reg(model, {});
      REQUIRE(reg.rows() == 5);
      CHECK(reg.cols() == 6 * 10 + 5 * 2 + 2 * 3);
      const Eigen::VectorXd theta = reg.model_values();
      for (int state = 0; state < 5; ++state) {
        std::vector<double> q(5), qd(5), qdd(5);
        Eigen::VectorXd known(5);
        for (std::size_t r = 0; r < 5; ++r) q[r] = rnd.uniform(-0.7, 0.7), qd[r] = rnd.uniform(-2, 2), qdd[r] = rnd.uniform(-3, 3);
        Eigen::MatrixXd Phi(5, reg.cols());
        reg.evaluate(0.3, q.data(), qd.data(), qdd.data(), Phi, known.data());
        const Eigen::VectorXd expected = test::transmitted(model, reg, q, qd, qdd);
        const Eigen::VectorXd got = Phi * theta + known;
        CHECK((got - expected).norm() < 1e-10 * (1.0 + expected.norm()));
        if (!fluid) CHECK(known.norm() < 1e-12);
      }
    }
  }
}

TEST_CASE("regressor: the motors' merged constants are J_m + m_nut/(N·2π/p)², f_v + f_vBS/(N·2π/p)², f_s + f_sBS/(N·2π/p)") {
  test::RandomBodies rnd(2);
  const dynamics::Model model = model::build_model(test::random_fixed_forest(rnd, false));
  analysis::Regressor reg(model, {});
  const Eigen::VectorXd theta = reg.model_values();
  const double c = 6.0 * 2.0 * M_PI / 0.002;  // nut metres → motor radians
  const auto value = [&](const std::string& name) {
    for (int k = 0; k < reg.cols(); ++k)
      if (reg.parameters()[static_cast<std::size_t>(k)].name == name) return theta[k];
    FAIL("no parameter " << name);
    return 0.0;
  };
  CHECK(value("k4.Jm") == doctest::Approx(8e-6 + 0.3 / (c * c)).epsilon(1e-12));
  CHECK(value("k4.fvm") == doctest::Approx(4e-6 + 40.0 / (c * c)).epsilon(1e-12));
  CHECK(value("k4.fcm") == doctest::Approx(2e-3 + 8.0 / c).epsilon(1e-12));
  CHECK(value("k1.Jm") == doctest::Approx(3e-6).epsilon(1e-12));
  CHECK(value("b4.m") == doctest::Approx(0.4).epsilon(1e-12));
  // Without actuators the motor columns are gone.
  CHECK(analysis::Regressor(model, {.joint_friction = true, .actuators = false}).cols() == 6 * 10 + 5 * 2);
}

TEST_CASE("base parameters: a planar two-link arm has the textbook six inertial ones, and W θ = W_b β for any θ") {
  // Two links on parallel horizontal axes (along y of NED), the second 0.5 m along x of the
  // first: 6 inertial base parameters (Khalil & Dombre 2002 Sec. 12.4: ZZR1, MXR1, MY1, ZZ2,
  // MX2, MY2) plus the friction of each joint.
  scenario::Scenario s = test::scenario_with({}, 1.0);
  test::RandomBodies rnd(4);
  s.bodies = {rnd.body("l1", 2.0), rnd.body("l2", 1.0)};
  for (auto& b : s.bodies) b.added_mass_B.setZero(), b.linear_damping.setZero(), b.quadratic_damping.setZero(), b.volume = 0.0;
  s.joints = {rnd.joint("j1", JT::revolute, "world", "l1", 0), rnd.joint("j2", JT::revolute, "l1", "l2", 0)};
  for (auto& j : s.joints) j.placement.rpy = {M_PI / 2.0, 0.0, 0.0}, j.placement.axis = Eigen::Vector3d::UnitZ();
  s.joints[0].placement.xyz.setZero();
  s.joints[1].placement.xyz = {0.5, 0.0, 0.0};
  s.joints[1].placement.rpy.setZero();
  const dynamics::Model model = model::build_model(s);
  analysis::Regressor reg(model, {});
  const analysis::BaseParameters base = analysis::base_parameters_of(reg, 1);
  CHECK(base.size() == 6 + 4);
  // Khalil's ZZR1 = ZZ1 + l²·m2 and MXR1 = MX1 + l·m2 are identifiable (in the row space of the
  // map θ → β), whatever columns the pivoting kept; ZZ1 and m2 alone are not.
  Eigen::MatrixXd P = Eigen::MatrixXd::Zero(base.size(), reg.cols());
  for (int k = 0; k < base.size(); ++k) {
    P(k, base.independent[static_cast<std::size_t>(k)]) = 1.0;
    for (std::size_t d = 0; d < base.dependent.size(); ++d) P(k, base.dependent[d]) = base.B(k, static_cast<Eigen::Index>(d));
  }
  const auto index = [&](const std::string& name) {
    for (int k = 0; k < reg.cols(); ++k)
      if (reg.parameters()[static_cast<std::size_t>(k)].name == name) return k;
    FAIL("no parameter " << name);
    return 0;
  };
  const auto identifiable = [&](std::vector<std::pair<std::string, double>> terms) {
    Eigen::VectorXd c = Eigen::VectorXd::Zero(reg.cols());
    for (const auto& [name, coefficient] : terms) c[index(name)] = coefficient;
    const Eigen::VectorXd d = P.transpose().colPivHouseholderQr().solve(c);
    return (P.transpose() * d - c).norm() < 1e-9;
  };
  CHECK(identifiable({{"l1.ZZ", 1.0}, {"l2.m", 0.25}}));
  CHECK(identifiable({{"l1.mx", 1.0}, {"l2.m", 0.5}}));
  CHECK(identifiable({{"l1.my", 1.0}}));
  CHECK(identifiable({{"l2.ZZ", 1.0}}));
  CHECK_FALSE(identifiable({{"l1.ZZ", 1.0}}));
  CHECK_FALSE(identifiable({{"l2.m", 1.0}}));
  CHECK_FALSE(identifiable({{"l2.XX", 1.0}}));
  // W θ = W_b β on fresh states, for a θ that is not the model's.
  Eigen::VectorXd theta = Eigen::VectorXd::Random(reg.cols());
  const Eigen::VectorXd beta = base.of(theta);
  for (int state = 0; state < 10; ++state) {
    std::vector<double> q = {rnd.uniform(-3, 3), rnd.uniform(-3, 3)}, qd = {rnd.uniform(-1, 1), rnd.uniform(-1, 1)},
                        qdd = {rnd.uniform(-1, 1), rnd.uniform(-1, 1)}, known(2);
    Eigen::MatrixXd Phi(2, reg.cols());
    reg.evaluate(0.0, q.data(), qd.data(), qdd.data(), Phi, known.data());
    Eigen::MatrixXd Phi_b(2, base.size());
    for (int k = 0; k < base.size(); ++k) Phi_b.col(k) = Phi.col(base.independent[static_cast<std::size_t>(k)]);
    CHECK((Phi * theta - Phi_b * beta).norm() < 1e-9 * (1.0 + (Phi * theta).norm()));
  }
}

TEST_CASE("regressor: free-floating bodies and connectors are refused with a message naming them") {
  scenario::Scenario s = test::scenario_with({test::plain_body("rov")}, 1.0);
  const dynamics::Model model = model::build_model(s);
  CHECK_THROWS_WITH_AS(analysis::Regressor(model, {}), doctest::Contains("'rov' is free-floating"), std::invalid_argument);
}
