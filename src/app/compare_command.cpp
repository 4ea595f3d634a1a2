#include "app/compare_command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>
#include <optional>

#include "analysis/compare_metrics.h"
#include "app/exit_codes.h"
#include "app/series_files.h"
#include "app/svg_plot.h"
#include "app/text_output.h"
#include "output/output_file.h"
#include "scenario/yaml_reader.h"

namespace uwsim::app {

namespace {

using analysis::Series;

struct Pair {
  const Series* a;
  Series b;  // in A's units
  analysis::Comparison result;
};

// '*' matches any run of characters (including '/').
bool glob_match(const std::string& pattern, const std::string& text) {
  std::size_t p = 0, t = 0, star = std::string::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') star = p++, mark = t;
    else if (p < pattern.size() && pattern[p] == text[t]) ++p, ++t;
    else if (star != std::string::npos) p = star + 1, t = ++mark;
    else return false;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

// B's unit → A's unit: the factor, if it is one of the few conversions offered.
std::optional<double> conversion(const std::string& from, const std::string& to) {
  struct Rule {
    const char *from, *to;
    double factor;
  };
  static const Rule rules[] = {{"deg", "rad", std::numbers::pi / 180.0}, {"deg/s", "rad/s", std::numbers::pi / 180.0},
                               {"deg/s^2", "rad/s^2", std::numbers::pi / 180.0}, {"mm", "m", 1e-3}, {"cm", "m", 1e-2},
                               {"mm/s", "m/s", 1e-3}, {"cm/s", "m/s", 1e-2}, {"mA", "A", 1e-3}, {"kN", "N", 1e3}};
  if (from == to) return 1.0;
  for (const Rule& r : rules)
    if (from == r.from && to == r.to) return r.factor;
  return std::nullopt;
}

std::string not_found(const std::string& name, const SeriesFile& file, const char* which) {
  std::string message = std::string("no series '") + name + "' in " + which + " (" + file.path + ")";
  if (auto guess = scenario::closest_match(name, file.names())) message += "; did you mean '" + *guess + "'?";
  return message;
}

std::string table(const CompareOptions& o, const std::vector<Pair>& pairs) {
  std::size_t width = 6;
  for (const Pair& p : pairs) width = std::max(width, p.a->name.size());
  const bool shift = o.max_shift > 0.0;
  std::string out = "A: " + o.a + "\nB: " + o.b + "\nB − A at A's samples within both spans; DTW: mean |a − b| along the warping path\n\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-*s  %-8s %8s %16s %11s %11s %11s %8s %11s", static_cast<int>(width), "series", "units",
                "samples", "span [s]", "RMSE", "max |e|", "mean e", "R", "DTW");
  out += line;
  if (shift) out += "   shift [s]  RMSE@shift";
  out += "\n";
  for (const Pair& p : pairs) {
    const analysis::Comparison& c = p.result;
    const std::string span = format_value(c.start, 4) + "–" + format_value(c.stop, 4);
    std::snprintf(line, sizeof line, "%-*s  %-8s %8zu %16s %11s %11s %11s %8s %11s", static_cast<int>(width), p.a->name.c_str(),
                  p.a->units.empty() ? "-" : p.a->units.c_str(), c.samples, span.c_str(), format_value(c.rmse, 4).c_str(),
                  format_value(c.max_error, 4).c_str(), format_value(c.mean_error, 4).c_str(), format_value(c.pearson_r, 4).c_str(),
                  format_value(c.dtw, 4).c_str());
    out += line;
    if (shift) {
      std::snprintf(line, sizeof line, " %11s %11s", format_value(c.shift, 4).c_str(), format_value(c.rmse_at_shift, 4).c_str());
      out += line;
    }
    out += "\n";
  }
  if (!pairs.empty())
    out += "\nDTW window: " + format_value(pairs.front().result.dtw_window, 4) + " s" +
           (shift ? "; shift searched within ±" + format_value(o.max_shift, 4) + " s (> 0: B lags A)" : "") + "\n";
  return out;
}

std::string csv(const std::vector<Pair>& pairs) {
  std::string out = "series,units,samples,start,stop,rmse,max_error,mean_error,pearson_r,dtw,dtw_window,shift,rmse_at_shift\n";
  for (const Pair& p : pairs) {
    const analysis::Comparison& c = p.result;
    out += p.a->name + "," + p.a->units + "," + std::to_string(c.samples) + "," + json_number(c.start) + "," + json_number(c.stop) + "," +
           json_number(c.rmse) + "," + json_number(c.max_error) + "," + json_number(c.mean_error) + "," +
           (std::isfinite(c.pearson_r) ? json_number(c.pearson_r) : "nan") + "," + json_number(c.dtw) + "," +
           json_number(c.dtw_window) + "," + (c.has_shift ? json_number(c.shift) : "") + "," +
           (c.has_shift ? json_number(c.rmse_at_shift) : "") + "\n";
  }
  return out;
}

std::string json(const CompareOptions& o, const std::vector<Pair>& pairs) {
  std::string out = "{\n  \"a\": " + json_string(o.a) + ",\n  \"b\": " + json_string(o.b) + ",\n  \"series\": [";
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const analysis::Comparison& c = pairs[i].result;
    out += std::string(i ? "," : "") + "\n    {\"name\": " + json_string(pairs[i].a->name) + ", \"b_name\": " + json_string(pairs[i].b.name) +
           ", \"units\": " + json_string(pairs[i].a->units) + ", \"samples\": " + std::to_string(c.samples) +
           ", \"start\": " + json_number(c.start) + ", \"stop\": " + json_number(c.stop) + ", \"rmse\": " + json_number(c.rmse) +
           ", \"max_error\": " + json_number(c.max_error) + ", \"mean_error\": " + json_number(c.mean_error) +
           ", \"pearson_r\": " + json_number(c.pearson_r) + ", \"dtw\": " + json_number(c.dtw) +
           ", \"dtw_window\": " + json_number(c.dtw_window);
    if (c.has_shift) out += ", \"shift\": " + json_number(c.shift) + ", \"rmse_at_shift\": " + json_number(c.rmse_at_shift);
    out += "}";
  }
  return out + "\n  ]\n}\n";
}

std::string figure(const Pair& p, const CompareOptions& o) {
  Curve a{"A: " + o.a, "#1f77b4", p.a->time, p.a->values}, b{"B: " + o.b, "#d62728", p.b.time, p.b.values, true};
  Curve e{"B − A", "#333333", {}, {}};
  std::size_t hint = 0;
  const bool angle = p.a->units == "rad";
  for (std::size_t k = 0; k < p.a->time.size(); ++k) {
    const double t = p.a->time[k];
    if (t < p.result.start || t > p.result.stop) continue;
    const double d = analysis::value_at(p.b, t, hint) - p.a->values[k];
    e.x.push_back(t);
    e.y.push_back(angle ? analysis::wrap_angle(d) : d);
  }
  const std::string units = p.a->units.empty() ? "" : " [" + p.a->units + "]";
  const std::string title = p.a->name + ": RMSE " + format_value(p.result.rmse, 3) + ", R " + format_value(p.result.pearson_r, 3) +
                            ", DTW " + format_value(p.result.dtw, 3);
  return svg_figure(title, "time [s]", {{p.a->name + units, {a, b}}, {"B − A" + units, {e}}});
}

void report(const std::vector<scenario::Diagnostic>& diagnostics) {
  for (const auto& d : diagnostics) std::fprintf(stderr, "%s\n", scenario::format(d).c_str());
}

int output_failure(const std::exception& error) {
  std::fprintf(stderr, "sim compare: error: %s\n", error.what());
  return exit_code_for(error);
}

// The figure of series `name` in --plot DIR.
std::string figure_path(const CompareOptions& o, const std::string& name) {
  std::string file = name;
  std::replace(file.begin(), file.end(), '/', '_');
  return o.plot_dir + "/" + file + ".svg";
}

}  // namespace

int compare_files(const CompareOptions& o) {
  // The report is checked and locked before anything is read (output/output_file.h), the figures
  // as soon as their series are known, before the metrics.
  output::InputFiles inputs({o.a, o.b});
  if (!o.units_file.empty()) inputs.add(o.units_file);
  std::optional<output::OutputFile> report_file;
  std::vector<std::unique_ptr<output::OutputFile>> figure_files;
  try {
    if (!o.output.empty()) report_file.emplace(o.output, "-o", inputs, o.command_line);
  } catch (const std::exception& error) {
    return output_failure(error);
  }
  SeriesFile A, B;
  std::vector<scenario::Diagnostic> problems;
  try {
    A = read_series_file(o.a, {o.time_column, ""});
  } catch (const InputError& e) {
    problems = e.diagnostics();
  }
  try {
    B = read_series_file(o.b, {o.time_column, o.units_file});
  } catch (const InputError& e) {
    problems.insert(problems.end(), e.diagnostics().begin(), e.diagnostics().end());
  }
  if (!problems.empty()) return report(problems), kBadInput;
  for (const SeriesFile* f : {&A, &B})
    if (f->is_result && f->status != "completed" && !f->status.empty())
      std::fprintf(stderr, "warning: %s: the run's status is '%s'\n", f->path.c_str(), f->status.c_str());

  // Which series: --map pairs, then equal names (those matching --series, if given).
  std::vector<std::pair<const Series*, const Series*>> chosen;
  const auto error = [&](const std::string& message) { problems.push_back({"sim compare", 0, 0, message}); };
  for (const std::string& m : o.maps) {
    const auto eq = m.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == m.size()) {
      error("--map " + m + ": expected A_NAME=B_NAME");
      continue;
    }
    const std::string an = m.substr(0, eq), bn = m.substr(eq + 1);
    const Series *sa = A.find(an), *sb = B.find(bn);
    if (!sa) error("--map " + m + ": " + not_found(an, A, "A"));
    if (!sb) error("--map " + m + ": " + not_found(bn, B, "B"));
    if (sa && sb) chosen.emplace_back(sa, sb);
  }
  for (const std::string& pattern : o.series)
    if (std::none_of(A.series.begin(), A.series.end(), [&](const Series& s) { return glob_match(pattern, s.name); }))
      error("--series " + pattern + ": " + not_found(pattern, A, "A"));
  if (!problems.empty()) return report(problems), kBadInput;
  std::vector<std::string> unmatched;
  for (const Series& sb : B.series) {
    const bool mapped = std::any_of(chosen.begin(), chosen.end(), [&](const auto& c) { return c.second == &sb; });
    if (mapped) continue;
    const Series* sa = A.find(sb.name);
    const bool wanted = o.series.empty() || (sa && std::any_of(o.series.begin(), o.series.end(), [&](const std::string& p) { return glob_match(p, sa->name); }));
    if (!sa) {
      if (!B.is_result && o.series.empty()) unmatched.push_back(sb.name);
      continue;
    }
    if (wanted) chosen.emplace_back(sa, &sb);
  }
  if (!unmatched.empty()) {
    std::string list;
    for (const std::string& n : unmatched) list += (list.empty() ? "" : ", ") + n;
    std::fprintf(stderr, "note: not compared, no series of that name in A (use --map A_NAME=B_NAME): %s\n", list.c_str());
  }
  if (chosen.empty()) {
    error("nothing to compare: no series of B has the name of one in A; pair them with --map A_NAME=B_NAME");
    return report(problems), kBadInput;
  }

  try {
    if (!o.plot_dir.empty())
      for (const auto& [sa, sb] : chosen)
        figure_files.push_back(std::make_unique<output::OutputFile>(figure_path(o, sa->name), "--plot", inputs, o.command_line));
  } catch (const std::exception& error) {
    return output_failure(error);
  }

  std::vector<Pair> pairs;
  for (const auto& [sa, sb] : chosen) {
    Pair p{sa, *sb, {}};
    if (!sb->units.empty() && !sa->units.empty()) {
      const auto factor = conversion(sb->units, sa->units);
      if (!factor) {
        error("series " + sa->name + ": A is in '" + sa->units + "', B (" + sb->name + ") in '" + sb->units +
              "'; give B in A's units (conversions offered: deg, deg/s, mm, cm, mA, kN)");
        continue;
      }
      for (double& v : p.b.values) v *= *factor;
    }
    p.b.units = sa->units;
    analysis::CompareSettings settings;
    settings.angle = sa->units == "rad";
    settings.dtw_window = o.dtw_window;
    settings.max_shift = o.max_shift;
    try {
      p.result = analysis::compare(*sa, p.b, settings);
    } catch (const std::invalid_argument& e) {
      error("series " + sa->name + ": " + e.what());
      continue;
    }
    pairs.push_back(std::move(p));
  }
  if (!problems.empty()) return report(problems), kBadInput;

  const std::string text = o.format == "csv" ? csv(pairs) : o.format == "json" ? json(o, pairs) : table(o, pairs);
  try {
    if (report_file) report_file->write(text);
    else std::fputs(text.c_str(), stdout);
    // One figure per chosen pair, in their order: a pair that failed returned above.
    for (std::size_t i = 0; i < figure_files.size(); ++i) figure_files[i]->write(figure(pairs[i], o));
  } catch (const std::exception& error) {
    return output_failure(error);
  }
  return kDone;
}

}  // namespace uwsim::app
