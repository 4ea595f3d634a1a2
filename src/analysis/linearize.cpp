// References: see linearize.h.
#include "analysis/linearize.h"

#include <Eigen/SVD>

#include "analysis/finite_difference.h"
#include "analysis/state_chart.h"
#include "dynamics/connector_rows.h"
#include "dynamics/kinematics.h"
#include "dynamics/pipeline.h"

namespace uwsim::analysis {

namespace {

int constraint_row_count(const dynamics::Model& model) {
  int rows = 0;
  for (const dynamics::Connector& c : model.connectors) rows += 2 * c.rows();
  return rows;
}

// Φ(x): every connector's position errors, then its velocity errors.
void constraint_errors(const dynamics::Model& model, const double* x, dynamics::Workspace& ws, Eigen::VectorXd& out) {
  dynamics::compute_kinematics(model, x, ws);
  Eigen::Index k = 0;
  for (const dynamics::Connector& c : model.connectors) {
    dynamics::ConnectorRows rows;
    const dynamics::BodyState& A = ws.bodies[static_cast<std::size_t>(c.body_a)];
    const dynamics::BodyState* B = c.body_b >= 0 ? &ws.bodies[static_cast<std::size_t>(c.body_b)] : nullptr;
    dynamics::connector_rows(c, model.constraint_frequency, A, B, rows);
    out.segment(k, rows.rows) = rows.position_error.head(rows.rows);
    out.segment(k + rows.rows, rows.rows) = rows.velocity_error.head(rows.rows);
    k += 2 * rows.rows;
  }
}

void reduce_to_constraints(const dynamics::Model& model, const OperatingPoint& point, const StateChart& chart,
                           const Eigen::VectorXd& steps, const std::atomic<bool>* stop, LinearModel& out) {
  const int m = constraint_row_count(model);
  dynamics::Workspace ws(model);
  std::vector<double> x(point.x.size());
  const VectorFunction phi = [&](const Eigen::VectorXd& z, Eigen::VectorXd& e) {
    chart.retract(point.x.data(), z.data(), x.data());
    constraint_errors(model, x.data(), ws, e);
  };
  const Eigen::MatrixXd J = jacobian(phi, Eigen::VectorXd::Zero(chart.size()), steps, m, stop).value;
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(J, Eigen::ComputeFullV);
  const Eigen::VectorXd& sigma = svd.singularValues();
  // Finite differences give ∂Φ/∂z to ~1e-10 relative: smaller singular values are zero.
  const double tolerance = 1e-8 * (sigma.size() > 0 ? sigma[0] : 0.0);
  int rank = 0;
  while (rank < sigma.size() && sigma[rank] > tolerance) ++rank;
  out.constrained = true;
  out.constraint_rows = m;
  out.constraint_rank = rank;
  out.basis = svd.matrixV().rightCols(chart.size() - rank);
  const Eigen::MatrixXd AN = out.A * out.basis;
  out.A_reduced = out.basis.transpose() * AN;                       // (2)
  out.B_reduced = out.basis.transpose() * out.B;
  const double norm = AN.norm();
  out.invariance_defect = norm > 0.0 ? (AN - out.basis * out.A_reduced).norm() / norm : 0.0;
}

}  // namespace

std::vector<double> initial_state(const dynamics::Model& model) {
  std::vector<double> x = model.x0;
  if (model.connectors.empty()) return x;
  dynamics::Workspace ws(model);
  std::vector<double> xdot(x.size());
  dynamics::evaluate(model, 0.0, x.data(), xdot.data(), ws);
  ws.connectors.project_velocities(model, ws, x.data());
  return x;
}

LinearModel linearize(const dynamics::Model& model, const OperatingPoint& point, const LinearizeOptions& options) {
  const StateChart chart(model);
  Evaluator evaluator(model, point.time, point.held);
  const int n = chart.size();
  const int channels = evaluator.channel_count();
  LinearModel out;
  out.state_names = chart.names();
  out.state_units = chart.units();
  out.first_velocity = chart.first_velocity();
  for (const inputs::Channel& c : model.inputs.channels) {
    out.input_names.push_back("inputs." + c.name);
    out.input_units.push_back(c.units);
  }
  out.u0 = evaluator.nominal_inputs();
  out.relative_step = options.relative_step;
  out.limit_contacts = joints_at_limits(model, point.x, options.relative_step);  // the largest position step

  std::vector<double> x(point.x.size()), xdot(point.x.size());
  // g(z, u): the rate of z, (2) of state_chart.h, at x = φ(x_op, z).
  auto g = [&](const Eigen::VectorXd& z, const Eigen::VectorXd& u, Eigen::VectorXd& zdot) {
    chart.retract(point.x.data(), z.data(), x.data());
    evaluator.derivative(x.data(), u, xdot.data());
    chart.rate(z.data(), x.data(), xdot.data(), zdot.data());
  };
  const Eigen::VectorXd z0 = Eigen::VectorXd::Zero(n);
  out.zdot0.resize(n);
  g(z0, out.u0, out.zdot0);

  Eigen::VectorXd state_steps(n), input_steps(channels);
  for (int i = 0; i < n; ++i) state_steps[i] = options.relative_step * chart.scale(i, point.x.data());
  for (int k = 0; k < channels; ++k) input_steps[k] = options.relative_step * std::max(1.0, std::abs(out.u0[k]));

  const JacobianEstimate A = jacobian([&](const Eigen::VectorXd& z, Eigen::VectorXd& r) { g(z, out.u0, r); },
                                      z0, state_steps, n, options.stop);
  const JacobianEstimate B = jacobian([&](const Eigen::VectorXd& u, Eigen::VectorXd& r) { g(z0, u, r); },
                                      out.u0, input_steps, n, options.stop);
  out.A = A.value;
  out.A_error = A.error;
  out.B = B.value;
  out.B_error = B.error;
  if (!model.connectors.empty()) reduce_to_constraints(model, point, chart, state_steps, options.stop, out);
  return out;
}

}  // namespace uwsim::analysis
