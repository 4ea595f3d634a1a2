// `sim compare A B`: how far two runs, or a run and measurements, are apart, series by series
// (metrics in analysis/compare_metrics.h, files in app/series_files.h).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace uwsim::app {

struct CompareOptions {
  std::string a, b;                   // result file; result file or CSV
  std::vector<std::string> maps;      // "A_NAME=B_NAME"
  std::vector<std::string> series;    // A's series to compare (patterns with '*'); empty: all common
  std::string time_column = "time";   // B as CSV
  std::string units_file;             // B as CSV: `column: unit` lines
  std::optional<double> dtw_window;   // s, finite, ≥ 0
  double max_shift = 0.0;             // s, finite, ≥ 0; 0: no shift search
  std::string format = "table";       // table, csv, json
  std::string output;                 // file; empty: standard output
  std::string plot_dir;               // empty: no figures
  std::string command_line;           // for the outputs' locks (output/output_file.h)
};

// Returns the exit code (exit_codes.h); problems go to stderr as file:line:column: error: ….
// A series that cannot be read (app/series_files.h's `unreadable`) but would be compared is an
// error (exit 2, nothing written): the comparison would be incomplete. The others are listed.
int compare_files(const CompareOptions& options);

// B's unit → A's: the only conversions offered (B in another unit than A's is an error).
struct UnitConversion {
  const char *from, *to;
  double factor;
};
std::span<const UnitConversion> unit_conversions();
std::string unit_conversion_list();  // "deg → rad, deg/s → rad/s, …", as messages and README give it

// The figure of a series under --plot: DIR/<name>.svg with the name escaped so that no two
// names share a file — letters, digits, '_' and '-' kept, '/' written '.', every other byte
// (also '.' and '%') as %XX (its hex value): bodies/rov/euler/yaw → bodies.rov.euler.yaw.svg,
// a_b → a_b.svg, a/b → a.b.svg, a.b → a%2Eb.svg.
std::string plot_file_name(const std::string& series);

}  // namespace uwsim::app
