#include "app/identify_vehicle_command.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <optional>

#include "analysis/output_error.h"
#include "app/exit_codes.h"
#include "app/identified_part.h"
#include "app/number_option.h"
#include "app/operating_point.h"
#include "app/series_files.h"
#include "app/stop_signals.h"
#include "app/text_output.h"
#include "app/vehicle_fit.h"
#include "model/build_model.h"
#include "output/output_file.h"
#include "scenario/printable.h"
#include "scenario/sections.h"

namespace uwsim::app {

namespace {

struct Options {
  std::vector<std::string> records, validations;  // pairs: scenario, measured
  std::vector<std::string> unknowns, overrides;
  std::string body, output, write_part, predictions, command_line, format = "text";
  double window = 4.0;
  std::optional<double> from, to;
  int max_iterations = 30;
};

// Bounds: the Jacobian holds residuals × unknowns doubles (2·10⁶ × 30: 480 MB at most), and each
// of its columns costs two simulations of every window.
constexpr std::size_t kMaxUnknowns = 30;
constexpr std::size_t kMaxResiduals = 2'000'000;

int fail(const std::string& message) {
  std::fprintf(stderr, "sim identify: error: %s\n", scenario::shown(message, scenario::kMaxMessageCharacters).c_str());
  return kBadInput;
}

// The vehicle: the body named, or the scenario's one free body without children.
int vehicle_body(const scenario::Scenario& sc, const std::string& wanted, std::string& why) {
  const dynamics::Model m = model::build_model(sc);
  std::vector<int> free;
  for (std::size_t b = 0; b < m.bodies.size(); ++b)
    if (m.bodies[b].is_lone_free() && (wanted.empty() || m.bodies[b].name == wanted)) free.push_back(static_cast<int>(b));
  if (!m.controllers.empty()) return why = "it has controllers; sim identify --vehicle fits an open-loop vehicle driven by its inputs", -1;
  if (!m.connectors.empty()) return why = "it has connectors; sim identify --vehicle fits one free vehicle", -1;
  if (free.size() != 1)
    return why = wanted.empty() ? "it has " + std::to_string(free.size()) + " free bodies without joints; name the vehicle with --body"
                                : "it has no free body '" + scenario::shown(wanted) + "' without joints",
           -1;
  const std::string& name = m.bodies[static_cast<std::size_t>(free[0])].name;
  for (std::size_t b = 0; b < sc.bodies.size(); ++b)
    if (sc.bodies[b].name == name) return static_cast<int>(b);
  return why = "its vehicle is not among its bodies", -1;
}

std::string row(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string row(const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  return buffer;
}

// One row of the RMSE tables: a recording simulated with the scenario's or the fitted values,
// on the windows or as one free run.
struct RmseRow {
  std::string recording;
  bool validation = false, whole = false, fitted = false, ok = true;
  std::string message;  // when diverged
  Eigen::VectorXd rmse;  // per output, NaN where not predicted
};

std::vector<RmseRow> rmse_rows(const std::vector<Recording>& recs, const std::vector<VehicleParameter>& params, const Eigen::VectorXd& prior,
                               const Eigen::VectorXd& estimate, bool validation) {
  std::vector<RmseRow> out;
  for (const bool whole : {false, true})
    for (const Recording& r : recs)
      for (const bool fitted : {false, true}) {
        const Simulated s = simulate_recording(r, params, fitted ? estimate : prior, whole, &StopSignals::requested());
        RmseRow row{r.measured_path, validation, whole, fitted, s.ok, s.message, {}};
        if (s.ok) row.rmse = output_rmse(r, s);
        out.push_back(std::move(row));
      }
  return out;
}

std::string rmse_lines(const std::vector<RmseRow>& rows, bool validation) {
  std::string out;
  for (const bool whole : {false, true}) {
    out += std::string("RMSE on the ") + (validation ? "validation" : "training") + " recordings, " +
           (whole ? "free run from the first sample:\n" : "windows restarted from the measurement:\n");
    out += row("  %-40s %-8s", "recording", "model");
    for (int k = 0; k < kOutputs; ++k) out += row(" %9s", (std::string(output_name(k)) + " [" + output_units(k) + "]").c_str() + 0);
    out += "\n";
    for (const RmseRow& r : rows) {
      if (r.validation != validation || r.whole != whole) continue;
      out += row("  %-40s %-8s", scenario::printable(r.recording).substr(0, 40).c_str(), r.fitted ? "fitted" : "scenario");
      if (!r.ok) {
        out += " diverged: " + scenario::shown(r.message) + "\n";
        continue;
      }
      for (int k = 0; k < kOutputs; ++k) out += row(" %9s", std::isfinite(r.rmse[k]) ? format_value(r.rmse[k], 3).c_str() : "-");
      out += "\n";
    }
  }
  return out;
}

std::string header_line(const Options& o, const std::vector<Recording>& train, std::size_t unknowns, const analysis::OutputErrorFit& f,
                        std::size_t& windows) {
  windows = 0;
  for (const Recording& r : train) windows += r.windows.size();
  return "sim identify --vehicle: body '" + scenario::printable(train.front().scenario.bodies[static_cast<std::size_t>(train.front().body)].name) +
         "', " + std::to_string(unknowns) + " unknowns, " + std::to_string(train.size()) + " recordings in " + std::to_string(windows) +
         " windows of up to " + format_value(o.window, 3) + " s, " + std::to_string(f.residuals) + " residuals; " + std::to_string(f.iterations) +
         " Levenberg–Marquardt iterations, " + std::to_string(f.evaluations) + " simulations of every window; " +
         (f.converged ? "converged" : "NOT converged (the iteration limit or no step lowering the cost)");
}

constexpr double kCorrelated = 0.9;  // |correlation| reported from here on

std::string report(const Options& o, const std::vector<Recording>& train, const std::vector<VehicleParameter>& params, const Eigen::VectorXd& prior,
                   const analysis::OutputErrorFit& f, const std::vector<RmseRow>& rows, bool has_validation) {
  std::size_t windows = 0;
  std::string out = header_line(o, train, params.size(), f, windows) + "\n";
  out += "residuals weighted by 1/RMS of each output; weighted residual σ = " + format_value(f.sigma, 4) + "; rank of J " +
         std::to_string(f.rank) + " of " + std::to_string(params.size()) + "; cond(J) = " + format_value(f.condition, 3) +
         " (columns scaled to unit norm: " + format_value(f.scaled_condition, 3) + ")\n";
  out += row("  %3s  %-22s %13s %11s %9s %13s  %-7s %s\n", "#", "parameter", "estimate", "σ", "σ/|est|", "scenario", "units", "");
  for (std::size_t k = 0; k < params.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    const double e = f.estimate[i], s = f.std_dev[i];
    const std::string rel = std::abs(e) > 0 && std::isfinite(s) ? format_value(100.0 * s / std::abs(e), 3) + " %" : "-";
    std::string note = f.identified[k] ? "" : "NOT IDENTIFIED: the data cannot tell it from 0 or from twice its size";
    if (f.at_bound[k]) note += note.empty() ? "at its bound" : "; at its bound";
    out += row("  %3zu  %-22s %13s %11s %9s %13s  %-7s %s\n", k + 1, params[k].name.c_str(), format_value(e).c_str(),
               format_value(s, 3).c_str(), rel.c_str(), format_value(prior[i]).c_str(), params[k].units.c_str(), note.c_str());
  }
  for (const std::vector<int>& group : f.undetermined) {
    out += "  not determined by the data" + std::string(group.size() > 1 ? " (only a combination of them):" : " (no residual depends on it):");
    for (int k : group) out += " " + params[static_cast<std::size_t>(k)].name;
    out += "\n";
  }
  std::string pairs;
  for (std::size_t i = 0; i < params.size(); ++i)
    for (std::size_t j = i + 1; j < params.size(); ++j) {
      const double c = f.correlation(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
      if (std::abs(c) >= kCorrelated) pairs += "  " + params[i].name + " – " + params[j].name + ": " + format_value(c, 3) + "\n";
    }
  out += pairs.empty() ? "no two estimates correlated by 0.9 or more\n" : "estimates correlated by 0.9 or more (the data tell them apart poorly):\n" + pairs;
  out += "\n" + rmse_lines(rows, false);
  if (has_validation) out += "\n" + rmse_lines(rows, true);
  return out;
}

// The same as a JSON document (--format json): the numbers at full precision, null for NaN.
std::string report_json(const Options& o, const std::vector<Recording>& train, const std::vector<VehicleParameter>& params,
                        const Eigen::VectorXd& prior, const analysis::OutputErrorFit& f, const std::vector<RmseRow>& rows) {
  using json = nlohmann::json;
  const auto number = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  json parameters = json::array();
  for (std::size_t k = 0; k < params.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    parameters.push_back({{"name", params[k].name}, {"estimate", number(f.estimate[i])}, {"std_dev", number(f.std_dev[i])},
                          {"scenario", number(prior[i])}, {"units", params[k].units}, {"identified", static_cast<bool>(f.identified[k])},
                          {"at_bound", static_cast<bool>(f.at_bound[k])}});
  }
  json undetermined = json::array();
  for (const std::vector<int>& group : f.undetermined) {
    json names = json::array();
    for (int k : group) names.push_back(params[static_cast<std::size_t>(k)].name);
    undetermined.push_back(names);
  }
  json correlation = json::array(), correlated = json::array();
  for (std::size_t i = 0; i < params.size(); ++i) {
    json line = json::array();
    for (std::size_t j = 0; j < params.size(); ++j) {
      const double c = f.correlation(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
      line.push_back(number(c));
      if (j > i && std::abs(c) >= kCorrelated) correlated.push_back({{"first", params[i].name}, {"second", params[j].name}, {"correlation", c}});
    }
    correlation.push_back(line);
  }
  json rmse = json::array();
  for (const RmseRow& r : rows) {
    json outputs = json::object();
    if (r.ok)
      for (int k = 0; k < kOutputs; ++k) outputs[output_name(k)] = number(r.rmse[k]);
    json item = {{"recording", r.recording}, {"set", r.validation ? "validation" : "training"}, {"run", r.whole ? "free" : "windows"},
                 {"model", r.fitted ? "fitted" : "scenario"}, {"diverged", !r.ok}, {"rmse", outputs}};
    if (!r.ok) item["message"] = r.message;
    rmse.push_back(item);
  }
  json units = json::object();
  for (int k = 0; k < kOutputs; ++k) units[output_name(k)] = output_units(k);
  std::size_t windows = 0;
  header_line(o, train, params.size(), f, windows);
  const json j = {{"body", train.front().scenario.bodies[static_cast<std::size_t>(train.front().body)].name},
                  {"recordings", train.size()}, {"windows", windows}, {"window", o.window}, {"residuals", f.residuals},
                  {"iterations", f.iterations}, {"evaluations", f.evaluations}, {"converged", f.converged},
                  {"sigma", number(f.sigma)}, {"rank", f.rank}, {"condition", number(f.condition)}, {"scaled_condition", number(f.scaled_condition)},
                  {"parameters", parameters}, {"undetermined", undetermined}, {"correlation", correlation},
                  {"correlated", correlated}, {"rmse_units", units}, {"rmse", rmse}};
  return j.dump(2) + "\n";
}

// The first scenario's vehicle part with the identified estimates (the scenario's values for
// those not identified). Throws std::runtime_error when a value cannot be written.
std::string fitted_part(const Recording& r, const std::vector<VehicleParameter>& params, const analysis::OutputErrorFit& f,
                        const std::string& header) {
  YAML::Node root = YAML::Load(r.scenario.resolved_yaml);
  scenario::Scenario sc = r.scenario;
  std::string notes;
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (!f.identified[k]) continue;
    apply_parameter(params[k], f.estimate[static_cast<Eigen::Index>(k)], sc, r.body);
    if (params[k].kind == VehicleParameterKind::delay)
      notes += "# delay " + format_value(f.estimate[static_cast<Eigen::Index>(k)], 4) + " s: the inputs reach the vehicle that much later "
               "(not a key of the part: delay the input channels).\n";
  }
  const model::BodySpec& b = sc.bodies[static_cast<std::size_t>(r.body)];
  for (const model::ForceSpec& force : sc.forces)
    if (force.name == kIdentifiedMoment && force.body == b.name)
      notes += "# moment [" + format_value(force.moment.x(), 6) + ", " + format_value(force.moment.y(), 6) + ", " + format_value(force.moment.z(), 6) +
               "] N m: a constant moment on the body in its frame (not a key of the part: add it to a scenario as\n#   forces: [{name: " +
               kIdentifiedMoment + ", body: <this part's name>/" + b.name.substr(b.name.rfind('/') + 1) + ", frame: body, moment: [x, y, z]}]).\n";
  YAML::Node body;
  for (YAML::Node item : root["bodies"])
    if (item["name"] && item["name"].Scalar() == b.name) body = item;
  if (!body) throw std::runtime_error("cannot find body '" + b.name + "' in the scenario's YAML");
  const auto flow = [](YAML::Node n) { return n.SetStyle(YAML::EmitterStyle::Flow), n; };
  const bool diagonal = b.added_mass_B.isApprox(Eigen::Matrix<double, 6, 6>(b.added_mass_B.diagonal().asDiagonal()), 0.0);
  body["linear_damping"] = flow(scenario::yaml_list(b.linear_damping));
  body["quadratic_damping"] = flow(scenario::yaml_list(b.quadratic_damping));
  body["added_mass"] = diagonal ? flow(scenario::yaml_list(b.added_mass_B.diagonal())) : flow(scenario::yaml_rows(b.added_mass_B));
  body["center_of_gravity"] = flow(scenario::yaml_list(b.p_BoBcm_B));
  body["center_of_buoyancy"] = flow(scenario::yaml_list(b.p_BoBcb_B));
  if (!b.p_BoBcd_B.isZero(0.0) || body["center_of_drag"]) body["center_of_drag"] = flow(scenario::yaml_list(b.p_BoBcd_B));
  body["volume"] = scenario::yaml_number(b.volume);
  for (std::size_t t = 0; t < sc.thrusters.size() && root["thrusters"]; ++t) {
    YAML::Node node = root["thrusters"][t];
    const actuation::ThrusterParameters& th = sc.thrusters[t].thruster;
    if (th.time_constant > 0) node["time_constant"] = scenario::yaml_number(th.time_constant);
    if (std::isfinite(th.max_thrust) && node["max_thrust"]) node["max_thrust"] = scenario::yaml_number(th.max_thrust);
    if (node["gain"]) node["gain"] = scenario::yaml_number(th.gain);
    if (node["propeller"] && node["propeller"].IsMap()) {
      node["propeller"]["thrust_coefficient"] = scenario::yaml_number(th.thrust_coefficient);
      if (node["propeller"]["advance_coefficient"]) node["propeller"]["advance_coefficient"] = scenario::yaml_number(th.advance_coefficient);
    }
    if (node["table"] && node["table"].IsMap()) {
      std::size_t i = 0;  // the table's points in the reader's order: reverse, then forward
      for (const char* side : {"reverse", "forward"})
        for (YAML::Node point : node["table"][side]) {
          if (i >= th.thrust_table.y.size()) throw std::runtime_error("thruster '" + th.name + "': its table does not read back in order");
          point[1] = scenario::yaml_number(th.thrust_table.y[i++]);
        }
    } else if (node["table"]) {
      throw std::runtime_error("thruster '" + th.name + "': a thrust table given by name cannot be scaled in the part");
    }
  }
  return part_text(root, header + notes);
}

// The measured and predicted series of recording `r` (a free run from its first sample with
// `theta`), named as sim's series: bodies/<body>/velocity/u … (measured) and …/u_predicted;
// rows from the second sample on (the first is the run's initial state).
std::string predictions_csv(const Recording& r, const Simulated& s) {
  const std::string base = "bodies/" + r.scenario.bodies[static_cast<std::size_t>(r.body)].name + "/";
  const int outputs = r.has_yaw ? kOutputs : kOutputs - 1;
  std::string out = "time [s]";
  for (int k = 0; k < outputs; ++k) {
    const std::string name = base + (k < 6 ? "velocity/" : "euler/") + output_name(k);
    const std::string units = std::string(" [") + output_units(k) + "]";
    out += "," + csv_cell(name + units) + "," + csv_cell(name + "_predicted" + units);
  }
  out += "\n";
  for (std::size_t i = 0; i < r.time.size(); ++i) {
    if (!std::isfinite(s.y[0][i])) continue;
    out += json_number(r.time[i]);
    for (std::size_t k = 0; k < static_cast<std::size_t>(outputs); ++k) out += "," + json_number(r.y[k][i]) + "," + json_number(s.y[k][i]);
    out += "\n";
  }
  return out;
}

// Each (scenario, measurement) pair of `pairs`, read into `out`; false after reporting the first
// that does not read.
bool load_recordings(const Options& o, const std::vector<std::string>& pairs, std::vector<Recording>& out) {
  for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) {
    Recording r;
    r.scenario_path = pairs[i], r.measured_path = pairs[i + 1];
    const auto sc = load_or_report(r.scenario_path, o.overrides);
    if (!sc) return false;
    r.scenario = *sc;
    std::string why;
    r.body = vehicle_body(r.scenario, o.body, why);
    if (r.body < 0) return fail(r.scenario_path + ": " + why), false;
    try {
      read_recording(r, o.window, o.from, o.to);
    } catch (const InputError& e) {
      for (const auto& d : e.diagnostics()) std::fprintf(stderr, "%s\n", scenario::format(d).c_str());
      return false;
    }
    out.push_back(std::move(r));
  }
  return true;
}

// The --unknown names as parameters of the first training recording's vehicle, into `params`;
// "" or why not.
std::string unknown_parameters(const Options& o, const Recording& first, std::vector<VehicleParameter>& params) {
  for (const std::string& name : o.unknowns) {
    std::string why;
    const auto p = vehicle_parameter(name, first.scenario, first.body, why);
    if (!p) return why;
    for (const VehicleParameter& q : params)
      if (q.name == name) return "--unknown " + name + " is given twice";
    params.push_back(*p);
  }
  if (params.empty()) return "no --unknown: name the parameters to fit (" + vehicle_parameter_names() + ")";
  if (params.size() > kMaxUnknowns) return "at most " + std::to_string(kMaxUnknowns) + " unknowns";
  return "";
}

// The fit's start, bounds and scales, one per parameter.
void set_parameters(const std::vector<VehicleParameter>& params, analysis::OutputErrorProblem& problem) {
  const auto n = static_cast<Eigen::Index>(params.size());
  problem.initial.resize(n), problem.scale.resize(n), problem.lower.resize(n), problem.upper.resize(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const VehicleParameter& p = params[static_cast<std::size_t>(k)];
    problem.initial[k] = p.initial, problem.lower[k] = p.lower, problem.upper[k] = p.upper;
    problem.scale[k] = std::max(p.scale, std::abs(p.initial));
  }
}

int run(const Options& o) {
  const StopSignals signals;
  std::vector<Recording> train, test;
  if (!load_recordings(o, o.records, train) || !load_recordings(o, o.validations, test)) return kBadInput;
  for (const Recording& r : test)
    if (r.scenario.bodies[static_cast<std::size_t>(r.body)].name != train.front().scenario.bodies[static_cast<std::size_t>(train.front().body)].name)
      return fail(r.scenario_path + ": its vehicle is not the training recordings' '" + train.front().scenario.bodies[static_cast<std::size_t>(train.front().body)].name + "'");
  output::InputFiles inputs;
  for (const auto* list : {&train, &test})
    for (const Recording& r : *list) inputs.add(r.scenario.input_files), inputs.add(r.measured_path);
  std::optional<output::OutputFile> report_file, part_file, predictions_file;
  try {
    if (!o.output.empty()) report_file.emplace(o.output, "-o", inputs, o.command_line);
    if (!o.predictions.empty()) predictions_file.emplace(o.predictions, "--predictions", inputs, o.command_line);
    if (!o.write_part.empty()) part_file.emplace(o.write_part, "--write-part", inputs, o.command_line);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  std::vector<VehicleParameter> params;
  if (const std::string why = unknown_parameters(o, train.front(), params); !why.empty()) return fail(why);
  analysis::OutputErrorProblem problem;
  set_parameters(params, problem);
  problem.group = residual_groups(train);
  if (problem.group.size() > kMaxResiduals)
    return fail(std::to_string(problem.group.size()) + " residuals: sim identify --vehicle takes at most " + std::to_string(kMaxResiduals) +
                " (samples × outputs); choose a span with --from and --to, or bin the measurement");
  // Noise floors: 1 mm/s, 1 mrad/s, 1 mrad: below any motion capture's resolution.
  problem.noise_floor = Eigen::VectorXd::Constant(kOutputs, 1e-3);
  std::string diverged;
  problem.residual = [&](const Eigen::VectorXd& theta, Eigen::VectorXd& r) {
    std::vector<double> all;
    all.reserve(problem.group.size());
    for (const Recording& rec : train) {
      const Simulated s = simulate_recording(rec, params, theta, false, &StopSignals::requested());
      if (!s.ok) return diverged = rec.measured_path + ": " + s.message, false;
      append_residuals(rec, s, all);
    }
    r = Eigen::Map<const Eigen::VectorXd>(all.data(), static_cast<Eigen::Index>(all.size()));
    return true;
  };
  problem.stop = &StopSignals::requested();
  analysis::OutputErrorSettings settings;
  settings.max_iterations = o.max_iterations;
  analysis::OutputErrorFit f;
  std::string text;
  try {
    f = analysis::fit_output_error(problem, settings);
    std::vector<RmseRow> rows = rmse_rows(train, params, problem.initial, f.estimate, false);
    for (RmseRow& r : rmse_rows(test, params, problem.initial, f.estimate, true)) rows.push_back(std::move(r));
    text = o.format == "json" ? report_json(o, train, params, problem.initial, f, rows) : report(o, train, params, problem.initial, f, rows, !test.empty());
  } catch (const analysis::OutputErrorInterrupted&) {
    return report_interrupted();
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "sim identify: error: %s%s\n", e.what(), diverged.empty() ? "" : (": " + scenario::shown(diverged)).c_str());
    return kNumericalFailure;
  }
  if (StopSignals::requested()) return report_interrupted();
  std::string part;
  if (part_file) {
    const std::string header = "# Fitted by sim identify --vehicle (output error, multiple shooting) to " + std::to_string(train.size()) +
                               " recordings, first " + train.front().measured_path + " with " + train.front().scenario_path +
                               ";\n# the estimates the data identify, the scenario's values for the rest.\n";
    try {
      part = fitted_part(train.front(), params, f, header);
    } catch (const std::exception& e) {
      return fail(std::string("--write-part: ") + e.what());
    }
  }
  std::string predicted;
  if (predictions_file) {
    const Recording& r = test.empty() ? train.front() : test.front();
    Simulated s;
    try {
      s = simulate_recording(r, params, f.estimate, true, &StopSignals::requested());
    } catch (const analysis::OutputErrorInterrupted&) {
      return report_interrupted();
    }
    if (!s.ok) {
      std::fprintf(stderr, "sim identify: error: --predictions: the fitted model diverged on %s: %s\n", scenario::shown(r.measured_path).c_str(),
                   scenario::shown(s.message).c_str());
      return kNumericalFailure;
    }
    predicted = predictions_csv(r, s);
  }
  try {
    if (report_file) report_file->write(text);
    else std::fputs(text.c_str(), stdout);
    if (part_file) part_file->write(part);
    if (predictions_file) predictions_file->write(predicted);
  } catch (const std::exception& e) {
    fail(e.what());
    return exit_code_for(e);
  }
  return kDone;
}

}  // namespace

int identify_vehicle_main(std::vector<char*> args, const std::string& command_line) {
  CLI::App cli{"sim identify --vehicle — a free vehicle's parameters from whole recordings (output error, multiple shooting).\n"
               "Usage: sim identify --vehicle --record SCENARIO.yaml MEASURED.(csv|h5) [--record ...] --unknown NAME [--unknown ...]\n"
               "         [--validate SCENARIO.yaml MEASURED] [--window S] [-o REPORT] [--format text|json] [--write-part PART.yaml] [--predictions FILE.csv]"};
  Options o;
  bool vehicle = false;
  double from = 0.0, to = 0.0;
  const CLI::Validator output_name([](std::string& s) { return s.empty() ? std::string("an empty name is no file; give a file name") : std::string(); },
                                   "FILE");
  cli.add_flag("--vehicle", vehicle, "fit a free vehicle to recordings (this mode)")->required();
  cli.add_option("--record", o.records, "a training recording: its scenario (inputs replayed by CSV channels) and its measured file")
      ->expected(2)->take_all()->required();
  cli.add_option("--validate", o.validations, "a held-out recording, predicted with the fitted parameters")->expected(2)->take_all();
  cli.add_option("--unknown", o.unknowns, "a parameter to fit: " + vehicle_parameter_names())->delimiter(',')->required();
  cli.add_option("--body", o.body, "the vehicle (default: the scenario's one free body)");
  cli.add_option("--window", o.window, "length of the simulated windows (s)")->check(positive("seconds"))->capture_default_str();
  auto* from_opt = cli.add_option("--from", from, "use samples from this time on (s)")->check(any_finite("seconds"));
  auto* to_opt = cli.add_option("--to", to, "use samples up to this time (s)")->check(any_finite("seconds"));
  cli.add_option("--max-iterations", o.max_iterations, "Levenberg–Marquardt iterations per round of weights")
      ->check(number_in({.low = 1, .high = 1000, .integer = true}))->capture_default_str();
  cli.add_option("--set", o.overrides, "override a value of every scenario, as for sim run (repeatable)")->allow_extra_args(false);
  cli.add_option("-o,--output", o.output, "write the report to FILE instead of standard output")->check(output_name);
  cli.add_option("--format", o.format, "the report as text or json")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  cli.add_option("--write-part", o.write_part, "write the vehicle with the fitted values as a part FILE.yaml")->check(output_name);
  cli.add_option("--predictions", o.predictions,
                 "write the measured and predicted series (free run, fitted values) of the first --validate recording "
                 "(else the first --record) to FILE.csv")
      ->check(output_name);
  try {
    cli.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::ParseError& e) {
    return cli.exit(e) == 0 ? kDone : kBadInput;
  }
  if (!from_opt->empty()) o.from = from;
  if (!to_opt->empty()) o.to = to;
  o.command_line = command_line;
  return run(o);
}

}  // namespace uwsim::app
