// The files `sim compare` and `sim identify` read series from: result files (HDF5, as `sim`
// writes them) and CSV files of measurements.
//
// Series names: a result file's dataset path without the leading '/' — a 1-D dataset is one
// series (joints/arm/joint1/position), each column of an N×k dataset another, named by its
// `columns` attribute (bodies/rov/position/north, bodies/rov/euler/yaw). Units come from the
// `units` attribute; "m/s, rad/s" over 6 columns gives the first three m/s and the last rad/s.
// A CSV file (scenario/read_csv.h: a header line, ',' between cells, '#' comments) has a time
// column (`time` unless told) and one series per other column, named by its header. A header
// cell "name [unit]" gives the unit; so does a side file of `column: unit` lines (YAML).
// Problems — a missing column, times that do not increase, a cell that is not a finite number
// (NaN, inf, empty) — are reported at the CSV file's line and column.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/series.h"
#include "scenario/load_scenario.h"

namespace uwsim::app {

// Every problem found in the input files, each at its file, line and column.
class InputError : public std::runtime_error {
 public:
  explicit InputError(std::vector<scenario::Diagnostic> diagnostics);
  const std::vector<scenario::Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<scenario::Diagnostic> diagnostics_;
};

struct SeriesFile {
  std::string path;
  bool is_result = false;
  std::string scenario_yaml;  // result files: the resolved scenario stored in them
  std::string status;         // result files: completed, interrupted, failed: …
  std::vector<analysis::Series> series;
  int header_line = 0;        // CSV: where the column names are (for diagnostics)

  const analysis::Series* find(const std::string& name) const;
  std::vector<std::string> names() const;
};

struct CsvSettings {
  std::string time_column = "time";
  std::string units_file;  // optional side file of `column: unit` lines
};

// A result file is recognised by the HDF5 signature, anything else is read as CSV.
// Throws InputError.
SeriesFile read_series_file(const std::string& path, const CsvSettings& csv = {});

}  // namespace uwsim::app
