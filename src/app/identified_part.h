// `sim identify --write-part`: the identified parameters written back as a scenario part.
//
// Each base parameter takes its estimate where the data distinguish it from the scenario's
// value (|β̂ − β_scenario| > 3σ̂), else keeps the scenario's: a poorly excited combination (σ̂
// larger than the value, as the turret's inertia about a slowly turning joint) would otherwise
// replace a sound value by noise. Base parameters are combinations; a part needs every mass,
// CG and inertia. The standard parameters are recovered by keeping the scenario's own values
// for those the data cannot separate (θ_d) and solving β = θ_b + B θ_d for the others
// (base_parameters.h (1)), so the part has the identified dynamics and the scenario's values
// where the data say nothing.
// Merged motor constants (regressor.h (4)) keep the scenario's share of the nut and screw and
// give the rest to the motor (rotor_inertia, viscous_friction, dry_friction).
// The part is the scenario's bodies, joints, manipulators and thrusters (after includes, with
// `derived` blocks removed) with the new values set. A prefix "NAME/" shared by every name —
// the name the arm was included under — is removed, so the file replaces the original part
// under the same include name.
// Physically impossible values (a mass ≤ 0, an inertia about the CG that is not positive
// definite or breaks the triangle inequality, negative friction) are refused with a message
// naming the body or joint: such estimates say the data or the model need another look.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

#include "analysis/identification.h"
#include "scenario/spec.h"

namespace uwsim::app {

// The part as YAML text, starting with `header` (comment lines). Throws std::runtime_error
// with the reason when the values cannot make a valid part.
std::string identified_part(const scenario::Scenario& scenario, const analysis::Regressor& regressor, const analysis::Fit& fit,
                            const std::string& header);

// The part a resolved scenario's YAML `root` makes (its bodies, joints, manipulators and
// thrusters, `derived` blocks removed, the name prefix they all share removed), as YAML text
// after `header`. What identified_part writes, after setting the new values in `root`; also
// sim identify --vehicle's part (identify_vehicle_command.h).
std::string part_text(YAML::Node root, const std::string& header);

// `sim identify --drag --write-part`: the same part of the scenario with one body's damping on
// one axis (0–5: u v w p q r, Fossen order) set to the fitted c₁ (quadratic_damping) and c₂
// (linear_damping), [Nielsen2018] eq. 38. The other axes keep the model's values (derived from
// a shape included, then written), and so does the centre of drag: a body given damping has it
// at its origin unless center_of_drag says otherwise, so a centre derived from a shape is
// written out. Throws std::runtime_error for a body the scenario lacks.
std::string drag_part(const scenario::Scenario& scenario, const std::string& body, int axis, double quadratic, double linear,
                      const std::string& header);

}  // namespace uwsim::app
