// Thrusters: a force along a fixed axis at a fixed point of a body, from a command.
// References: [Nielsen2018] eq. 8 (thrust direction from the angles α, β), eq. 9 (the wrench
// about the body origin), eq. 12 (propeller thrust with advance speed, after Blanke et al.
// 2000), eq. 14 and 39 (shaft speed from the command, ω = a·u^(−b) + c).
//
// Frames: T is the thruster, at p_BoT_B on body B with unit thrust axis axis_B; a positive
// thrust pushes the body along +axis_B. Units: SI; the command is in whatever unit the
// thruster's map takes (µs of PWM, volts, a fraction, newtons for `linear` with gain 1).
//
// Models (thrust τ along the axis, u the command after `command_limits`):
//   linear     τ = gain·u
//   table      τ = T(u), the piecewise-linear bollard table (reverse rows and forward rows,
//              zero between them); no advance-speed effect (bollard data)
//   propeller  ω = f(u) (eq. 14: eq. 39's power law with a dead band, or a table), then
//              τ = T_|ω|ω·|ω|ω + T_|ω|u·|ω|·u_a   (eq. 12)
//              with u_a the water speed through the disc: the velocity of the thruster point
//              relative to the current, along the axis. T_|ω|u < 0 makes the thrust drop as
//              the vehicle moves forward.
// Spin-up (time_constant T_s > 0): the propeller's ω, or the table/linear model's thrust,
// follows its commanded value through a first-order lag, d/dt s = (s_cmd − s)/T_s, with s a
// state of the integrator (starting at 0). Saturation: |τ| ≤ max_thrust after everything.
// Reaction torque: the body also feels reaction_torque·τ (N m) about +axis_B; its sign is the
// propeller's handedness.
// Not modelled: thrust loss from cross flow, ventilation, thruster–thruster and thruster–hull
// interaction, the motor's electrical dynamics.
#pragma once

#include <limits>
#include <string>

#include "inputs/input_set.h"
#include "spatial/spatial.h"

namespace uwsim::actuation {

using spatial::Vec3;

enum class ThrusterModel { linear, table, propeller };

// Eq. 39 with a dead band: for |u − neutral| ≤ dead_band, ω = 0; else, with
// x = neutral + |u − neutral| (the command mirrored onto the forward side),
// ω = sign(u − neutral)·max(0, a·x^(−b) + c).
struct PowerLawSpeedMap {
  double a = 0.0, b = 0.0, c = 0.0;
  double neutral = 0.0;
  double dead_band = 0.0;
};

// A thruster's physics, as a scenario gives it: plain data, no index into a model.
struct ThrusterParameters {
  std::string name;
  Vec3 p_BoT_B = Vec3::Zero();          // m, on its body
  Vec3 axis_B = Vec3::UnitX();          // unit
  double command_min = -std::numeric_limits<double>::infinity();
  double command_max = std::numeric_limits<double>::infinity();
  ThrusterModel model = ThrusterModel::linear;
  double gain = 1.0;                    // linear: N per command unit
  inputs::Table thrust_table;           // table: command → N
  bool speed_from_table = false;        // propeller: ω from speed_table, else from power_law
  inputs::Table speed_table;            // propeller: command → rad/s
  PowerLawSpeedMap power_law;
  double thrust_coefficient = 0.0;      // T_|ω|ω, N/(rad/s)²
  double advance_coefficient = 0.0;     // T_|ω|u, N/((rad/s)·(m/s))
  double time_constant = 0.0;           // s; 0: no lag
  double max_thrust = std::numeric_limits<double>::infinity();  // N
  double reaction_torque = 0.0;         // N m per N of thrust, about +axis_B

  bool has_shaft_speed() const { return model == ThrusterModel::propeller; }
};

// A thruster of a model: its parameters, the body it sits on, what commands it and where its
// lagged state is (the model builder resolves these from the scenario's names).
struct Thruster : ThrusterParameters {
  int body = 0;                         // index into the model's bodies
  inputs::CommandSource command;
  int state_index = -1;                 // index of the lagged quantity in x, or −1
};

// What one thruster does at one evaluation (for the wrench and the output).
struct ThrusterState {
  double command = 0.0;        // after command_limits
  double shaft_speed = 0.0;    // rad/s (propeller); 0 otherwise
  double thrust = 0.0;         // N, along axis_B, after saturation
  double advance_speed = 0.0;  // m/s, u_a of eq. 12: the thruster point's speed through the water along axis_B
  double lag_rate = 0.0;       // d/dt of the lagged state (0 without a lag)
};

// Eq. 8: the unit thrust direction in the body frame from the angles α (elevation) and β.
Vec3 direction_from_angles(double alpha, double beta);

// Eq. 39 with the dead band (see PowerLawSpeedMap).
double shaft_speed_of(const PowerLawSpeedMap& map, double command);

// Eq. 12.
double propeller_thrust(double thrust_coefficient, double advance_coefficient, double shaft_speed,
                        double advance_speed);

// The commanded (unlagged) value of the quantity the lag acts on: ω for a propeller, τ
// otherwise.
double commanded_lag_quantity(const ThrusterParameters& thruster, double command);

// The thruster's state for a command, advance speed u_a (m/s) and, with a lag, the lagged
// value held in the state vector.
ThrusterState evaluate_thruster(const ThrusterParameters& thruster, double command, double advance_speed,
                                double lagged_value);

}  // namespace uwsim::actuation
