#include "app/describe_command.h"

#include "app/result_file.h"
#include "scenario/read_file.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace uwsim::app {
namespace {

struct DatasetInfo {
  std::string path;  // absolute, e.g. /bodies/rov/position
  std::string shape;
  std::string units;
  std::string description;
  std::string columns;  // as stored: comma-separated, may be empty
};

// An attribute as describe shows it: its text, "?" if it is not a readable string, its size if
// it is longer than describe shows.
std::string shown(const TextAttribute& a, const std::string& absent) {
  switch (a.state) {
    case TextAttribute::State::absent: return absent;
    case TextAttribute::State::unreadable: return "?";
    case TextAttribute::State::too_long: {
      std::string text = "(";  // appended, not "(" + …: GCC 12 warns falsely (-Wrestrict) on that
      text += std::to_string(a.bytes);
      return text + " bytes: not shown)";
    }
    case TextAttribute::State::text: break;
  }
  return a.text;
}

std::string shape_text(const ResultDataset& d) {
  if (d.is_virtual) return "virtual";
  const std::vector<hsize_t>& dims = d.dims;
  if (dims.empty()) return "scalar";
  std::string text;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += " × ";
    text += std::to_string(dims[i]);
  }
  return text;
}

// "u,v,w" → "[u, v, w]".
std::string columns_text(std::string_view stored) {
  std::string text = "[";
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = std::min(stored.find(',', start), stored.size());
    std::string_view item = stored.substr(start, comma - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (start > 0) text += ", ";
    text += item;
    if (comma == stored.size()) break;
    start = comma + 1;
  }
  return text + "]";
}

// Terminal columns of UTF-8 text ("×" is two bytes but one column), for padding.
std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string padded(const std::string& text, std::size_t width) {
  const std::size_t used = display_width(text);
  return text + std::string(used < width ? width - used : 0, ' ');
}

// Names of the groups below `prefix` (e.g. "/bodies/") that directly hold a `position`
// dataset. The walk is alphabetical (HDF5's name index; sim does not track creation order).
std::vector<std::string> entity_names(const std::vector<DatasetInfo>& datasets, std::string_view prefix,
                                      std::string_view kLeaf = "/position") {
  std::vector<std::string> names;
  for (const DatasetInfo& d : datasets) {
    const std::string_view path = d.path;
    if (path.size() > prefix.size() + kLeaf.size() && path.starts_with(prefix) && path.ends_with(kLeaf))
      names.emplace_back(path.substr(prefix.size(), path.size() - prefix.size() - kLeaf.size()));
  }
  return names;
}

// The sensors under /sensors/ (a sensor's name holds no '/'), each with its kind, the `kind`
// attribute of its datasets: "depth (pressure)".
std::vector<std::string> sensor_names(ResultFile& file, const std::vector<DatasetInfo>& datasets) {
  constexpr std::string_view prefix = "/sensors/";
  std::vector<std::string> names;
  std::string last;
  for (const DatasetInfo& d : datasets) {
    const std::string_view path = d.path;
    if (!path.starts_with(prefix)) continue;
    const std::size_t slash = path.find('/', prefix.size());
    if (slash == std::string_view::npos || slash == prefix.size()) continue;
    const std::string name(path.substr(prefix.size(), slash - prefix.size()));
    if (name == last) continue;
    last = name;
    const std::string kind = shown(file.attribute(d.path, "kind", kMaxLabelBytes), "");
    names.push_back(kind.empty() ? name : name + " (" + kind + ")");
  }
  return names;
}

void print_field(std::FILE* out, const char* label, const std::string& value) {
  std::fprintf(out, "%-12s%s\n", label, value.c_str());
}

void print_entities(std::FILE* out, const char* kind, const std::vector<std::string>& names, std::size_t shown = SIZE_MAX) {
  std::string line = kind;
  line.append(" (").append(std::to_string(names.size())).append("):");
  for (std::size_t i = 0; i < std::min(names.size(), shown); ++i) line.append(i == 0 ? " " : ", ").append(names[i]);
  if (names.size() > shown) line.append(" and ").append(std::to_string(names.size() - shown)).append(" more");
  std::fprintf(out, "%s\n", line.c_str());
}

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

// "1001, t = 0 … 20 s (every 0.02 s)"; the spacing is shown only if it is uniform. The
// times are shown only where the reader reads them (`why` says why not).
std::string samples_text(std::uint64_t samples, const std::vector<double>& t, const std::string& why) {
  std::string text = std::to_string(samples);
  if (samples == 0) return text;
  if (!why.empty()) return text + ", t = ? (" + why + ")";
  if (t.size() == 1) return text + ", t = " + number(t.front()) + " s";
  text.append(", t = ").append(number(t.front())).append(" … ").append(number(t.back())).append(" s");
  const double step = (t.back() - t.front()) / static_cast<double>(t.size() - 1);
  bool uniform = std::isfinite(step) && step > 0.0;
  for (std::size_t i = 1; uniform && i < t.size(); ++i)
    uniform = std::abs((t[i] - t[i - 1]) - step) <= 1e-9 * step;
  return uniform ? text.append(" (every ").append(number(step)).append(" s)") : text.append(" (irregular)");
}

std::size_t line_count(const std::string& text) {
  std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  if (!text.empty() && text.back() != '\n') ++lines;
  return lines;
}

int fail(const std::string& path, const std::string& what) {
  std::fprintf(stderr, "error: %s: %s\n", path.c_str(), what.c_str());
  return 2;
}

}  // namespace

int describe_result(const std::string& path, std::FILE* out) {
  // Lenient: describe shows an odd file rather than refusing it, but reads no value it would
  // have to trust a claimed size for, and follows no link out of the file.
  std::unique_ptr<ResultFile> file;
  try {
    file = std::make_unique<ResultFile>(path, ResultFile::Checks::lenient);
  } catch (const ResultError& e) {
    return fail(path, e.problem());
  }
  const ResultDataset* time = file->find("/time");
  if (time == nullptr) return fail(path, "no /time dataset, so not a sim result file");
  if (time->is_virtual) return fail(path, "/time " + file->read_problem(*time));
  if (time->dims.size() != 1) return fail(path, "/time is not a one-dimensional dataset");
  std::vector<double> t;
  std::string why_not;
  try {
    t = file->take_time();  // moved, not copied: up to 32 MiB
  } catch (const ResultError& e) {
    why_not = e.problem();
  }

  std::vector<DatasetInfo> datasets;
  for (const ResultDataset& d : file->datasets()) {
    std::string description = shown(file->attribute(d.path, "description", kMaxLabelBytes), "");
    if (d.is_virtual || d.external_storage)
      description += std::string(description.empty() ? "" : "  ") + "(" + file->read_problem(d) + ")";
    datasets.push_back({d.path, shape_text(d), shown(file->attribute(d.path, "units", kMaxLabelBytes), "-"), description,
                        shown(file->attribute(d.path, "columns", kMaxLabelBytes), "")});
  }
  // /time is the axis every other dataset is sampled on, so it leads the list.
  std::stable_partition(datasets.begin(), datasets.end(), [](const DatasetInfo& d) { return d.path == "/time"; });

  const auto root = [&](const char* name, const std::string& absent) { return shown(file->attribute("/", name, kMaxLabelBytes), absent); };
  std::string scenario = root("scenario_name", "(missing)");
  if (const std::string source = root("scenario_file", ""); !source.empty()) scenario.append("  (from ").append(source).append(")");
  const std::string simulator = "sim " + root("simulator_version", "(version missing)");

  print_field(out, "file:", path);
  print_field(out, "scenario:", scenario);
  print_field(out, "status:", root("status", "(missing)"));
  if (const std::string warnings = root("warnings", ""); !warnings.empty()) {
    std::string text = warnings;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    print_field(out, "warnings:", text);
  }
  print_field(out, "simulator:", simulator);
  print_field(out, "command:", root("command_line", "(missing)"));
  print_field(out, "samples:", samples_text(time->dims[0], t, why_not));
  print_entities(out, "bodies", entity_names(datasets, "/bodies/"));
  print_entities(out, "joints", entity_names(datasets, "/joints/"));
  if (const auto names = entity_names(datasets, "/thrusters/", "/thrust"); !names.empty()) print_entities(out, "thrusters", names);
  if (const auto connectors = entity_names(datasets, "/connectors/", "/wrench"); !connectors.empty()) print_entities(out, "connectors", connectors);
  if (const auto sensors = sensor_names(*file, datasets); !sensors.empty()) print_entities(out, "sensors", sensors);
  if (const TextAttribute text = file->attribute("/", "scenario", scenario::kMaxYamlBytes); text.state == TextAttribute::State::absent)
    std::fprintf(out, "scenario text: none (no root attribute 'scenario')\n");
  else if (text.state == TextAttribute::State::unreadable)
    std::fprintf(out, "scenario text: ? (root attribute 'scenario' is not a string)\n");
  else if (text.state == TextAttribute::State::too_long)
    std::fprintf(out, "scenario text: %llu bytes (root attribute 'scenario'), more than a scenario may hold (%zu MiB)\n",
                 static_cast<unsigned long long>(text.bytes), scenario::kMaxYamlBytes >> 20);
  else
    std::fprintf(out, "scenario text: %zu lines (stored in the root attribute 'scenario')\n", line_count(text.text));
  if (!file->links().empty()) {
    std::vector<std::string> links;
    for (const ResultLink& link : file->links()) links.push_back(link.path + " (" + link.kind + ")");
    print_entities(out, "links, not followed", links, 20);
  }

  // Column widths fit the longest entry, capped so one odd path does not push everything off.
  std::size_t path_width = 0, shape_width = 0, units_width = 0;
  for (const DatasetInfo& d : datasets) {
    path_width = std::max(path_width, std::min<std::size_t>(display_width(d.path), 48));
    shape_width = std::max(shape_width, display_width(d.shape));
    units_width = std::max(units_width, std::min<std::size_t>(display_width(d.units), 16));
  }
  std::fprintf(out, "datasets:%s\n", file->truncated() ? (" (the first of a file with more than " + std::to_string(kMaxResultLinks) +
                                                              " links: describe walks no further)").c_str() : "");
  for (const DatasetInfo& d : datasets) {
    std::string line = "  ";
    line += padded(d.path, path_width + 2) + padded(d.shape, shape_width + 2) +
            padded(d.units, units_width + 2) + d.description;
    if (!d.columns.empty()) line.append("  ").append(columns_text(d.columns));
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::fprintf(out, "%s\n", line.c_str());
  }
  return 0;
}

}  // namespace uwsim::app
