// The validated content of a scenario file: plain data, in the units and frames the file
// uses (SI, NED world frame W, SNAME body frame B, Fossen ordering [u v w p q r] for
// 6-vectors and 6×6 hydrodynamic matrices). The model builder converts to the spatial
// ordering used by the dynamics; nothing in here is ever read in the step path.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <limits>
#include <string>
#include <vector>

namespace uwsim::scenario {

using Vector3 = Eigen::Vector3d;
using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix3 = Eigen::Matrix3d;
using Matrix6 = Eigen::Matrix<double, 6, 6>;

struct EnvironmentSpec {
  double gravity = 9.81;                  // m/s², acts along +z of NED
  double water_density = 1000.0;          // kg/m³
  Vector3 current_W = Vector3::Zero();    // m/s, constant, in NED
};

enum class IntegratorKind { rk4, dopri5 };

struct SimulationSpec {
  double duration = 10.0;                 // s
  IntegratorKind integrator = IntegratorKind::rk4;
  double step = 0.001;                    // s: the fixed step (rk4), the first trial step (dopri5)
  double max_step = 0.0;                  // s: dopri5 step bound, 0 = none
  double abs_tol = 1e-8;                  // dopri5 only
  double rel_tol = 1e-8;                  // dopri5 only
  double output_rate = 50.0;              // Hz: samples at exactly k / output_rate
};

struct BodyInitialSpec {
  Vector3 p_WB_W = Vector3::Zero();                        // m, NED
  Eigen::Quaterniond q_WB = Eigen::Quaterniond::Identity(); // unit, body → NED
  Vector6 nu_B = Vector6::Zero();                          // [u v w p q r], body frame
};

struct BodySpec {
  std::string name;
  double mass = 0.0;                                   // kg
  Matrix3 inertia_Bcm_B = Matrix3::Zero();             // kg m², about the CG, body axes
  Vector3 p_BoBcm_B = Vector3::Zero();                 // m, CG from body origin
  Vector3 p_BoBcb_B = Vector3::Zero();                 // m, CB from body origin
  double volume = 0.0;                                 // m³ displaced
  Matrix6 added_mass_B = Matrix6::Zero();              // Fossen order, at the body origin, symmetric
  Vector6 linear_damping = Vector6::Zero();            // Fossen order, ≥ 0 magnitudes
  Vector6 quadratic_damping = Vector6::Zero();         // Fossen order, ≥ 0 magnitudes
  BodyInitialSpec initial;
};

enum class ForceFrame { body, world };

// A constant wrench on a body: `force` acts at `point` (body frame); `force` and `moment`
// are expressed in `frame`. Active for start ≤ t < stop.
struct ForceSpec {
  std::string name;
  std::string body;
  ForceFrame frame = ForceFrame::body;
  Vector3 point_B = Vector3::Zero();
  Vector3 force = Vector3::Zero();   // N
  Vector3 moment = Vector3::Zero();  // N m
  double start = 0.0;
  double stop = std::numeric_limits<double>::infinity();
};

struct Scenario {
  std::string name;
  std::string description;
  std::string source_path;    // the file it was read from
  std::string resolved_yaml;  // the whole scenario after --set overrides, as YAML text
  EnvironmentSpec environment;
  SimulationSpec simulation;
  std::vector<BodySpec> bodies;
  std::vector<ForceSpec> forces;
};

}  // namespace uwsim::scenario
