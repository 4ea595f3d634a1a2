#include "app/replay_command.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/exit_codes.h"
#include "app/replay_scene.h"
#include "app/result_file.h"
#include "app/visual_output.h"
#include "embedded_replay.h"
#include "output/output_file.h"
#include "scenario/load_scenario.h"
#include "scenario/printable.h"
#include "scenario/read_file.h"
#include "spatial/rotation.h"

namespace uwsim::app {
namespace {

// The message quotes names from the file: printed escaped and bounded (scenario/printable.h).
int fail(const std::string& path, const std::string& what) {
  std::fprintf(stderr, "error: %s\n", scenario::shown(path + ": " + what, scenario::kMaxMessageCharacters).c_str());
  return 2;
}

// Names of the bodies a file holds: groups under /bodies with a `position` dataset.
std::vector<std::string> bodies_in_file(const ResultFile& file) {
  std::vector<std::string> names;
  const std::string prefix = "/bodies/", suffix = "/position";
  for (const ResultDataset& d : file.datasets())
    if (d.path.size() > prefix.size() + suffix.size() && d.path.starts_with(prefix) && d.path.ends_with(suffix))
      names.push_back(d.path.substr(prefix.size(), d.path.size() - prefix.size() - suffix.size()));
  return names;
}

// The dataset at `path` if it is one the page can show: samples × columns, readable.
const ResultDataset* series_dataset(const ResultFile& file, const std::string& path, std::uint64_t samples, std::uint64_t columns) {
  const ResultDataset* d = file.find(path);
  if (d == nullptr || !file.read_problem(*d).empty() || d->dims.empty() || d->dims.size() > 2 || d->rows() != samples ||
      d->columns() != columns)
    return nullptr;
  return d;
}

// The dataset at `path` if it is a readable table of `columns` columns (rows × columns).
const ResultDataset* table_dataset(const ResultFile& file, const std::string& path, std::uint64_t columns) {
  const ResultDataset* d = file.find(path);
  if (d == nullptr || !file.read_problem(*d).empty() || d->dims.size() != 2 || d->dims[1] != columns) return nullptr;
  return d;
}

// The samples shown: all of them, or every k-th (and the last) to stay within the budget.
std::vector<std::size_t> frame_indices(std::size_t samples, int budget) {
  std::vector<std::size_t> frames;
  if (samples == 0) return frames;
  const std::size_t limit = static_cast<std::size_t>(std::max(budget, 2));
  const std::size_t stride = samples <= limit ? 1 : (samples - 1 + limit - 2) / (limit - 1);
  for (std::size_t i = 0; i < samples; i += stride) frames.push_back(i);
  if (frames.back() != samples - 1) frames.push_back(samples - 1);
  return frames;
}

// JSON text. `<` is escaped too, so no name can close the page's <script> element.
std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const unsigned char c : text) {
    if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
    else if (c < 0x20 || c == '<') {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else out += static_cast<char>(c);
  }
  return out + "\"";
}

// Fixed decimals keep the page small: 0.1 mm, 1e-5 of a quaternion, 1 mN. Non-finite → 0.
std::string number(double value, int decimals) {
  if (!std::isfinite(value)) value = 0.0;
  // to_chars gives printf's "%.*f" digits, some times faster (a page has up to 10^6 numbers);
  // the buffer holds any double's 309 digits.
  char buffer[400];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
  std::string text(buffer, error == std::errc() ? end : buffer);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

std::string vector_json(const Eigen::Vector3d& v) {
  std::string out = "[";
  out.append(number(v.x(), 6)).append(",").append(number(v.y(), 6)).append(",").append(number(v.z(), 6));
  return out.append("]");
}

// The frames' values (rows × columns, flattened).
std::string rows_json(const std::vector<double>& values, int decimals) {
  std::string out = "[";
  for (std::size_t k = 0; k < values.size(); ++k) out.append(k ? "," : "").append(number(values[k], decimals));
  return out + "]";
}

std::string solid_json(const ReplaySolid& s) {
  const spatial::Quat q = spatial::quaternion_from_rotation(s.R_BS);
  return std::string("{\"kind\":\"") + (s.kind == ReplaySolid::Kind::box ? "box" : "cylinder") + "\",\"size\":" +
         vector_json(s.size) + ",\"center\":" + vector_json(s.center_B) + ",\"quaternion\":[" + number(q[0], 8) + "," +
         number(q[1], 8) + "," + number(q[2], 8) + "," + number(q[3], 8) + "],\"source\":" + json_string(s.source) + "}";
}

// The solids stored for a body (app/visual_output.h) as {"shapes": [rows], "meshes": {"k":
// {"vertices", "triangles"}}}, read through the checked reader; "null" when the file has none
// (an older file, or a body with no `visual`) or when they are refused. They may hold at most
// `room` numbers (the page's share for visuals not yet taken; `room` is reduced by what they
// take): beyond, they are refused with a warning, before the meshes are read, and the page
// draws the body's solid. A mesh row without its datasets, or whose triangles name vertices it
// does not have, is left out: the page skips it (drawn as nothing rather than as garbage).
std::string visuals_json(ResultFile& file, const std::string& body, std::uint64_t& room) {
  const std::string group = std::string(kVisualsGroup) + body + "/";
  if (file.find(group + "shapes") == nullptr) return "null";
  const auto refuse = [&](const std::string& why) {
    spdlog::warn("{}: {}; body '{}' is drawn as its solid", file.path(), why, body);
    return std::string("null");
  };
  const ResultDataset* shapes_set = table_dataset(file, group + "shapes", kVisualColumns);
  if (shapes_set == nullptr)
    return refuse(group + "shapes is not a readable table of " + std::to_string(kVisualColumns) + " columns");
  const auto too_many = [&](std::uint64_t numbers) {
    return refuse("the visuals stored under " + group + " are " + std::to_string(numbers) + " numbers, more than the " +
                  std::to_string(room) + " left of the " + std::to_string(kMaxVisualNumbers) + " a page gives visuals");
  };
  if (shapes_set->rows() == 0) return "null";
  if (shapes_set->claimed_values() > room) return too_many(shapes_set->claimed_values());
  const std::vector<double> shapes = file.read(*shapes_set);
  const std::size_t rows = shapes.size() / kVisualColumns;
  struct StoredMesh {
    std::size_t row;
    const ResultDataset* vertices;
    const ResultDataset* triangles;
  };
  std::vector<StoredMesh> meshes;
  std::uint64_t numbers = shapes.size();
  for (std::size_t k = 0; k < rows; ++k) {
    if (shapes[k * kVisualColumns] != static_cast<double>(model::VisualSpec::Kind::mesh)) continue;
    const std::string mesh = group + "mesh" + std::to_string(k) + "/";
    const ResultDataset* vertices = table_dataset(file, mesh + "vertices", 3);
    const ResultDataset* triangles = table_dataset(file, mesh + "triangles", 3);
    if (vertices == nullptr || triangles == nullptr) continue;
    meshes.push_back({k, vertices, triangles});
    numbers += vertices->claimed_values() + triangles->claimed_values();  // each at most 3 · kMaxResultRows
  }
  if (numbers > room) return too_many(numbers);
  room -= numbers;
  std::string out = "{\"shapes\":" + rows_json(shapes, 6) + ",\"meshes\":{";
  bool first = true;
  for (const StoredMesh& m : meshes) {
    const std::vector<double> vertices = file.read(*m.vertices), triangles = file.read(*m.triangles);
    const auto n = static_cast<double>(vertices.size() / 3);
    if (!std::all_of(triangles.begin(), triangles.end(), [&](double i) { return i >= 0 && i < n && i == std::floor(i); })) continue;
    out.append(first ? "" : ",").append("\"" + std::to_string(m.row) + "\":{\"vertices\":" + rows_json(vertices, 5) +
                                        ",\"triangles\":" + rows_json(triangles, 0) + "}");
    first = false;
  }
  return out + "}}";
}

std::string replace_once(std::string text, const std::string& marker, const std::string& with) {
  const std::size_t at = text.find(marker);
  if (at == std::string::npos) throw std::logic_error("replay template lacks " + marker);
  return text.replace(at, marker.size(), with);
}

// The scene from the stored scenario; an older or damaged file still replays its bodies, as
// marker boxes, with `warning` saying why. The scenario's size is known before anything parses it.
ReplayScene stored_scene(ResultFile& file, const std::string& path, std::string& warning) {
  const TextAttribute scenario_text = file.attribute("/", "scenario", scenario::kMaxYamlBytes);
  try {
    if (scenario_text.state == TextAttribute::State::too_long)
      throw std::runtime_error("the root attribute 'scenario' holds " + std::to_string(scenario_text.bytes) +
                               " bytes, more than a scenario may (" + std::to_string(scenario::kMaxYamlBytes >> 20) + " MiB); not read");
    if (!scenario_text.ok()) throw std::runtime_error("no readable root attribute 'scenario'");
    return scene_from_scenario(scenario_text.text);
  } catch (const std::exception& e) {
    const auto* diagnostics = dynamic_cast<const scenario::ScenarioError*>(&e);
    warning = diagnostics && !diagnostics->diagnostics().empty() ? format(diagnostics->diagnostics().front()) : e.what();
    spdlog::warn("{}: the stored scenario does not load ({}); drawing the bodies as marker boxes", path, warning);
    ReplayScene boxes;
    for (const std::string& name : bodies_in_file(file)) boxes.bodies.push_back({name, {.source = "unknown"}});
    return boxes;
  }
}

// What the page shows of a scene: the bodies whose pose the file holds, their thrusters' thrust
// where it has it, and so how many numbers a frame takes.
struct PageSeries {
  std::vector<bool> drawn;  // by body
  std::vector<const ResultDataset*> positions, quaternions;  // by body
  std::vector<const ResultDataset*> thrusts;  // by thruster; null where not drawn
  std::uint64_t per_frame = 1;  // the time
  std::ptrdiff_t bodies_drawn() const { return std::count(drawn.begin(), drawn.end(), true); }
};

PageSeries page_series(const ResultFile& file, const ReplayScene& scene, const std::string& path, std::uint64_t samples) {
  PageSeries series;
  series.drawn.assign(scene.bodies.size(), false);
  series.positions.resize(scene.bodies.size());
  series.quaternions.resize(scene.bodies.size());
  series.thrusts.resize(scene.thrusters.size());
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    series.positions[i] = series_dataset(file, "/bodies/" + scene.bodies[i].name + "/position", samples, 3);
    series.quaternions[i] = series_dataset(file, "/bodies/" + scene.bodies[i].name + "/quaternion", samples, 4);
    series.drawn[i] = series.positions[i] != nullptr && series.quaternions[i] != nullptr;
    if (!series.drawn[i])
      spdlog::warn("{}: no position or quaternion of body '{}' in the file; it is not drawn", path, scene.bodies[i].name);
    series.per_frame += series.drawn[i] ? 7 : 0;
  }
  for (std::size_t i = 0; i < scene.thrusters.size(); ++i) {
    if (!series.drawn[static_cast<std::size_t>(scene.thrusters[i].body)]) continue;
    series.thrusts[i] = series_dataset(file, "/thrusters/" + scene.thrusters[i].name + "/thrust", samples, 1);
    series.per_frame += series.thrusts[i] != nullptr ? 1 : 0;
  }
  return series;
}

// The page's data, as JSON: the run's name and status, the frames' times, and each drawn body,
// joint, thruster and connector with its series at every `stride`-th of `samples`. Throws ResultError for a series
// that does not read.
std::string page_data(ResultFile& file, const std::string& path, const ReplayScene& scene, const PageSeries& series,
                      const std::vector<std::string>& visuals, std::uint64_t samples, const std::vector<double>& time,
                      std::uint64_t stride, const std::string& warning) {
  const std::vector<bool>& drawn = series.drawn;
  std::string data = "{\"name\":" + json_string(file.attribute("/", "scenario_name", kMaxLabelBytes).value_or("")) +
                     ",\"file\":" + json_string(std::filesystem::path(path).filename().string()) +
                     ",\"status\":" + json_string(file.attribute("/", "status", kMaxLabelBytes).value_or("")) +
                     ",\"samples\":" + std::to_string(samples) + ",\"warning\":" + json_string(warning) +
                     ",\"time\":" + rows_json(time, 6) + ",\"bodies\":[";
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    if (!drawn[i]) continue;
    const ReplayBody& body = scene.bodies[i];
    data.append(data.back() == '[' ? "" : ",").append("{\"index\":" + std::to_string(i) + ",\"name\":" + json_string(body.name) +
                ",\"free\":" + (body.free ? "true" : "false") + ",\"solid\":" + solid_json(body.solid) +
                ",\"visuals\":" + visuals[i] + ",\"position\":" + rows_json(file.read_every(*series.positions[i], stride), 4) +
                ",\"quaternion\":" + rows_json(file.read_every(*series.quaternions[i], stride), 5) + "}");
  }
  data += "],\"joints\":[";
  for (const ReplayJoint& j : scene.joints)
    if (drawn[static_cast<std::size_t>(j.body)])
      data.append(data.back() == '[' ? "" : ",").append("{\"name\":" + json_string(j.name) + ",\"body\":" + std::to_string(j.body) +
                  ",\"prismatic\":" + (j.prismatic ? "true" : "false") + ",\"point\":" + vector_json(j.p_B) +
                  ",\"axis\":" + vector_json(j.axis_B) + "}");
  data += "],\"thrusters\":[";
  for (std::size_t i = 0; i < scene.thrusters.size(); ++i) {
    const ReplayThruster& t = scene.thrusters[i];
    if (!drawn[static_cast<std::size_t>(t.body)]) continue;
    data.append(data.back() == '[' ? "" : ",").append("{\"name\":" + json_string(t.name) + ",\"body\":" + std::to_string(t.body) +
                ",\"point\":" + vector_json(t.p_B) + ",\"axis\":" + vector_json(t.axis_B) +
                ",\"thrust\":" + (series.thrusts[i] ? rows_json(file.read_every(*series.thrusts[i], stride), 3) : "null") + "}");
  }
  data += "],\"connectors\":[";
  for (const ReplayConnector& c : scene.connectors)
    if (drawn[static_cast<std::size_t>(c.first)] && (c.second < 0 || drawn[static_cast<std::size_t>(c.second)]))
      data.append(data.back() == '[' ? "" : ",").append("{\"name\":" + json_string(c.name) + ",\"first\":" + std::to_string(c.first) +
                  ",\"second\":" + std::to_string(c.second) + ",\"point_first\":" + vector_json(c.p_first) +
                  ",\"point_second\":" + vector_json(c.p_second) + "}");
  return data + "]}";
}

// The template with three.js and the data in it. three.js holds none of the markers, and the
// data (user names) goes in last.
std::string page_html(const std::string& data) {
  std::string three;
  for (const std::string_view part : embedded::kThreeJsParts) three += part;
  std::string page = replace_once(std::string(embedded::kReplayTemplate), "@THREE_VERSION@", std::string(embedded::kThreeJsVersion));
  page = replace_once(page, "/*@THREE_JS@*/", three);
  return replace_once(page, "/*@REPLAY_DATA@*/", data);
}

}  // namespace

int replay_result(const ReplayOptions& options) {
  const std::string& path = options.input;
  if (embedded::kThreeJsSource.empty())
    return fail(path, "this sim was built without three.js, which the page needs: install Debian's libjs-three "
                      "(apt-get install libjs-three), then reconfigure and rebuild (cmake -S . -B build && cmake --build build)");
  std::unique_ptr<ResultFile> file;
  try {
    file = std::make_unique<ResultFile>(path, ResultFile::Checks::strict);
    file->time();
  } catch (const ResultError& e) {
    return fail(path, (e.object().empty() ? "" : e.object() + ": ") + e.problem());
  }
  const std::vector<double>& all_times = file->time();
  const std::uint64_t samples = all_times.size();
  if (samples == 0) return fail(path, "/time is empty: nothing to replay");

  // The page, checked and locked before it is made (output/output_file.h): never the result.
  std::optional<output::OutputFile> page_file;
  try {
    const std::string output =
        options.output.empty() ? std::filesystem::path(path).replace_extension(".html").string() : options.output;
    page_file.emplace(output, "-o", output::InputFiles({path}), options.command_line);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return kBadInput;
  }

  std::string warning;
  const ReplayScene scene = stored_scene(*file, path, warning);
  const PageSeries series = page_series(*file, scene, path, samples);
  // The bodies' visuals, once on the page (at most kMaxVisualNumbers); the frames get the rest.
  std::vector<std::string> visuals(scene.bodies.size(), "null");
  std::uint64_t visual_room = kMaxVisualNumbers;
  try {
    for (std::size_t i = 0; i < scene.bodies.size(); ++i)
      if (series.drawn[i]) visuals[i] = visuals_json(*file, scene.bodies[i].name, visual_room);
  } catch (const ResultError& e) {
    return fail(path, e.object() + ": " + e.problem());
  }
  std::uint64_t decoding = 0;  // chunks are inflated whole, so every value of a dataset read counts
  for (std::size_t i = 0; i < scene.bodies.size(); ++i)
    if (series.drawn[i]) decoding += series.positions[i]->claimed_values() + series.quaternions[i]->claimed_values();
  for (const ResultDataset* thrust : series.thrusts) decoding += thrust ? thrust->claimed_values() : 0;
  if (decoding > file->decoding_budget() - file->decoded())
    return fail(path, "the poses and thrusts of " + std::to_string(series.bodies_drawn()) + " bodies over " +
                          std::to_string(samples) + " samples are " + std::to_string(decoding) + " values, more than the " +
                          std::to_string(file->decoding_budget()) + " sim decodes from this file (as many as it has bytes, at least " +
                          std::to_string(kMinDecodedValues) + ")");
  const std::uint64_t per_frame = series.per_frame;
  const std::uint64_t frame_room = kMaxPageNumbers - (kMaxVisualNumbers - visual_room);  // what the visuals left
  const std::uint64_t affordable = frame_room / per_frame;
  if (affordable < 2 && samples > 1)
    return fail(path, std::to_string(series.bodies_drawn()) + " bodies: two frames take " +
                          std::to_string(2 * per_frame) + " numbers, more than the " + std::to_string(frame_room) + " of the " +
                          std::to_string(kMaxPageNumbers) + " a page holds that its visuals leave");
  const auto budget = static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(options.frames), affordable));
  if (budget < options.frames && samples > static_cast<std::uint64_t>(budget))
    spdlog::warn("{}: {} numbers a frame ({} bodies drawn): a page holds at most {} numbers, so {} frames, not the {} asked for "
                 "(--frames){}",
                 path, per_frame, series.bodies_drawn(), kMaxPageNumbers, budget, options.frames,
                 frame_room < kMaxPageNumbers ? "; the bodies' visuals take " + std::to_string(kMaxPageNumbers - frame_room) : "");
  const std::vector<std::size_t> frames = frame_indices(samples, budget);
  const std::uint64_t stride = frames.size() > 1 ? frames[1] - frames[0] : 1;
  std::vector<double> time;
  for (const std::size_t k : frames) time.push_back(all_times[k]);

  std::string data;
  try {
    data = page_data(*file, path, scene, series, visuals, samples, time, stride, warning);
  } catch (const ResultError& e) {
    return fail(path, e.object() + ": " + e.problem());
  }
  try {
    page_file->write(page_html(data));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return exit_code_for(error);
  }
  spdlog::info("{}: {} of {} samples, {} bodies; open it in a browser", page_file->target(), frames.size(), samples,
               series.bodies_drawn());
  return 0;
}

}  // namespace uwsim::app
