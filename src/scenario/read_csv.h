// CSV files of logged commands, for `inputs` of type csv: a header line of column names, then
// one line per sample, cells separated by ','. Blank lines and lines starting with '#' are
// skipped; spaces around cells and double quotes around header names are ignored. A regular
// file of at most 16 MiB, lines ending in LF, CR LF or CR, optionally a UTF-8 byte order mark.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenario/load_scenario.h"

namespace uwsim::scenario {

struct CsvFile {
  struct Cell {
    std::string text;
    int column = 0;  // 1-based character column of the cell's first character
  };
  struct Row {
    int line = 0;  // 1-based
    std::vector<Cell> cells;
  };
  std::string path;
  std::vector<std::string> header;
  int header_line = 0;
  std::vector<Row> rows;
};

// Reads and splits the file; problems (unreadable, no header, a row with another number of
// cells than the header) are appended to `problems` at their line and column (line 0: the
// file as a whole, the message saying why it cannot be read).
std::optional<CsvFile> read_csv_file(const std::string& path, std::vector<Diagnostic>& problems);

// The numbers of column `index` (one per row); a cell that is not a number is reported.
std::optional<std::vector<double>> csv_numbers(const CsvFile& csv, std::size_t index,
                                               std::vector<Diagnostic>& problems);

}  // namespace uwsim::scenario
