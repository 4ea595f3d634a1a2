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
  std::string map_file;               // `A_NAME = B_NAME` lines (app/series_files.h, read_series_map)
  std::vector<std::string> series;    // A's series to compare, mapped or not (patterns with '*'); empty: all
  std::optional<double> from, to;     // s, finite: only A's samples within [from, to] are compared
  std::string time_column = "time";   // B as CSV
  std::string units_file;             // B as CSV: `column: unit` lines
  bool in_a_units = false;            // B as CSV: columns without a unit are in A's, deliberately (no warning)
  std::optional<double> dtw_window;   // s, finite, ≥ 0
  double max_shift = 0.0;             // s, finite, ≥ 0; 0: no shift search
  std::string format = "table";       // table, csv, json
  std::string output;                 // file; empty: standard output
  std::string plot_dir;               // empty: no figures
  std::string command_line;           // for the outputs' locks (output/output_file.h)
};

// Pairs: each --map and --map-file line (an A series paired twice is an error, as is a name
// either file lacks, at the map file's line and column), then B's series of A's names; all of
// them only where A's name matches --series, if given.
// A CSV column without a unit, compared with an A series that has one, is taken in A's unit,
// and these columns are named in one warning unless in_a_units says so deliberately.
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
