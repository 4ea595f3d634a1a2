// References: see trim.h.
#include "analysis/trim.h"

#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>

#include "analysis/evaluator.h"
#include "analysis/finite_difference.h"
#include "analysis/linearize.h"
#include "analysis/variables.h"
#include "dynamics/controller_set.h"

namespace uwsim::analysis {

using analysis::VariableKind;
using analysis::VariableRef;

namespace {

std::vector<Variable> resolve_all(const dynamics::Model& model, const std::vector<VariableRef>& refs) {
  std::vector<Variable> out;
  for (const VariableRef& ref : refs) {
    std::string why;
    auto v = resolve(model, ref, why);
    if (!v) throw TrimError(ref.text() + ": " + why);
    out.push_back(*v);
  }
  return out;
}

void add_once(std::vector<VariableRef>& list, const VariableRef& v) {
  if (std::find(list.begin(), list.end(), v) == list.end()) list.push_back(v);
}

// The tree (root body) of every body a connector holds.
std::vector<int> connected_trees(const dynamics::Model& model) {
  std::vector<int> roots;
  for (const dynamics::Connector& c : model.connectors) {
    roots.push_back(model.bodies[static_cast<std::size_t>(c.body_a)].root);
    if (c.body_b >= 0) roots.push_back(model.bodies[static_cast<std::size_t>(c.body_b)].root);
  }
  return roots;
}

void check_poseable(const dynamics::Model& model, const std::vector<VariableRef>& unknowns) {
  if (unknowns.empty())
    throw TrimError("nothing to solve for: give the unknowns (trim.unknowns in the scenario, or --unknown), "
                    "e.g. bodies.rov.pitch, bodies.rov.w, inputs.surge");
  for (const dynamics::Controller& c : model.controllers)
    if (!dynamics::ControllerSet::memory_supported(c))
      throw TrimError("controller '" + c.name + "': trim handles pid, pose_pd, thrust_allocation, ardusub_mixer and "
                      "inverse_kinematics controllers; the path, transport and reference states of task_priority, "
                      "line_of_sight and base_control are not trim unknowns (linearise a simulated state instead: "
                      "sim linearize --at TIME)");
  const std::vector<int> trees = connected_trees(model);
  for (const VariableRef& v : unknowns) {
    int body = -1;
    if (v.kind == VariableKind::body) body = model.body_index(v.item);
    for (std::size_t b = 0; v.kind == VariableKind::joint && b < model.bodies.size(); ++b)
      if (model.bodies[b].joint.name == v.item && model.bodies[b].joint.type != dynamics::JointType::free) body = static_cast<int>(b);
    if (body < 0) continue;
    const int root = model.bodies[static_cast<std::size_t>(body)].root;
    if (std::find(trees.begin(), trees.end(), root) != trees.end())
      throw TrimError(v.text() + ": this body is held by a connector, and moving it alone would break the "
                      "connection; trim does not handle connected bodies (linearize a simulated state "
                      "instead: sim linearize --at TIME)");
  }
}

// The problem's unknowns and steady variables on the model: every thruster's spin state joins
// both lists (its rate vanishes at the shaft speed its command holds).
struct TrimVariables {
  std::vector<Variable> unknowns, steady;
};

TrimVariables trim_variables(const dynamics::Model& model, const TrimProblem& problem) {
  std::vector<VariableRef> unknown_refs = problem.unknowns;
  std::vector<VariableRef> steady_refs = problem.steady.empty() ? default_steady(model) : problem.steady;
  for (const actuation::Thruster& t : model.thrusters) {
    if (t.state_index < 0) continue;
    add_once(unknown_refs, {VariableKind::thruster, t.name, "state"});
    add_once(steady_refs, {VariableKind::thruster, t.name, "state"});
  }
  TrimVariables variables{resolve_all(model, unknown_refs), resolve_all(model, steady_refs)};
  for (const Variable& v : variables.steady)
    if (v.place == Variable::Place::channel) throw TrimError(v.name() + ": an input channel has no rate");
  return variables;
}

// The names and units of the unknowns y (the plant's, then the controllers' memory) and of the
// residuals r (the steady rates, then the memory's rates).
void name_variables(const TrimVariables& variables, const MemoryVariables& memory, TrimResult& out) {
  for (const Variable& v : variables.unknowns) {
    out.unknown_names.push_back(v.name());
    out.unknown_units.push_back(v.unit);
  }
  for (const Variable& v : variables.steady) {
    out.residual_names.push_back(v.name());
    out.residual_units.push_back(v.rate_unit);
  }
  for (std::size_t k = 0; k < memory.layout.size(); ++k) {
    out.unknown_names.push_back(memory.names[k]);
    out.unknown_units.push_back(memory.units[k]);
    out.residual_names.push_back(memory.names[k]);
    out.residual_units.push_back(memory.units[k] + "/s");
  }
}

bool finite(const Eigen::VectorXd& v) { return v.allFinite(); }

// The solver of trim.h, (1), from y, whose residual is r: y and r end at the solution, or at the
// least residual found; out's converged, iterations and message say how it ended.
void levenberg_marquardt(const VectorFunction& residual, const TrimProblem& problem, Eigen::VectorXd& y,
                         Eigen::VectorXd& r, TrimResult& out) {
  const Eigen::Index n = y.size();
  const auto m = static_cast<int>(r.size());
  Eigen::VectorXd steps(n), r_trial(m);
  double mu = 1e-3;
  Eigen::MatrixXd J;
  Eigen::VectorXd D;
  bool jacobian_current = false;
  out.message = "iteration limit reached";
  for (out.iterations = 0; out.iterations < problem.max_iterations; ++out.iterations) {
    check_stop(problem.stop);
    if (r.cwiseAbs().maxCoeff() <= problem.tolerance) {
      out.converged = true;
      out.message = "converged";
      break;
    }
    if (!jacobian_current) {
      for (Eigen::Index j = 0; j < n; ++j) steps[j] = 1e-6 * std::max(1.0, std::abs(y[j]));
      J = jacobian(residual, y, steps, m, problem.stop).value;
      D = J.colwise().norm().transpose();
      const double floor = 1e-12 * std::max(1e-300, D.maxCoeff());
      D = D.cwiseMax(floor);
      jacobian_current = true;
      const Eigen::VectorXd gradient = (J.transpose() * r).cwiseQuotient(D);
      if (gradient.norm() <= 1e-12 * r.norm()) {
        out.message = "the residual has a minimum here that is not zero (its gradient vanishes)";
        break;
      }
    }
    // (1) as one least-squares problem: [J; √μ D] δ = [−r; 0].
    Eigen::MatrixXd augmented(m + n, n);
    augmented << J, std::sqrt(mu) * Eigen::MatrixXd(D.asDiagonal());
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(m + n);
    rhs.head(m) = -r;
    const Eigen::VectorXd delta = augmented.colPivHouseholderQr().solve(rhs);
    const Eigen::VectorXd y_trial = y + delta;
    residual(y_trial, r_trial);
    if (finite(r_trial) && r_trial.squaredNorm() < r.squaredNorm()) {
      y = y_trial;
      r = r_trial;
      mu = std::max(mu / 3.0, 1e-15);
      jacobian_current = false;
    } else {
      mu *= 4.0;
      if (mu > 1e12) {
        out.message = "no step lowers the residual any more";
        break;
      }
    }
  }
  if (!out.converged && r.cwiseAbs().maxCoeff() <= problem.tolerance) {
    out.converged = true;
    out.message = "converged";
  }
}

// The directions of y along which r does not change at y (trim.h): singular values of J·D⁻¹
// below 1e-8 of the largest.
int free_directions(const VectorFunction& residual, const TrimProblem& problem, const Eigen::VectorXd& y, int m) {
  const Eigen::Index n = y.size();
  Eigen::VectorXd steps(n);
  for (Eigen::Index j = 0; j < n; ++j) steps[j] = 1e-6 * std::max(1.0, std::abs(y[j]));
  const Eigen::MatrixXd J_end = jacobian(residual, y, steps, m, problem.stop).value;
  Eigen::VectorXd scale = J_end.colwise().norm().transpose();
  scale = scale.cwiseMax(1e-300);
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(J_end * scale.cwiseInverse().asDiagonal());
  const Eigen::VectorXd& sigma = svd.singularValues();
  int rank = 0;
  while (rank < sigma.size() && sigma[rank] > 1e-8 * sigma[0]) ++rank;
  return static_cast<int>(n) - rank;
}

}  // namespace

TrimResult trim(const dynamics::Model& model, const TrimProblem& problem) {
  check_poseable(model, problem.unknowns);
  const TrimVariables variables = trim_variables(model, problem);
  const std::vector<Variable>& unknowns = variables.unknowns;
  const std::vector<Variable>& steady = variables.steady;

  Evaluator evaluator(model, problem.time);
  const std::vector<double> x_start = initial_state(model);
  const Eigen::VectorXd u_start = evaluator.nominal_inputs();
  // The closed loop (trim.h, "Controllers"): the controllers' memory z follows the plant's
  // unknowns in y, and its rate (z⁺ − z)/T the plant's steady rates in r.
  const MemoryVariables memory = controller_memory(model);
  const auto nz = static_cast<Eigen::Index>(memory.layout.size());
  const auto nv = static_cast<Eigen::Index>(unknowns.size());
  const Eigen::Index n = nv + nz;
  const int mv = static_cast<int>(steady.size());
  const int m = mv + static_cast<int>(nz);

  TrimResult out;
  out.start.resize(n);
  for (Eigen::Index i = 0; i < nv; ++i) out.start[i] = unknowns[static_cast<std::size_t>(i)].value(x_start.data(), u_start);
  dynamics::ControllerSet(model).start_memory(memory.layout, x_start.data(), out.start.data() + nv);
  name_variables(variables, memory, out);

  std::vector<double> x(x_start.size()), xdot(x_start.size());
  Eigen::VectorXd u = u_start, z_next(nz);
  const VectorFunction residual = [&](const Eigen::VectorXd& y, Eigen::VectorXd& r) {
    u = u_start;
    assign(unknowns, y.head(nv), x_start, x, u);
    if (!model.controllers.empty())  // P-only loops too: their outputs are functions of the state
      evaluator.sample_controllers(x.data(), u, memory.layout, y.data() + nv, z_next.data());
    evaluator.derivative(x.data(), u, xdot.data());
    for (int i = 0; i < mv; ++i) r[i] = steady[static_cast<std::size_t>(i)].rate(x.data(), xdot.data());
    for (Eigen::Index k = 0; k < nz; ++k)
      r[mv + k] = (z_next[k] - y[nv + k]) / memory.periods[static_cast<std::size_t>(k)];
  };

  Eigen::VectorXd y = out.start, r(m);
  residual(y, r);
  if (!finite(r)) throw TrimError("the model's rates are not finite at the scenario's initial state");
  levenberg_marquardt(residual, problem, y, r, out);

  residual(y, r);  // leaves x, u and the controllers' held outputs at the solution
  for (const dynamics::Controller& c : model.controllers) out.controller_names.push_back(c.name);
  out.x = x;
  out.u = u;
  out.held = evaluator.held();
  out.residual = r;
  out.solution.resize(n);
  for (Eigen::Index i = 0; i < nv; ++i) out.solution[i] = unknowns[static_cast<std::size_t>(i)].value(x.data(), u);
  out.solution.tail(nz) = y.tail(nz);

  out.free_directions = free_directions(residual, problem, y, m);
  residual(y, r);
  out.held = evaluator.held();
  return out;
}

dynamics::Model with_trimmed_inputs(const dynamics::Model& model, const TrimResult& result) {
  dynamics::Model out = model;
  for (const std::string& name : result.unknown_names) {
    if (!name.starts_with("inputs.")) continue;
    const int k = out.inputs.index_of(name.substr(7));
    inputs::Channel& channel = out.inputs.channels[static_cast<std::size_t>(k)];
    channel.kind = inputs::ChannelKind::constant;  // no operands: the evaluation order holds
    channel.value = result.u[k];
  }
  return out;
}

}  // namespace uwsim::analysis
