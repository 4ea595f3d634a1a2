// The `inputs` section: named command channels (inputs/channel.h).
#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <tuple>

#include "scenario/actuation_sections.h"
#include "scenario/printable.h"
#include "scenario/read_csv.h"

namespace uwsim::scenario {

using inputs::ChannelKind;

namespace {

const std::vector<std::string> kTypes = {"constant", "step", "ramp", "piecewise_linear", "sine",
                                         "fourier", "quintic", "csv", "sum", "scale"};

// The keys each type takes besides name, type and units.
std::vector<std::string> keys_of(const std::string& type) {
  std::vector<std::string> keys = {"name", "type", "units", "delay"};
  auto add = [&](std::initializer_list<const char*> more) { keys.insert(keys.end(), more.begin(), more.end()); };
  if (type == "constant") add({"value"});
  else if (type == "step") add({"initial", "steps"});
  else if (type == "ramp" || type == "quintic") add({"start", "stop", "from", "to"});
  else if (type == "piecewise_linear") add({"points", "interpolation"});
  else if (type == "sine") add({"amplitude", "frequency", "phase", "offset", "start", "stop"});
  else if (type == "fourier") add({"frequency", "harmonics", "offset", "start", "stop"});
  else if (type == "csv") add({"file", "column", "time_column", "interpolation"});
  else if (type == "sum") add({"inputs"});
  else if (type == "scale") add({"input", "gain", "offset"});
  else add({"value", "initial", "steps", "start", "stop", "from", "to", "points", "interpolation",
            "amplitude", "frequency", "phase", "offset", "harmonics", "file", "column",
            "time_column", "inputs", "input", "gain"});
  return keys;
}

std::string peek_type(const Field& item) {
  if (!item.value.IsMap()) return "";
  const YAML::Node& map = item.value;
  const YAML::Node type = map["type"];
  return type.IsDefined() && type.IsScalar() ? type.Scalar() : "";
}

void read_interpolation(Reader& r, Mapping& m, inputs::ChannelParameters& c) {
  if (auto i = r.choice(m.get("interpolation"), {"linear", "hold"}))
    c.interpolation = *i == 0 ? inputs::Interpolation::linear : inputs::Interpolation::hold;
}

// start (≥ 0) and stop (> start) of a window or a motion; `stop_required` for motions.
void read_interval(Reader& r, Mapping& m, inputs::ChannelParameters& c, bool required) {
  m.read("start", c.start, Sign::non_negative, "s", required);
  const Field stop = required ? m.require("stop") : m.get("stop");
  if (auto t = r.number(stop, Sign::positive, "s")) {
    if (*t <= c.start)
      r.error(stop, "expected a time after start (" + to_text(c.start) + " s), got " + to_text(*t));
    else
      c.stop = *t;
  }
}

// Fields of operand references, for the checks across channels.
struct Operand {
  std::size_t user;
  std::string name;
  Field at;
};

void read_csv_channel(Reader& r, Mapping& m, inputs::ChannelParameters& c) {
  const Field file = m.require("file");
  const Field column = m.require("column");
  std::string time_column = "time";
  m.read("time_column", time_column);
  read_interpolation(r, m, c);
  const auto file_text = r.string(file);
  const auto column_text = r.string(column);
  if (!file_text || !column_text) return;
  if (!r.opens_files()) {
    r.warn(file, "not opened: the files a stored scenario names are not read; the channel reads as 0");
    c.kind = ChannelKind::constant;
    c.value = 0.0;
    return;
  }
  const std::filesystem::path path = std::filesystem::path(r.file()).parent_path() / *file_text;
  std::vector<Diagnostic> problems;
  auto csv = read_csv_file(path.string(), problems);
  if (!csv) {
    for (Diagnostic& d : problems) {
      if (d.line > 0) {
        r.add(std::move(d));
      } else {
        std::error_code ec;
        const std::string where = std::filesystem::absolute(path, ec).lexically_normal().string();
        r.error(file, "cannot read the CSV file " + path.string() + ": " + d.message +
                          (d.message == "no such file" ? " (looked for " + where + "; CSV files are relative to the scenario file)" : ""));
      }
    }
    return;
  }
  r.note_file_read(path.string());
  auto index_of = [&](const std::string& name) -> long {
    for (std::size_t i = 0; i < csv->header.size(); ++i)
      if (csv->header[i] == name) return static_cast<long>(i);
    return -1;
  };
  const long t_index = index_of(time_column);
  const long v_index = index_of(*column_text);
  for (const auto& [index, name, at] : {std::tuple{t_index, time_column, m.get("time_column")},
                                        std::tuple{v_index, *column_text, column}}) {
    if (index >= 0) continue;
    std::string message = "no column '" + name + "' in " + path.string() + " (columns: " + quoted_names(csv->header) + ")";
    if (auto guess = closest_match(name, csv->header)) message += "; did you mean '" + *guess + "'?";
    r.error(at.present() ? at : file, message);
  }
  if (t_index < 0 || v_index < 0) return;
  auto times = csv_numbers(*csv, static_cast<std::size_t>(t_index), problems);
  auto values = csv_numbers(*csv, static_cast<std::size_t>(v_index), problems);
  if (times) {
    for (std::size_t k = 1; k < times->size(); ++k) {
      if ((*times)[k] > (*times)[k - 1]) continue;
      problems.push_back({csv->path, csv->rows[k].line, csv->column_of(k, static_cast<std::size_t>(t_index)),
                          "column '" + time_column + "': expected times increasing strictly, got " +
                              to_text((*times)[k]) + " after " + to_text((*times)[k - 1])});
      break;
    }
  }
  csv.reset();  // the numbers are out: free the text and cells before the table is built
  for (Diagnostic& d : problems) r.add(std::move(d));
  if (!problems.empty() || !times || !values) return;
  c.table.x = std::move(*times);
  c.table.y = std::move(*values);
}

inputs::ChannelParameters read_channel(Reader& r, const Field& item, std::map<std::string, std::string>& names,
                             std::vector<Operand>& operands, std::size_t index) {
  inputs::ChannelParameters c;
  const std::string type = peek_type(item);
  Mapping m(r, item, keys_of(type));
  if (!m.ok()) return c;
  const Field name = m.require("name");
  if (auto s = r.string(name); s && check_name_text(r, name, *s)) {
    if (s->find('/') != std::string::npos)
      r.error(name, "expected a name without '/' (each channel is one dataset /inputs/<name>), got '" + shown(*s) + "'");
    else if (s->find_first_of("0123456789+-.") == 0)
      r.error(name, "expected a name that does not start like a number (commands may be numbers), got '" + shown(*s) + "'");
    else if (auto [it, fresh] = names.emplace(*s, item.path); !fresh)
      r.error(name, "duplicate input name '" + *s + "' (also " + it->second + ")");
    else
      c.name = *s;
  }
  m.read("units", c.units);
  const auto kind = r.choice(m.require("type"), kTypes);
  if (!kind) return c;
  c.kind = static_cast<ChannelKind>(*kind);
  switch (c.kind) {
    case ChannelKind::constant: m.read("value", c.value, Sign::any, "", true); break;
    case ChannelKind::step: {
      m.read("initial", c.value, Sign::any, "");
      if (auto t = read_rows(r, m.require("steps"), 1, "time (s)", "value")) c.table = *t;
      break;
    }
    case ChannelKind::ramp:
    case ChannelKind::quintic:
      read_interval(r, m, c, true);
      m.read("from", c.from, Sign::any, "", true);
      m.read("to", c.to, Sign::any, "", true);
      break;
    case ChannelKind::piecewise_linear:
      if (auto t = read_rows(r, m.require("points"), 1, "time (s)", "value")) c.table = *t;
      read_interpolation(r, m, c);
      break;
    case ChannelKind::sine:
      m.read("amplitude", c.amplitude, Sign::any, "", true);
      m.read("frequency", c.frequency, Sign::non_negative, "Hz", true);
      m.read("phase", c.phase, Sign::any, "rad");
      m.read("offset", c.offset, Sign::any, "");
      read_interval(r, m, c, false);
      break;
    case ChannelKind::fourier: {
      m.read("frequency", c.frequency, Sign::positive, "Hz", true);
      const Field harmonics = m.require("harmonics");
      if (auto rows = r.sequence(harmonics)) {
        for (const Field& row : *rows) {
          if (auto ab = r.numbers(row, 2, Sign::any, "")) {
            c.sine_coefficients.push_back((*ab)[0]);
            c.cosine_coefficients.push_back((*ab)[1]);
          }
        }
        if (rows->empty()) r.error(harmonics, "expected at least one harmonic [a_k, b_k]");
      }
      m.read("offset", c.offset, Sign::any, "");
      read_interval(r, m, c, false);
      break;
    }
    case ChannelKind::csv: read_csv_channel(r, m, c); break;
    case ChannelKind::sum: {
      const Field list = m.require("inputs");
      if (auto items = r.sequence(list)) {
        if (items->empty()) r.error(list, "expected at least one channel name");
        for (const Field& f : *items)
          if (auto s = r.string(f)) operands.push_back({index, *s, f});
      }
      break;
    }
    case ChannelKind::scale: {
      const Field input = m.require("input");
      if (auto s = r.string(input)) operands.push_back({index, *s, input});
      m.read("gain", c.gain, Sign::any, "");
      m.read("offset", c.offset, Sign::any, "");
      break;
    }
  }
  // `delay` (inputs/channel.h): the channel at t − delay. A sum or scale is taken from its
  // operands at t, so the delays go on them.
  if (c.kind == ChannelKind::sum || c.kind == ChannelKind::scale) {
    if (m.has("delay"))
      r.error(m.get("delay"), std::string("a ") + (c.kind == ChannelKind::sum ? "sum" : "scale") +
                                  " combines its operands at the same time: put 'delay' on its operands (the " +
                                  (c.kind == ChannelKind::sum ? "sum" : "scale") + " of delayed channels is the delayed one)");
  } else {
    m.read("delay", c.delay, Sign::non_negative, "s");
  }
  return c;
}

// Unknown operands, then cycles: each cycle is reported once, at the reference that closes it.
void check_operands(Reader& r, std::vector<InputSpec>& specs, const std::vector<Operand>& operands) {
  const std::vector<std::string> names = channel_names(specs);
  std::vector<std::vector<std::pair<std::size_t, const Operand*>>> edges(specs.size());
  for (const Operand& op : operands) {
    const auto it = std::find(names.begin(), names.end(), op.name);
    if (it == names.end()) {
      std::string message = "no input channel named '" + op.name + "'";
      if (auto guess = closest_match(op.name, names)) message += "; did you mean '" + *guess + "'?";
      r.error(op.at, message);
      continue;
    }
    specs[op.user].operand_names.push_back(op.name);
    edges[op.user].emplace_back(static_cast<std::size_t>(it - names.begin()), &op);
  }
  std::vector<int> state(specs.size(), 0);  // 1: on the path, 2: done
  std::vector<std::size_t> path;
  std::function<void(std::size_t)> visit = [&](std::size_t c) {
    state[c] = 1;
    path.push_back(c);
    for (const auto& [next, op] : edges[c]) {
      if (state[next] == 1) {
        std::string cycle;
        for (auto it = std::find(path.begin(), path.end(), next); it != path.end(); ++it) cycle += "'" + names[*it] + "' → ";
        cycle += "'" + names[next] + "'";
        r.error(op->at, "the input channels form a cycle: " + cycle);
      } else if (state[next] == 0) {
        visit(next);
      }
    }
    path.pop_back();
    state[c] = 2;
  };
  for (std::size_t c = 0; c < specs.size(); ++c)
    if (state[c] == 0) visit(c);
}

}  // namespace

std::optional<inputs::Table> read_rows(Reader& r, const Field& field, std::size_t min_rows,
                                       std::string_view x_unit, std::string_view y_unit) {
  // x_unit and y_unit name the columns in messages ("time (s)", "value").
  auto rows = r.sequence(field);
  if (!rows) return std::nullopt;
  if (rows->size() < min_rows) {
    std::string message = "expected at least " + std::to_string(min_rows) + " rows [";
    message += x_unit;
    message += ", ";
    message += y_unit;
    message += "], got " + std::to_string(rows->size());
    r.error(field, message);
    return std::nullopt;
  }
  inputs::Table table;
  bool ok = true;
  for (const Field& row : *rows) {
    const auto xy = r.numbers(row, 2, Sign::any, "");
    if (!xy) {
      ok = false;
      continue;
    }
    if (!table.x.empty() && (*xy)[0] <= table.x.back()) {
      std::string message = "expected rows [";
      message += x_unit;
      message += ", ";
      message += y_unit;
      message += "] with the ";
      message += x_unit;
      message += " increasing strictly, got ";
      message += to_text((*xy)[0]);
      message += " after ";
      message += to_text(table.x.back());
      r.error(row, message);
      ok = false;
      continue;
    }
    table.x.push_back((*xy)[0]);
    table.y.push_back((*xy)[1]);
  }
  if (!ok) return std::nullopt;
  return table;
}

std::vector<std::string> channel_names(const std::vector<InputSpec>& inputs) {
  std::vector<std::string> names;
  for (const InputSpec& s : inputs) names.push_back(s.channel.name);
  return names;
}

std::vector<InputSpec> read_inputs(Reader& reader, const Field& field) {
  std::vector<InputSpec> specs;
  if (absent(field)) return specs;
  auto items = reader.sequence(field);
  if (!items) return specs;
  std::map<std::string, std::string> names;
  std::vector<Operand> operands;
  for (std::size_t i = 0; i < items->size(); ++i)
    specs.push_back({read_channel(reader, (*items)[i], names, operands, i), {}});
  check_operands(reader, specs, operands);
  return specs;
}

}  // namespace uwsim::scenario
