#include "app/describe_command.h"

#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace uwsim::app {
namespace {

// Owns one HDF5 id; every early return below must close what it opened.
class Handle {
 public:
  Handle(hid_t id, herr_t (*closer)(hid_t)) : id_(id), closer_(closer) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (id_ >= 0) closer_(id_);
  }
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*closer_)(hid_t);
};

// HDF5 prints an error stack for every failed call, and odd files make many calls fail on
// purpose here. Restore the previous handler afterwards: the caller may want it back.
class SilenceHdf5Errors {
 public:
  SilenceHdf5Errors() {
    H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  SilenceHdf5Errors(const SilenceHdf5Errors&) = delete;
  SilenceHdf5Errors& operator=(const SilenceHdf5Errors&) = delete;
  ~SilenceHdf5Errors() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

// A scalar string attribute; nullopt if absent, "?" if present but not a readable string.
std::optional<std::string> string_attribute(hid_t object, const char* name) {
  if (H5Aexists(object, name) <= 0) return std::nullopt;
  const Handle attribute(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
  if (!attribute.ok()) return "?";
  const Handle type(H5Aget_type(attribute.get()), H5Tclose);
  const Handle space(H5Aget_space(attribute.get()), H5Sclose);
  if (!type.ok() || !space.ok() || H5Tget_class(type.get()) != H5T_STRING ||
      H5Sget_simple_extent_npoints(space.get()) != 1)
    return "?";
  // Reading with the file's own string type sidesteps charset conversions HDF5 refuses.
  if (H5Tis_variable_str(type.get()) > 0) {
    char* value = nullptr;
    if (H5Aread(attribute.get(), type.get(), &value) < 0) return "?";
    std::string result = value != nullptr ? value : "";
    H5free_memory(value);
    return result;
  }
  const std::size_t size = H5Tget_size(type.get());
  if (size == 0) return "?";
  std::string buffer(size, '\0');
  if (H5Aread(attribute.get(), type.get(), buffer.data()) < 0) return "?";
  buffer.resize(strnlen(buffer.c_str(), size));
  return buffer;
}

struct DatasetInfo {
  std::string path;  // absolute, e.g. /bodies/rov/position
  std::vector<hsize_t> dims;
  std::string units;
  std::string description;
  std::string columns;  // as stored: comma-separated, may be empty
};

// H5Lvisit callback. Only hard links: soft links would list a dataset twice and external
// links would open other files.
herr_t collect_dataset(hid_t group, const char* name, const H5L_info_t* info, void* data) {
  if (info->type != H5L_TYPE_HARD) return 0;
  const Handle object(H5Oopen(group, name, H5P_DEFAULT), H5Oclose);
  if (!object.ok() || H5Iget_type(object.get()) != H5I_DATASET) return 0;
  DatasetInfo dataset;
  dataset.path = std::string("/") + name;
  const Handle space(H5Dget_space(object.get()), H5Sclose);
  const int rank = space.ok() ? H5Sget_simple_extent_ndims(space.get()) : -1;
  if (rank > 0) {
    dataset.dims.resize(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), dataset.dims.data(), nullptr);
  }
  dataset.units = string_attribute(object.get(), "units").value_or("-");
  dataset.description = string_attribute(object.get(), "description").value_or("");
  dataset.columns = string_attribute(object.get(), "columns").value_or("");
  static_cast<std::vector<DatasetInfo>*>(data)->push_back(std::move(dataset));
  return 0;
}

std::string shape_text(const std::vector<hsize_t>& dims) {
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

void print_field(std::FILE* out, const char* label, const std::string& value) {
  std::fprintf(out, "%-12s%s\n", label, value.c_str());
}

void print_entities(std::FILE* out, const char* kind, const std::vector<std::string>& names) {
  std::string line = kind;
  line.append(" (").append(std::to_string(names.size())).append("):");
  for (std::size_t i = 0; i < names.size(); ++i) line.append(i == 0 ? " " : ", ").append(names[i]);
  std::fprintf(out, "%s\n", line.c_str());
}

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

// "1001, t = 0 … 20 s (every 0.02 s)"; the spacing is shown only if it is uniform.
std::string samples_text(const std::vector<double>& t, bool readable) {
  std::string text = std::to_string(t.size());
  if (t.empty()) return text;
  if (!readable) return text + ", t = ?";
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

int fail(const std::string& path, const char* what) {
  std::fprintf(stderr, "error: %s: %s\n", path.c_str(), what);
  return 2;
}

}  // namespace

int describe_result(const std::string& path, std::FILE* out) {
  const SilenceHdf5Errors silence;
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return fail(path, "no such file");
  if (std::filesystem::is_directory(path, error)) return fail(path, "is a directory, not a result file");
  if (H5Fis_hdf5(path.c_str()) <= 0) return fail(path, "not an HDF5 file");
  // Default file locking refuses a file that another process still has open for writing;
  // that is the safe answer, since its metadata may be half-written.
  const Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.ok()) return fail(path, "cannot open the HDF5 file (is sim still writing it?)");

  if (H5Lexists(file.get(), "time", H5P_DEFAULT) <= 0)
    return fail(path, "no /time dataset, so not a sim result file");
  const Handle time(H5Oopen(file.get(), "time", H5P_DEFAULT), H5Oclose);
  if (!time.ok() || H5Iget_type(time.get()) != H5I_DATASET) return fail(path, "/time is not a dataset");
  const Handle time_space(H5Dget_space(time.get()), H5Sclose);
  hsize_t samples = 0;
  if (!time_space.ok() || H5Sget_simple_extent_ndims(time_space.get()) != 1 ||
      H5Sget_simple_extent_dims(time_space.get(), &samples, nullptr) < 0)
    return fail(path, "/time is not a one-dimensional dataset");
  std::vector<double> t(samples);
  const Handle time_type(H5Dget_type(time.get()), H5Tclose);
  const H5T_class_t time_class = time_type.ok() ? H5Tget_class(time_type.get()) : H5T_NO_CLASS;
  const bool time_readable = (time_class == H5T_FLOAT || time_class == H5T_INTEGER) &&
                             (samples == 0 || H5Dread(time.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
                                                      H5P_DEFAULT, t.data()) >= 0);

  std::vector<DatasetInfo> datasets;
  H5Lvisit(file.get(), H5_INDEX_NAME, H5_ITER_INC, collect_dataset, &datasets);
  // /time is the axis every other dataset is sampled on, so it leads the list.
  std::stable_partition(datasets.begin(), datasets.end(), [](const DatasetInfo& d) { return d.path == "/time"; });

  const auto root = [&](const char* name) { return string_attribute(file.get(), name); };
  std::string scenario = root("scenario_name").value_or("(missing)");
  if (const auto source = root("scenario_file"); source && !source->empty()) scenario.append("  (from ").append(*source).append(")");
  std::string simulator = "sim ";
  simulator += root("simulator_version").value_or("(version missing)");

  print_field(out, "file:", path);
  print_field(out, "scenario:", scenario);
  print_field(out, "status:", root("status").value_or("(missing)"));
  if (const auto warnings = root("warnings"); warnings && !warnings->empty()) {
    std::string text = *warnings;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    print_field(out, "warnings:", text);
  }
  print_field(out, "simulator:", simulator);
  print_field(out, "command:", root("command_line").value_or("(missing)"));
  print_field(out, "samples:", samples_text(t, time_readable));
  print_entities(out, "bodies", entity_names(datasets, "/bodies/"));
  print_entities(out, "joints", entity_names(datasets, "/joints/"));
  if (const auto names = entity_names(datasets, "/thrusters/", "/thrust"); !names.empty()) print_entities(out, "thrusters", names);
  if (const auto connectors = entity_names(datasets, "/connectors/"); !connectors.empty()) print_entities(out, "connectors", connectors);
  if (const auto text = root("scenario"); !text)
    std::fprintf(out, "scenario text: none (no root attribute 'scenario')\n");
  else if (*text == "?")
    std::fprintf(out, "scenario text: ? (root attribute 'scenario' is not a string)\n");
  else
    std::fprintf(out, "scenario text: %zu lines (stored in the root attribute 'scenario')\n", line_count(*text));

  // Column widths fit the longest entry, capped so one odd path does not push everything off.
  std::size_t path_width = 0, shape_width = 0, units_width = 0;
  for (const DatasetInfo& d : datasets) {
    path_width = std::max(path_width, std::min<std::size_t>(display_width(d.path), 48));
    shape_width = std::max(shape_width, display_width(shape_text(d.dims)));
    units_width = std::max(units_width, std::min<std::size_t>(display_width(d.units), 16));
  }
  std::fprintf(out, "datasets:\n");
  for (const DatasetInfo& d : datasets) {
    std::string line = "  ";
    line += padded(d.path, path_width + 2) + padded(shape_text(d.dims), shape_width + 2) +
            padded(d.units, units_width + 2) + d.description;
    if (!d.columns.empty()) line.append("  ").append(columns_text(d.columns));
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::fprintf(out, "%s\n", line.c_str());
  }
  return 0;
}

}  // namespace uwsim::app
