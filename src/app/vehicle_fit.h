// `sim identify --vehicle`'s model side: the unknowns of a free vehicle, the recordings (a
// scenario whose inputs replay the log, and the measured CSV or result file), and the
// multiple-shooting simulation that turns parameters into residuals for
// analysis/output_error.h.
//
// Multiple shooting: each recording is cut into windows of `window` seconds (a window also
// ends before a gap of more than kGapIntervals median sample intervals, where the measurement
// says nothing); each window starts at a measured sample, from the measured state there
// (position — or the scenario's where the file has none, with the measured depth when it has
// one — attitude from roll, pitch, yaw, and the six body velocities; each thruster's lagged
// state at the value its command asks for at that time), and is simulated with the full model
// and the scenario's integrator to its last sample. The residuals are measured − simulated
// u, v, w, p, q, r, roll, pitch and yaw (angles wrapped to ±π) at every measured sample after
// the window's first; the simulation, sampled at least at 100 Hz, is interpolated linearly to
// the measured times.
// Time: the scenario's channels (and timed forces) are shifted so that the simulation's t = 0
// is the window's start; `delay` shifts them further, so the vehicle feels at time t the
// inputs of t − delay (the command-to-thrust latency of real logs).
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "scenario/spec.h"

namespace uwsim::app {

inline constexpr double kGapIntervals = 5.0;
// The name of the force that carries the `moment/x|y|z` unknowns.
inline constexpr const char* kIdentifiedMoment = "identified_moment";

enum class VehicleParameterKind { linear_damping, quadratic_damping, added_mass, center_of_gravity, center_of_buoyancy, center_of_drag,
                                  volume, thrust_scale, thruster_scale, moment, time_constant, delay };

struct VehicleParameter {
  std::string name;  // as the user wrote it: linear_damping/u, cg/z, cd/x, volume, …
  VehicleParameterKind kind = VehicleParameterKind::volume;
  int axis = 0;      // Fossen order 0–5 (u … r), or x, y, z 0–2, or the thruster's index (thruster_scale)
  double initial = 0.0, scale = 1.0, lower = 0.0, upper = 0.0;
  std::string units;
};

// The names offered, for messages.
std::string vehicle_parameter_names();
// The parameter of that name, with its value in `scenario` (body `body`), or nothing after
// saying why in `why`.
std::optional<VehicleParameter> vehicle_parameter(const std::string& name, const scenario::Scenario& scenario, int body, std::string& why);
// Sets parameter `p` to `value` in `scenario` (delay is kept by the simulation, not the spec;
// `moment` is the constant body-frame moment of a force kIdentifiedMoment on the body, added
// to the scenario's forces when it has none).
void apply_parameter(const VehicleParameter& p, double value, scenario::Scenario& scenario, int body);

// The outputs compared, in residual-group order.
inline constexpr int kOutputs = 9;
const char* output_name(int k);   // u v w p q r roll pitch yaw
const char* output_units(int k);  // m/s rad/s rad

struct Recording {
  std::string scenario_path, measured_path;
  scenario::Scenario scenario;
  int body = -1;                          // the vehicle's index in scenario.bodies
  std::vector<double> time;               // measured sample times within the span used
  std::vector<std::vector<double>> y;     // kOutputs series (yaw all 0 when not measured)
  bool has_yaw = false;
  std::vector<std::vector<double>> position;  // north, east, down (empty: none); down alone: only [2]
  std::vector<std::pair<std::size_t, std::size_t>> windows;  // first and last sample of each
};

// Reads the measured file of `r` (columns bodies/<body>/velocity/u …, …/euler/roll …,
// optional …/position/…), keeps [from, to] and cuts the windows. Throws InputError (file, line,
// what) for a missing column or a recording too short or too sparse for one window.
void read_recording(Recording& r, double window, std::optional<double> from, std::optional<double> to);

// What a simulation of the windows gives.
struct Simulated {
  bool ok = true;             // false: diverged
  std::string message;        // for diverged: what and where
  std::vector<std::vector<double>> y;  // kOutputs series at the recording's samples (NaN where not predicted)
};
// Simulates every window of `r` with the parameters `theta` (of `params`). `whole`: one window
// from the first sample to the last instead (a free run). Throws analysis::OutputErrorInterrupted
// when `stop` turns true.
Simulated simulate_recording(const Recording& r, const std::vector<VehicleParameter>& params, const Eigen::VectorXd& theta, bool whole,
                             const std::atomic<bool>* stop);

// The residual groups (one per output and sample) of a set of recordings, as output_error.h
// takes them, and the residuals of a simulation in the same order.
std::vector<int> residual_groups(const std::vector<Recording>& recordings);
void append_residuals(const Recording& r, const Simulated& s, std::vector<double>& out);

// RMSE per output of a simulation against the recording (over the predicted samples).
Eigen::VectorXd output_rmse(const Recording& r, const Simulated& s);

}  // namespace uwsim::app
