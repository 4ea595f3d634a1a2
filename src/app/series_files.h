// The files `sim compare` and `sim identify` read series from: result files (HDF5, as `sim`
// writes them; read through app/result_file.h, which checks them first) and CSV files of
// measurements.
//
// Series names: a result file's dataset path without the leading '/' — a 1-D dataset is one
// series (joints/arm/joint1/position), each column of an N×k dataset another, named by its
// `columns` attribute (bodies/rov/position/north, bodies/rov/euler/yaw). Units come from the
// `units` attribute; "m/s, rad/s" over 6 columns gives the first three m/s and the last rad/s.
// A dataset that is no series (another row count than /time, no numbers, three dimensions,
// a name given twice) is listed in `unreadable`, with the reason, for the caller to report.
// Opening a result lists its series; their values are read by load_series, for the series a
// command needs, at most kMaxSeriesValues of them from one file.
//
// A CSV file (scenario/read_csv.h: a header line, ',' between cells, '#' comments) has a time
// column (`time` unless told) and one series per other column, named by its header. A header
// cell "name [unit]" gives the unit; so does a side file of `column: unit` lines. The time
// column's unit is one of time_units() (s, ms, min, h; none: s) and its values are converted
// to seconds. Problems — a missing column, a name given twice, times that do not increase, a
// cell that is not a finite number (NaN, inf, empty), a time unit not offered — are reported
// at the CSV file's line and column.
#pragma once

#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/series.h"
#include "scenario/load_scenario.h"

namespace uwsim::app {

class ResultFile;

// Values of series read from one result file in all (8 MiB of doubles; each series also
// keeps its copy of the times, so twice that in memory, and compare works on copies of a
// pair's samples): a series of a million samples (5.8 h at 50 Hz), or 34 series of a
// 10-minute run at 50 Hz. Compare holds two files' worth, within 100 MB.
inline constexpr std::size_t kMaxSeriesValues = std::size_t{1} << 20;
// Series one result file may list (columns of all its datasets).
inline constexpr std::size_t kMaxSeriesPerFile = std::size_t{1} << 17;

// Every problem found in the input files, each at its file, line and column.
class InputError : public std::runtime_error {
 public:
  explicit InputError(std::vector<scenario::Diagnostic> diagnostics);
  const std::vector<scenario::Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<scenario::Diagnostic> diagnostics_;
};

// A dataset of a result file that gives no series, and why.
struct UnreadableSeries {
  std::string name;  // the dataset path without '/', or the series name given twice
  std::string why;
};

struct SeriesFile {
  std::string path;
  bool is_result = false;
  std::string status;         // result files: completed, interrupted, failed: …
  std::vector<analysis::Series> series;   // result files: time and values once loaded
  std::vector<UnreadableSeries> unreadable;
  int header_line = 0;        // CSV: where the column names are (for diagnostics)

  const analysis::Series* find(const std::string& name) const;
  // The index of the series of that name in `series`, or −1.
  long index_of(const std::string& name) const;
  std::vector<std::string> names() const;

  // Result files: where each series' values are (dataset path, column) and the open file.
  struct Source {
    std::string dataset;
    std::size_t column = 0;
  };
  std::vector<Source> sources;
  std::shared_ptr<ResultFile> result;
  std::vector<bool> loaded;
  std::map<std::string, std::size_t, std::less<>> index;
};

struct CsvSettings {
  std::string time_column = "time";
  std::string units_file;  // optional side file of `column: unit` lines
};

// The units a CSV time column may be in: seconds per unit as numerator / denominator, so
// that milliseconds are divided by 1000 (exact where 1e-3 would round).
struct TimeUnit {
  const char* name;
  double numerator, denominator;
};
std::span<const TimeUnit> time_units();
std::string time_unit_list();  // "s, ms, min, h"

// A pair of series to compare, A's name and B's, and where it was given: a --map-file's line and
// the columns the names start at (file empty: a --map argument).
struct NamePair {
  std::string a, b;
  std::string file;
  int line = 0, a_column = 0, b_column = 0;
};

// A --map-file: one `A_NAME = B_NAME` a line, split at the first '=' (so A's name holds none,
// as with --map), blanks around each name dropped; blank lines and lines starting with '#' are
// skipped, and " #" (a blank, then '#') starts a comment. Read as the --units file is
// (regular, at most 1 MiB, line by line). Throws InputError: unreadable, a line of another form.
std::vector<NamePair> read_series_map(const std::string& path);

// A result file is recognised by the HDF5 signature, anything else is read as CSV; a FIFO or
// a device is refused. A CSV file is read whole; of a result file, only the list of its
// series. Throws InputError.
SeriesFile open_series_file(const std::string& path, const CsvSettings& csv = {});
// Reads the values of these series (indices into file.series) of a result file; nothing to
// do for a CSV file. Throws InputError: too many values, a value that is not finite.
void load_series(SeriesFile& file, const std::vector<std::size_t>& wanted);
// open_series_file, then load_series of every series.
SeriesFile read_series_file(const std::string& path, const CsvSettings& csv = {});

}  // namespace uwsim::app
