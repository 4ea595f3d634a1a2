#include "app/series_files.h"

#include <hdf5.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "app/hdf5_read.h"
#include "scenario/read_csv.h"
#include "scenario/yaml_reader.h"

namespace uwsim::app {

namespace {

using scenario::Diagnostic;

bool is_hdf5(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char signature[8] = {};
  in.read(signature, 8);
  return in.gcount() == 8 && std::memcmp(signature, "\x89HDF\r\n\x1a\n", 8) == 0;
}

// A string attribute, or "" where it is absent or not a readable scalar string
// (hdf5_read.h's string_attribute, which says "?" for the latter).
std::string text_attribute(hid_t object, const char* name) {
  const std::optional<std::string> value = string_attribute(object, name);
  return value && *value != "?" ? *value : "";
}

std::vector<std::string> split(const std::string& text, const std::string& separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find(separator, begin);
    std::string part = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    const auto first = part.find_first_not_of(' '), last = part.find_last_not_of(' ');
    parts.push_back(first == std::string::npos ? "" : part.substr(first, last - first + 1));
    if (end == std::string::npos) return parts;
    begin = end + separator.size();
  }
}

struct Visit {
  std::vector<std::string> datasets;
};

herr_t collect(hid_t group, const char* name, const H5L_info_t* info, void* data) {
  if (info->type != H5L_TYPE_HARD) return 0;
  const Handle object(H5Oopen(group, name, H5P_DEFAULT), H5Oclose);
  if (object.ok() && H5Iget_type(object.get()) == H5I_DATASET) static_cast<Visit*>(data)->datasets.push_back(name);
  return 0;
}

SeriesFile read_result(const std::string& path) {
  const SilenceHdf5Errors quiet;
  const Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.ok()) throw InputError({{path, 0, 0, "cannot open it as an HDF5 result file"}});
  SeriesFile out;
  out.path = path;
  out.is_result = true;
  out.scenario_yaml = text_attribute(file.get(), "scenario");
  out.status = text_attribute(file.get(), "status");
  const auto read = [&](const std::string& name, std::vector<hsize_t>& dims) -> std::vector<double> {
    const Handle set(H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
    const Handle space(set.ok() ? H5Dget_space(set.get()) : -1, H5Sclose);
    if (!space.ok()) return {};
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 1 || rank > 2) return {};
    dims.assign(static_cast<std::size_t>(rank), 0);
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    const Handle type(H5Dget_type(set.get()), H5Tclose);
    if (!type.ok() || H5Tget_class(type.get()) != H5T_FLOAT) return {};
    std::vector<double> values(static_cast<std::size_t>(dims[0] * (rank == 2 ? dims[1] : 1)));
    if (!values.empty() && H5Dread(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) return {};
    return values;
  };
  std::vector<hsize_t> dims;
  const std::vector<double> time = read("/time", dims);
  if (time.empty() || dims.size() != 1) throw InputError({{path, 0, 0, "not a result file of sim: no /time dataset"}});
  Visit visit;
  H5Lvisit(file.get(), H5_INDEX_NAME, H5_ITER_INC, collect, &visit);
  for (const std::string& name : visit.datasets) {
    if (name == "time") continue;
    const std::vector<double> values = read("/" + name, dims);
    if (values.empty() || dims[0] != time.size()) continue;
    const Handle set(H5Dopen2(file.get(), ("/" + name).c_str(), H5P_DEFAULT), H5Dclose);
    const std::vector<std::string> units = split(text_attribute(set.get(), "units"), ", ");
    const std::size_t columns = dims.size() == 2 ? dims[1] : 1;
    std::vector<std::string> column_names = split(text_attribute(set.get(), "columns"), ",");
    if (column_names.size() != columns) {
      column_names.clear();
      for (std::size_t c = 0; c < columns; ++c) column_names.push_back(std::to_string(c));
    }
    for (std::size_t c = 0; c < columns; ++c) {
      analysis::Series s;
      s.name = dims.size() == 2 ? name + "/" + column_names[c] : name;
      s.units = columns % units.size() == 0 ? units[c / (columns / units.size())] : "";
      if (s.units == "1" || s.units == "-") s.units.clear();
      s.time = time;
      s.values.resize(time.size());
      for (std::size_t k = 0; k < time.size(); ++k) s.values[k] = values[k * columns + c];
      out.series.push_back(std::move(s));
    }
  }
  return out;
}

// "name [unit]" → name, unit.
std::pair<std::string, std::string> name_and_unit(const std::string& header) {
  const auto open = header.rfind('[');
  if (header.empty() || header.back() != ']' || open == std::string::npos) return {header, ""};
  std::string name = header.substr(0, open);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  return {name, header.substr(open + 1, header.size() - open - 2)};
}

SeriesFile read_csv(const std::string& path, const CsvSettings& settings) {
  std::vector<Diagnostic> problems;
  const auto csv = scenario::read_csv_file(path, problems);
  if (!csv) throw InputError(problems);
  SeriesFile out;
  out.path = path;
  out.header_line = csv->header_line;
  std::vector<std::string> names, units;
  for (const std::string& h : csv->header) {
    auto [name, unit] = name_and_unit(h);
    names.push_back(name);
    units.push_back(unit);
  }
  if (!settings.units_file.empty()) {
    YAML::Node map;
    try {
      map = YAML::LoadFile(settings.units_file);
    } catch (const YAML::Exception& e) {
      throw InputError({{settings.units_file, e.mark.line + 1, e.mark.column + 1, "expected `column: unit` lines (" + e.msg + ")"}});
    }
    if (!map.IsMap()) throw InputError({{settings.units_file, 1, 1, "expected `column: unit` lines"}});
    for (const auto& entry : map) {
      const std::string column = entry.first.as<std::string>("");
      const auto it = std::find(names.begin(), names.end(), column);
      if (it == names.end() || !entry.second.IsScalar()) {
        problems.push_back({settings.units_file, entry.first.Mark().line + 1, entry.first.Mark().column + 1,
                            it == names.end() ? "no column '" + column + "' in " + path : "expected a unit after '" + column + ":'"});
        continue;
      }
      units[static_cast<std::size_t>(it - names.begin())] = entry.second.Scalar();
    }
  }
  const auto time_it = std::find(names.begin(), names.end(), settings.time_column);
  if (time_it == names.end()) {
    std::string message = "no time column '" + settings.time_column + "' (columns:";
    for (const std::string& n : names) message += " '" + n + "'";
    message += "); name it with --time-column";
    if (auto guess = scenario::closest_match(settings.time_column, names)) message += "; did you mean '" + *guess + "'?";
    problems.push_back({path, csv->header_line, 1, message});
    throw InputError(problems);
  }
  const auto t_index = static_cast<std::size_t>(time_it - names.begin());
  const auto time = scenario::csv_numbers(*csv, t_index, problems);
  if (time) {
    std::size_t reported = 0;  // the first few: the rest follow from them
    for (std::size_t k = 1; k < time->size() && reported < scenario::kMaxCsvProblems; ++k) {
      if ((*time)[k] > (*time)[k - 1]) continue;
      ++reported;
      const auto& cell = csv->cell(k, t_index);
      problems.push_back({path, csv->rows[k].line, csv->column_of(k, t_index),
                          "times must increase: " + std::string(csv->text_of(cell)) + " s follows " +
                              std::string(csv->text_of(csv->cell(k - 1, t_index))) + " s (line " +
                              std::to_string(csv->rows[k - 1].line) + ")"});
    }
  }
  for (std::size_t c = 0; c < names.size(); ++c) {
    if (c == t_index) continue;
    const auto values = scenario::csv_numbers(*csv, c, problems);
    if (!values || !time) continue;
    out.series.push_back({names[c], units[c], *time, *values});
  }
  if (!problems.empty()) throw InputError(problems);
  return out;
}

}  // namespace

InputError::InputError(std::vector<scenario::Diagnostic> diagnostics)
    : std::runtime_error(diagnostics.empty() ? "bad input" : scenario::format(diagnostics.front())),
      diagnostics_(std::move(diagnostics)) {}

const analysis::Series* SeriesFile::find(const std::string& name) const {
  for (const analysis::Series& s : series)
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<std::string> SeriesFile::names() const {
  std::vector<std::string> out;
  for (const analysis::Series& s : series) out.push_back(s.name);
  return out;
}

SeriesFile read_series_file(const std::string& path, const CsvSettings& csv) {
  if (!std::ifstream(path)) throw InputError({{path, 0, 0, "cannot open the file"}});
  return is_hdf5(path) ? read_result(path) : read_csv(path, csv);
}

}  // namespace uwsim::app
