// References: see connector_solver.h.
#include "dynamics/connector_solver.h"

#include <algorithm>
#include <deque>

#include "dynamics/articulated_response.h"
#include "dynamics/workspace.h"

namespace uwsim::dynamics {


namespace {

// Reverse Cuthill–McKee: a breadth-first order from a least-connected node, reversed, which
// keeps coupled connectors close together and so the envelope of W narrow [George & Liu 1981].
std::vector<int> reverse_cuthill_mckee(const std::vector<std::vector<int>>& adjacent) {
  const int n = static_cast<int>(adjacent.size());
  std::vector<int> order;
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  auto degree = [&](int c) { return adjacent[static_cast<std::size_t>(c)].size(); };
  while (static_cast<int>(order.size()) < n) {
    int start = -1;
    for (int c = 0; c < n; ++c)
      if (!seen[c] && (start < 0 || degree(c) < degree(start))) start = c;
    std::deque<int> queue{start};
    seen[start] = true;
    while (!queue.empty()) {
      const int c = queue.front();
      queue.pop_front();
      order.push_back(c);
      std::vector<int> next;
      for (int d : adjacent[c])
        if (!seen[d]) next.push_back(d), seen[d] = true;
      std::stable_sort(next.begin(), next.end(), [&](int a, int b) { return degree(a) < degree(b); });
      queue.insert(queue.end(), next.begin(), next.end());
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace

ConnectorSolver::ConnectorSolver(const Model& model) : frequency_(model.constraint_frequency) {
  const std::size_t n = model.connectors.size();
  if (n == 0) return;
  rows_.resize(n);
  wrench_Ao_A_.assign(n, Vec6::Zero());
  for (std::size_t c = 0; c < n; ++c) {
    const dynamics::Connector& con = model.connectors[c];
    ends_.push_back({static_cast<int>(c), con.body_a, false});
    if (con.body_b >= 0) ends_.push_back({static_cast<int>(c), con.body_b, true});
  }
  auto root_of = [&](int body) { return model.bodies[static_cast<std::size_t>(body)].root; };
  for (const End& e : ends_) attached_bodies_.push_back(e.body);
  std::sort(attached_bodies_.begin(), attached_bodies_.end());
  attached_bodies_.erase(std::unique(attached_bodies_.begin(), attached_bodies_.end()), attached_bodies_.end());
  for (int b : attached_bodies_) {
    if (!model.bodies[static_cast<std::size_t>(b)].is_lone_free()) tree_roots_.push_back(root_of(b));
  }
  std::sort(tree_roots_.begin(), tree_roots_.end());
  tree_roots_.erase(std::unique(tree_roots_.begin(), tree_roots_.end()), tree_roots_.end());

  // K slots: an end's rows move every attached body of its tree (a lone vehicle: itself).
  for (End& e : ends_) {
    const Body& body = model.bodies[static_cast<std::size_t>(e.body)];
    e.lone = body.is_lone_free();
    e.slot_begin = static_cast<int>(slot_body_.size());
    for (int b : attached_bodies_)
      if (root_of(b) == root_of(e.body)) slot_body_.push_back(b);
    e.slot_end = static_cast<int>(slot_body_.size());
  }
  K_.assign(slot_body_.size(), Mat6::Zero());

  // Connectors touching a common tree are coupled in W.
  std::vector<std::vector<int>> adjacent(n);
  for (const End& e : ends_)
    for (const End& f : ends_)
      if (e.connector != f.connector && root_of(e.body) == root_of(f.body)) adjacent[e.connector].push_back(f.connector);
  for (auto& a : adjacent) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  order_ = reverse_cuthill_mckee(adjacent);
  position_.assign(n, 0);
  for (std::size_t I = 0; I < n; ++I) position_[static_cast<std::size_t>(order_[I])] = static_cast<int>(I);
  std::vector<int> block_size(n), first_block(n);
  for (std::size_t I = 0; I < n; ++I) {
    const int c = order_[I];
    block_size[I] = model.connectors[static_cast<std::size_t>(c)].rows();
    first_block[I] = static_cast<int>(I);
    for (int d : adjacent[static_cast<std::size_t>(c)]) first_block[I] = std::min(first_block[I], position_[static_cast<std::size_t>(d)]);
  }
  ldlt_ = EnvelopeLdlt(block_size, first_block);
  row_offset_.assign(n, 0);
  for (std::size_t c = 0; c < n; ++c) row_offset_[c] = ldlt_.offset(position_[c]);
  rhs_.assign(static_cast<std::size_t>(ldlt_.size()), 0.0);
  lambda_.assign(static_cast<std::size_t>(ldlt_.size()), 0.0);

  // W(I, J) = Σ over ends e of I and f of J on a common tree of G_e K_f(body of e), I ≥ J.
  for (std::size_t ei = 0; ei < ends_.size(); ++ei) {
    const End& e = ends_[ei];
    for (std::size_t fi = 0; fi < ends_.size(); ++fi) {
      const End& f = ends_[fi];
      const int I = position_[static_cast<std::size_t>(e.connector)], J = position_[static_cast<std::size_t>(f.connector)];
      if (I < J || root_of(e.body) != root_of(f.body)) continue;
      for (int s = f.slot_begin; s < f.slot_end; ++s)
        if (slot_body_[s] == e.body) contributions_.push_back({I, J, static_cast<int>(ei), static_cast<int>(fi), s, e.lone});
    }
  }
  // Each block of W is written by its first contribution; the envelope's other blocks (fill-in
  // of the factorisation) are zeroed before each assembly.
  std::stable_sort(contributions_.begin(), contributions_.end(),
                   [](const Contribution& a, const Contribution& b) { return a.I != b.I ? a.I < b.I : a.J < b.J; });
  for (std::size_t k = 0; k < contributions_.size(); ++k)
    contributions_[k].first = k == 0 || contributions_[k].I != contributions_[k - 1].I || contributions_[k].J != contributions_[k - 1].J;
  for (int I = 0; I < static_cast<int>(n); ++I)
    for (int J = first_block[static_cast<std::size_t>(I)]; J <= I; ++J) {
      const bool written = std::any_of(contributions_.begin(), contributions_.end(),
                                       [&](const Contribution& w) { return w.I == I && w.J == J; });
      if (!written) fill_blocks_.emplace_back(I, J);
    }
}

void ConnectorSolver::compute_responses(const Model& model, Workspace& ws) {
  for (const End& e : ends_) {
    const Body& body = model.bodies[static_cast<std::size_t>(e.body)];
    const Mat6& G_e = G(e);
    if (e.lone) {  // P_e = G_e M⁻¹: M is constant in the body frame
      multiply_rows(rows_[e.connector], e.second, body.M_inv_B, K_[e.slot_begin]);
      continue;
    }
    const int root = body.root, end = model.bodies[static_cast<std::size_t>(root)].tree_end;
    for (int k = 0; k < rows_[e.connector].rows; ++k) {
      for (int b = root; b < end; ++b) ws.bodies[static_cast<std::size_t>(b)].f_extra.setZero();
      ws.bodies[static_cast<std::size_t>(e.body)].f_extra = G_e.row(k).transpose();
      articulated_response(model, root, ws);
      for (int s = e.slot_begin; s < e.slot_end; ++s) K_[s].col(k) = ws.bodies[static_cast<std::size_t>(slot_body_[s])].dA;
    }
  }
}

void ConnectorSolver::assemble_and_factor() {
  // G rows past a connector's own and K columns past the other's are zero: the blocks come
  // out zero-padded as the factorisation wants them.
  for (const auto& [I, J] : fill_blocks_) ldlt_.block(I, J).setZero();
  Mat6 GP;
  for (const Contribution& w : contributions_) {
    const End& e = ends_[w.end];
    Mat6& block = ldlt_.block(w.I, w.J);
    if (w.lone) {  // G_e M⁻¹ G_fᵀ = (G_f P_eᵀ)ᵀ, with G_f's structure (multiply_rows)
      const End& f = ends_[w.other];
      multiply_rows(rows_[f.connector], f.second, K_[e.slot_begin].transpose(), GP);
      if (w.first) block = GP.transpose();
      else block += GP.transpose();
    } else if (w.first) block.noalias() = G(e) * K_[w.slot];
    else block.noalias() += G(e) * K_[w.slot];
  }
  ldlt_.factor();
}

void ConnectorSolver::respond_to(const Model& model, Workspace& ws, bool record_wrenches) {
  for (int b : attached_bodies_) ws.bodies[static_cast<std::size_t>(b)].f_extra.setZero();
  for (int root : tree_roots_)
    for (int b = root; b < model.bodies[static_cast<std::size_t>(root)].tree_end; ++b) ws.bodies[static_cast<std::size_t>(b)].f_extra.setZero();
  for (const End& e : ends_) {
    const int d = rows_[e.connector].rows;
    Vec6 lambda = Vec6::Zero();
    lambda.head(d) = Eigen::Map<const Eigen::VectorXd>(lambda_.data() + row_offset_[e.connector], d);
    const Vec6 wrench = G(e).transpose() * lambda;
    ws.bodies[static_cast<std::size_t>(e.body)].f_extra += wrench;
    if (record_wrenches && !e.second) wrench_Ao_A_[e.connector] = wrench;
  }
  for (int b : attached_bodies_) {
    const Body& body = model.bodies[static_cast<std::size_t>(b)];
    if (body.is_lone_free()) ws.bodies[static_cast<std::size_t>(b)].dA.noalias() = body.M_inv_B * ws.bodies[static_cast<std::size_t>(b)].f_extra;
  }
  for (int root : tree_roots_) articulated_response(model, root, ws);
}

void ConnectorSolver::correct_accelerations(const Model& model, Workspace& ws) {
  if (empty()) return;
  for (std::size_t c = 0; c < rows_.size(); ++c) {
    const dynamics::Connector& con = model.connectors[c];
    const BodyState& A = ws.bodies[static_cast<std::size_t>(con.body_a)];
    const BodyState* B = con.body_b >= 0 ? &ws.bodies[static_cast<std::size_t>(con.body_b)] : nullptr;
    ConnectorRows& r = rows_[c];
    connector_rows(con, frequency_, A, B, r);
    Vec6 residual = r.b - r.G_A * A.A_WB_B;  // b − A v̇_u (1)
    if (B) residual -= r.G_B * B->A_WB_B;
    std::copy(residual.data(), residual.data() + r.rows, rhs_.data() + row_offset_[c]);
  }
  compute_responses(model, ws);
  assemble_and_factor();
  ldlt_.solve(rhs_.data(), lambda_.data());
  respond_to(model, ws, true);
  for (int b : attached_bodies_) {
    if (model.bodies[static_cast<std::size_t>(b)].is_lone_free()) ws.bodies[static_cast<std::size_t>(b)].A_WB_B += ws.bodies[static_cast<std::size_t>(b)].dA;
  }
  for (int root : tree_roots_) {
    for (int b = root; b < model.bodies[static_cast<std::size_t>(root)].tree_end; ++b) {
      BodyState& s = ws.bodies[static_cast<std::size_t>(b)];
      s.A_WB_B += s.dA;
      if (model.bodies[static_cast<std::size_t>(b)].joint.dof() == 1) s.qdd += s.dqdd;
    }
  }
}

void ConnectorSolver::project_velocities(const Model& model, Workspace& ws, double* x) {
  if (empty()) return;
  for (std::size_t c = 0; c < rows_.size(); ++c) {
    for (int i = 0; i < rows_[c].rows; ++i) rhs_[row_offset_[c] + i] = -rows_[c].velocity_error[i];
  }
  ldlt_.solve(rhs_.data(), lambda_.data());
  respond_to(model, ws, false);  // an impulse (N s), not the wrench of the evaluation
  auto add_velocity = [&](int b) {
    const Body& body = model.bodies[static_cast<std::size_t>(b)];
    const BodyState& s = ws.bodies[static_cast<std::size_t>(b)];
    if (body.joint.type == dynamics::JointType::free) Eigen::Map<Vec6>(x + body.v_offset) += s.dA;
    else if (body.joint.dof() == 1) x[body.v_offset] += s.dqdd;
  };
  for (int b : attached_bodies_)
    if (model.bodies[static_cast<std::size_t>(b)].is_lone_free()) add_velocity(b);
  for (int root : tree_roots_)
    for (int b = root; b < model.bodies[static_cast<std::size_t>(root)].tree_end; ++b) add_velocity(b);
}

}  // namespace uwsim::dynamics
