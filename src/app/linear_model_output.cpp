#include "app/linear_model_output.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <nlohmann/json.hpp>

#include "output/hdf5_file.h"
#include "version.h"

namespace uwsim::app {

namespace {

using json = nlohmann::json;

std::string joined(const std::vector<std::string>& names, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? separator : "") + names[i];
  return out;
}

// "bodies.rov.rot_y" → "rov.rot_y": the table has no room for the kind.
std::string short_name(const std::string& name) {
  const std::size_t dot = name.find('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

// The states that take part most, "rov.rot_y 0.31, rov.q 0.30, ...".
std::string taking_part(const analysis::Mode& mode, const std::vector<std::string>& names) {
  std::vector<Eigen::Index> order(static_cast<std::size_t>(mode.participation.size()));
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<Eigen::Index>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](Eigen::Index a, Eigen::Index b) { return mode.participation[a] > mode.participation[b]; });
  std::string out;
  for (std::size_t k = 0; k < order.size() && k < 4; ++k) {
    const double p = mode.participation[order[k]];
    if (p < 0.05 && k > 0) break;
    out += (k ? ", " : "") + short_name(names[static_cast<std::size_t>(order[k])]) + format(" %.2f", p);
  }
  return out;
}

// `text` padded with spaces to `width` characters (UTF-8: counts code points, not bytes).
std::string padded(const std::string& text, std::size_t width, bool right) {
  std::size_t characters = 0;
  for (unsigned char c : text) characters += (c & 0xC0) != 0x80;
  const std::string fill(width > characters ? width - characters : 0, ' ');
  return right ? fill + text : text + fill;
}

double max_entry(const Eigen::MatrixXd& m) { return m.size() > 0 ? m.maxCoeff() : 0.0; }

json matrix_json(const Eigen::MatrixXd& m) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(std::move(row));
  }
  return rows;
}

json vector_json(const Eigen::VectorXd& v) {
  json out = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(v[i]);
  return out;
}

// A finite number, or null (JSON has no NaN or infinity).
json number_json(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

void add_matrix(output::Hdf5File& file, const std::string& path, const Eigen::MatrixXd& m, const std::string& units,
                const std::string& description, const std::vector<std::string>& columns = {}) {
  if (m.rows() == 0 || m.cols() == 0) return;
  const auto id = file.add_series(path, static_cast<int>(m.cols()), units, description, columns);
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows = m;
  for (Eigen::Index i = 0; i < rows.rows(); ++i) file.append(id, rows.row(i).data());
}

void add_vector(output::Hdf5File& file, const std::string& path, const Eigen::VectorXd& v, const std::string& units,
                const std::string& description) {
  if (v.size() == 0) return;
  const auto id = file.add_series(path, 1, units, description);
  for (Eigen::Index i = 0; i < v.size(); ++i) file.append(id, &v[i]);
}

// "uvms/alpha/axis_b on its lower limit 0 (q = 0)", "… 0.02 beyond its upper limit 1.5 (q = 1.52)".
std::string limit_text(const analysis::LimitContact& c) {
  const char* which = c.upper ? "upper" : "lower";
  std::string out = c.joint;
  if (c.beyond) out += format(" %.3g beyond its ", std::abs(c.position - c.limit)) + which + " limit";
  else out += std::string(" on its ") + which + " limit";
  return out + format(" %.6g", c.limit) + format(" (q = %.6g)", c.position);
}

// The joints at a limit whose states dominate mode k (analysis/joint_limits.h), "" if none.
std::string stop_marks(const analysis::LinearModel& m, const analysis::ModalAnalysis& modes, std::size_t k) {
  std::string out;
  for (const analysis::LimitContact& c : m.limit_contacts) {
    const std::vector<std::size_t> dominated = analysis::modes_dominated_by(c, modes);
    if (std::find(dominated.begin(), dominated.end(), k) != dominated.end()) out += (out.empty() ? "" : ", ") + c.joint;
  }
  return out.empty() ? "" : "   ! the stop of " + out;
}

void print_limit_contacts(std::FILE* out, const LinearReport& r) {
  const analysis::LinearModel& m = r.model;
  if (!m.limit_contacts.empty()) {
    std::fprintf(out, "  joints at a limit, where the stop's spring switches on (modes marked '!' are the stop's: on a "
                      "limit A holds half its stiffness, beyond it all of it; --inside-limits linearises just inside "
                      "the range):\n");
    for (const analysis::LimitContact& c : m.limit_contacts) std::fprintf(out, "    %s\n", limit_text(c).c_str());
  }
  if (!r.moved_inside_limits.empty()) {
    std::fprintf(out, "  --inside-limits: moved %g inside the range before linearising (where a stop held a joint, "
                      "its rates here are not zero):\n", r.limit_margin);
    for (const analysis::LimitContact& c : r.moved_inside_limits)
      std::fprintf(out, "    %s, now q = %.6g\n", limit_text(c).c_str(), r.point.x[static_cast<std::size_t>(c.x_index)]);
  }
}

}  // namespace

void print_linear_model(std::FILE* out, const LinearReport& r) {
  const analysis::LinearModel& m = r.model;
  const auto n = m.state_names.size();
  std::fprintf(out, "linear model of '%s' at %s (t = %g s)\n", r.scenario.name.c_str(), r.operating_point.c_str(),
               r.point.time);
  std::fprintf(out, "  %zu states (attitude as a rotation vector in body axes), %zu inputs%s%s\n", n,
               m.input_names.size(), m.input_names.empty() ? "" : ": ", joined(m.input_names, ", ").c_str());
  std::fprintf(out, "  A, B by central differences (steps h, h/2, h/4; h = %g per unit of scale) with Richardson "
                    "extrapolation; largest estimated error %.2g in A, %.2g in B\n",
               m.relative_step, max_entry(m.A_error), max_entry(m.B_error));
  // Velocities and actuator states are constant in an equilibrium and in any steady motion
  // (a steady surge, turn or spiral); positions and attitudes may drift.
  double rate = 0.0;
  std::string fastest;
  for (std::size_t i = static_cast<std::size_t>(m.first_velocity); i < n; ++i) {
    if (std::abs(m.zdot0[static_cast<Eigen::Index>(i)]) > rate) {
      rate = std::abs(m.zdot0[static_cast<Eigen::Index>(i)]);
      fastest = short_name(m.state_names[i]);
    }
  }
  std::fprintf(out, "  rates of the velocities here: largest %.2g%s%s (0 at an equilibrium or a steady motion; "
                    "elsewhere A holds near this state only)\n",
               rate, fastest.empty() ? "" : " in ", fastest.c_str());
  if (m.constrained)
    std::fprintf(out, "  connectors: %d constraint rows of rank %d remove %d of the %zu coordinates; modes of "
                      "the remaining %ld (A leaves their space by %.1g)\n",
                 m.constraint_rows, m.constraint_rank, m.constraint_rank, n, static_cast<long>(m.basis.cols()),
                 m.invariance_defect);
  if (r.modes.participation_from_magnitudes)
    std::fprintf(out, "  A is (nearly) defective: participation from eigenvector magnitudes\n");
  if (!r.scenario.controllers.empty())
    std::fprintf(out, "  controllers: their outputs are held at what they hold at this point (at a trim, their "
                      "equilibrium values): the plant's modes, not the closed loop's\n");
  print_limit_contacts(out, r);

  int unstable = 0;  // a conjugate pair is one mode
  for (const analysis::Mode& mode : r.modes.modes)
    if (!mode.neutral && mode.eigenvalue.real() > 0.0 && mode.eigenvalue.imag() >= 0.0) ++unstable;
  std::fprintf(out, "\n%s\n", unstable == 0 ? "modes: none unstable"
                                             : ("modes: " + std::to_string(unstable) + " unstable").c_str());
  std::fprintf(out, "  #  %s %s %s %s %s  %s\n", padded("eigenvalue (1/s)", 26, false).c_str(),
               padded("ω_n (rad/s)", 11, true).c_str(), padded("ζ", 9, true).c_str(), padded("τ (s)", 10, true).c_str(),
               padded("period (s)", 10, true).c_str(), "states taking part");
  int row = 0;
  for (std::size_t k = 0; k < r.modes.modes.size(); ++k) {
    const analysis::Mode& mode = r.modes.modes[k];
    const std::complex<double> l = mode.eigenvalue;
    if (l.imag() < 0.0 && !mode.neutral) continue;  // shown with its conjugate
    std::string eigenvalue, frequency, damping, time_constant, period;
    if (mode.neutral) {
      eigenvalue = "0 (neutral)";
    } else {
      eigenvalue = format("%+.5g", l.real());
      if (l.imag() > 0.0) eigenvalue += format(" ± %.5gi", l.imag());
      frequency = format("%.4g", mode.natural_frequency);
      damping = format("%.4g", mode.damping_ratio);
      time_constant = std::isfinite(mode.time_constant) ? format("%.4g", mode.time_constant) : "∞";
      if (l.imag() > 0.0) period = format("%.4g", 2.0 * M_PI / l.imag());
    }
    std::fprintf(out, "%3d  %s %s %s %s %s  %s%s\n", ++row, padded(eigenvalue, 26, false).c_str(),
                 padded(frequency, 11, true).c_str(), padded(damping, 9, true).c_str(),
                 padded(time_constant, 10, true).c_str(), padded(period, 10, true).c_str(),
                 taking_part(mode, m.state_names).c_str(), stop_marks(m, r.modes, k).c_str());
  }
}

void write_linear_model_hdf5(const std::string& path, const LinearReport& r) {
  const analysis::LinearModel& m = r.model;
  output::Hdf5FileOptions options;
  options.exclusive = true;
  output::Hdf5File file(path, options);
  file.set_root_attribute("scenario", r.scenario.resolved_yaml);
  file.set_root_attribute("scenario_name", r.scenario.name);
  file.set_root_attribute("scenario_file", r.scenario.source_path);
  file.set_root_attribute("command_line", r.command_line);
  file.set_root_attribute("overrides", r.overrides);
  file.set_root_attribute("simulator_version", UWSIM_VERSION);
  file.set_root_attribute("status", "completed");
  file.set_root_attribute("content", "linear model (sim linearize)");
  file.set_root_attribute("operating_point", r.operating_point);
  file.set_root_attribute("states", joined(m.state_names, "\n"));
  file.set_root_attribute("state_units", joined(m.state_units, "\n"));
  file.set_root_attribute("inputs", joined(m.input_names, "\n"));
  file.set_root_attribute("input_units", joined(m.input_units, "\n"));
  const std::string fd = "central differences at h and h/2 with Richardson extrapolation, h = " +
                         format("%g", m.relative_step) + " per unit of each component's scale";
  file.set_root_attribute("derivatives", fd);
  std::string limits;
  for (const analysis::LimitContact& c : m.limit_contacts) limits += limit_text(c) + "\n";
  file.set_root_attribute("joints_at_limits", limits);
  std::string moved;
  for (const analysis::LimitContact& c : r.moved_inside_limits)
    moved += limit_text(c) + format(", moved to q = %.17g", r.point.x[static_cast<std::size_t>(c.x_index)]) + "\n";
  file.set_root_attribute("moved_inside_limits", moved);

  add_matrix(file, "/A", m.A, "1/s and mixed", "A = ∂ż/∂z: row i, column j is ∂(rate of state i)/∂(state j); states in the root attribute `states`", m.state_names);
  add_matrix(file, "/A_error", m.A_error, "as A", "estimated error of each entry of A", m.state_names);
  add_matrix(file, "/B", m.B, "mixed", "B = ∂ż/∂u: row i is a state, column k an input channel", m.input_names);
  add_matrix(file, "/B_error", m.B_error, "as B", "estimated error of each entry of B", m.input_names);
  add_matrix(file, "/operating_point/state", Eigen::RowVectorXd(Eigen::Map<const Eigen::RowVectorXd>(r.point.x.data(), static_cast<Eigen::Index>(r.point.x.size()))),
             "SI", "the full state x = [q; v; a] (README 'State vector and integration')");
  add_matrix(file, "/operating_point/inputs", m.u0.transpose(), "the channels' units", "each input channel's value", m.input_names);
  add_matrix(file, "/operating_point/rate", m.zdot0.transpose(), "the states' units per s", "ż at the operating point", m.state_names);
  add_vector(file, "/operating_point/time", Eigen::VectorXd::Constant(1, r.point.time), "s", "the time of the schedules");

  const auto k = static_cast<Eigen::Index>(r.modes.modes.size());
  Eigen::MatrixXd eigenvalues(k, 2), participation(k, static_cast<Eigen::Index>(m.state_names.size()));
  Eigen::VectorXd frequency(k), damping(k), time_constant(k);
  for (Eigen::Index i = 0; i < k; ++i) {
    const analysis::Mode& mode = r.modes.modes[static_cast<std::size_t>(i)];
    eigenvalues.row(i) << mode.eigenvalue.real(), mode.eigenvalue.imag();
    frequency[i] = mode.natural_frequency;
    damping[i] = mode.damping_ratio;
    time_constant[i] = mode.time_constant;
    participation.row(i) = mode.participation.transpose();
  }
  add_matrix(file, "/modes/eigenvalue", eigenvalues, "1/s", "eigenvalues λ, least stable first", {"real", "imag"});
  add_vector(file, "/modes/natural_frequency", frequency, "rad/s", "|λ| (0 for a neutral mode)");
  add_vector(file, "/modes/damping_ratio", damping, "1", "−Re λ/|λ| (NaN for a neutral mode)");
  add_vector(file, "/modes/time_constant", time_constant, "s", "−1/Re λ: < 0 is the e-folding time of a growing mode, inf for Re λ = 0");
  add_matrix(file, "/modes/participation", participation, "1",
             r.modes.participation_from_magnitudes ? "normalised eigenvector magnitudes |v_k| / Σ|v_j| (A nearly defective)"
                                                   : "participation factors |v_k w_k| / Σ|v_j w_j| (right, left eigenvectors)",
             m.state_names);
  if (m.constrained) {
    add_matrix(file, "/constraints/basis", m.basis, "1", "N: orthonormal basis of the null space of the connectors' constraint Jacobian; z = N y");
    add_matrix(file, "/constraints/A", m.A_reduced, "1/s and mixed", "Nᵀ A N: the connected system's A in y (its modes are /modes)");
    add_matrix(file, "/constraints/B", m.B_reduced, "mixed", "Nᵀ B", m.input_names);
  }
  file.close();
}

std::string linear_model_json(const LinearReport& r) {
  const analysis::LinearModel& m = r.model;
  json j;
  j["scenario"] = r.scenario.name;
  j["scenario_file"] = r.scenario.source_path;
  j["command_line"] = r.command_line;
  j["simulator_version"] = UWSIM_VERSION;
  json inputs = json::object(), rate = json::object();
  for (std::size_t k = 0; k < m.input_names.size(); ++k) inputs[m.input_names[k]] = m.u0[static_cast<Eigen::Index>(k)];
  for (std::size_t i = 0; i < m.state_names.size(); ++i) rate[m.state_names[i]] = m.zdot0[static_cast<Eigen::Index>(i)];
  j["operating_point"] = {{"description", r.operating_point}, {"time", r.point.time}, {"state", r.point.x},
                          {"inputs", inputs}, {"rate", rate}};
  j["states"] = m.state_names;
  j["state_units"] = m.state_units;
  j["inputs"] = m.input_names;
  j["input_units"] = m.input_units;
  j["A"] = matrix_json(m.A);
  j["A_error"] = matrix_json(m.A_error);
  j["B"] = matrix_json(m.B);
  j["B_error"] = matrix_json(m.B_error);
  j["derivatives"] = {{"method", "central differences at h and h/2 with Richardson extrapolation"},
                      {"relative_step", m.relative_step},
                      {"largest_error_A", max_entry(m.A_error)},
                      {"largest_error_B", max_entry(m.B_error)}};
  if (m.constrained) {
    j["constraints"] = {{"rows", m.constraint_rows}, {"rank", m.constraint_rank}, {"basis", matrix_json(m.basis)},
                        {"A", matrix_json(m.A_reduced)}, {"B", matrix_json(m.B_reduced)},
                        {"invariance_defect", m.invariance_defect}};
  } else {
    j["constraints"] = nullptr;
  }
  json limits = json::array(), moved = json::array();
  for (const analysis::LimitContact& c : m.limit_contacts) {
    const std::vector<std::size_t> dominated = analysis::modes_dominated_by(c, r.modes);
    limits.push_back({{"joint", c.joint}, {"limit", c.upper ? "upper" : "lower"}, {"value", c.limit},
                      {"position", c.position}, {"beyond", c.beyond}, {"modes", dominated}});
  }
  for (const analysis::LimitContact& c : r.moved_inside_limits)
    moved.push_back({{"joint", c.joint}, {"limit", c.upper ? "upper" : "lower"}, {"value", c.limit},
                     {"from", c.position}, {"to", r.point.x[static_cast<std::size_t>(c.x_index)]}});
  j["joints_at_limits"] = std::move(limits);
  j["moved_inside_limits"] = std::move(moved);
  j["participation"] = r.modes.participation_from_magnitudes ? "eigenvector magnitudes" : "participation factors";
  json modes = json::array();
  for (const analysis::Mode& mode : r.modes.modes) {
    modes.push_back({{"eigenvalue", {mode.eigenvalue.real(), mode.eigenvalue.imag()}},
                     {"neutral", mode.neutral},
                     {"natural_frequency", mode.natural_frequency},
                     {"damping_ratio", number_json(mode.damping_ratio)},
                     {"time_constant", number_json(mode.time_constant)},
                     {"participation", vector_json(mode.participation)}});
  }
  j["modes"] = std::move(modes);
  return j.dump(1) + "\n";
}

}  // namespace uwsim::app
