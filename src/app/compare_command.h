// `sim compare A B`: how far two runs, or a run and measurements, are apart, series by series
// (metrics in analysis/compare_metrics.h, files in app/series_files.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace uwsim::app {

struct CompareOptions {
  std::string a, b;                   // result file; result file or CSV
  std::vector<std::string> maps;      // "A_NAME=B_NAME"
  std::vector<std::string> series;    // A's series to compare (patterns with '*'); empty: all common
  std::string time_column = "time";   // B as CSV
  std::string units_file;             // B as CSV: `column: unit` lines
  std::optional<double> dtw_window;   // s
  double max_shift = 0.0;             // s; 0: no shift search
  std::string format = "table";       // table, csv, json
  std::string output;                 // file; empty: standard output
  std::string plot_dir;               // empty: no figures
  std::string command_line;           // for the outputs' locks (output/output_file.h)
};

// Returns the exit code (exit_codes.h); problems go to stderr as file:line:column: error: ….
int compare_files(const CompareOptions& options);

}  // namespace uwsim::app
