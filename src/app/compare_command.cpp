#include "app/compare_command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <numbers>
#include <optional>
#include <tuple>

#include "analysis/compare_metrics.h"
#include "app/exit_codes.h"
#include "app/series_files.h"
#include "app/svg_plot.h"
#include "app/text_output.h"
#include "output/output_file.h"
#include "scenario/printable.h"
#include "scenario/read_csv.h"
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

// "--from 2 --to 5 s", "--from 2 s": the window asked for, as the messages and the report say it.
std::string window_text(const CompareOptions& o) {
  std::string text = o.from ? "--from " + format_value(*o.from) : "";
  if (o.to) text += (text.empty() ? "" : " ") + std::string("--to ") + format_value(*o.to);
  return text + " s";
}

constexpr UnitConversion kConversions[] = {
    {"deg", "rad", std::numbers::pi / 180.0}, {"deg/s", "rad/s", std::numbers::pi / 180.0},
    {"deg/s^2", "rad/s^2", std::numbers::pi / 180.0}, {"mm", "m", 1e-3}, {"cm", "m", 1e-2},
    {"mm/s", "m/s", 1e-3}, {"cm/s", "m/s", 1e-2}, {"mA", "A", 1e-3}, {"kN", "N", 1e3}};

// B's unit → A's unit: the factor, if it is one of the conversions offered.
std::optional<double> conversion(const std::string& from, const std::string& to) {
  if (from == to) return 1.0;
  for (const UnitConversion& r : kConversions)
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
  const bool windows_differ = std::any_of(pairs.begin(), pairs.end(), [&](const Pair& p) { return p.result.dtw_window != pairs.front().result.dtw_window; });
  std::string out = "A: " + o.a + "\nB: " + o.b + "\nB − A at A's samples within both spans" +
                    (o.from || o.to ? " and " + window_text(o) : "") + "; DTW: mean |a − b| along the warping path\n\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-*s  %-8s %8s %16s %11s %11s %11s %8s %11s", static_cast<int>(width), "series", "units",
                "samples", "span [s]", "RMSE", "max |e|", "mean e", "R", "DTW");
  out += line;
  if (windows_differ) out += "  window [s]";
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
    if (windows_differ) {
      std::snprintf(line, sizeof line, " %11s", format_value(c.dtw_window, 4).c_str());
      out += line;
    }
    if (shift) {
      std::snprintf(line, sizeof line, " %11s %11s", format_value(c.shift, 4).c_str(), format_value(c.rmse_at_shift, 4).c_str());
      out += line;
    }
    out += "\n";
  }
  if (!pairs.empty())
    out += "\nDTW window: " + (windows_differ ? std::string("per series, as listed") : format_value(pairs.front().result.dtw_window, 4) + " s") +
           (shift ? "; shift searched within ±" + format_value(o.max_shift, 4) + " s (> 0: B lags A)" : "") + "\n";
  return out;
}

std::string csv(const std::vector<Pair>& pairs) {
  std::string out = "series,units,samples,start,stop,rmse,max_error,mean_error,pearson_r,dtw,dtw_window,shift,rmse_at_shift\n";
  for (const Pair& p : pairs) {
    const analysis::Comparison& c = p.result;
    out += csv_cell(p.a->name) + "," + csv_cell(p.a->units) + "," + std::to_string(c.samples) + "," + json_number(c.start) + "," + json_number(c.stop) + "," +
           json_number(c.rmse) + "," + json_number(c.max_error) + "," + json_number(c.mean_error) + "," +
           (std::isfinite(c.pearson_r) ? json_number(c.pearson_r) : "nan") + "," + json_number(c.dtw) + "," +
           json_number(c.dtw_window) + "," + (c.has_shift ? json_number(c.shift) : "") + "," +
           (c.has_shift ? json_number(c.rmse_at_shift) : "") + "\n";
  }
  return out;
}

std::string json(const CompareOptions& o, const std::vector<Pair>& pairs) {
  std::string out = "{\n  \"a\": " + json_string(o.a) + ",\n  \"b\": " + json_string(o.b) + ",\n";
  if (o.from) out += "  \"from\": " + json_number(*o.from) + ",\n";
  if (o.to) out += "  \"to\": " + json_number(*o.to) + ",\n";
  out += "  \"series\": [";
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
  Curve a{"A: " + o.a, "#1f77b4", p.a->time, p.a->values}, b{"B: " + o.b, "#d62728", {}, {}, true};
  for (std::size_t k = 0; k < p.b.time.size(); ++k)  // within --from, --to (A's series is cut to them)
    if (p.b.time[k] >= o.from.value_or(-INFINITY) && p.b.time[k] <= o.to.value_or(INFINITY))
      b.x.push_back(p.b.time[k]), b.y.push_back(p.b.values[k]);
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

// "warning: …" or "note: …" on stderr. Names, paths and attributes in `text` come from the
// user's files: printed escaped and bounded (scenario/printable.h).
void tell(const char* kind, const std::string& text) {
  std::fprintf(stderr, "%s: %s\n", kind, scenario::shown(text, scenario::kMaxMessageCharacters).c_str());
}

// "a, b, c and 12 more".
std::string listing(const std::vector<std::string>& items, std::size_t shown = 20) {
  std::string list;
  for (std::size_t i = 0; i < std::min(items.size(), shown); ++i) list += (i ? ", " : "") + items[i];
  if (items.size() > shown) list += " and " + std::to_string(items.size() - shown) + " more";
  return list;
}

using Chosen = std::vector<std::pair<std::size_t, std::size_t>>;  // (A's series, B's series)

// The series of `file` named `name` or under `name/` (the columns of a dataset of that name).
std::vector<std::size_t> named_or_under(const SeriesFile& file, const std::string& name) {
  std::vector<std::size_t> out;
  if (const long i = file.index_of(name); i >= 0) out.push_back(static_cast<std::size_t>(i));
  const std::string prefix = name + "/";
  for (auto it = file.index.lower_bound(prefix); it != file.index.end() && it->first.starts_with(prefix); ++it)
    out.push_back(it->second);
  return out;
}

// Why A's (or B's) series `name` cannot be read, if it is one of the file's unreadable ones.
const UnreadableSeries* unreadable(const SeriesFile& file, const std::string& name) {
  for (const UnreadableSeries& u : file.unreadable)
    if (name == u.name || name.starts_with(u.name + "/")) return &u;
  return nullptr;
}

// Whether A's series `name` is one --series asks for (all without it).
bool wanted(const CompareOptions& o, const std::string& name) {
  return o.series.empty() || std::any_of(o.series.begin(), o.series.end(), [&](const std::string& p) { return glob_match(p, name); });
}

// The pairs --map and --map-file give, in that order; a --map argument of another form is a
// problem.
std::vector<NamePair> given_pairs(const CompareOptions& o, std::vector<scenario::Diagnostic>& problems) {
  std::vector<NamePair> pairs;
  for (const std::string& m : o.maps) {
    const auto eq = m.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == m.size()) problems.push_back({"sim compare", 0, 0, "--map " + m + ": expected A_NAME=B_NAME"});
    else pairs.push_back({m.substr(0, eq), m.substr(eq + 1), "", 0, 0, 0});
  }
  if (!o.map_file.empty()) {
    try {
      std::vector<NamePair> from_file = read_series_map(o.map_file);
      pairs.insert(pairs.end(), std::make_move_iterator(from_file.begin()), std::make_move_iterator(from_file.end()));
    } catch (const InputError& e) {
      problems.insert(problems.end(), e.diagnostics().begin(), e.diagnostics().end());
    }
  }
  return pairs;
}

// A problem with a given pair, at its map file's line and column (`b_side`: B's name's), or
// naming the --map argument.
scenario::Diagnostic pair_problem(const NamePair& p, bool b_side, const std::string& message) {
  if (p.file.empty()) return {"sim compare", 0, 0, "--map " + p.a + "=" + p.b + ": " + message};
  return {p.file, p.line, b_side ? p.b_column : p.a_column, message};
}

std::string where(const NamePair& p) {
  return p.file.empty() ? "by --map " + p.a + "=" + p.b : "at " + p.file + ":" + std::to_string(p.line);
}

// The given pairs, then equal names, those of A's series --series asks for. An index per file
// keeps this linear in the number of series.
Chosen choose(const CompareOptions& o, const std::vector<NamePair>& given, const SeriesFile& A, const SeriesFile& B,
              std::vector<scenario::Diagnostic>& problems, std::vector<std::string>& unmatched) {
  Chosen chosen;
  std::vector<bool> mapped(B.series.size(), false);
  std::map<std::string_view, const NamePair*> first;  // A's name → its pair
  std::size_t unchecked = 0;
  for (const NamePair& p : given) {
    // Each unknown name costs a "did you mean" over all the file's names, so checking every line
    // of a map file of unknown names against a large file grows as their product. After the
    // first problems the rest are counted, as a CSV's bad cells are.
    if (problems.size() >= scenario::kMaxCsvProblems) {
      ++unchecked;
      continue;
    }
    const long ia = A.index_of(p.a), ib = B.index_of(p.b);
    for (const auto& [index, name, file, which] : {std::tuple{ia, &p.a, &A, "A"}, std::tuple{ib, &p.b, &B, "B"}}) {
      if (index >= 0) continue;
      const UnreadableSeries* u = unreadable(*file, *name);
      problems.push_back(pair_problem(p, file == &B, u ? std::string(which) + "'s " + u->name + " (" + file->path + ") " + u->why
                                                       : not_found(*name, *file, which)));
    }
    if (const auto [it, fresh] = first.emplace(p.a, &p); !fresh) {
      problems.push_back(pair_problem(p, false, "A's " + p.a + " is paired twice: with B's " + it->second->b + " " + where(*it->second) +
                                                    ", and here with " + p.b));
      continue;
    }
    if (ia < 0 || ib < 0) continue;
    mapped[static_cast<std::size_t>(ib)] = true;  // B's series is A's p.a, even where --series leaves p.a out
    if (wanted(o, p.a)) chosen.emplace_back(ia, ib);
  }
  if (unchecked > 0)
    problems.push_back({given.back().file.empty() ? "sim compare" : given.back().file, 0, 0,
                        "and " + std::to_string(unchecked) + " more pairs not checked after these problems"});
  for (const std::string& pattern : o.series)
    if (std::none_of(A.series.begin(), A.series.end(), [&](const Series& s) { return glob_match(pattern, s.name); }))
      problems.push_back({"sim compare", 0, 0, "--series " + pattern + ": " + not_found(pattern, A, "A")});
  for (std::size_t ib = 0; ib < B.series.size(); ++ib) {
    if (mapped[ib]) continue;
    const long ia = A.index_of(B.series[ib].name);
    if (ia < 0) {
      if (!B.is_result && o.series.empty() && !unreadable(A, B.series[ib].name)) unmatched.push_back(B.series[ib].name);
      continue;
    }
    if (wanted(o, B.series[ib].name)) chosen.emplace_back(ia, ib);
  }
  return chosen;
}

// A series of one file that cannot be read but has a partner in the other (a series of that
// name or under it, or the same unreadable dataset) would leave the comparison incomplete: an
// error. The rest are listed in a note.
void check_unreadable(const CompareOptions& o, const SeriesFile& A, const SeriesFile& B, std::vector<scenario::Diagnostic>& problems) {
  const auto same = [](const SeriesFile& file, const std::string& name) {
    return std::any_of(file.unreadable.begin(), file.unreadable.end(), [&](const UnreadableSeries& u) { return u.name == name; });
  };
  for (const auto& [file, other, which] : {std::tuple{&A, &B, "A"}, std::tuple{&B, &A, "B"}}) {
    std::vector<std::string> others;
    for (const UnreadableSeries& u : file->unreadable) {
      bool partnered = same(*other, u.name) && wanted(o, u.name);
      for (const std::size_t i : named_or_under(*other, u.name)) partnered = partnered || wanted(o, other->series[i].name);
      if (partnered && (file == &A || !same(A, u.name)))  // one error for a dataset both cannot read
        problems.push_back({file->path, 0, 0, "cannot compare " + u.name + ": " + which + "'s " + u.name + " " + u.why});
      else if (!partnered)
        others.push_back(u.name + " (" + u.why + ")");
    }
    if (!others.empty())
      tell("note", std::string(which) + " (" + file->path + ") has datasets that are not series, none of them in " +
                       (which[0] == 'A' ? "B" : "A") + ": " + listing(others, 10));
  }
}

// The shift search's samples of every pair; its share of kMaxCompareWork, or the --max-shift
// is refused (saying the largest that fits).
std::uint64_t shift_work(const CompareOptions& o, const std::vector<analysis::CompareCost>& costs,
                         std::vector<scenario::Diagnostic>& problems) {
  double total = 0.0, per_second = 0.0, fixed = 0.0;
  for (const analysis::CompareCost& c : costs) {
    total += static_cast<double>(c.shift_samples);
    per_second += 2.0 * static_cast<double>(c.samples) / c.interval;
    fixed += 50.0 * static_cast<double>(c.samples);  // the grid's middle and the golden section
  }
  const auto budget = static_cast<double>(analysis::kMaxCompareWork);
  if (total <= budget) return static_cast<std::uint64_t>(total);
  const double largest = std::max(0.0, (budget - fixed) / per_second);
  problems.push_back({"sim compare", 0, 0,
                      "--max-shift " + format_value(o.max_shift) + " over these " + std::to_string(costs.size()) +
                          " series evaluates about " + format_value(total, 3) + " samples (each shift on A's sample grid, "
                          "over the samples compared), more than the " + std::to_string(analysis::kMaxCompareWork) +
                          " DTW cells and shift samples one comparison computes: give at most --max-shift " +
                          format_value(largest, 3) + ", or compare fewer series (--series)"});
  return 0;
}

// The DTW band each pair may fill: what the shift search leaves of kMaxCompareWork. A window
// asked for (--dtw-window) is computed as asked or refused; the default one is narrowed where
// the series together would need more, each pair getting an equal share of what the smaller
// ones leave.
std::vector<std::uint64_t> dtw_shares(const CompareOptions& o, const std::vector<analysis::CompareCost>& costs,
                                      std::uint64_t budget, std::vector<scenario::Diagnostic>& problems) {
  std::uint64_t total = 0;
  for (const analysis::CompareCost& c : costs) total += std::min(c.dtw_cells, analysis::kMaxCompareWork + 1);
  std::vector<std::uint64_t> share(costs.size(), budget);
  if (total <= budget) return share;
  if (o.dtw_window) {
    problems.push_back({"sim compare", 0, 0,
                        "--dtw-window " + format_value(*o.dtw_window) + " over these " + std::to_string(costs.size()) +
                            " series takes more than " + std::to_string(budget) +
                            " DTW cells (samples × (2 × window in samples + 1)), what one comparison computes" +
                            (budget < analysis::kMaxCompareWork ? " besides its shift search" : "") +
                            ": give a narrower --dtw-window, or compare fewer series (--series)"});
    return share;
  }
  std::vector<std::size_t> order(costs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return costs[x].dtw_cells < costs[y].dtw_cells; });
  std::uint64_t left = budget;
  for (std::size_t k = 0; k < order.size(); ++k) {
    share[order[k]] = std::min(costs[order[k]].dtw_cells, left / (order.size() - k));
    left -= share[order[k]];
  }
  return share;
}

// B's series in A's units (a copy, or B's own values where it is their last use). A column
// of a CSV B without a unit, against an A series with one, is taken in A's unit and added to
// `unitless` (to be named in one warning).
std::optional<Series> in_a_units(const Series& sa, Series& sb, bool last_use, bool csv, std::vector<scenario::Diagnostic>& problems,
                                 std::vector<std::string>& warnings, std::vector<std::string>& unitless) {
  std::optional<double> factor = 1.0;
  if (!sb.units.empty() && !sa.units.empty()) factor = conversion(sb.units, sa.units);
  if (!factor) {
    problems.push_back({"sim compare", 0, 0,
                        "series " + sa.name + ": A is in '" + sa.units + "', B (" + sb.name + ") in '" + sb.units +
                            "'; give B in A's units (conversions offered: " + unit_conversion_list() + ")"});
    return std::nullopt;
  }
  if (csv && sb.units.empty() && !sa.units.empty()) unitless.push_back(sb.name + " (" + sa.units + (sb.name == sa.name ? "" : ", as A's " + sa.name) + ")");
  if (sa.units.empty() && !sb.units.empty())
    warnings.push_back("series " + sa.name + ": A gives no unit, B (" + sb.name + ") is in '" + sb.units +
                       "': compared as they are, unconverted");
  Series b = last_use ? std::move(sb) : sb;
  if (*factor != 1.0)
    for (double& v : b.values) v *= *factor;
  b.units = sa.units;
  return b;
}

// The chosen pairs compared, within the budgets; false (problems reported) if any cannot be.
bool compare_pairs(const CompareOptions& o, const SeriesFile& A, SeriesFile& B, const Chosen& chosen, std::vector<Pair>& pairs) {
  std::vector<scenario::Diagnostic> problems;
  std::vector<std::string> warnings, unitless;
  std::vector<std::size_t> uses(B.series.size(), 0);
  for (const auto& [ia, ib] : chosen) ++uses[ib];
  analysis::CompareSettings settings;
  settings.dtw_window = o.dtw_window;
  settings.max_shift = o.max_shift;
  std::vector<analysis::CompareCost> costs(chosen.size());
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    try {
      costs[i] = analysis::compare_cost(A.series[chosen[i].first], B.series[chosen[i].second], settings);
    } catch (const std::invalid_argument& e) {
      problems.push_back({"sim compare", 0, 0, "series " + A.series[chosen[i].first].name + ": " + e.what()});
    }
  }
  if (!problems.empty()) return report(problems), false;
  const std::uint64_t shifting = shift_work(o, costs, problems);
  const std::vector<std::uint64_t> shares = dtw_shares(o, costs, analysis::kMaxCompareWork - shifting, problems);
  if (!problems.empty()) return report(problems), false;

  std::size_t narrowed = 0;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const Series& sa = A.series[chosen[i].first];
    std::optional<Series> b =
        in_a_units(sa, B.series[chosen[i].second], --uses[chosen[i].second] == 0, !B.is_result, problems, warnings, unitless);
    if (!b) continue;
    settings.angle = sa.units == "rad";
    settings.dtw_max_cells = shares[i];
    try {
      const analysis::Comparison result = analysis::compare(sa, *b, settings);
      narrowed += result.dtw_narrowed ? 1 : 0;
      pairs.push_back({&sa, std::move(*b), result});
    } catch (const std::exception& e) {  // invalid_argument, length_error: checked above, for safety
      problems.push_back({"sim compare", 0, 0, "series " + sa.name + ": " + e.what()});
    }
  }
  if (!problems.empty()) return report(problems), false;
  for (const std::string& w : warnings) tell("warning", w);
  std::sort(unitless.begin(), unitless.end());
  unitless.erase(std::unique(unitless.begin(), unitless.end()), unitless.end());
  if (!unitless.empty() && !o.in_a_units) {
    std::vector<std::string> names;
    for (const std::string& u : unitless) names.push_back(scenario::printable(u));
    tell("warning", std::to_string(unitless.size()) + " column(s) of B (" + B.path + ") give no unit and are compared in A's: " + listing(names) +
         ". Give their units (`name [unit]` in the header, or --units FILE), or say that they are in A's with --in-a-units");
  }
  if (narrowed > 0)
    std::fprintf(stderr,
                 "note: the DTW window of %zu of the %zu series is narrower than the default 10 %% of the span: one comparison "
                 "computes at most %llu DTW cells (samples × (2 × window in samples + 1)) and shift samples; each series' "
                 "window is in the report\n",
                 narrowed, pairs.size(), static_cast<unsigned long long>(analysis::kMaxCompareWork));

  return true;
}

int read_inputs(const CompareOptions& o, SeriesFile& A, SeriesFile& B) {
  std::vector<scenario::Diagnostic> problems;
  if (!std::isfinite(o.dtw_window.value_or(0.0)) || o.dtw_window.value_or(0.0) < 0.0 || !std::isfinite(o.max_shift) || o.max_shift < 0.0)
    problems.push_back({"sim compare", 0, 0, "--dtw-window and --max-shift must be finite numbers ≥ 0"});
  for (const auto& [path, file, csv] : {std::tuple{&o.a, &A, CsvSettings{o.time_column, ""}},
                                        std::tuple{&o.b, &B, CsvSettings{o.time_column, o.units_file}}}) {
    try {
      *file = open_series_file(*path, csv);
    } catch (const InputError& e) {
      problems.insert(problems.end(), e.diagnostics().begin(), e.diagnostics().end());
    }
  }
  if (o.from && o.to && *o.from > *o.to)
    problems.push_back({"sim compare", 0, 0, "--from " + format_value(*o.from) + " s is after --to " + format_value(*o.to) + " s"});
  if (problems.empty() && B.is_result && !o.units_file.empty())
    problems.push_back({o.units_file, 0, 0, "--units gives the units of a CSV file's columns; B (" + o.b +
                                                ") is a result file, whose datasets carry their own"});
  if (problems.empty() && B.is_result && o.in_a_units)
    problems.push_back({o.b, 0, 0, "--in-a-units is for a CSV file's columns without a unit; B is a result file, whose datasets carry their own"});
  if (!problems.empty()) return report(problems), kBadInput;
  for (const SeriesFile* f : {&A, &B})
    if (f->is_result && f->status != "completed" && !f->status.empty())
      tell("warning", f->path + ": the run's status is '" + f->status + "'");
  return kDone;
}

// --from, --to: A's chosen series cut to their samples within [from, to], so that every figure
// (and the default DTW window, the shift search) is of that span alone; B keeps its samples
// around it, to be interpolated at A's times. Fewer than 2 of A's samples left is a problem.
void keep_window(const CompareOptions& o, SeriesFile& A, const Chosen& chosen, std::vector<scenario::Diagnostic>& problems) {
  if (!o.from && !o.to) return;
  std::vector<bool> done(A.series.size(), false);
  for (const auto& [ia, ib] : chosen) {
    if (done[ia]) continue;
    done[ia] = true;
    Series& s = A.series[ia];
    const auto first = o.from ? std::lower_bound(s.time.begin(), s.time.end(), *o.from) : s.time.begin();
    const auto last = o.to ? std::upper_bound(first, s.time.end(), *o.to) : s.time.end();
    const auto begin = first - s.time.begin(), end = last - s.time.begin();
    if (end - begin < 2) {
      problems.push_back({"sim compare", 0, 0, "series " + s.name + ": " + std::to_string(end - begin) + " of A's samples lie within " +
                                                   window_text(o) + " (A spans " + format_value(s.time.front()) + "–" +
                                                   format_value(s.time.back()) + " s); at least 2 are compared"});
      continue;
    }
    s.time.erase(s.time.begin() + end, s.time.end());
    s.time.erase(s.time.begin(), s.time.begin() + begin);
    s.values.erase(s.values.begin() + end, s.values.end());
    s.values.erase(s.values.begin(), s.values.begin() + begin);
  }
}

int output_failure(const std::exception& error) {
  tell("sim compare: error", error.what());
  return exit_code_for(error);
}

}  // namespace

std::span<const UnitConversion> unit_conversions() { return kConversions; }

std::string unit_conversion_list() {
  std::string list;
  for (const UnitConversion& c : kConversions) list += (list.empty() ? "" : ", ") + std::string(c.from) + " → " + c.to;
  return list;
}

std::string plot_file_name(const std::string& series) {
  std::string file;
  for (const unsigned char c : series) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';  // ASCII, in any locale
    if (plain) file += static_cast<char>(c);
    else if (c == '/') file += '.';
    else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      file += hex;
    }
  }
  return file + ".svg";
}

int compare_files(const CompareOptions& o) {
  // The report is checked and locked before anything is read (output/output_file.h), the figures
  // as soon as their series are known, before the metrics.
  output::InputFiles inputs({o.a, o.b});
  if (!o.units_file.empty()) inputs.add(o.units_file);
  if (!o.map_file.empty()) inputs.add(o.map_file);
  std::optional<output::OutputFile> report_file;
  std::vector<std::unique_ptr<output::OutputFile>> figure_files;
  try {
    if (!o.output.empty()) report_file.emplace(o.output, "-o", inputs, o.command_line);
  } catch (const std::exception& error) {
    return output_failure(error);
  }
  SeriesFile A, B;
  if (const int code = read_inputs(o, A, B); code != kDone) return code;
  std::vector<scenario::Diagnostic> problems;
  const std::vector<NamePair> given = given_pairs(o, problems);
  if (!problems.empty()) return report(problems), kBadInput;
  std::vector<std::string> unmatched;
  const Chosen chosen = choose(o, given, A, B, problems, unmatched);
  if (!problems.empty()) return report(problems), kBadInput;
  check_unreadable(o, A, B, problems);
  if (!problems.empty()) return report(problems), kBadInput;
  if (!unmatched.empty())
    tell("note", "not compared, no series of that name in A (use --map A_NAME=B_NAME): " + listing(unmatched));
  if (chosen.empty()) {
    problems.push_back({"sim compare", 0, 0, "nothing to compare: no series of B has the name of one in A; pair them with --map A_NAME=B_NAME"});
    return report(problems), kBadInput;
  }
  try {
    if (!o.plot_dir.empty())
      for (const auto& [ia, ib] : chosen)
        figure_files.push_back(std::make_unique<output::OutputFile>(o.plot_dir + "/" + plot_file_name(A.series[ia].name), "--plot",
                                                                    inputs, o.command_line));
  } catch (const std::exception& error) {
    return output_failure(error);
  }
  std::vector<std::size_t> from_a, from_b;
  for (const auto& [ia, ib] : chosen) from_a.push_back(ia), from_b.push_back(ib);
  try {
    load_series(A, from_a);
    load_series(B, from_b);
  } catch (const InputError& e) {
    return report(e.diagnostics()), kBadInput;
  }
  keep_window(o, A, chosen, problems);
  if (!problems.empty()) return report(problems), kBadInput;

  std::vector<Pair> pairs;
  if (!compare_pairs(o, A, B, chosen, pairs)) return kBadInput;

  const std::string text = o.format == "csv" ? csv(pairs) : o.format == "json" ? json(o, pairs) : table(o, pairs);
  try {
    if (report_file) report_file->write(text);
    else std::fputs(text.c_str(), stdout);
    // One figure per chosen pair, in their order (compare_pairs fails whole or fills every pair).
    for (std::size_t i = 0; i < figure_files.size(); ++i) figure_files[i]->write(figure(pairs[i], o));
  } catch (const std::exception& error) {
    return output_failure(error);
  }
  return kDone;
}

}  // namespace uwsim::app
