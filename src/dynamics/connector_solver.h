// The connectors' stage of a derivative evaluation: Udwadia–Kalaba constrained accelerations
// for any mix of trees and connectors, with one sparse factorisation per evaluation.
// References: [Nielsen2018] eq. 16–20; [UdwadiaKalaba2002]; [RBDA] Sec. 7.3.
//
// With v̇_u the unconstrained accelerations (articulated-body algorithm, added mass inside M)
// and the connector rows A v̇ = b (connector_rows.h), Gauss's principle gives [Nielsen2018]
//   v̇_c = v̇_u + M^{-1/2} (A M^{-1/2})⁺ (b − A v̇_u)                                     (19–20)
// which is the same as (using B⁺ = Bᵀ (B Bᵀ)⁺ with B = A M^{-1/2})
//   v̇_c = v̇_u + M⁻¹ Aᵀ λ,   λ = W⁺ (b − A v̇_u),   W = A M⁻¹ Aᵀ                           (1)
// Aᵀλ is the generalized constraint force S_c of eq. 17: each connector pushes on its bodies
// with the wrenches G_Aᵀ λ and G_Bᵀ λ. Here M is never formed: M⁻¹ Jᵀ f is the response of
// a tree to a wrench f (a lone vehicle: its constant M⁻¹; a tree: articulated_response.h, with
// the articulated inertias the unconstrained pass already computed — the mass matrix's
// factorisation, reused). W has a d_i × d_j block for each pair of connectors that touch a
// common tree, so it is sparse: block-tridiagonal for a chain of vehicles. The connectors are
// ordered by reverse Cuthill–McKee once, and W is factored inside its envelope
// (envelope_ldlt.h), which also returns W⁺'s minimum-norm λ when connectors are redundant
// (a loop of rigid connectors): the motion is then exactly (19–20)'s. How a loop shares the
// load among its connectors is statically indeterminate — the real split depends on their
// stiffness, which rigid constraints do not have — so the reported wrenches of redundant
// connectors are the pseudo-inverse's minimum-‖λ‖ split, a convention (their sum on each body
// is exact).
//
// Cost per evaluation, n_c connectors between lone vehicles: O(n_c · bandwidth²) with the
// bandwidth set by how many connectors share a vehicle (a chain: 2); with trees, each
// connector end in a tree adds 6 response passes over that tree.
#pragma once

#include <vector>

#include "dynamics/connector_rows.h"
#include "dynamics/envelope_ldlt.h"
#include "dynamics/model.h"

namespace uwsim::dynamics {

struct Workspace;

class ConnectorSolver {
 public:
  explicit ConnectorSolver(const dynamics::Model& model);

  bool empty() const { return ends_.empty(); }

  // Stage "constraint correction" (1): after articulated_body_accelerations, adds M⁻¹ Aᵀ λ
  // to every affected body's acceleration and joint accelerations.
  void correct_accelerations(const dynamics::Model& model, Workspace& ws);

  // Removes the connectors' velocity error from x by the same projection with b − A v̇_u
  // replaced by −A v: an internal impulse, so momentum is kept. Call right after an
  // evaluation of x (it reuses that evaluation's factorisation).
  void project_velocities(const dynamics::Model& model, Workspace& ws, double* x);

  // Of the last evaluation: connector c's rows (errors) and the wrench it applies to its first
  // body, about that body's origin, in its frame ([n; f], spatial order).
  const ConnectorRows& rows(std::size_t c) const { return rows_[c]; }
  // Constraint rows found to depend on others (redundant connectors), in the last factorisation.
  int dependent_rows() const { return ldlt_.rank_deficiency(); }
  const Vec6& wrench_on_first(std::size_t c) const { return wrench_Ao_A_[c]; }

 private:
  struct End {
    int connector = 0;
    int body = 0;
    bool second = false;        // the connector's second body (uses G_B)
    int slot_begin = 0;         // K slots for this end: one per attachment of its tree
    int slot_end = 0;
    bool lone = false;          // on a lone vehicle: its slot holds P = G M⁻¹ instead
  };
  // W(I, J) += G_e K[slot] (trees) or (G_f P_eᵀ)ᵀ = G_e M⁻¹ G_fᵀ (lone vehicles), I ≥ J
  // positions in the ordering; f = `other`, the end of J whose slot it is.
  struct Contribution {
    int I = 0, J = 0, end = 0, other = 0, slot = 0;
    bool lone = false;
    bool first = false;         // the block's first contribution: assigns instead of adding
  };
  const Mat6& G(const End& e) const { return e.second ? rows_[e.connector].G_B : rows_[e.connector].G_A; }
  void compute_responses(const dynamics::Model& model, Workspace& ws);
  void assemble_and_factor();
  // Puts the wrenches G_eᵀ λ on the bodies and runs their trees' responses (dA, dqdd);
  // records them as the connectors' wrenches if asked.
  void respond_to(const dynamics::Model& model, Workspace& ws, bool record_wrenches);

  std::vector<End> ends_;
  std::vector<int> slot_body_;          // the body whose response each K slot records
  std::vector<int> tree_roots_;         // trees (not lone vehicles) that carry connector ends
  std::vector<int> attached_bodies_;    // every body with a connector end, once
  std::vector<Contribution> contributions_;
  std::vector<std::pair<int, int>> fill_blocks_;  // envelope blocks no contribution writes
  std::vector<int> order_;              // position → connector
  std::vector<int> position_;           // connector → position: its block of W
  std::vector<int> row_offset_;         // connector → its first row in W
  EnvelopeLdlt ldlt_;
  double frequency_ = 0.0;

  std::vector<ConnectorRows> rows_;
  std::vector<Vec6> wrench_Ao_A_;
  std::vector<Mat6> K_;                 // M⁻¹-responses of the attachments to each end's rows
  std::vector<double> rhs_, lambda_;
};

}  // namespace uwsim::dynamics
