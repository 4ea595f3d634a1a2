#include "app/series_files.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>

#include "app/result_file.h"
#include "scenario/read_csv.h"
#include "scenario/read_file.h"
#include "scenario/yaml_reader.h"

namespace uwsim::app {

namespace {

using scenario::Diagnostic;

constexpr TimeUnit kTimeUnits[] = {{"s", 1.0, 1.0}, {"ms", 1.0, 1000.0}, {"min", 60.0, 1.0}, {"h", 3600.0, 1.0}};

bool is_hdf5(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char signature[8] = {};
  in.read(signature, 8);
  return in.gcount() == 8 && std::memcmp(signature, "\x89HDF\r\n\x1a\n", 8) == 0;
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

void index_series(SeriesFile& out) {
  out.index.clear();
  for (std::size_t i = 0; i < out.series.size(); ++i) out.index.emplace(out.series[i].name, i);
}

// ---- result files ------------------------------------------------------------------------

// The series of one dataset (its values not read), or why it gives none.
std::string add_dataset(SeriesFile& out, ResultFile& file, const ResultDataset& d, std::uint64_t rows) {
  if (const std::string why = file.read_problem(d); !why.empty()) return why;
  if (d.dims.size() > 2) return "is " + std::to_string(d.dims.size()) + "-dimensional; a series is 1-D, or a column of a 2-D dataset";
  if (d.rows() != rows)
    return "has " + std::to_string(d.rows()) + " rows where /time has " + std::to_string(rows) + ": not a series of this run";
  const std::uint64_t columns = d.columns();
  if (columns > kMaxSeriesPerFile - out.series.size())
    return "has " + std::to_string(columns) + " columns; sim lists at most " + std::to_string(kMaxSeriesPerFile) +
           " series of a file";
  const std::string name = d.path.substr(1);
  const std::vector<std::string> units = split(file.attribute(d.path, "units", kMaxLabelBytes).value_or(""), ", ");
  std::vector<std::string> column_names = split(file.attribute(d.path, "columns", kMaxLabelBytes).value_or(""), ",");
  if (column_names.size() != columns) {
    column_names.clear();
    for (std::uint64_t c = 0; c < columns; ++c) column_names.push_back(std::to_string(c));
  }
  for (std::size_t c = 0; c < columns; ++c) {
    analysis::Series s;
    s.name = d.dims.size() == 2 ? name + "/" + column_names[c] : name;
    s.units = columns % units.size() == 0 ? units[c / (columns / units.size())] : "";
    if (s.units == "1" || s.units == "-") s.units.clear();
    out.series.push_back(std::move(s));
    out.sources.push_back({d.path, c});
  }
  return "";
}

// Two series of one name (a `columns` attribute naming two alike, or /a/b beside column b of
// /a) cannot be told apart: both are left out, and listed.
void drop_duplicates(SeriesFile& out) {
  std::map<std::string, int, std::less<>> count;
  for (const analysis::Series& s : out.series) ++count[s.name];
  std::size_t kept = 0;
  std::set<std::string> listed;
  for (std::size_t i = 0; i < out.series.size(); ++i) {
    if (count[out.series[i].name] > 1) {
      if (listed.insert(out.series[i].name).second)
        out.unreadable.push_back({out.series[i].name, "is the name of " + std::to_string(count[out.series[i].name]) +
                                                          " series (columns of different datasets, or a column named twice)"});
      continue;
    }
    if (kept != i) {  // a move onto itself would empty it
      out.series[kept] = std::move(out.series[i]);
      out.sources[kept] = std::move(out.sources[i]);
    }
    ++kept;
  }
  out.series.resize(kept);
  out.sources.resize(kept);
}

SeriesFile open_result(const std::string& path) {
  SeriesFile out;
  out.path = path;
  out.is_result = true;
  try {
    out.result = std::make_shared<ResultFile>(path, ResultFile::Checks::strict);
    ResultFile& file = *out.result;
    out.status = file.attribute("/", "status", kMaxLabelBytes).value_or("");
    const std::uint64_t rows = file.time().size();
    for (const ResultDataset& d : file.datasets()) {
      if (d.path == "/time") continue;
      if (const std::string why = add_dataset(out, file, d, rows); !why.empty()) out.unreadable.push_back({d.path.substr(1), why});
    }
  } catch (const ResultError& e) {
    throw InputError({{path, 0, 0, (e.object().empty() ? "" : e.object() + ": ") + e.problem()}});
  }
  drop_duplicates(out);
  out.loaded.assign(out.series.size(), false);
  index_series(out);
  return out;
}

// ---- CSV files ---------------------------------------------------------------------------

// "name [unit]" → name, unit.
std::pair<std::string, std::string> name_and_unit(const std::string& header) {
  const auto open = header.rfind('[');
  if (header.empty() || header.back() != ']' || open == std::string::npos) return {header, ""};
  std::string name = header.substr(0, open);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  return {name, header.substr(open + 1, header.size() - open - 2)};
}

std::string_view without_blanks(std::string_view text) {
  const auto first = text.find_first_not_of(" \t"), last = text.find_last_not_of(" \t");
  return first == std::string_view::npos ? std::string_view() : text.substr(first, last - first + 1);
}

std::string trimmed(std::string_view text) {
  std::string out(without_blanks(text));
  if (out.size() >= 2 && (out.front() == '"' || out.front() == '\'') && out.back() == out.front()) out = out.substr(1, out.size() - 2);
  return out;
}

// The lines of a side file (--units, --map-file) that are neither blank nor a `#` comment, as
// `entry(line number, line)`: the file read as a YAML file is (regular, at most 1 MiB), line
// ends normalised, line by line (no YAML parser, whose cost on a hostile file is not this
// reader's to bound). Reading stops at kMaxCsvProblems problems. False if it cannot be read.
template <class Entry>
bool for_each_side_line(const std::string& path, std::vector<Diagnostic>& problems, Entry&& entry) {
  std::string why;
  std::optional<std::string> text = scenario::read_input_file(path, why, scenario::kMaxYamlBytes);
  if (!text) return problems.push_back({path, 0, 0, why}), false;
  scenario::normalize_line_ends(*text);
  int line = 0;
  for (std::size_t begin = 0; begin < text->size() && problems.size() < scenario::kMaxCsvProblems;) {
    const std::size_t end = std::min(text->find('\n', begin), text->size());
    const std::string_view row = std::string_view(*text).substr(begin, end - begin);
    begin = end + 1;
    ++line;
    if (without_blanks(row).empty() || row.find_first_not_of(" \t") == row.find('#')) continue;
    entry(line, row);
  }
  return true;
}

// A side file of `column: unit` lines (the YAML of a flat mapping of plain or quoted
// scalars; '#' starts a comment line). The last ": " (or a ':' ending the line) separates the
// column from its unit, so column names may hold ':'.
void read_units_file(const std::string& units_file, const std::string& csv_path, const std::vector<std::string>& names,
                     std::vector<std::string>& units, std::vector<Diagnostic>& problems) {
  std::map<std::string, int, std::less<>> given;  // column → line
  for_each_side_line(units_file, problems, [&](int line, std::string_view row) {
    std::size_t colon = row.rfind(": ");
    if (colon == std::string_view::npos && !row.empty() && row.back() == ':') colon = row.size() - 1;
    const std::string column = colon == std::string_view::npos ? "" : trimmed(row.substr(0, colon));
    std::string_view after = colon == std::string_view::npos ? std::string_view() : row.substr(colon + 1);
    if (const auto comment = after.find(" #"); comment != std::string_view::npos) after = after.substr(0, comment);
    const std::string unit = trimmed(after);
    if (column.empty() || unit.empty()) return problems.push_back({units_file, line, 1, "expected `column: unit` (e.g. `north: cm`)"});
    const int column_at = static_cast<int>(row.find_first_not_of(" \t")) + 1;
    if (const auto [it, fresh] = given.emplace(column, line); !fresh)
      return problems.push_back(
          {units_file, line, column_at, "'" + column + "' is given a unit twice (also at line " + std::to_string(it->second) + ")"});
    const auto at = std::find(names.begin(), names.end(), column);
    if (at == names.end()) {
      std::string message = "no column '" + column + "' in " + csv_path;
      if (auto guess = scenario::closest_match(column, names)) message += "; did you mean '" + *guess + "'?";
      return problems.push_back({units_file, line, column_at, message});
    }
    std::string& slot = units[static_cast<std::size_t>(at - names.begin())];
    if (!slot.empty() && slot != unit)
      return problems.push_back(
          {units_file, line, column_at, "'" + column + "' is in '" + slot + "' by its header in " + csv_path + ", here '" + unit + "'"});
    slot = unit;
  });
}

// The time column in seconds; problems at the CSV's cells.
std::optional<std::vector<double>> csv_times(const scenario::CsvFile& csv, std::size_t column, const std::string& unit,
                                             std::vector<Diagnostic>& problems) {
  const TimeUnit* time_unit = nullptr;
  for (const TimeUnit& u : time_units())
    if (unit == u.name || (unit.empty() && std::string_view(u.name) == "s")) time_unit = &u;
  if (time_unit == nullptr) {
    problems.push_back({csv.path, csv.header_line, 1,
                        "time column '" + csv.header[column] + "': the unit '" + unit + "' is not one of " + time_unit_list() +
                            " (convert the column to one of them)"});
    return std::nullopt;
  }
  auto time = scenario::csv_numbers(csv, column, problems);
  if (!time) return std::nullopt;
  const std::string shown = unit.empty() ? "s" : unit;
  std::size_t reported = 0;  // the first few: the rest follow from them
  for (std::size_t k = 0; k < time->size(); ++k) {
    double& t = (*time)[k];
    t = t * time_unit->numerator / time_unit->denominator;
    const bool bad = !std::isfinite(t) || (k > 0 && !(t > (*time)[k - 1]));
    if (!bad || reported >= scenario::kMaxCsvProblems) continue;
    ++reported;
    const std::string cell(csv.text_of(csv.cell(k, column)));
    problems.push_back({csv.path, csv.rows[k].line, csv.column_of(k, column),
                        !std::isfinite(t) ? "time " + cell + " " + shown + " is beyond any number of seconds"
                                          : "times must increase: " + cell + " " + shown + " follows " +
                                                std::string(csv.text_of(csv.cell(k - 1, column))) + " " + shown + " (line " +
                                                std::to_string(csv.rows[k - 1].line) + ")"});
  }
  return time;
}

SeriesFile read_csv(const std::string& path, const CsvSettings& settings) {
  std::vector<Diagnostic> problems;
  const auto csv = scenario::read_csv_file(path, problems);
  if (!csv) throw InputError(problems);
  SeriesFile out;
  out.path = path;
  out.header_line = csv->header_line;
  std::vector<std::string> names, units;
  std::map<std::string, std::size_t, std::less<>> first;  // name → column
  for (std::size_t c = 0; c < csv->header.size(); ++c) {
    auto [name, unit] = name_and_unit(csv->header[c]);
    if (const auto [it, fresh] = first.emplace(name, c); !fresh)
      problems.push_back({path, csv->header_line, 1,
                          "columns " + std::to_string(it->second + 1) + " and " + std::to_string(c + 1) + " are both named '" + name +
                              "': rename one"});
    names.push_back(name);
    units.push_back(unit);
  }
  if (!settings.units_file.empty()) read_units_file(settings.units_file, path, names, units, problems);
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
  const auto time = csv_times(*csv, t_index, units[t_index], problems);
  for (std::size_t c = 0; c < names.size(); ++c) {
    if (c == t_index) continue;
    const auto values = scenario::csv_numbers(*csv, c, problems);
    if (!values || !time) continue;
    out.series.push_back({names[c], units[c], *time, *values});
  }
  if (!problems.empty()) throw InputError(problems);
  out.loaded.assign(out.series.size(), true);
  index_series(out);
  return out;
}

}  // namespace

std::vector<NamePair> read_series_map(const std::string& path) {
  std::vector<Diagnostic> problems;
  std::vector<NamePair> pairs;
  for_each_side_line(path, problems, [&](int line, std::string_view row) {
    const std::size_t eq = row.find('=');
    std::string_view b = eq == std::string_view::npos ? std::string_view() : row.substr(eq + 1);
    if (const auto comment = b.find(" #"); comment != std::string_view::npos) b = b.substr(0, comment);
    const std::string_view a = without_blanks(row.substr(0, eq));
    b = without_blanks(b);
    const int first = static_cast<int>(row.find_first_not_of(" \t")) + 1;
    if (eq == std::string_view::npos || a.empty() || b.empty())
      return problems.push_back({path, line, first, "expected `A_NAME = B_NAME` (A's series, then B's), e.g. `bodies/rov/velocity/u = dvl_u`"});
    pairs.push_back({std::string(a), std::string(b), path, line, first, static_cast<int>(b.data() - row.data()) + 1});
  });
  if (!problems.empty()) throw InputError(problems);
  return pairs;
}

InputError::InputError(std::vector<scenario::Diagnostic> diagnostics)
    : std::runtime_error(diagnostics.empty() ? "bad input" : scenario::format(diagnostics.front())),
      diagnostics_(std::move(diagnostics)) {}

std::span<const TimeUnit> time_units() { return kTimeUnits; }

std::string time_unit_list() {
  std::string list;
  for (const TimeUnit& u : time_units()) list += (list.empty() ? "" : ", ") + std::string(u.name);
  return list;
}

long SeriesFile::index_of(const std::string& name) const {
  const auto it = index.find(name);
  return it == index.end() ? -1 : static_cast<long>(it->second);
}

const analysis::Series* SeriesFile::find(const std::string& name) const {
  const long i = index_of(name);
  return i < 0 ? nullptr : &series[static_cast<std::size_t>(i)];
}

std::vector<std::string> SeriesFile::names() const {
  std::vector<std::string> out;
  for (const analysis::Series& s : series) out.push_back(s.name);
  return out;
}

SeriesFile open_series_file(const std::string& path, const CsvSettings& csv) {
  if (const std::string why = scenario::input_file_problem(path); !why.empty()) throw InputError({{path, 0, 0, why}});
  return is_hdf5(path) ? open_result(path) : read_csv(path, csv);
}

namespace {

// "series v/1: /v[2, 1] is inf (at t = 0.2 s): values must be finite", for the first such value.
std::optional<std::string> non_finite(const analysis::Series& s, const std::vector<double>& time, const SeriesFile::Source& source,
                                      bool two_d) {
  const auto k = static_cast<std::size_t>(std::find_if(s.values.begin(), s.values.end(), [](double v) { return !std::isfinite(v); }) -
                                          s.values.begin());
  if (k == s.values.size()) return std::nullopt;
  const double v = s.values[k];
  return "series " + s.name + ": " + source.dataset + "[" + std::to_string(k) + (two_d ? ", " + std::to_string(source.column) : "") +
         "] is " + (std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf") + " (at t = " + scenario::to_text(time[k]) +
         " s): values must be finite";
}

// A dataset of at most this many values is read whole (16 MiB), a wider one column by column.
constexpr std::uint64_t kWholeDatasetValues = std::uint64_t{1} << 21;

}  // namespace

void load_series(SeriesFile& file, const std::vector<std::size_t>& wanted) {
  if (!file.is_result) return;
  std::vector<std::size_t> order;
  for (const std::size_t i : wanted)
    if (!file.loaded[i]) order.push_back(i);
  std::sort(order.begin(), order.end());
  order.erase(std::unique(order.begin(), order.end()), order.end());
  ResultFile& result = *file.result;
  // The times move out of the reader into the series (the last takes them, the others copy):
  // a series of 10^6 samples is not held three times.
  std::vector<double> time = result.take_time();
  const auto count = static_cast<std::size_t>(std::count(file.loaded.begin(), file.loaded.end(), true)) + order.size();
  if (!time.empty() && count > kMaxSeriesValues / time.size())
    throw InputError({{file.path, 0, 0,
                       std::to_string(count) + " series of " + std::to_string(time.size()) + " samples: sim reads at most " +
                           std::to_string(kMaxSeriesValues) + " values of series from one result file (choose fewer series: "
                           "sim compare --series)"}});
  std::vector<Diagnostic> problems;
  std::string dataset;  // the dataset last read, and its values: the columns of one follow each other
  std::vector<double> block;
  std::size_t columns = 1;
  for (std::size_t n = 0; n < order.size(); ++n) {
    const std::size_t i = order[n];
    const SeriesFile::Source& source = file.sources[i];
    try {
      if (source.dataset != dataset) {
        dataset.clear();
        const ResultDataset* d = result.find(source.dataset);
        if (d == nullptr) throw ResultError(file.path, source.dataset, "is not in the file");
        // A wide dataset is read a column at a time: its memory, not only the series', counts.
        const bool whole = d->claimed_values() <= kWholeDatasetValues;
        block = whole ? result.read(*d) : result.read_column(*d, source.column);
        columns = whole ? static_cast<std::size_t>(d->columns()) : 1;
        if (whole) dataset = source.dataset;
      }
    } catch (const ResultError& e) {
      problems.push_back({file.path, 0, 0, e.object() + ": " + e.problem()});
      continue;
    }
    analysis::Series& s = file.series[i];
    file.loaded[i] = true;
    if (columns == 1) {  // the values as read
      s.values = std::move(block);
      dataset.clear();
    } else {
      s.values.resize(time.size());
      for (std::size_t k = 0; k < time.size(); ++k) s.values[k] = block[k * columns + source.column];
    }
    if (problems.size() < scenario::kMaxCsvProblems)
      if (const auto bad = non_finite(s, time, source, result.find(source.dataset)->dims.size() == 2)) problems.push_back({file.path, 0, 0, *bad});
    if (n + 1 < order.size()) s.time = time;
    else s.time = std::move(time);
  }
  if (!problems.empty()) throw InputError(problems);
}

SeriesFile read_series_file(const std::string& path, const CsvSettings& csv) {
  SeriesFile file = open_series_file(path, csv);
  std::vector<std::size_t> all(file.series.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  load_series(file, all);
  return file;
}

}  // namespace uwsim::app
