// Hydrodynamic and mass properties derived from a simple shape, for links the user describes
// by geometry rather than by identified coefficients. Fossen order, SI units.
// References: [SverdrupThygeson2018] Sec. VI (added mass of slender cylinders);
// [Fossen2011] Sec. 3.3 (moving a 6×6 inertia to another point: Hᵀ(r)·M·H(r)), Sec. 6.4
// (quadratic drag ½ρ·C_d·A).
//
// Cylinder of radius r and length l along the body x axis:
//   ∇ = π r² l
//   M_A = diag(0.1·m, πρr²l, πρr²l, 0, πρr²l³/12, πρr²l³/12) at its centre     (paper 002)
//   drag: X = ½ρ C_x π r², Y = ½ρ C_y 2 r l, Z = ½ρ C_z 2 r l, K = 0,
//         M = ½ρ C_z 2r·l⁴/32, N = ½ρ C_y 2r·l⁴/32 (strip theory: ∫ s²|s| ds over the length)
//   A cylinder along body y or z (`axis`) gets the same values with the axes renamed
//   cyclically (x→y→z→x: along y the axial values go to Y and M, along z to Z and N); each
//   drag coefficient stays with the direction of flow it is given for.
// Box of edges (lx, ly, lz): ∇ = lx·ly·lz; drag on each face ½ρ C A, rotational drag by the same
//   strip integral over the two edges normal to the rotation axis. No added mass is derived for
//   boxes (the papers give none): give `added_mass` explicitly.
// Not modelled: end effects, interaction between links, skin friction (K = 0 for a cylinder).
#pragma once

#include "model/spec.h"

namespace uwsim::model {

double shape_volume(const ShapeSpec& shape);

// Added mass at the body origin (moved from the shape centre), Fossen order.
Matrix6 shape_added_mass(const ShapeSpec& shape, double mass, double water_density);

// Quadratic drag magnitudes acting at the shape centre, Fossen order.
Vector6 shape_quadratic_drag(const ShapeSpec& shape, double water_density);

// Inertia of a homogeneous solid of this shape about its centre, body axes.
Matrix3 homogeneous_inertia(const ShapeSpec& shape, double mass);

// Moves a symmetric 6×6 Fossen-ordered inertia given about point c to the body origin:
// Hᵀ(c)·M·H(c), H(c) = [1, −S(c); 0, 1]   [Fossen2011 Sec. 3.3]
Matrix6 move_inertia_to_origin(const Matrix6& M_c, const Vector3& p_BoC_B);

}  // namespace uwsim::model
