#include "app/identify_command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

#include "analysis/drag_fit.h"
#include "analysis/identification.h"
#include "app/exit_codes.h"
#include "app/identified_part.h"
#include "app/series_files.h"
#include "app/text_output.h"
#include "model/build_model.h"
#include "output/output_file.h"
#include "scenario/load_scenario.h"
#include "scenario/printable.h"
#include "scenario/read_csv.h"
#include "scenario/yaml_reader.h"

namespace uwsim::app {

namespace {

using scenario::Diagnostic;

void report(const std::vector<Diagnostic>& diagnostics) {
  for (const auto& d : diagnostics) std::fprintf(stderr, "%s\n", scenario::format(d).c_str());
}

int fail(const std::string& message) {
  std::fprintf(stderr, "sim identify: error: %s\n", scenario::shown(message, scenario::kMaxMessageCharacters).c_str());
  return kBadInput;
}

// Columns named in a message about one that is missing: enough to spot a misspelling.
constexpr std::size_t kListedColumns = 20;

// The files identify writes (output/output_file.h), checked and locked before the work.
struct Outputs {
  std::optional<output::OutputFile> report, predictions, part;
};

// Opens each output `o` names; false after saying why one cannot be used.
bool open_outputs(const IdentifyOptions& o, const output::InputFiles& inputs, Outputs& out) {
  try {
    if (!o.output.empty()) out.report.emplace(o.output, "-o", inputs, o.command_line);
    if (!o.predictions.empty()) out.predictions.emplace(o.predictions, "--predictions", inputs, o.command_line);
    if (!o.write_part.empty()) out.part.emplace(o.write_part, "--write-part", inputs, o.command_line);
  } catch (const std::exception& error) {
    fail(error.what());
    return false;
  }
  return true;
}

// Writes `text` to `file`, or to standard output without one; the exit code.
int emit(std::optional<output::OutputFile>& file, const std::string& text) {
  if (!file) {
    std::fputs(text.c_str(), stdout);
    return kDone;
  }
  try {
    file->write(text);
  } catch (const std::exception& error) {
    fail(error.what());
    return exit_code_for(error);
  }
  return kDone;
}

// The first line of a written part: the part schema of the checkout the scenario is in (the
// nearest schemas/ folder above it), relative to the part; "" if there is none.
std::string schema_line(const IdentifyOptions& o) {
  for (std::filesystem::path dir = std::filesystem::absolute(o.scenario).parent_path();; dir = dir.parent_path()) {
    if (std::filesystem::exists(dir / "schemas" / "part.schema.json"))
      return "# yaml-language-server: $schema=" +
             std::filesystem::relative(dir / "schemas" / "part.schema.json",
                                       std::filesystem::absolute(std::filesystem::path(o.write_part)).parent_path())
                 .string() +
             "\n";
    if (dir == dir.parent_path()) return "";
  }
}

// ---- drag mode ---------------------------------------------------------------------------

constexpr const char* kAxes[] = {"u", "v", "w", "p", "q", "r"};

// --write-part: the scenario and its body that take the fitted coefficients (checked before
// any work), or why there is no part to write.
std::optional<scenario::Scenario> drag_scenario(const IdentifyOptions& o, int& code) {
  code = kBadInput;
  if (!o.data.empty()) {
    fail("--drag reads its points from " + o.drag + "; " + o.data + " would not be used (give only SCENARIO.yaml, to write a part)");
    return std::nullopt;
  }
  if (o.write_part.empty()) {
    if (!o.scenario.empty() || !o.body.empty() || !o.axis.empty())
      fail("--drag takes SCENARIO, --body and --axis only to write a part (--write-part FILE)");
    else code = kDone;
    return std::nullopt;
  }
  if (o.scenario.empty() || o.body.empty() || o.axis.empty()) {
    fail("--write-part with --drag: the fit gives c1 and c2 of one axis, not a part; say where they go: sim identify "
         "SCENARIO.yaml --drag " + o.drag + " … --body NAME --axis u|v|w|p|q|r --write-part " + o.write_part + "; nothing written");
    return std::nullopt;
  }
  scenario::Scenario sc;
  try {
    sc = scenario::load_scenario(o.scenario, o.overrides);
  } catch (const scenario::ScenarioError& e) {
    report(e.diagnostics());
    return std::nullopt;
  }
  std::vector<std::string> names;
  for (const model::BodySpec& b : sc.bodies) names.push_back(b.name);
  if (std::find(names.begin(), names.end(), o.body) == names.end()) {
    std::string message = "--body " + o.body + ": no body of that name in " + o.scenario;
    if (auto guess = scenario::closest_match(o.body, names)) message += "; did you mean '" + *guess + "'?";
    fail(message);
    return std::nullopt;
  }
  code = kDone;
  return sc;
}

int identify_drag(const IdentifyOptions& o) {
  int code = kDone;
  const std::optional<scenario::Scenario> sc = drag_scenario(o, code);
  if (code != kDone) return code;
  output::InputFiles inputs(sc ? sc->input_files : std::vector<std::string>{});
  inputs.add(o.drag);
  Outputs outputs;
  if (!open_outputs(o, inputs, outputs)) return kBadInput;
  std::vector<Diagnostic> problems;
  const auto csv = scenario::read_csv_file(o.drag, problems);
  if (!csv) return report(problems), kBadInput;
  const auto column = [&](const std::string& name, const char* option) -> std::optional<std::vector<double>> {
    const auto it = std::find(csv->header.begin(), csv->header.end(), name);
    if (it == csv->header.end()) {
      std::string message = "no column '" + scenario::shown(name) + "' (" + option + "); columns:";
      for (std::size_t k = 0; k < csv->header.size() && k < kListedColumns; ++k) message += " '" + scenario::shown(csv->header[k]) + "'";
      if (csv->header.size() > kListedColumns) message += " and " + std::to_string(csv->header.size() - kListedColumns) + " more";
      problems.push_back({o.drag, csv->header_line, 1, message});
      return std::nullopt;
    }
    return scenario::csv_numbers(*csv, static_cast<std::size_t>(it - csv->header.begin()), problems);
  };
  const auto u = column(o.speed, "--speed"), f = column(o.force, "--force");
  std::optional<std::vector<double>> P;
  if (!o.variance.empty()) P = column(o.variance, "--variance");
  if (!problems.empty() || !u || !f) return report(problems), kBadInput;
  analysis::DragFit r;
  try {
    r = analysis::fit_drag(*u, *f, P ? *P : std::vector<double>{});
  } catch (const std::invalid_argument& e) {
    return fail(o.drag + ": " + e.what());
  }
  std::string text;
  if (o.format == "json") {
    text = "{\n  \"data\": " + json_string(o.drag) + ",\n  \"points\": " + std::to_string(r.points) +
           ",\n  \"weighted\": " + (P ? "true" : "false") + ",\n  \"quadratic\": " + json_number(r.quadratic) +
           ",\n  \"quadratic_std\": " + json_number(r.quadratic_std) + ",\n  \"quadratic_at_bound\": " + (r.quadratic_at_bound ? "true" : "false") +
           ",\n  \"linear\": " + json_number(r.linear) + ",\n  \"linear_std\": " + json_number(r.linear_std) +
           ",\n  \"linear_at_bound\": " + (r.linear_at_bound ? "true" : "false") + ",\n  \"rmse\": " + json_number(r.rmse) + "\n}\n";
  } else {
    const auto line = [&](const char* name, double value, double sd, bool bound, const char* units) {
      char buffer[256];
      std::snprintf(buffer, sizeof buffer, "  %-22s %12s ± %-10s (95 %%: %s … %s) %s%s\n", name, format_value(value).c_str(),
                    format_value(sd, 3).c_str(), format_value(value - 1.96 * sd, 4).c_str(), format_value(value + 1.96 * sd, 4).c_str(),
                    units, bound ? "  held at the bound 0" : "");
      return std::string(buffer);
    };
    text = "Drag fit f = c1·|u|·u + c2·u, c1, c2 ≥ 0 (Nielsen et al. 2018 eq. 38), " + std::to_string(r.points) + " points of " +
           scenario::printable(o.drag) + (P ? ", weighted by 1/" + scenario::shown(o.variance) : "") + "\n";
    text += line("c1 (quadratic)", r.quadratic, r.quadratic_std, r.quadratic_at_bound, "kg/m (kg m for rotation)");
    text += line("c2 (linear)", r.linear, r.linear_std, r.linear_at_bound, "kg/s (kg m²/s for rotation)");
    text += "  RMSE of the fitted force: " + format_value(r.rmse, 4) + "\n";
    text += "In a scenario: quadratic_damping and linear_damping of the body, the component of that axis.\n";
  }
  if (const int code = emit(outputs.report, text); code != kDone || !outputs.part) return code;
  const int axis = static_cast<int>(std::find(std::begin(kAxes), std::end(kAxes), o.axis) - std::begin(kAxes));
  const std::string header = schema_line(o) + "# Written by sim identify --drag from " + scenario::printable(o.drag) + " (scenario " +
                             scenario::printable(o.scenario) + "): body " +
                             o.body + ", axis " + o.axis + ":\n#   quadratic_damping " + format_value(r.quadratic) + " ± " +
                             format_value(r.quadratic_std, 3) + (r.quadratic_at_bound ? " (held at the bound 0)" : "") +
                             ", linear_damping " + format_value(r.linear) + " ± " + format_value(r.linear_std, 3) +
                             (r.linear_at_bound ? " (held at the bound 0)" : "") + "; the scenario's values elsewhere.\n";
  std::string part;
  try {
    part = drag_part(*sc, o.body, axis, r.quadratic, r.linear, header);
  } catch (const std::runtime_error& e) {
    return fail("--write-part: " + std::string(e.what()));
  }
  return emit(outputs.part, part);
}

// ---- arm mode ----------------------------------------------------------------------------

double median_interval(const std::vector<double>& t) {
  std::vector<double> d;
  for (std::size_t k = 1; k < t.size(); ++k) d.push_back(t[k] - t[k - 1]);
  std::nth_element(d.begin(), d.begin() + static_cast<long>(d.size() / 2), d.end());
  return d[d.size() / 2];
}

// Every sample of a series finite, and its times increasing: a result file is not checked as a
// CSV file's cells are (at their line and column, scenario/read_csv.h), and one NaN would make
// every estimate NaN.
void check_samples(const SeriesFile& file, const analysis::Series& s, std::vector<Diagnostic>& problems) {
  for (std::size_t k = 0; k < s.time.size(); ++k) {
    const bool increasing = k == 0 || s.time[k] > s.time[k - 1];
    if (std::isfinite(s.values[k]) && std::isfinite(s.time[k]) && increasing) continue;
    const std::string what = !std::isfinite(s.time[k]) ? "its time is " + format_value(s.time[k])
                             : !increasing ? "its time " + format_value(s.time[k]) + " s does not follow " + format_value(s.time[k - 1]) + " s"
                                           : "its value is " + format_value(s.values[k]);
    problems.push_back({file.path, 0, 0, "series '" + scenario::shown(s.name) + "', sample " + std::to_string(k + 1) + " of " +
                                             std::to_string(s.time.size()) + ": " + what +
                                             "; sim identify takes finite samples at increasing times only"});
    return;
  }
}

// Records are resampled onto a uniform grid at their median interval (linear interpolation):
// jitter and a few missing samples are harmless. A grid with more than kGridPerSample points per
// sample in the window adds nothing the record has (its median interval is not its rate: a
// burst of samples close together), and past kMaxGridSamples the observation matrix alone
// (samples × joints × base parameters × 8 bytes) would take gigabytes.
constexpr double kGridPerSample = 2.0;
constexpr double kMaxGridSamples = 2e6;

std::string irregular_sampling(double T, double t0, double t1, double grid, std::size_t within) {
  return "the samples are not evenly spaced: at their median interval, " + format_value(T, 4) + " s, a uniform grid over " +
         format_value(t0, 6) + "–" + format_value(t1, 6) + " s would hold " + format_value(grid, 4) + " samples for the " +
         std::to_string(within) + " recorded there; sim identify resamples at the median interval onto at most " +
         format_value(kGridPerSample, 2) + " grid samples per recorded one and " + format_value(kMaxGridSamples, 3) +
         " in all. Resample the record to a uniform rate, or choose a window (--from, --to) where it is regular";
}

struct Record {
  analysis::Measurements m;
  std::string description;  // "8001 samples at 100 Hz, 5–85 s"
};

// The series each row needs, on one uniform time grid within the window.
Record measurements(const SeriesFile& file, analysis::Regressor& reg, const IdentifyOptions& o, std::vector<Diagnostic>& problems) {
  std::map<std::string, std::string> column_of;
  for (const std::string& c : o.columns) {
    const auto eq = c.find('=');
    if (eq != std::string::npos) column_of[c.substr(0, eq)] = c.substr(eq + 1);
  }
  Record out;
  std::vector<const analysis::Series*> positions, drives;
  for (int r = 0; r < reg.rows(); ++r) {
    const dynamics::Joint& joint = reg.model().bodies[static_cast<std::size_t>(reg.joints()[static_cast<std::size_t>(r)])].joint;
    const std::string pos = "joints/" + joint.name + "/position";
    const std::string drv = "joints/" + joint.name + (reg.has_motor(r) ? "/current" : "/effort");
    for (const std::string& name : {pos, drv}) {
      const std::string column = column_of.count(name) ? column_of[name] : name;
      const analysis::Series* s = file.find(column);
      if (!s) {
        std::string message = "no series '" + column + "' (" + (name == pos ? "the position" : reg.has_motor(r) ? "the motor current" : "the effort") +
                              " of joint " + joint.name + ")";
        if (column == name) message += "; name the column with --column " + name + "=COLUMN";
        problems.push_back({file.path, file.header_line, file.header_line ? 1 : 0, message});
        continue;
      }
      (name == pos ? positions : drives).push_back(s);
    }
    out.m.is_current.push_back(reg.has_motor(r));
  }
  if (!problems.empty()) return out;
  for (const auto* list : {&positions, &drives})
    for (const analysis::Series* s : *list) check_samples(file, *s, problems);
  if (!problems.empty()) return out;
  double t0 = -INFINITY, t1 = INFINITY;
  for (const auto* list : {&positions, &drives})
    for (const analysis::Series* s : *list) t0 = std::max(t0, s->time.front()), t1 = std::min(t1, s->time.back());
  if (o.from) t0 = std::max(t0, *o.from);
  if (o.to) t1 = std::min(t1, *o.to);
  const std::vector<double>& time = positions.front()->time;
  if (time.size() < 3) {
    problems.push_back({file.path, 0, 0, "only " + std::to_string(time.size()) + " samples: too few to differentiate"});
    return out;
  }
  if (!(t1 > t0)) {
    problems.push_back({file.path, 0, 0, "no samples in the window " + format_value(t0) + " … " + format_value(t1) + " s"});
    return out;
  }
  const double T = median_interval(time);
  const double grid = std::floor((t1 - t0) / T + 1e-9) + 1.0;
  const auto within = static_cast<std::size_t>(std::upper_bound(time.begin(), time.end(), t1) -
                                               std::lower_bound(time.begin(), time.end(), t0));
  if (grid > kGridPerSample * static_cast<double>(within) || grid > kMaxGridSamples) {
    problems.push_back({file.path, 0, 0, irregular_sampling(T, t0, t1, grid, within)});
    return out;
  }
  const auto n = static_cast<std::size_t>(grid);
  out.m.sample_interval = T;
  out.m.start_time = t0;
  out.m.position.assign(positions.size(), std::vector<double>(n));
  out.m.drive.assign(drives.size(), std::vector<double>(n));
  for (std::size_t r = 0; r < positions.size(); ++r) {
    std::size_t hp = 0, hd = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const double t = std::min(t0 + static_cast<double>(k) * T, t1);
      out.m.position[r][k] = analysis::value_at(*positions[r], t, hp);
      out.m.drive[r][k] = analysis::value_at(*drives[r], t, hd);
    }
  }
  bool uniform = true;
  for (std::size_t k = 1; k < time.size(); ++k) uniform = uniform && std::abs(time[k] - time[k - 1] - T) <= 1e-3 * T;
  out.description = std::to_string(n) + " samples at " + format_value(1.0 / T, 4) + " Hz, " + format_value(t0, 4) + "–" +
                    format_value(t0 + static_cast<double>(n - 1) * T, 4) + " s" + (uniform ? "" : " (resampled to a uniform grid)");
  return out;
}

struct Model {
  std::string label;
  analysis::Regressor* reg;
  analysis::Fit fit;
  analysis::Prediction prediction;
};

std::string units_of(const analysis::JointTrajectories& d) {
  const bool currents = std::all_of(d.is_current.begin(), d.is_current.end(), [](bool b) { return b; });
  const bool efforts = std::none_of(d.is_current.begin(), d.is_current.end(), [](bool b) { return b; });
  return currents ? "A" : efforts ? "N m" : "A or N m";
}

std::string fit_table(const Model& m, const analysis::JointTrajectories& d) {
  const auto& params = m.reg->parameters();
  std::string out = m.label + ": " + std::to_string(m.fit.base.size()) + " base parameters from " + std::to_string(m.fit.observations) +
                    " observations" + (m.fit.left_out ? " (" + std::to_string(m.fit.left_out) + " of joints slower than --min-speed left out)" : "") +
                    "; cond(F) = " + format_value(m.fit.condition, 4) + " (columns scaled to unit norm: " +
                    format_value(m.fit.scaled_condition, 4) + "); residual σ = " + format_value(m.fit.sigma, 4) + " " + units_of(d) + "\n";
  std::size_t width = 14;
  for (int k = 0; k < m.fit.base.size(); ++k) width = std::max(width, m.fit.base.expression(k, params).size());
  width = std::min<std::size_t>(width, 70);
  char line[1024];
  std::snprintf(line, sizeof line, "  %3s  %-*s %13s %11s %8s %13s  %s\n", "#", static_cast<int>(width), "base parameter", "estimate", "σ", "σ/|est|",
                "scenario", "units");
  out += line;
  for (int k = 0; k < m.fit.base.size(); ++k) {
    const double e = m.fit.estimate[k], s = m.fit.std_dev[k];
    const std::string rel = std::abs(e) > 0 ? format_value(100.0 * s / std::abs(e), 3) + " %" : "-";
    std::snprintf(line, sizeof line, "  %3d  %-*s %13s %11s %8s %13s  %s\n", k + 1, static_cast<int>(width),
                  m.fit.base.expression(k, params).c_str(), format_value(e).c_str(), format_value(s, 3).c_str(), rel.c_str(),
                  format_value(m.fit.model_value[k]).c_str(), params[static_cast<std::size_t>(m.fit.base.independent[static_cast<std::size_t>(k)])].units.c_str());
    out += line;
  }
  return out;
}

std::string rmse_table(const std::vector<Model>& models, analysis::Regressor& reg, const std::string& on, const std::string& units,
                       bool moving) {
  std::string out = "RMSE of the predicted " + std::string(units == "A" ? "currents" : "drives") + " (eq. 20–21) on " + on +
                    (moving ? ", over the samples where the joint moves at --min-speed or faster" : ", every sample") + ":\n";
  char cell[128];
  std::snprintf(cell, sizeof cell, "  %-34s", "");
  out += cell;
  for (int r = 0; r < reg.rows(); ++r) {
    std::snprintf(cell, sizeof cell, " %14s", reg.model().bodies[static_cast<std::size_t>(reg.joints()[static_cast<std::size_t>(r)])].joint.name.c_str());
    out += cell;
  }
  out += "\n";
  for (const Model& m : models) {
    std::snprintf(cell, sizeof cell, "  %-34s", (m.label + " [" + units + "]").c_str());
    out += cell;
    for (double e : moving ? m.prediction.rmse_moving : m.prediction.rmse) {
      std::snprintf(cell, sizeof cell, " %14s", format_value(e, 4).c_str());
      out += cell;
    }
    out += "\n";
  }
  if (models.size() == 2) {
    std::snprintf(cell, sizeof cell, "  %-34s", "improvement [%]");
    out += cell;
    for (std::size_t r = 0; r < models[0].prediction.rmse.size(); ++r) {
      const auto& w = moving ? models[0].prediction.rmse_moving : models[0].prediction.rmse;
      const auto& wo = moving ? models[1].prediction.rmse_moving : models[1].prediction.rmse;
      const double without = wo[r], with = w[r];
      std::snprintf(cell, sizeof cell, " %14s", format_value(100.0 * (without - with) / without, 3).c_str());
      out += cell;
    }
    out += "\n";
  }
  return out;
}

std::string json_report(const IdentifyOptions& o, const std::vector<Model>& models, analysis::Regressor& reg, const std::string& on) {
  std::string out = "{\n  \"scenario\": " + json_string(o.scenario) + ",\n  \"data\": " + json_string(o.data) + ",\n  \"rmse_on\": " + json_string(on) +
                    ",\n  \"joints\": [";
  for (int r = 0; r < reg.rows(); ++r)
    out += std::string(r ? ", " : "") + json_string(reg.model().bodies[static_cast<std::size_t>(reg.joints()[static_cast<std::size_t>(r)])].joint.name);
  out += "],\n  \"models\": [";
  for (std::size_t i = 0; i < models.size(); ++i) {
    const Model& m = models[i];
    out += std::string(i ? "," : "") + "\n    {\"name\": " + json_string(i == 0 ? "with_actuators" : "without_actuators") +
           ", \"condition\": " + json_number(m.fit.condition) + ", \"scaled_condition\": " + json_number(m.fit.scaled_condition) +
           ", \"sigma\": " + json_number(m.fit.sigma) + ", \"observations\": " + std::to_string(m.fit.observations) + ", \"left_out\": " + std::to_string(m.fit.left_out) + ", \"rmse\": [";
    for (std::size_t r = 0; r < m.prediction.rmse.size(); ++r) out += std::string(r ? ", " : "") + json_number(m.prediction.rmse[r]);
    out += "], \"rmse_moving\": [";
    for (std::size_t r = 0; r < m.prediction.rmse_moving.size(); ++r) out += std::string(r ? ", " : "") + json_number(m.prediction.rmse_moving[r]);
    out += "],\n     \"parameters\": [";
    for (int k = 0; k < m.fit.base.size(); ++k)
      out += std::string(k ? "," : "") + "\n       {\"expression\": " + json_string(m.fit.base.expression(k, m.reg->parameters())) +
             ", \"estimate\": " + json_number(m.fit.estimate[k]) + ", \"std\": " + json_number(m.fit.std_dev[k]) +
             ", \"scenario\": " + json_number(m.fit.model_value[k]) + "}";
    out += "]}";
  }
  return out + "\n  ]\n}\n";
}

std::string predictions_csv(const std::vector<Model>& models, analysis::Regressor& reg) {
  std::string out = "time";
  for (int r = 0; r < reg.rows(); ++r) {
    const std::string j = "joints/" + reg.model().bodies[static_cast<std::size_t>(reg.joints()[static_cast<std::size_t>(r)])].joint.name;
    const std::string what = reg.has_motor(r) ? "/current" : "/effort";
    for (const char* model : {"", "_with_actuators", models.size() == 2 ? "_without_actuators" : nullptr}) {
      if (model == nullptr) continue;
      out += ',';
      out += csv_cell(j + what + model);
    }
  }
  out += "\n";
  const analysis::Prediction& p = models.front().prediction;
  for (std::size_t k = 0; k < p.time.size(); ++k) {
    out += json_number(p.time[k]);
    for (std::size_t r = 0; r < p.rmse.size(); ++r) {
      out += ',';
      out += json_number(p.measured[r][k]);
      for (const Model& m : models) {
        out += ',';
        out += json_number(m.prediction.predicted[r][k]);
      }
    }
    out += "\n";
  }
  return out;
}

// Peak |q̇| below this (rad/s or m/s) is rounding of a constant position through the filter and
// the differences, not motion (1e-6 rad/s is a turn in 70 days).
constexpr double kStill = 1e-6;

// The data leave base parameters undetermined (identification.h, step 5): which, and which joints
// do not move, instead of estimates that are any of infinitely many (and σ = NaN). Nothing is
// written: a part or a table with some values the data never saw would look like a result.
int unidentifiable(const Model& m, const analysis::JointTrajectories& data, const IdentifyOptions& o) {
  const analysis::Fit& f = m.fit;
  const auto& params = m.reg->parameters();
  std::fprintf(stderr, "sim identify: error: %s: the data do not determine every base parameter (%s): the observation matrix F "
                       "(%zu × %d) has rank %d; not determined:\n", scenario::printable(o.data).c_str(), m.label.c_str(),
               f.observations, f.base.size(), f.rank);
  for (const std::vector<int>& group : f.undetermined) {
    std::string line;
    for (int k : group) {  // appended: GCC 12 warns falsely (-Wrestrict) on "#" + std::string
      if (!line.empty()) line += ", ";
      line += '#';
      line += std::to_string(k + 1);
      line += ' ';
      line += f.base.expression(k, params);
    }
    line += group.size() == 1 ? ": no observation depends on it" : ": the data give only a combination of them";
    std::fprintf(stderr, "  %s\n", line.c_str());
  }
  for (int r = 0; r < m.reg->rows(); ++r) {
    const auto ru = static_cast<std::size_t>(r);
    double peak = 0.0;
    for (double v : data.qd[ru]) peak = std::max(peak, std::abs(v));
    if (peak >= std::max(o.min_speed, kStill)) continue;
    const dynamics::Joint& joint = m.reg->model().bodies[static_cast<std::size_t>(m.reg->joints()[ru])].joint;
    const char* unit = joint.type == dynamics::JointType::prismatic ? "m/s" : "rad/s";
    std::fprintf(stderr, "  joint %s does not move%s: its speed peaks at %s %s\n", joint.name.c_str(),
                 o.min_speed > 0.0 ? " at --min-speed or faster" : "", format_value(peak, 3).c_str(), unit);
  }
  std::fprintf(stderr, "  Record a trajectory that moves every joint, or identify a scenario in which the joints that stay still are "
                       "fixed; nothing written\n");
  return kBadInput;
}

int identify_arm(const IdentifyOptions& o) {
  scenario::Scenario sc;
  try {
    sc = scenario::load_scenario(o.scenario, o.overrides);
  } catch (const scenario::ScenarioError& e) {
    return report(e.diagnostics()), kBadInput;
  }
  output::InputFiles inputs(sc.input_files);
  inputs.add(o.data);
  if (!o.validation.empty()) inputs.add(o.validation);
  Outputs outputs;
  if (!open_outputs(o, inputs, outputs)) return kBadInput;
  const dynamics::Model model = model::build_model(sc);
  std::optional<analysis::Regressor> with, without;
  try {
    with.emplace(model, analysis::RegressorOptions{true, true});
    without.emplace(model, analysis::RegressorOptions{true, false});
  } catch (const std::invalid_argument& e) {
    return fail(o.scenario + ": " + e.what());
  }
  if (with->rows() == 0) return fail(o.scenario + ": no revolute or prismatic joint to identify");
  const bool motors = with->cols() != without->cols();

  std::vector<Diagnostic> problems;
  const auto load = [&](const std::string& path) -> std::optional<Record> {
    try {
      SeriesFile file = open_series_file(path, {o.time_column, ""});
      // Of a result file, only the joints' series and those --column names are read.
      std::vector<std::size_t> wanted;
      for (std::size_t i = 0; i < file.series.size(); ++i) {
        const std::string& name = file.series[i].name;
        const bool named = std::any_of(o.columns.begin(), o.columns.end(), [&](const std::string& c) { return c.ends_with("=" + name); });
        if (name.starts_with("joints/") || named) wanted.push_back(i);
      }
      load_series(file, wanted);
      if (file.is_result && file.status != "completed" && !file.status.empty())
        std::fprintf(stderr, "warning: %s: the run's status is '%s'\n", path.c_str(), file.status.c_str());
      Record r = measurements(file, *with, o, problems);
      if (!problems.empty()) return std::nullopt;
      return r;
    } catch (const InputError& e) {
      problems.insert(problems.end(), e.diagnostics().begin(), e.diagnostics().end());
      return std::nullopt;
    }
  };
  const auto data = load(o.data);
  const auto validation = o.validation.empty() ? std::nullopt : load(o.validation);
  if (!problems.empty()) return report(problems), kBadInput;

  analysis::JointTrajectories train, test;
  std::vector<Model> models;
  try {
    train = analysis::differentiate(data->m, {o.filter_order, o.cutoff});
    test = validation ? analysis::differentiate(validation->m, {o.filter_order, o.cutoff}) : train;
    models.push_back({motors ? "With actuator dynamics" : "Model", &*with, {}, {}});
    if (motors) models.push_back({"Without actuator dynamics", &*without, {}, {}});
    for (Model& m : models) {
      m.fit = analysis::fit(*m.reg, analysis::base_parameters_of(*m.reg, o.seed), train, o.min_speed);
      if (m.fit.rank < m.fit.base.size()) return unidentifiable(m, train, o);
      m.prediction = analysis::predict(*m.reg, m.fit, test, o.min_speed);
    }
  } catch (const std::invalid_argument& e) {
    return fail(e.what());
  }
  const std::string on = validation ? o.validation + " (validation)" : o.data + " (the identification data itself)";
  std::string text;
  if (o.format == "json") {
    text = json_report(o, models, *with, on);
  } else {
    text = "sim identify: " + scenario::printable(o.scenario) + ", " + std::to_string(with->rows()) + " joints; data " +
           scenario::printable(o.data) + ": " + data->description + "\n";
    if (validation) text += "validation " + scenario::printable(o.validation) + ": " + validation->description + "\n";
    text += "positions low-passed forward and backward (Butterworth, order " + std::to_string(o.filter_order) + ", " +
            format_value(train.cutoff, 4) + " Hz), differentiated by central differences; " + std::to_string(train.margin) +
            " samples dropped at each end; currents not filtered\n\n";
    for (const Model& m : models) text += fit_table(m, train) + "\n";
    text += rmse_table(models, *with, scenario::printable(on), units_of(train), false);
    if (o.min_speed > 0.0) text += "\n" + rmse_table(models, *with, scenario::printable(on), units_of(train), true);
  }
  if (const int code = emit(outputs.report, text); code != kDone) return code;
  if (outputs.predictions)
    if (const int code = emit(outputs.predictions, predictions_csv(models, *with)); code != kDone) return code;
  if (outputs.part) {
    std::string header = schema_line(o);
    header += "# Identified by sim identify from " + scenario::printable(o.data) + " (scenario " + scenario::printable(o.scenario) + "): the base parameters of the model\n"
              "# with actuator dynamics where the data tell them from the scenario's (by more than 3 standard deviations),\n"
              "# the scenario's values elsewhere and for what the data cannot separate.\n";
    std::string part;
    try {
      part = identified_part(sc, *with, models.front().fit, header);
    } catch (const std::runtime_error& e) {
      return fail("--write-part: the estimates make no physical part: " + std::string(e.what()));
    }
    if (const int code = emit(outputs.part, part); code != kDone) return code;
  }
  return kDone;
}

}  // namespace

int identify(const IdentifyOptions& o) {
  if (!o.drag.empty()) return identify_drag(o);
  return identify_arm(o);
}

}  // namespace uwsim::app
