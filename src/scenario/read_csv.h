// CSV files of logged commands, for `inputs` of type csv: a header line of column names, then
// one line per sample, cells separated by ','. Blank lines and lines starting with '#' are
// skipped; spaces around cells and double quotes around header names are ignored. A regular
// file of at most 16 MiB and kMaxCsvCells cells, lines ending in LF, CR LF or CR, optionally a
// UTF-8 byte order mark.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/load_scenario.h"

namespace uwsim::scenario {

// The file's text is kept once; cells are places in it (8 bytes a cell, whatever its length),
// so a file of short cells costs little more than its text.
struct CsvFile {
  struct Cell {
    std::uint32_t begin = 0, size = 0;  // in `text`, spaces trimmed
  };
  struct Row {
    int line = 0;             // 1-based
    std::uint32_t start = 0;  // where its line starts in `text`
  };
  std::string path;
  std::vector<std::string> header;
  int header_line = 0;
  std::string text;
  std::vector<Row> rows;
  std::vector<Cell> cells;  // row by row, header.size() to a row

  const Cell& cell(std::size_t row, std::size_t index) const { return cells[row * header.size() + index]; }
  std::string_view text_of(const Cell& c) const { return std::string_view(text).substr(c.begin, c.size); }
  // The 1-based character column of a cell's first character.
  int column_of(std::size_t row, std::size_t index) const {
    return static_cast<int>(cell(row, index).begin - rows[row].start) + 1;
  }
};

// Beyond the 16 MiB of text: at most this many cells (rows × columns), and columns. Ten minutes
// at 100 Hz with 20 columns are 1.2 million cells (about 12 MB of text). The worst file within
// both bounds (1.5 million rows of one column, used as time and value) loads in about 0.4 s of
// CPU and 72 MB (tools/check_hostile_input).
inline constexpr std::size_t kMaxCsvCells = 1'500'000;
inline constexpr std::size_t kMaxCsvColumns = 10'000;
// Bad cells or rows reported per file (or column) before a last line counts the rest.
inline constexpr std::size_t kMaxCsvProblems = 20;

// Reads and splits the file; problems (unreadable, no header, a row with another number of
// cells than the header) are appended to `problems` at their line and column (line 0: the
// file as a whole, the message saying why it cannot be read).
std::optional<CsvFile> read_csv_file(const std::string& path, std::vector<Diagnostic>& problems);

// The numbers of column `index` (one per row); a cell that is not a number is reported.
std::optional<std::vector<double>> csv_numbers(const CsvFile& csv, std::size_t index,
                                               std::vector<Diagnostic>& problems);

}  // namespace uwsim::scenario
