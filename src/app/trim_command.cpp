#include "app/trim_command.h"

#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "analysis/finite_difference.h"
#include "analysis/modes.h"
#include "app/exit_codes.h"
#include "app/operating_point.h"
#include "app/stop_signals.h"
#include "model/build_model.h"
#include "output/output_file.h"
#include "scenario/load_scenario.h"

namespace uwsim::app {

namespace fs = std::filesystem;

namespace {

// A YAML double-quoted string.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// "%.9g", without "-0".
std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value + 0.0);
  return text;
}

std::string list(std::initializer_list<double> values) {
  std::string out = "[";
  for (double v : values) out += (out.size() > 1 ? ", " : "") + exact_number(v);
  return out + "]";
}

// The index of the item named `name` in the top-level list `key` of the resolved scenario.
std::optional<std::size_t> item_index(const YAML::Node& root, const std::string& key, const std::string& name) {
  const YAML::Node items = root[key];
  for (std::size_t i = 0; items.IsSequence() && i < items.size(); ++i)
    if (items[i].IsMap() && items[i]["name"] && items[i]["name"].Scalar() == name) return i;
  return std::nullopt;
}

// --set arguments that put the trim's state (and its unknown channels' values) into the
// resolved scenario as its initial state. Items are addressed by index: names may hold '.'.
std::vector<std::string> initial_state_overrides(const scenario::Scenario& scenario, const dynamics::Model& model,
                                                 const analysis::TrimResult& result) {
  const YAML::Node root = YAML::Load(scenario.resolved_yaml);
  const std::vector<double>& x = result.x;
  // A name of its own, so that running it does not replace the original's result file.
  std::vector<std::string> out = {"name=" + scenario.name + "_trimmed"};
  for (const dynamics::Body& body : model.bodies) {
    if (body.joint.type != dynamics::JointType::free) continue;
    const auto index = item_index(root, "bodies", body.name);
    if (!index) throw std::runtime_error("body '" + body.name + "' not found in the resolved scenario");
    const double* q = x.data() + body.q_offset;
    const double* v = x.data() + body.v_offset;
    out.push_back("bodies." + std::to_string(*index) + ".initial={position: " + list({q[0], q[1], q[2]}) +
                  ", quaternion: " + list({q[3], q[4], q[5], q[6]}) +
                  ", velocity: " + list({v[3], v[4], v[5], v[0], v[1], v[2]}) + "}");
  }
  for (const model::JointSpec& joint : scenario.joints) {
    if (joint.type == model::JointType::fixed) continue;
    for (const dynamics::Body& body : model.bodies)
      if (body.joint.name == joint.name && body.joint.dof() == 1)
        out.push_back(joint.key_path + ".initial={position: " + exact_number(x[static_cast<std::size_t>(body.q_offset)]) +
                      ", velocity: " + exact_number(x[static_cast<std::size_t>(body.v_offset)]) + "}");
  }
  for (std::size_t i = 0; i < result.unknown_names.size(); ++i) {
    const std::string& name = result.unknown_names[i];
    if (!name.starts_with("inputs.")) continue;
    const std::string channel = name.substr(7);
    const auto index = item_index(root, "inputs", channel);
    const int k = model.inputs.index_of(channel);
    if (!index || k < 0) throw std::runtime_error("input '" + channel + "' not found in the resolved scenario");
    out.push_back("inputs." + std::to_string(*index) + "={name: " + quoted(channel) +
                  ", type: constant, value: " + exact_number(result.u[k]) + ", units: " +
                  quoted(model.inputs.channels[static_cast<std::size_t>(k)].units) + "}");
  }
  return out;
}

// The input's schema modeline, its path made relative to the new file's folder.
std::string schema_modeline(const std::string& input, const fs::path& output) {
  std::ifstream in(input);
  std::string first;
  std::getline(in, first);
  const std::regex modeline(R"(^\s*#\s*yaml-language-server:\s*\$schema=(\S+))");
  std::smatch match;
  if (!std::regex_search(first, match, modeline)) return "";
  std::string target = match[1].str();
  if (target.find("://") == std::string::npos) {
    std::error_code ec;
    const fs::path absolute = fs::weakly_canonical(fs::absolute(fs::path(input).parent_path() / target), ec);
    const fs::path base = fs::weakly_canonical(fs::absolute(output).parent_path(), ec);
    const fs::path relative = absolute.lexically_relative(base);
    if (!relative.empty()) target = relative.generic_string();
  }
  return "# yaml-language-server: $schema=" + target + "\n";
}

void write_trimmed_scenario(const TrimOptions& options, const scenario::Scenario& scenario, const dynamics::Model& model,
                            const analysis::TrimResult& result, output::OutputFile& file) {
  const fs::path path = file.target();
  const scenario::Scenario trimmed =
      scenario::load_scenario_text(scenario.resolved_yaml, scenario.source_path,
                                   initial_state_overrides(scenario, model, result));
  std::ostringstream text;
  text << schema_modeline(options.scenario_path, path);
  text << "# Written by sim trim from " << options.scenario_path << ": its equilibrium as the initial state\n";
  text << "# (" << options.command_line << ").\n";
  for (std::size_t i = 0; i < result.unknown_names.size(); ++i)
    text << "#   " << result.unknown_names[i] << " = " << exact_number(result.solution[static_cast<Eigen::Index>(i)]) << " "
         << result.unknown_units[i] << "\n";
  text << "# Largest steady rate left: " << exact_number(result.residual.cwiseAbs().maxCoeff()) << ".\n";
  bool lagged = false;
  for (const actuation::Thruster& t : model.thrusters) lagged = lagged || t.state_index >= 0;
  if (lagged)
    text << "# Thruster spin-up states are not scenario keys: they start at 0 again, not at their trimmed values.\n";
  if (!model.controllers.empty())
    text << "# Controllers' integrators, filters and held outputs are not scenario keys either: a run starts them\n"
            "# at 0 again (and from there settles back to this equilibrium if the loop is stable).\n";
  text << trimmed.resolved_yaml;
  file.write(text.str());
}

// The modes that grow at the equilibrium (a conjugate pair counted once), and the largest Re λ:
// Newton finds unstable equilibria as readily as stable ones (an arm balanced upright).
struct Stability {
  int unstable = 0;
  double largest = 0.0;
};

Stability stability_of(const dynamics::Model& model, const scenario::Scenario& scenario, const analysis::TrimResult& r,
                       const std::atomic<bool>* stop) {
  const dynamics::Model trimmed = analysis::with_trimmed_inputs(model, r);
  analysis::OperatingPoint point;
  point.time = scenario.trim.time;
  point.x = r.x;
  point.held = r.held;  // the controllers' outputs held at their equilibrium values: the plant's modes
  analysis::LinearizeOptions options;
  options.stop = stop;
  const analysis::LinearModel linear = analysis::linearize(trimmed, point, options);
  const analysis::ModalAnalysis modes =
      analysis::modal_analysis(linear.system_matrix(), linear.constrained ? &linear.basis : nullptr);
  Stability out;
  for (const analysis::Mode& m : modes.modes) {
    if (m.neutral || m.eigenvalue.real() <= 0.0) continue;
    out.largest = std::max(out.largest, m.eigenvalue.real());
    if (m.eigenvalue.imag() >= 0.0) ++out.unstable;
  }
  return out;
}

void write_trim_json(output::OutputFile& file, const scenario::Scenario& scenario, const analysis::TrimResult& r,
                     const Stability* stability) {
  using json = nlohmann::json;
  json unknowns = json::array(), residual = json::array();
  for (std::size_t i = 0; i < r.unknown_names.size(); ++i)
    unknowns.push_back({{"name", r.unknown_names[i]}, {"unit", r.unknown_units[i]},
                        {"start", r.start[static_cast<Eigen::Index>(i)]}, {"value", r.solution[static_cast<Eigen::Index>(i)]}});
  for (std::size_t i = 0; i < r.residual_names.size(); ++i)
    residual.push_back({{"name", r.residual_names[i]}, {"unit", r.residual_units[i]},
                        {"value", r.residual[static_cast<Eigen::Index>(i)]}});
  json controllers = json::array();
  for (std::size_t i = 0; i < r.held.signals.size(); ++i) {
    const Eigen::VectorXd& output = r.held.signals[i].output;
    controllers.push_back({{"name", r.controller_names[i]},
                           {"output", std::vector<double>(output.data(), output.data() + output.size())}});
  }
  const json j = {{"scenario", scenario.name}, {"converged", r.converged}, {"message", r.message},
                  {"iterations", r.iterations}, {"free_directions", r.free_directions},
                  {"unknowns", unknowns}, {"steady", residual}, {"state", r.x}, {"controllers", controllers},
                  {"unstable_modes", stability ? json(stability->unstable) : json(nullptr)}};
  file.write(j.dump(1) + "\n");
}

}  // namespace

void print_trim(std::FILE* out, const scenario::Scenario& scenario, const analysis::TrimResult& r) {
  std::fprintf(out, "trim of '%s' at t = %g s: %s after %d iteration(s)\n", scenario.name.c_str(), scenario.trim.time,
               r.converged ? "converged" : "no equilibrium found", r.iterations);
  std::fprintf(out, "  %-36s %16s %16s  %s\n", "unknown", "start", "solution", "unit");
  for (std::size_t i = 0; i < r.unknown_names.size(); ++i)
    std::fprintf(out, "  %-36s %16.9g %16.9g  %s\n", r.unknown_names[i].c_str(), r.start[static_cast<Eigen::Index>(i)] + 0.0,
                 r.solution[static_cast<Eigen::Index>(i)] + 0.0, r.unknown_units[i].c_str());  // + 0.0: no "-0"
  std::fprintf(out, "  %-36s %16s  %s\n", "steady (its rate)", "residual", "unit");
  for (std::size_t i = 0; i < r.residual_names.size(); ++i)
    std::fprintf(out, "  %-36s %16.3g  %s\n", r.residual_names[i].c_str(), r.residual[static_cast<Eigen::Index>(i)],
                 r.residual_units[i].c_str());
  if (r.free_directions > 0)
    std::fprintf(out, "  %d direction(s) of the unknowns leave every rate unchanged: the equilibrium is not isolated, "
                      "and the values along them are the start's\n", r.free_directions);
  for (std::size_t i = 0; i < r.held.signals.size(); ++i) {
    const Eigen::VectorXd& output = r.held.signals[i].output;
    std::string values;
    for (Eigen::Index k = 0; k < output.size(); ++k) values += (k ? ", " : "") + format_number(output[k]);
    std::fprintf(out, "  controller %-25s holds [%s]\n", r.controller_names[i].c_str(), values.c_str());
  }
}

int trim_scenario(const TrimOptions& options) {
  const StopSignals signals;  // Ctrl-C and SIGTERM stop the iterations: exit 130 or 143, nothing written
  const auto scenario = load_or_report(options.scenario_path, options.overrides);
  if (!scenario) return kBadInput;
  // Checked and locked before the work (output/output_file.h): neither may be an input.
  const output::InputFiles inputs(scenario->input_files);
  std::optional<output::OutputFile> scenario_file, json_file;
  try {
    if (options.scenario_output) scenario_file.emplace(*options.scenario_output, "-o", inputs, options.command_line);
    if (options.json_output) json_file.emplace(*options.json_output, "--json", inputs, options.command_line);
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return kBadInput;
  }
  const dynamics::Model model = model::build_model(*scenario);
  if (const auto too_large = linear_size_problem(model)) {
    spdlog::error("{}: {}", options.scenario_path, *too_large);
    return kBadInput;
  }
  analysis::TrimResult result;
  std::optional<Stability> stability;
  try {
    analysis::TrimProblem problem = trim_problem(*scenario, options.unknowns, options.steady);
    problem.tolerance = options.tolerance;
    problem.stop = &StopSignals::requested();
    result = analysis::trim(model, problem);
    if (result.converged) stability = stability_of(model, *scenario, result, problem.stop);
  } catch (const analysis::TrimError& error) {
    spdlog::error("trim: {}", error.what());
    return kBadInput;
  } catch (const analysis::Interrupted&) {
    return report_interrupted();
  }
  if (StopSignals::requested()) return report_interrupted();  // during the modes, which do not poll
  if (!options.quiet) {
    print_trim(stdout, *scenario, result);
    // With controllers, the modes are the plant's with their outputs held (evaluator.h), not the loop's.
    const char* of = model.controllers.empty() ? "" : " with the controllers' outputs held (the plant, not the closed loop)";
    if (stability && stability->unstable == 0)
      std::printf("  stable%s: no mode grows at this equilibrium (sim linearize --trim lists them)\n", of);
    else if (stability)
      std::printf("  UNSTABLE%s: %d mode(s) grow here, the fastest as exp(%.4g·t) (sim linearize --trim lists them)\n",
                  of, stability->unstable, stability->largest);
  }
  try {
    if (json_file) write_trim_json(*json_file, *scenario, result, stability ? &*stability : nullptr);
    if (!result.converged) {
      Eigen::Index worst = 0;
      if (result.residual.size() > 0) result.residual.cwiseAbs().maxCoeff(&worst);
      spdlog::error("no equilibrium found: {}; the rate of {} stays at {:.3g} {}", result.message,
                    result.residual_names.empty() ? "?" : result.residual_names[static_cast<std::size_t>(worst)],
                    result.residual.size() ? result.residual[worst] : 0.0,
                    result.residual_units.empty() ? "" : result.residual_units[static_cast<std::size_t>(worst)]);
      return kNoEquilibrium;
    }
    if (scenario_file) {
      write_trimmed_scenario(options, *scenario, model, result, *scenario_file);
      spdlog::info("trimmed scenario: {}", *options.scenario_output);
    }
  } catch (const scenario::ScenarioError& error) {
    spdlog::error("the trimmed scenario does not read back: {}", error.what());
    return kBadInput;
  } catch (const std::exception& error) {
    spdlog::error("{}", error.what());
    return exit_code_for(error);
  }
  return kDone;
}

}  // namespace uwsim::app
