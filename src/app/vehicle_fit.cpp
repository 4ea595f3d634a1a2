// References: see vehicle_fit.h.
#include "app/vehicle_fit.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "actuation/thruster.h"
#include "analysis/output_error.h"
#include "app/series_files.h"
#include "app/text_output.h"
#include "integrate/driver.h"
#include "model/build_model.h"
#include "scenario/printable.h"
#include "spatial/rotation.h"

namespace uwsim::app {

namespace {

using Kind = VehicleParameterKind;

constexpr const char* kAxes6[] = {"u", "v", "w", "p", "q", "r"};
constexpr const char* kAxes3[] = {"x", "y", "z"};
constexpr const char* kOutputNames[kOutputs] = {"u", "v", "w", "p", "q", "r", "roll", "pitch", "yaw"};

int axis_of(const std::string& a, const char* const* names, int n) {
  for (int k = 0; k < n; ++k)
    if (a == names[k]) return k;
  return -1;
}

constexpr double kInf = std::numeric_limits<double>::infinity();

// A thruster's thrust, whatever its model, times `value`.
void scale_thrust(actuation::ThrusterParameters& t, double value) {
  t.gain *= value;
  for (double& y : t.thrust_table.y) y *= value;
  t.thrust_coefficient *= value;
  t.advance_coefficient *= value;
  t.max_thrust *= value;
}

// The slowest rate the simulation is sampled at: linear interpolation between samples 10 ms
// apart errs by a²·(0.01 s)²/8, below 1e-4 of the velocity for motions slower than 10 rad/s.
constexpr double kMinSampleRate = 100.0;

}  // namespace

std::string vehicle_parameter_names() {
  return "linear_damping/AXIS, quadratic_damping/AXIS, added_mass/AXIS (AXIS one of u v w p q r), cg/x|y|z, cb/x|y|z, cd/x|y|z, volume, "
         "thrust_scale, thrust_scale/THRUSTER, moment/x|y|z, time_constant, delay";
}

const char* output_name(int k) { return kOutputNames[k]; }
const char* output_units(int k) { return k < 3 ? "m/s" : k < 6 ? "rad/s" : "rad"; }

std::optional<VehicleParameter> vehicle_parameter(const std::string& name, const scenario::Scenario& sc, int body, std::string& why) {
  const model::BodySpec& b = sc.bodies[static_cast<std::size_t>(body)];
  VehicleParameter p;
  p.name = name;
  const auto slash = name.find('/');
  const std::string head = name.substr(0, slash), axis = slash == std::string::npos ? "" : name.substr(slash + 1);
  const bool six = head == "linear_damping" || head == "quadratic_damping" || head == "added_mass";
  const bool three = head == "cg" || head == "cb" || head == "cd" || head == "moment";
  if (head == "thrust_scale" && slash != std::string::npos) {
    // One thruster's thrust: the name as the scenario has it (heavy/motor1) or its last part
    // (motor1) when only one thruster's name ends so.
    std::vector<int> found;
    for (std::size_t t = 0; t < sc.thrusters.size(); ++t) {
      const std::string& n = sc.thrusters[t].thruster.name;
      if (n == axis) {
        found = {static_cast<int>(t)};
        break;
      }
      if (n.size() > axis.size() && n.compare(n.size() - axis.size(), axis.size(), axis) == 0 && n[n.size() - axis.size() - 1] == '/')
        found.push_back(static_cast<int>(t));
    }
    if (found.size() != 1) {
      std::string names;
      for (const auto& th : sc.thrusters) names += (names.empty() ? "" : ", ") + th.thruster.name;
      why = "'" + scenario::shown(name) + "': " + (found.empty() ? "no thruster '" : "more than one thruster ends in '") + scenario::shown(axis) +
            "'; the scenario's thrusters: " + (names.empty() ? "none" : scenario::shown(names, scenario::kMaxMessageCharacters));
      return std::nullopt;
    }
    return VehicleParameter{name, Kind::thruster_scale, found[0], 1.0, 0.1, 0.0, kInf, "1"};
  }
  if (six || three) {
    p.axis = six ? axis_of(axis, kAxes6, 6) : axis_of(axis, kAxes3, 3);
    if (p.axis < 0) {
      why = "'" + scenario::shown(name) + "': expected " + head + (six ? "/u, /v, /w, /p, /q or /r" : "/x, /y or /z");
      return std::nullopt;
    }
  } else if (slash != std::string::npos) {
    why = "'" + scenario::shown(name) + "' takes no axis";
    return std::nullopt;
  }
  const bool rotation = p.axis >= 3;
  if (head == "linear_damping") {
    p = {name, Kind::linear_damping, p.axis, b.linear_damping[p.axis], rotation ? 0.1 : 1.0, 0.0, kInf, rotation ? "kg m²/s" : "kg/s"};
  } else if (head == "quadratic_damping") {
    p = {name, Kind::quadratic_damping, p.axis, b.quadratic_damping[p.axis], rotation ? 0.1 : 10.0, 0.0, kInf, rotation ? "kg m²" : "kg/m"};
  } else if (head == "added_mass") {
    p = {name, Kind::added_mass, p.axis, b.added_mass_B(p.axis, p.axis), rotation ? 0.1 : 1.0, 0.0, kInf, rotation ? "kg m²" : "kg"};
  } else if (head == "cg" || head == "cb" || head == "cd") {
    // cd: the centre of drag, where the damping acts (hydrodynamics.h); off the origin, a sway or
    // surge drag has a yaw moment, the coupling a frame that is not fore-aft symmetric shows.
    const Kind kind = head == "cg" ? Kind::center_of_gravity : head == "cb" ? Kind::center_of_buoyancy : Kind::center_of_drag;
    const double value = head == "cg" ? b.p_BoBcm_B[p.axis] : head == "cb" ? b.p_BoBcb_B[p.axis] : b.p_BoBcd_B[p.axis];
    p = {name, kind, p.axis, value, 0.01, -kInf, kInf, "m"};
  } else if (head == "moment") {
    // A constant moment on the body, in its frame (N m): a tether's pull or a thruster
    // asymmetry that turns the vehicle whatever it is commanded.
    double value = 0.0;
    for (const auto& f : sc.forces)
      if (f.name == kIdentifiedMoment && f.body == b.name) value = f.moment[p.axis];
    p = {name, Kind::moment, p.axis, value, 0.1, -kInf, kInf, "N m"};
  } else if (head == "volume") {
    p = {name, Kind::volume, 0, b.volume, std::max(1e-3 * b.volume, 1e-6), 0.0, kInf, "m³"};
  } else if (head == "thrust_scale") {
    p = {name, Kind::thrust_scale, 0, 1.0, 0.1, 0.0, kInf, "1"};
  } else if (head == "time_constant") {
    double t = 0.0;
    for (const auto& th : sc.thrusters) t = std::max(t, th.thruster.time_constant);
    if (sc.thrusters.empty()) {
      why = "time_constant: the scenario has no thrusters";
      return std::nullopt;
    }
    // A lag of 0 has no state to differentiate through: the fit starts from 50 ms.
    p = {name, Kind::time_constant, 0, t > 0.0 ? t : 0.05, 0.05, 1e-3, kInf, "s"};
  } else if (head == "delay") {
    p = {name, Kind::delay, 0, 0.0, 0.05, 0.0, 2.0, "s"};
  } else {
    why = "no parameter '" + scenario::shown(name) + "'; --unknown takes " + vehicle_parameter_names();
    return std::nullopt;
  }
  return p;
}

void apply_parameter(const VehicleParameter& p, double value, scenario::Scenario& sc, int body) {
  model::BodySpec& b = sc.bodies[static_cast<std::size_t>(body)];
  switch (p.kind) {
    case Kind::linear_damping: b.linear_damping[p.axis] = value; break;
    case Kind::quadratic_damping: b.quadratic_damping[p.axis] = value; break;
    case Kind::added_mass: b.added_mass_B(p.axis, p.axis) = value; break;
    case Kind::center_of_gravity: b.p_BoBcm_B[p.axis] = value; break;
    case Kind::center_of_buoyancy: b.p_BoBcb_B[p.axis] = value; break;
    case Kind::center_of_drag: b.p_BoBcd_B[p.axis] = value; break;
    case Kind::volume: b.volume = value; break;
    case Kind::thrust_scale:
      // Every thruster's thrust times `value` (relative to the scenario's: p.initial is 1).
      for (auto& th : sc.thrusters) scale_thrust(th.thruster, value);
      break;
    case Kind::thruster_scale:
      // That thruster's thrust times `value` (relative to the scenario's).
      scale_thrust(sc.thrusters[static_cast<std::size_t>(p.axis)].thruster, value);
      break;
    case Kind::moment: {
      auto f = std::find_if(sc.forces.begin(), sc.forces.end(), [&](const model::ForceSpec& s) { return s.name == kIdentifiedMoment && s.body == b.name; });
      if (f == sc.forces.end()) {
        model::ForceSpec s;
        s.name = kIdentifiedMoment;
        s.body = b.name;
        s.frame = model::ForceFrame::body;
        f = sc.forces.insert(sc.forces.end(), s);
      }
      f->moment[p.axis] = value;
      break;
    }
    case Kind::time_constant:
      for (auto& th : sc.thrusters) th.thruster.time_constant = value;
      break;
    case Kind::delay: break;
  }
}

// ---- recordings ----------------------------------------------------------------------------

void read_recording(Recording& r, double window, std::optional<double> from, std::optional<double> to) {
  const std::string body = r.scenario.bodies[static_cast<std::size_t>(r.body)].name;
  SeriesFile file = open_series_file(r.measured_path);
  const std::string base = "bodies/" + body + "/";
  std::vector<std::string> names;
  for (int k = 0; k < 6; ++k) names.push_back(base + "velocity/" + kOutputNames[k]);
  for (int k = 6; k < 9; ++k) names.push_back(base + "euler/" + kOutputNames[k]);
  for (const char* c : {"north", "east", "down"}) names.push_back(base + "position/" + c);
  std::vector<std::size_t> wanted;
  std::vector<long> index;
  for (const std::string& n : names) {
    index.push_back(file.index_of(n));
    if (index.back() >= 0) wanted.push_back(static_cast<std::size_t>(index.back()));
  }
  std::vector<scenario::Diagnostic> problems;
  for (int k = 0; k < 8; ++k)
    if (index[static_cast<std::size_t>(k)] < 0)
      problems.push_back({r.measured_path, file.header_line, file.header_line ? 1 : 0,
                          "no series '" + scenario::shown(names[static_cast<std::size_t>(k)]) +
                              "': sim identify --vehicle needs the body's six velocities and its roll and pitch"});
  if (!problems.empty()) throw InputError(problems);
  load_series(file, wanted);  // result files: finite values and increasing times checked by the reader
  const analysis::Series& first = file.series[static_cast<std::size_t>(index[0])];
  double t0 = first.time.front(), t1 = first.time.back();
  if (from) t0 = std::max(t0, *from);
  if (to) t1 = std::min(t1, *to);
  r.time.clear();
  std::vector<std::size_t> rows;
  for (std::size_t k = 0; k < first.time.size(); ++k)
    if (first.time[k] >= t0 && first.time[k] <= t1) rows.push_back(k), r.time.push_back(first.time[k]);
  r.has_yaw = index[8] >= 0;
  r.y.assign(kOutputs, std::vector<double>(rows.size(), 0.0));
  const bool full_position = index[9] >= 0 && index[10] >= 0 && index[11] >= 0;
  r.position.assign(full_position ? 3 : index[11] >= 0 ? 3 : 0, std::vector<double>(rows.size(), NAN));
  for (std::size_t c = 0; c < names.size(); ++c) {
    if (index[c] < 0) continue;
    const analysis::Series& s = file.series[static_cast<std::size_t>(index[c])];
    if (s.time.size() != first.time.size()) continue;  // a CSV's columns share its rows
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const double v = s.values[rows[i]];
      if (c < kOutputs) r.y[c][i] = v;
      else if (full_position || c == 11) r.position[c - kOutputs][i] = v;
    }
  }
  // Windows: from a sample, up to `window` s later, never across a gap.
  r.windows.clear();
  if (r.time.size() >= 2) {
    std::vector<double> d;
    for (std::size_t k = 1; k < r.time.size(); ++k) d.push_back(r.time[k] - r.time[k - 1]);
    std::nth_element(d.begin(), d.begin() + static_cast<long>(d.size() / 2), d.end());
    const double gap = kGapIntervals * d[d.size() / 2];
    std::size_t start = 0;
    for (std::size_t k = 1; k <= r.time.size(); ++k) {
      const bool end = k == r.time.size() || r.time[k] - r.time[k - 1] > gap || r.time[k] - r.time[start] > window + 1e-9;
      if (!end) continue;
      if (k - 1 >= start + 2) r.windows.emplace_back(start, k - 1);  // at least two samples to compare
      start = k < r.time.size() && r.time[k] - r.time[k - 1] > gap ? k : k - 1;
    }
  }
  if (r.windows.empty())
    throw InputError({{r.measured_path, 0, 0,
                       "no window of at least three samples " + std::string(from || to ? "in the span chosen (--from, --to)" : "") +
                           ": the samples are too few or too far apart (a gap longer than " + format_value(kGapIntervals, 2) +
                           " median intervals ends a window)"}});
}

// ---- simulation ----------------------------------------------------------------------------

namespace {

// Records the nine outputs of the vehicle at every sample.
class OutputSink : public integrate::SampleSink {
 public:
  OutputSink(const dynamics::Body& body) : body_(body) {}
  void on_sample(double t, const double* x, const double*, const dynamics::Workspace&) override {
    time.push_back(t);
    const spatial::Vec6 nu = spatial::to_fossen_order(Eigen::Map<const spatial::Vec6>(x + body_.v_offset));
    const double* q = x + body_.q_offset;
    const spatial::Vec3 e = spatial::euler_zyx_from_rotation(spatial::rotation_from_quaternion(spatial::Quat(q[3], q[4], q[5], q[6])));
    std::array<double, kOutputs> y{};
    for (int k = 0; k < 6; ++k) y[static_cast<std::size_t>(k)] = nu[k];
    for (int k = 0; k < 3; ++k) y[static_cast<std::size_t>(6 + k)] = e[k];
    // Angles unwrapped along the run, so that interpolation never crosses ±π.
    if (!values.empty())
      for (std::size_t k = 6; k < kOutputs; ++k) y[k] = values.back()[k] + std::remainder(y[k] - values.back()[k], 2.0 * M_PI);
    values.push_back(y);
  }
  std::vector<double> time;
  std::vector<std::array<double, kOutputs>> values;

 private:
  const dynamics::Body& body_;
};

// The model's channels and timed forces as seen from a clock that starts at `shift` (s).
void shift_time(dynamics::Model& m, double shift) {
  using inputs::ChannelKind;
  for (inputs::Channel& c : m.inputs.channels) {
    if (c.kind == ChannelKind::step || c.kind == ChannelKind::piecewise_linear || c.kind == ChannelKind::csv)
      for (double& x : c.table.x) x -= shift;
    if (c.kind == ChannelKind::ramp || c.kind == ChannelKind::quintic || c.kind == ChannelKind::sine || c.kind == ChannelKind::fourier)
      c.start -= shift, c.stop -= shift;
  }
  for (dynamics::AppliedForce& f : m.forces) f.start -= shift, f.stop -= shift;
}

// The window's initial state: the measured one at sample i.
void set_initial_state(dynamics::Model& m, const dynamics::Body& body, const Recording& r, std::size_t i) {
  double* q = m.x0.data() + body.q_offset;
  for (int k = 0; k < 3; ++k)
    if (!r.position.empty() && std::isfinite(r.position[static_cast<std::size_t>(k)][i])) q[k] = r.position[static_cast<std::size_t>(k)][i];
  const spatial::Quat quat = spatial::quaternion_from_euler_zyx(r.y[6][i], r.y[7][i], r.y[8][i]);
  for (int k = 0; k < 4; ++k) q[3 + k] = quat[k];
  spatial::Vec6 nu;
  for (int k = 0; k < 6; ++k) nu[k] = r.y[static_cast<std::size_t>(k)][i];
  Eigen::Map<spatial::Vec6>(m.x0.data() + body.v_offset) = spatial::from_fossen_order(nu);
  // Thrusters' lags at what their commands ask for at the start.
  std::vector<double> values(m.inputs.channels.size());
  m.inputs.sample(0.0, 0.0, values.data());
  for (const actuation::Thruster& t : m.thrusters) {
    if (t.state_index < 0) continue;
    const double command = std::clamp(t.command.value(values.data()), t.command_min, t.command_max);
    m.x0[static_cast<std::size_t>(t.state_index)] = actuation::commanded_lag_quantity(t, command);
  }
}

}  // namespace

Simulated simulate_recording(const Recording& r, const std::vector<VehicleParameter>& params, const Eigen::VectorXd& theta, bool whole,
                             const std::atomic<bool>* stop) {
  scenario::Scenario sc = r.scenario;
  double delay = 0.0;
  for (std::size_t k = 0; k < params.size(); ++k) {
    apply_parameter(params[k], theta[static_cast<Eigen::Index>(k)], sc, r.body);
    if (params[k].kind == Kind::delay) delay = theta[static_cast<Eigen::Index>(k)];
  }
  const dynamics::Model model = model::build_model(sc);
  const int b = model.body_index(sc.bodies[static_cast<std::size_t>(r.body)].name);
  Simulated out;
  out.y.assign(kOutputs, std::vector<double>(r.time.size(), NAN));
  std::vector<std::pair<std::size_t, std::size_t>> windows = r.windows;
  if (whole) windows = {{r.windows.front().first, r.windows.back().second}};
  integrate::Settings settings = scenario::integration_settings(sc.simulation);
  for (const auto& [i0, i1] : windows) {
    dynamics::Model m = model;
    shift_time(m, r.time[i0] - delay);
    const dynamics::Body& body = m.bodies[static_cast<std::size_t>(b)];
    set_initial_state(m, body, r, i0);
    settings.duration = r.time[i1] - r.time[i0];
    settings.output_rate = std::max(kMinSampleRate, settings.output_rate);
    OutputSink sink(body);
    const integrate::RunResult run = integrate::run(m, settings, sink, stop);
    if (run.outcome == integrate::Outcome::interrupted) throw analysis::OutputErrorInterrupted();
    if (run.outcome == integrate::Outcome::diverged) {
      out.ok = false;
      out.message = run.message;
      return out;
    }
    std::size_t j = 0;
    for (std::size_t i = i0 + 1; i <= i1; ++i) {
      const double t = r.time[i] - r.time[i0];
      while (j + 2 < sink.time.size() && sink.time[j + 1] < t) ++j;
      const double span = sink.time[j + 1] - sink.time[j];
      const double a = span > 0 ? std::clamp((t - sink.time[j]) / span, 0.0, 1.0) : 0.0;
      for (std::size_t k = 0; k < kOutputs; ++k) out.y[k][i] = (1 - a) * sink.values[j][k] + a * sink.values[j + 1][k];
    }
  }
  return out;
}

std::vector<int> residual_groups(const std::vector<Recording>& recordings) {
  std::vector<int> g;
  for (const Recording& r : recordings)
    for (const auto& [i0, i1] : r.windows)
      for (std::size_t i = i0 + 1; i <= i1; ++i)
        for (int k = 0; k < kOutputs; ++k)
          if (k < 8 || r.has_yaw) g.push_back(k);
  return g;
}

void append_residuals(const Recording& r, const Simulated& s, std::vector<double>& out) {
  for (const auto& [i0, i1] : r.windows)
    for (std::size_t i = i0 + 1; i <= i1; ++i)
      for (std::size_t k = 0; k < kOutputs; ++k) {
        if (k == 8 && !r.has_yaw) continue;
        const double e = r.y[k][i] - s.y[k][i];
        out.push_back(k >= 6 ? std::remainder(e, 2.0 * M_PI) : e);
      }
}

Eigen::VectorXd output_rmse(const Recording& r, const Simulated& s) {
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(kOutputs);
  Eigen::VectorXd count = sum;
  for (std::size_t k = 0; k < kOutputs; ++k)
    for (std::size_t i = 0; i < r.time.size(); ++i) {
      if (!std::isfinite(s.y[k][i])) continue;
      const double e = k >= 6 ? std::remainder(r.y[k][i] - s.y[k][i], 2.0 * M_PI) : r.y[k][i] - s.y[k][i];
      sum[static_cast<Eigen::Index>(k)] += e * e;
      count[static_cast<Eigen::Index>(k)] += 1.0;
    }
  for (Eigen::Index k = 0; k < kOutputs; ++k) sum[k] = count[k] > 0 ? std::sqrt(sum[k] / count[k]) : NAN;
  if (!r.has_yaw) sum[8] = NAN;
  return sum;
}

}  // namespace uwsim::app
