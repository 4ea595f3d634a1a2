#include "scenario/read_csv.h"

#include <charconv>
#include <cmath>
#include <sstream>
#include <string_view>

#include "scenario/read_file.h"

namespace uwsim::scenario {

namespace {

// Splits a line at ',' with each cell's 1-based column, spaces trimmed.
std::vector<CsvFile::Cell> split(const std::string& line) {
  std::vector<CsvFile::Cell> cells;
  std::size_t begin = 0;
  while (true) {
    std::size_t end = line.find(',', begin);
    if (end == std::string::npos) end = line.size();
    std::size_t first = begin, last = end;
    while (first < last && (line[first] == ' ' || line[first] == '\t')) ++first;
    while (last > first && (line[last - 1] == ' ' || line[last - 1] == '\t')) --last;
    cells.push_back({line.substr(first, last - first), static_cast<int>(first) + 1});
    if (end == line.size()) break;
    begin = end + 1;
  }
  return cells;
}

std::optional<double> number_of(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const char* first = text.data() + (text.front() == '+' ? 1 : 0);
  double x = 0.0;
  const auto [end, ec] = std::from_chars(first, text.data() + text.size(), x);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(x)) return std::nullopt;
  return x;
}

}  // namespace

std::optional<CsvFile> read_csv_file(const std::string& path, std::vector<Diagnostic>& problems) {
  std::string why;
  std::optional<std::string> text = read_input_file(path, why);
  if (!text) {
    problems.push_back({path, 0, 0, why});
    return std::nullopt;
  }
  // A UTF-8 byte order mark, as spreadsheet programs write, is not part of the first name.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (std::string_view(*text).substr(0, kBom.size()) == kBom) text->erase(0, kBom.size());
  normalize_line_ends(*text);
  std::istringstream in(*text);
  CsvFile csv;
  csv.path = path;
  std::string line;
  bool ok = true;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t") == std::string::npos || line.front() == '#') continue;
    std::vector<CsvFile::Cell> cells = split(line);
    if (csv.header.empty()) {
      csv.header_line = number;
      for (CsvFile::Cell& c : cells) {
        std::string name = c.text;
        if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
        csv.header.push_back(name);
      }
      continue;
    }
    if (cells.size() != csv.header.size()) {
      problems.push_back({path, number, 1,
                          "expected " + std::to_string(csv.header.size()) + " cells as in the header (line " +
                              std::to_string(csv.header_line) + "), got " + std::to_string(cells.size())});
      ok = false;
      continue;
    }
    csv.rows.push_back({number, std::move(cells)});
  }
  if (csv.header.empty()) {
    problems.push_back({path, 1, 1, "expected a header line naming the columns; the file has none"});
    return std::nullopt;
  }
  if (csv.rows.empty() && ok) {
    problems.push_back({path, csv.header_line, 1, "expected at least one line of samples after the header"});
    return std::nullopt;
  }
  if (!ok) return std::nullopt;
  return csv;
}

std::optional<std::vector<double>> csv_numbers(const CsvFile& csv, std::size_t index,
                                               std::vector<Diagnostic>& problems) {
  std::vector<double> values;
  bool ok = true;
  for (const CsvFile::Row& row : csv.rows) {
    const CsvFile::Cell& cell = row.cells[index];
    if (const auto x = number_of(cell.text)) {
      values.push_back(*x);
    } else {
      std::string message = "column '";
      message += csv.header[index];
      message += "': expected a number, got '";
      message += cell.text;
      message += '\'';
      problems.push_back({csv.path, row.line, cell.column, message});
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return values;
}

}  // namespace uwsim::scenario
