#include "scenario/read_csv.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>

#include "scenario/printable.h"
#include "scenario/read_file.h"

namespace uwsim::scenario {

namespace {

bool blank(char c) { return c == ' ' || c == '\t'; }

// Appends the cells of text[begin, end) (one line, no '\n') to `cells`, spaces trimmed.
void split(const std::string& text, std::size_t begin, std::size_t end, std::vector<CsvFile::Cell>& cells) {
  while (true) {
    // Within the line: a search to the end of the text would make a file without ',' quadratic.
    const auto at = std::find(text.begin() + static_cast<std::ptrdiff_t>(begin),
                              text.begin() + static_cast<std::ptrdiff_t>(end), ',');
    const auto stop = static_cast<std::size_t>(at - text.begin());
    std::size_t first = begin, last = stop;
    while (first < last && blank(text[first])) ++first;
    while (last > first && blank(text[last - 1])) --last;
    cells.push_back({static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(last - first)});
    if (stop == end) break;
    begin = stop + 1;
  }
}

std::optional<double> number_of(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const char* first = text.data() + (text.front() == '+' ? 1 : 0);
  double x = 0.0;
  const auto [end, ec] = std::from_chars(first, text.data() + text.size(), x);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(x)) return std::nullopt;
  return x;
}

// "and 1234 more" after the first kMaxCsvProblems of a kind.
void count_rest(std::vector<Diagnostic>& problems, const std::string& path, int line, std::size_t rest,
                const std::string& what) {
  if (rest > 0) problems.push_back({path, line, 1, "and " + std::to_string(rest) + " more " + what});
}

}  // namespace

std::optional<CsvFile> read_csv_file(const std::string& path, std::vector<Diagnostic>& problems) {
  std::string why;
  std::optional<std::string> text = read_input_file(path, why);
  if (!text) {
    problems.push_back({path, 0, 0, why});
    return std::nullopt;
  }
  CsvFile csv;
  csv.path = path;
  csv.text = std::move(*text);
  std::string& s = csv.text;
  // A UTF-8 byte order mark, as spreadsheet programs write, is not part of the first name.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (std::string_view(s).substr(0, kBom.size()) == kBom) s.erase(0, kBom.size());
  normalize_line_ends(s);
  // Room for every cell at once (growth by doubling would hold two copies at its peak).
  const auto lines = static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')) + 1;
  const auto commas = static_cast<std::size_t>(std::count(s.begin(), s.end(), ','));
  std::vector<CsvFile::Cell> cells;
  cells.reserve(std::min(lines + commas, kMaxCsvCells));
  csv.rows.reserve(std::min(lines, kMaxCsvCells));
  std::size_t bad_rows = 0;
  int last_bad_line = 0;
  std::size_t begin = 0;
  for (int number = 1; begin < s.size(); ++number) {
    std::size_t end = s.find('\n', begin);
    if (end == std::string::npos) end = s.size();
    const std::size_t line_start = begin;
    begin = end + 1;
    std::size_t first = line_start;
    while (first < end && blank(s[first])) ++first;
    if (first == end || s[line_start] == '#') continue;
    const auto count = static_cast<std::size_t>(std::count(s.begin() + static_cast<std::ptrdiff_t>(line_start),
                                                           s.begin() + static_cast<std::ptrdiff_t>(end), ',')) + 1;
    if (csv.header.empty()) {
      csv.header_line = number;
      if (count > kMaxCsvColumns) {
        problems.push_back({path, number, 1,
                            "the header names " + std::to_string(count) + " columns; a CSV file has at most " +
                                std::to_string(kMaxCsvColumns)});
        return std::nullopt;
      }
      split(s, line_start, end, cells);
      for (const CsvFile::Cell& c : cells) {
        std::string name = s.substr(c.begin, c.size);
        if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
        csv.header.push_back(name);
      }
      cells.clear();
      continue;
    }
    if (count != csv.header.size()) {
      if (++bad_rows <= kMaxCsvProblems) {
        problems.push_back({path, number, 1,
                            "expected " + std::to_string(csv.header.size()) + " cells as in the header (line " +
                                std::to_string(csv.header_line) + "), got " + std::to_string(count)});
      }
      last_bad_line = number;
      continue;
    }
    if (cells.size() + count > kMaxCsvCells) {
      problems.push_back({path, number, 1,
                          "more than " + std::to_string(kMaxCsvCells) + " cells (rows × columns); a CSV file holds "
                          "at most that many"});
      return std::nullopt;
    }
    split(s, line_start, end, cells);
    csv.rows.push_back({number, static_cast<std::uint32_t>(line_start)});
  }
  count_rest(problems, path, last_bad_line, bad_rows > kMaxCsvProblems ? bad_rows - kMaxCsvProblems : 0,
             "rows with another number of cells than the header (the last at this line)");
  if (csv.header.empty()) {
    problems.push_back({path, 1, 1, "expected a header line naming the columns; the file has none"});
    return std::nullopt;
  }
  if (csv.rows.empty() && bad_rows == 0) {
    problems.push_back({path, csv.header_line, 1, "expected at least one line of samples after the header"});
    return std::nullopt;
  }
  if (bad_rows > 0) return std::nullopt;
  csv.cells = std::move(cells);
  return csv;
}

std::optional<std::vector<double>> csv_numbers(const CsvFile& csv, std::size_t index,
                                               std::vector<Diagnostic>& problems) {
  std::vector<double> values;
  values.reserve(csv.rows.size());
  std::size_t bad = 0;
  int last_bad_line = 0;
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    const CsvFile::Cell& cell = csv.cell(r, index);
    if (const auto x = number_of(csv.text_of(cell))) {
      values.push_back(*x);
      continue;
    }
    last_bad_line = csv.rows[r].line;
    if (++bad > kMaxCsvProblems) continue;
    std::string message = "column '";
    message += shown(csv.header[index]);
    message += "': expected a number, got '";
    message += shown(csv.text_of(cell));
    message += '\'';
    problems.push_back({csv.path, csv.rows[r].line, csv.column_of(r, index), message});
  }
  count_rest(problems, csv.path, last_bad_line, bad > kMaxCsvProblems ? bad - kMaxCsvProblems : 0,
             "cells of column '" + shown(csv.header[index]) + "' that are not numbers (the last at this line)");
  if (bad > 0) return std::nullopt;
  return values;
}

}  // namespace uwsim::scenario
